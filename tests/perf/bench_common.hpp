#pragma once
// What the scale benchmarks share: one cached synthetic Run (the largest takes seconds to build and
// gigabytes to hold, so only one size is kept at a time) and the per-pair counters.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

#include "tests/perf/scale_run.hpp"

namespace podperf::perf {

struct RunCache {
  int n = 0;
  std::unique_ptr<Run> run;
};
inline RunCache& run_cache() {
  static RunCache cache;
  return cache;
}

// Frees the cached Run (and gives the memory back to the system, so resident sizes stay honest).
inline void release_cached_run() {
  run_cache().run.reset();
  run_cache().n = 0;
  malloc_trim(0);
}

// The Run of n nodes, built on first use; a different n releases the previous one first.
inline Run& cached_run(int n) {
  RunCache& cache = run_cache();
  if (cache.n != n) {
    release_cached_run();
    cache.run = std::make_unique<Run>(make_scale_run(n));
    cache.n = n;
  }
  return *cache.run;
}

// Pairs per second (shown as time per pair by kInvert) and the pair count.
inline void set_pair_counters(benchmark::State& state, std::uint64_t pairs) {
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["per_pair"] = benchmark::Counter(static_cast<double>(pairs),
                                                  benchmark::Counter::kIsIterationInvariantRate |
                                                      benchmark::Counter::kInvert);
}

using ScaleBenchmark = void (*)(benchmark::State&, int nodes);

// Registers every benchmark for 256, 1024 and 4096 nodes, grouped by size (all of 256 first), so
// each synthetic Run is built once: "NAME/nodes:N", in milliseconds.
inline void register_by_size(std::initializer_list<std::pair<const char*, ScaleBenchmark>> benchmarks) {
  for (int n : {256, 1024, 4096}) {
    for (const auto& [name, fn] : benchmarks) {
      benchmark::RegisterBenchmark((std::string(name) + "/nodes:" + std::to_string(n)).c_str(), fn, n)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

// main(): registration by size, then Google Benchmark's own flags.
#define PODPERF_SCALE_BENCHMARK_MAIN(...)                     \
  int main(int argc, char** argv) {                            \
    podperf::perf::register_by_size({__VA_ARGS__});            \
    benchmark::Initialize(&argc, argv);                        \
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1; \
    benchmark::RunSpecifiedBenchmarks();                       \
    benchmark::Shutdown();                                     \
    return 0;                                                  \
  }

}  // namespace podperf::perf

// The analysis a pairs run does after measuring (the Recorder's analyze(): analyze_pairs, then
// correlate), on a synthetic full pair matrix with noise, slow nodes and a slow link. Besides time it
// reports memory: the input Run's resident size and the peak while analyzing (VmHWM, reset before).
#include <benchmark/benchmark.h>

#include "analysis/correlate.hpp"
#include "analysis/pair_flags.hpp"
#include "analysis/thresholds.hpp"
#include "tests/perf/bench_common.hpp"

namespace podperf::perf {

const PairThresholds& thresholds() {
  static const Thresholds t = load_thresholds("");
  return t.pairs;
}

// Memory of one benchmark: resident size before (the input Run), and the peak while it ran.
struct MemoryWatch {
  std::uint64_t before = rss_bytes();
  bool reset = reset_peak_rss();
  void report(benchmark::State& state) const {
    const std::uint64_t peak = peak_rss_bytes();
    state.counters["rss_before_MiB"] = mib(before);
    state.counters["peak_MiB"] = mib(peak);
    state.counters["extra_MiB"] = reset && peak > before ? mib(peak - before) : -1.0;
  }
};

// What podperf pairs runs once after the last round.
void BM_Analysis(benchmark::State& state, int n) {
  Run& run = cached_run(n);
  const MemoryWatch memory;
  for (auto _ : state) {
    analyze_pairs(run, thresholds());
    correlate(run);
    benchmark::DoNotOptimize(run.stragglers.data());
  }
  memory.report(state);
  set_pair_counters(state, run.pairs.size());
  state.counters["stragglers"] = static_cast<double>(run.stragglers.size());
  state.counters["links"] = static_cast<double>(run.links.size());
  state.counters["exit_code"] = pairs_exit_code(run);
}

void BM_AnalyzePairs(benchmark::State& state, int n) {
  Run& run = cached_run(n);
  const MemoryWatch memory;
  for (auto _ : state) {
    analyze_pairs(run, thresholds());
    benchmark::DoNotOptimize(run.stragglers.data());
  }
  memory.report(state);
  set_pair_counters(state, run.pairs.size());
}

void BM_Correlate(benchmark::State& state, int n) {
  Run& run = cached_run(n);
  analyze_pairs(run, thresholds());
  const MemoryWatch memory;
  for (auto _ : state) {
    correlate(run);
    benchmark::DoNotOptimize(run.findings.data());
  }
  memory.report(state);
  set_pair_counters(state, run.pairs.size());
}

// Building the synthetic Run itself (what a run holds in memory after measuring): for scale, and
// for the input size per pair.
void BM_BuildInputRun(benchmark::State& state, int n) {
  release_cached_run();
  std::uint64_t held = 0;
  for (auto _ : state) {
    malloc_trim(0);
    const std::uint64_t before = rss_bytes();
    Run run = make_scale_run(n);
    held = rss_bytes() - before;
    benchmark::DoNotOptimize(run.pairs.data());
  }
  set_pair_counters(state, pair_count(n));
  state.counters["run_MiB"] = mib(held);
  state.counters["bytes_per_pair"] = static_cast<double>(held) / static_cast<double>(pair_count(n));
}

}  // namespace podperf::perf

PODPERF_SCALE_BENCHMARK_MAIN({"BM_BuildInputRun", podperf::perf::BM_BuildInputRun},
                             {"BM_Analysis", podperf::perf::BM_Analysis},
                             {"BM_AnalyzePairs", podperf::perf::BM_AnalyzePairs},
                             {"BM_Correlate", podperf::perf::BM_Correlate})

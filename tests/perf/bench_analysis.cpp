// The analysis a pairs run does after measuring (the Recorder's analyze(): judge_pairs, then
// correlate), on a synthetic full pair matrix with noise, slow nodes and a slow link. Besides time it
// reports memory: the input Run's resident size and the peak while analyzing (VmHWM, reset before).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>

#include "analysis/config/thresholds.hpp"
#include "analysis/pairs/correlate.hpp"
#include "analysis/pairs/pair_judge.hpp"
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

// CPU time of the whole process (every thread; Google Benchmark's CPU column is the main thread's
// alone) per iteration, as the counter cpu_all_ms.
struct ProcessCpu {
  static double now_s() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }
  double start = now_s();
  void report(benchmark::State& state) const {
    const double iterations = std::max<double>(1.0, static_cast<double>(state.iterations()));
    state.counters["cpu_all_ms"] = (now_s() - start) * 1e3 / iterations;
  }
};

// What podperf pairs runs once after the last round.
void BM_Analysis(benchmark::State& state, int n) {
  Run& run = cached_run(n);
  const MemoryWatch memory;
  const ProcessCpu cpu;
  for (auto _ : state) {
    // As PairsRecorder::analyze (bench/pairs_run.cpp): the judged pairs handed on to correlate.
    JudgedPairs judged;
    judge_pairs(run, thresholds(), 0, &judged);
    correlate(run, 6, 0, &judged);
    benchmark::DoNotOptimize(run.stragglers.data());
  }
  cpu.report(state);
  memory.report(state);
  set_pair_counters(state, run.pairs.size());
  state.counters["stragglers"] = static_cast<double>(run.stragglers.size());
  state.counters["links"] = static_cast<double>(run.links.size());
  state.counters["exit_code"] = pairs_exit_code(run);
}

void BM_AnalyzePairs(benchmark::State& state, int n) {
  Run& run = cached_run(n);
  const MemoryWatch memory;
  const ProcessCpu cpu;
  for (auto _ : state) {
    JudgedPairs judged;
    judge_pairs(run, thresholds(), 0, &judged);
    benchmark::DoNotOptimize(run.stragglers.data());
  }
  cpu.report(state);
  memory.report(state);
  set_pair_counters(state, run.pairs.size());
}

void BM_Correlate(benchmark::State& state, int n) {
  Run& run = cached_run(n);
  JudgedPairs judged;
  judge_pairs(run, thresholds(), 0, &judged);
  const MemoryWatch memory;
  const ProcessCpu cpu;
  for (auto _ : state) {
    correlate(run, 6, 0, &judged);
    benchmark::DoNotOptimize(run.findings.data());
  }
  cpu.report(state);
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

// Schedule generation at scale: the circle schedule of every pair (podperf pairs --schedule all) and
// first-fit packing of a pair list into rounds (--pairs, retests), on the full pair matrix.
#include <benchmark/benchmark.h>

#include <vector>

#include "sweep/pair_schedule.hpp"
#include "tests/perf/bench_common.hpp"

namespace podperf::perf {

void BM_CircleSchedule(benchmark::State& state, int n) {
  for (auto _ : state) {
    std::vector<Round> rounds = circle_schedule(n);
    benchmark::DoNotOptimize(rounds.data());
  }
  set_pair_counters(state, pair_count(n));
  state.counters["rounds"] = static_cast<double>(n % 2 == 0 ? n - 1 : n);
}

// Every pair, in the order the circle schedule gives them (round by round): packing must find the
// same n-1 rounds again.
void BM_PackRoundsCircleOrder(benchmark::State& state, int n) {
  std::vector<NodePair> pairs;
  for (const Round& r : circle_schedule(n)) pairs.insert(pairs.end(), r.begin(), r.end());
  std::size_t rounds = 0;
  for (auto _ : state) {
    std::vector<Round> packed = pack_rounds(pairs);
    rounds = packed.size();
    benchmark::DoNotOptimize(packed.data());
  }
  set_pair_counters(state, pairs.size());
  state.counters["rounds"] = static_cast<double>(rounds);
}

// Every pair in lexicographic order (0:1, 0:2, ...), as a long --pairs list would give them:
// first-fit then needs about 2n rounds and searches deeper for each pair.
void BM_PackRoundsLexicographic(benchmark::State& state, int n) {
  std::vector<NodePair> pairs;
  pairs.reserve(pair_count(n));
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) pairs.push_back(NodePair{a, b});
  }
  std::size_t rounds = 0;
  for (auto _ : state) {
    std::vector<Round> packed = pack_rounds(pairs);
    rounds = packed.size();
    benchmark::DoNotOptimize(packed.data());
  }
  set_pair_counters(state, pairs.size());
  state.counters["rounds"] = static_cast<double>(rounds);
}

}  // namespace podperf::perf

PODPERF_SCALE_BENCHMARK_MAIN({"BM_CircleSchedule", podperf::perf::BM_CircleSchedule},
                             {"BM_PackRoundsCircleOrder", podperf::perf::BM_PackRoundsCircleOrder},
                             {"BM_PackRoundsLexicographic", podperf::perf::BM_PackRoundsLexicographic})

// robust_baseline: the SuperBench iteration with the min_kept_fraction guard (SuperBench and HyperPod practice).
#include "analysis/stats/baseline.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "analysis/stats/stats.hpp"

namespace podperf {
namespace {

struct Case {
  const char* what;
  std::vector<double> values;
  double min_kept_fraction;
  double value;
  std::size_t kept;
  int passes;
};

TEST(RobustBaseline, Table) {
  const double t = 0.05;
  const int max_passes = 50;
  const std::vector<Case> cases{
      {"all equal", {100, 100, 100, 100}, 0.5, 100.0, 4, 1},
      {"single value", {42}, 0.5, 42.0, 1, 1},
      {"one low value dropped", {100, 100, 100, 100, 100, 100, 100, 60}, 0.5, 100.0, 7, 2},
      {"noise within threshold keeps all", {100, 98, 97, 101, 99, 103, 96}, 0.5, 694.0 / 7.0, 7, 1},
      // Half low: exactly min_kept (4 of 8) survive, so the pass is taken.
      {"half low values, guard allows", {100, 100, 100, 100, 60, 60, 60, 60}, 0.5, 100.0, 4, 2},
      // Five of eight low: keeping 3 < ceil(0.5 * 8) = 4 is refused; the plain mean stays.
      {"majority low, guard refuses", {100, 100, 100, 60, 60, 60, 60, 60}, 0.5, 75.0, 8, 1},
      // Without the guard the same input drops to the three fast values.
      {"majority low, no guard", {100, 100, 100, 60, 60, 60, 60, 60}, 0.0, 100.0, 3, 2},
      // A wide healthy spread cascades one pass at a time toward the top...
      {"cascade without guard", {100, 96, 92, 88, 84, 80}, 0.0, 96.0, 3, 3},
      // ...and the guard stops it at half the values (here exactly reached, so the same).
      {"cascade, guard at one half", {100, 96, 92, 88, 84, 80}, 0.5, 96.0, 3, 3},
      // With a stricter guard (floor(0.8 * 6) = 4 of 6) the first pass (keeps 4) is taken, the
      // second (keeps 3) refused.
      {"cascade, guard at 0.8", {100, 96, 92, 88, 84, 80}, 0.8, 94.0, 4, 2},
      // A guard of 0.9 (5 of 6) refuses the first pass.
      {"cascade, guard at 0.9", {100, 96, 92, 88, 84, 80}, 0.9, 90.0, 6, 1},
  };
  for (const Case& c : cases) {
    const Baseline b = robust_baseline(c.values, t, max_passes, c.min_kept_fraction);
    EXPECT_DOUBLE_EQ(b.value, c.value) << c.what;
    EXPECT_EQ(b.kept, c.kept) << c.what;
    EXPECT_EQ(b.total, c.values.size()) << c.what;
    EXPECT_EQ(b.passes, c.passes) << c.what;
  }
}

TEST(RobustBaseline, EmptyGivesZero) {
  const Baseline b = robust_baseline({}, 0.05, 50, 0.5);
  EXPECT_EQ(b.value, 0.0);
  EXPECT_EQ(b.kept, 0U);
  EXPECT_EQ(b.total, 0U);
  EXPECT_EQ(b.passes, 0);
}

TEST(RobustBaseline, MaxPassesStopsTheIteration) {
  const std::vector<double> values{100, 96, 92, 88, 84, 80};
  const Baseline one = robust_baseline(values, 0.05, 1, 0.0);
  EXPECT_EQ(one.passes, 1);
  EXPECT_EQ(one.kept, 4U);  // 84 and 80 are below 90 * 0.95
  EXPECT_DOUBLE_EQ(one.value, 94.0);
}

TEST(RobustBaseline, ValueAtTheFloorIsKept) {
  // mean 100, threshold 0.5: floor 50 exactly, and 50 itself stays.
  const std::vector<double> values{150.0, 50.0, 100.0};
  const Baseline b = robust_baseline(values, 0.5, 50, 0.0);
  EXPECT_EQ(b.kept, 3U);
}

// The straightforward iteration (a new copy of the values kept per pass, as podperf computed it
// before robust_baseline read the values in place): the reference for the test below.
Baseline copying_baseline(const std::vector<double>& values, double threshold, int max_passes,
                          double min_kept_fraction) {
  Baseline out;
  out.total = values.size();
  std::vector<double> kept = values;
  if (kept.empty()) return out;
  const auto min_kept = std::max<std::size_t>(
      1, static_cast<std::size_t>(std::floor(min_kept_fraction * static_cast<double>(values.size()))));
  double mean = std::accumulate(kept.begin(), kept.end(), 0.0) / static_cast<double>(kept.size());
  for (int pass = 1; pass <= max_passes; ++pass) {
    out.passes = pass;
    const double floor = mean * (1.0 - threshold);
    std::vector<double> next;
    for (double v : kept) {
      if (v >= floor) next.push_back(v);
    }
    if (next.size() == kept.size() || next.empty() || next.size() < min_kept) break;
    kept = std::move(next);
    mean = std::accumulate(kept.begin(), kept.end(), 0.0) / static_cast<double>(kept.size());
  }
  out.value = mean;
  out.spread = sample_stddev(kept);
  out.kept = kept.size();
  return out;
}

// robust_baseline reads the values in place (no copy per pass: millions of pairs at scale); it gives
// bit for bit what the copying iteration gives, on random sets with slow outliers, wide spreads
// (cascades), ties, and every guard and pass limit.
TEST(RobustBaseline, InPlaceIterationMatchesTheCopyingOneBitForBit) {
  std::mt19937_64 rng(23);
  std::normal_distribution<double> healthy(40.0, 0.8);
  std::uniform_real_distribution<double> wide(10.0, 50.0);
  std::uniform_int_distribution<int> coarse(30, 40);
  int cases = 0;
  for (std::size_t n : {1u, 2u, 3u, 7u, 64u, 1000u}) {
    for (int trial = 0; trial < 30; ++trial) {
      std::vector<double> values(n);
      for (std::size_t i = 0; i < n; ++i) {
        switch (trial % 3) {
          case 0: values[i] = i % 17 == 3 ? 0.7 * healthy(rng) : healthy(rng); break;  // a few slow
          case 1: values[i] = wide(rng); break;                                          // cascades
          default: values[i] = static_cast<double>(coarse(rng)); break;                  // ties
        }
      }
      for (double threshold : {0.05, 0.15}) {
        for (int max_passes : {1, 3, 50}) {
          for (double min_kept : {0.0, 0.5, 0.9}) {
            const Baseline a = robust_baseline(values, threshold, max_passes, min_kept);
            const Baseline b = copying_baseline(values, threshold, max_passes, min_kept);
            ASSERT_EQ(a.value, b.value) << n << " " << trial;
            ASSERT_EQ(a.spread, b.spread) << n << " " << trial;
            ASSERT_EQ(a.kept, b.kept) << n << " " << trial;
            ASSERT_EQ(a.total, b.total) << n << " " << trial;
            ASSERT_EQ(a.passes, b.passes) << n << " " << trial;
            cases += a.passes > 1 ? 1 : 0;
          }
        }
      }
    }
  }
  EXPECT_GT(cases, 100);  // most cases take more than one pass, so the kept set really shrinks
}

}  // namespace
}  // namespace podperf

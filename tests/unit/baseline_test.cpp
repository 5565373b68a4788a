// robust_baseline: the SuperBench iteration with the min_kept_fraction guard (FIELD-NOTES 2).
#include <gtest/gtest.h>

#include <vector>

#include "analysis/baseline.hpp"

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

}  // namespace
}  // namespace podperf

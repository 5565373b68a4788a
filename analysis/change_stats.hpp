#pragma once
// The statistics of a before/after change (podperf compare): the two-sided Mann-Whitney U test and the
// percentile-bootstrap interval of the change of medians. Floor: analysis/; pure, local, deterministic;
// throws nothing.
#include <cstdint>
#include <span>
#include <vector>

namespace podperf {

// The median of `v`, reordering it (nth_element); empty -> 0.
double sample_median(std::vector<double>& v);

// Two-sided Mann-Whitney U test of samples a and b.
struct MannWhitneyResult {
  double u = 0.0;        // U of a: pairs (a_i, b_j) with a_i > b_j, ties counting 1/2
  double z = 0.0;        // normal approximation's z (0 when exact)
  double p_value = 1.0;  // two-sided
  bool exact = false;    // exact null distribution (no ties, n*m <= 400); else normal approximation with tie
                         // and continuity correction
};
// Empty a or b: p_value 1. Pure.
MannWhitneyResult mann_whitney_u(std::span<const double> a, std::span<const double> b);

// Percentile-bootstrap interval of 100 * (median(after) / median(before) - 1), in percent, from
// `resamples` resamples of each sample drawn with a std::mt19937_64 seeded with `seed` (deterministic
// on every platform). Empty inputs or a zero median: {0, 0}.
struct PercentInterval {
  double low_percent = 0.0;
  double high_percent = 0.0;
};
PercentInterval bootstrap_change_interval(std::span<const double> before, std::span<const double> after,
                                          double confidence, int resamples, std::uint64_t seed);

}  // namespace podperf

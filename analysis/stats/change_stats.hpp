#pragma once
// The statistics of a before/after change (podperf compare): the two-sided Mann-Whitney U test and the
// percentile-bootstrap interval of the change of medians (iteration level, kept for reference and the tests
// that show why it is not used as a verdict), and Welch's t on per-run summaries (the verdict). Floor: analysis/; pure,
// local, deterministic; throws nothing.
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

namespace podperf {

// Student's t distribution: P(T <= t) with `df` > 0 degrees of freedom, and its quantile (Boost.Math,
// analysis/stats/t_power: t_cdf, t_quantile).
double student_t_cdf(double t, double df);
double student_t_quantile(double p, double df);

// Welch's t test of the change between two groups of per-run summaries (the run is the unit, as
// benchstat's per-run samples): on the logarithms of the per-run values, so the change is a ratio of
// geometric means and its interval is analytic (Welch-Satterthwaite degrees of freedom), with no
// bootstrap. Needs >= 2 positive values per side; otherwise `valid` is false.
struct RunLevelChange {
  bool valid = false;
  double change_percent = 0.0;  // 100 * (geomean(after) / geomean(before) - 1)
  double ci_low_percent = 0.0;  // at `confidence`
  double ci_high_percent = 0.0;
  double p_value = 1.0;  // two-sided; 1 with zero variance (no test)
  double df = 0.0;       // Welch-Satterthwaite
  // Minimum detectable effect: the smallest |change| in percent that a two-sided test at `alpha` finds
  // with probability `power` given this spread and these run counts (the noncentrality of the noncentral
  // t with that power, times the standard error on the log scale, the larger of the two directions);
  // infinite with zero variance.
  double mde_percent = 0.0;
  // Every run of each side gave the same value: nothing to test against (p_value 1, not 0).
  bool zero_variance = false;
  // The variance of the log per-run values pooled over the two sides (each about its own mean), for
  // iteration_share.
  double pooled_log_variance = 0.0;
};
RunLevelChange welch_log_change(std::span<const double> before_runs, std::span<const double> after_runs,
                                double confidence, double alpha, double power);

// Where the spread between runs comes from (the two levels of the model: a run effect plus iteration
// noise). The standard error of the logarithm of one run's median from its own samples: sqrt(pi/2) x
// the robust sigma (1.4826 x MAD) of their logarithms / sqrt(n), the large-sample standard error of a
// median. Reorders `samples`; `scratch` is a reusable buffer. Fewer than 3 positive samples: NaN.
double log_median_standard_error(std::vector<double>& samples, std::vector<double>& scratch);
// The share of the spread between runs that their iterations explain: `mean_se2` (the mean over the
// runs of log_median_standard_error squared) over `pooled_log_variance` (RunLevelChange), capped at 1.
// Near 1: more iterations per run would shrink the spread; near 0: the runs differ from launch to launch
// and only more runs shrink it. -1 when it cannot be told (mean_se2 not finite, no spread).
double iteration_share(double pooled_log_variance, double mean_se2);

}  // namespace podperf

namespace podperf {

// Benjamini-Hochberg adjusted p values (false discovery rate), in the order given; p < 0 (not
// tested) stays as is and does not count among the tests.
std::vector<double> benjamini_hochberg(const std::vector<double>& p_values);

}  // namespace podperf

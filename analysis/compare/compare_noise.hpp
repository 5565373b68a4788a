#pragma once
// Shared noise in a comparison (podperf compare): each metric's run-to-run spread (the pooled
// within-side variance of its units' log values), moderated with the metrics of its kind and size by
// an empirical-Bayes prior (analysis/stats/variance_prior), and the t test on it: a pair metric tested
// 3 runs against 3 has the degrees of freedom of thousands of pairs, not 4. With one run on a side the
// other side's spread alone is used (a prediction test of the single run). With one run a side there is
// no spread: compare_pair_levels tests pairs against each other, and everything else is untestable.
// Floor: analysis/compare; pure, deterministic for any thread count.
#include <span>
#include <vector>

#include "analysis/compare/types.hpp"
#include "analysis/stats/variance_prior.hpp"

namespace podperf {

// One set of units (per-run or per-block values) on each side, on the log scale.
struct UnitSpread {
  double diff_log = 0.0;      // mean log AFTER - mean log BEFORE
  double variance = 0.0;      // pooled within-side variance of the log values
  double df = 0.0;            // (nb - 1) + (na - 1), counting only the sides with 2 or more units
  double nb = 0.0, na = 0.0;  // positive units per side
  bool valid = false;         // both sides have a positive unit
};
UnitSpread unit_spread(std::span<const double> before, std::span<const double> after);
// The same from values already on the log scale (every one counted).
UnitSpread log_unit_spread(std::span<const double> before_logs, std::span<const double> after_logs);

// Moderates `variances` (with `dfs`) within each group (`group_of`, small integers; a group with
// fewer than kMinPriorMetrics metrics with a spread is fitted with the metrics of `coarse_of` instead)
// and returns each entry moderated (no moderation when settings.moderate_variance is false).
inline constexpr std::size_t kMinPriorMetrics = 8;
std::vector<ModeratedVariance> moderate_in_groups(std::span<const double> variances, std::span<const double> dfs,
                                                  std::span<const std::uint32_t> group_of,
                                                  std::span<const std::uint32_t> coarse_of,
                                                  const CompareSettings& settings);

// The t test of every metric with a spread on some side: its moderated variance, the standard error
// of its change, p, interval, df (MetricComparison::test "moderated_t"); zero variance (every unit of
// each side the same, and no prior) and one unit a side are left untestable for compare_pair_levels
// and the families. `spreads[i]` belongs to metrics[i]. Work on several threads.
void test_metrics(std::vector<MetricComparison>& metrics, const std::vector<UnitSpread>& spreads,
                  const MetricRegistry& registry, const CompareSettings& settings);

// A t test of a change `diff_log` with standard error `se_log` and `df` degrees of freedom, at
// `confidence`: p, interval (percent), the tested change (percent).
struct TTest {
  double p_value = -1.0;
  double ci_low_percent = 0.0, ci_high_percent = 0.0;
};
TTest t_test(double diff_log, double se_log, double df, double confidence);

}  // namespace podperf

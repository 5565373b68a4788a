// The consistency of each side's runs (see compare_consistency.hpp). Floor: analysis/compare; pure,
// deterministic.
#include "analysis/compare/compare_consistency.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/stats/change_stats.hpp"
#include "analysis/stats/stats.hpp"
#include "analysis/stats/variance_prior.hpp"

namespace podperf {
namespace compare_consistency_detail {

// One side: the run offsets (log), from the metrics measured in every run of the side.
SideConsistency side_of(const Comparison& c, bool after, const std::vector<std::string>& ids,
                        std::vector<double>& offsets_log) {
  SideConsistency s;
  s.runs = ids.size();
  const std::size_t n = ids.size();
  std::vector<std::vector<double>> deviations(n);
  for (const MetricComparison& m : c.metrics) {
    const std::vector<double>& v = after ? m.runs_after : m.runs_before;
    if (v.size() != n || !std::all_of(v.begin(), v.end(), [](double x) { return x > 0.0 && std::isfinite(x); }))
      continue;
    double mean = 0.0;
    for (double x : v) mean += std::log(x);
    mean /= static_cast<double>(n);
    for (std::size_t r = 0; r < n; ++r) deviations[r].push_back(std::log(v[r]) - mean);
  }
  offsets_log.assign(n, 0.0);
  if (deviations.empty() || deviations[0].empty()) return s;
  for (std::size_t r = 0; r < n; ++r) {
    offsets_log[r] = sample_median(deviations[r]);
    s.run_offsets_percent.push_back(100.0 * std::expm1(offsets_log[r]));
  }
  s.spread_percent = 100.0 * std::expm1(sample_stddev(offsets_log));
  double farthest = -1.0;
  for (std::size_t r = 0; r < n; ++r) {
    double others = 0.0;
    for (std::size_t k = 0; k < n; ++k) others += k == r ? 0.0 : offsets_log[k];
    others /= static_cast<double>(n - 1);
    const double away = offsets_log[r] - others;
    if (std::fabs(away) > farthest) {
      farthest = std::fabs(away);
      s.farthest_run = ids[r];
      s.farthest_percent = 100.0 * std::expm1(away);
    }
  }
  return s;
}

}  // namespace compare_consistency_detail

using namespace compare_consistency_detail;

ConsistencyVerdict judge_consistency(const Comparison& c, const std::vector<std::string>& ids_before,
                                     const std::vector<std::string>& ids_after, const CompareSettings& settings) {
  ConsistencyVerdict v;
  if (c.units != "runs" || ids_before.size() < 2 || ids_after.size() < 2) return v;
  std::vector<double> before_log, after_log;
  v.before = side_of(c, false, ids_before, before_log);
  v.after = side_of(c, true, ids_after, after_log);
  if (v.before.run_offsets_percent.empty() || v.after.run_offsets_percent.empty()) return v;
  v.tested = true;
  const double sd_b = sample_stddev(before_log), sd_a = sample_stddev(after_log);
  const bool after_wider = sd_a >= sd_b;
  const double wide = after_wider ? sd_a : sd_b, narrow = after_wider ? sd_b : sd_a;
  v.spread_ratio = narrow > 0.0 ? wide / narrow : (wide > 0.0 ? INFINITY : 1.0);
  const double df_b = static_cast<double>(ids_before.size() - 1), df_a = static_cast<double>(ids_after.size() - 1);
  v.p_value = narrow > 0.0 ? variance_ratio_p(sd_a * sd_a / (sd_b * sd_b), df_a, df_b) : (wide > 0.0 ? 0.0 : 1.0);
  const SideConsistency& side = after_wider ? v.after : v.before;
  if (v.p_value < settings.alpha && v.spread_ratio >= settings.consistency_ratio &&
      std::fabs(side.farthest_percent) >= 2.0 * settings.min_change_percent) {
    v.less_consistent = after_wider ? "AFTER" : "BEFORE";
  }
  return v;
}

}  // namespace podperf

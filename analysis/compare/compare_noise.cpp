// Each metric's run-to-run spread, moderated with its kind and size, and its t test (see
// compare_noise.hpp). Floor: analysis/compare; pure, deterministic for any thread count.
#include "analysis/compare/compare_noise.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "analysis/base/chunks.hpp"
#include "analysis/stats/t_power.hpp"

namespace podperf {
namespace compare_noise_detail {

// Mean and sum of squares about it (Welford) of the logs of the positive values, or of the values
// themselves when `logs`.
void side_moments(std::span<const double> values, bool logs, double& mean, double& ss, double& n) {
  mean = 0.0;
  ss = 0.0;
  n = 0.0;
  for (double v : values) {
    if (!logs && (!(v > 0.0) || !std::isfinite(v))) continue;
    if (logs && !std::isfinite(v)) continue;
    n += 1.0;
    const double x = logs ? v : std::log(v);
    const double delta = x - mean;
    mean += delta / n;
    ss += delta * (x - mean);
  }
}

UnitSpread spread_of(std::span<const double> before, std::span<const double> after, bool logs) {
  UnitSpread u;
  double mb = 0.0, ssb = 0.0, ma = 0.0, ssa = 0.0;
  side_moments(before, logs, mb, ssb, u.nb);
  side_moments(after, logs, ma, ssa, u.na);
  u.valid = u.nb > 0.0 && u.na > 0.0;
  if (!u.valid) return u;
  u.diff_log = ma - mb;
  u.df = std::max(0.0, u.nb - 1.0) + std::max(0.0, u.na - 1.0);
  u.variance = u.df > 0.0 ? (ssb + ssa) / u.df : 0.0;
  return u;
}

// The moderation group of a metric: its kind and what makes its metrics measured alike (a pair matrix
// of one op, type and size; one probe's quantity per node); and the coarse group: its kind.
std::tuple<int, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t> fine_key(const MetricIdentity& m) {
  switch (m.kind) {
    case MetricKind::kPair:
    case MetricKind::kTopologyClass: return {static_cast<int>(m.kind), m.op, m.dtype, m.size_text, 0};
    case MetricKind::kCollective: return {static_cast<int>(m.kind), m.op, m.dtype, m.size_text, m.in_place ? 1U : 0U};
    case MetricKind::kFsProbe:
    case MetricKind::kFsNode: return {static_cast<int>(m.kind), m.quantity, m.a, 0, 0};
  }
  return {0, 0, 0, 0, 0};
}

}  // namespace compare_noise_detail

using namespace compare_noise_detail;

UnitSpread unit_spread(std::span<const double> before, std::span<const double> after) {
  return spread_of(before, after, false);
}

UnitSpread log_unit_spread(std::span<const double> before_logs, std::span<const double> after_logs) {
  return spread_of(before_logs, after_logs, true);
}

std::vector<ModeratedVariance> moderate_in_groups(std::span<const double> variances, std::span<const double> dfs,
                                                  std::span<const std::uint32_t> group_of,
                                                  std::span<const std::uint32_t> coarse_of,
                                                  const CompareSettings& settings) {
  const std::size_t n = variances.size();
  std::vector<ModeratedVariance> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = {variances[i], dfs[i], false};
  if (!settings.moderate_variance) return out;
  std::map<std::uint32_t, std::vector<std::size_t>> fine, coarse;
  for (std::size_t i = 0; i < n; ++i) {
    fine[group_of[i]].push_back(i);
    coarse[coarse_of[i]].push_back(i);
  }
  auto fit = [&](const std::vector<std::size_t>& members) {
    std::vector<double> v, d;
    for (std::size_t i : members) {
      v.push_back(variances[i]);
      d.push_back(dfs[i]);
    }
    return fit_variance_prior(v, d);
  };
  std::map<std::uint32_t, VariancePrior> coarse_prior;
  for (const auto& [key, members] : coarse) coarse_prior[key] = fit(members);
  for (const auto& [key, members] : fine) {
    std::size_t with_spread = 0;
    for (std::size_t i : members) with_spread += dfs[i] > 0.0 ? 1 : 0;
    const bool own = with_spread >= kMinPriorMetrics;
    const VariancePrior prior = own ? fit(members) : coarse_prior[coarse_of[members[0]]];
    // Far above the prior: beyond what the most extreme of the prior's metrics reaches at variance_outlier_p
    // (Bonferroni over them), so that a healthy comparison loses a metric to it only that rarely.
    const double outlier_p = settings.variance_outlier_p / static_cast<double>(std::max<std::size_t>(1, prior.metrics));
    for (std::size_t i : members) out[i] = moderate_variance(variances[i], dfs[i], prior, outlier_p);
  }
  return out;
}

TTest t_test(double diff_log, double se_log, double df, double confidence) {
  TTest t;
  if (!(se_log > 0.0) || !(df > 0.0)) return t;
  t.p_value = t_two_sided_p(diff_log / se_log, df);
  const double half = t_quantile(0.5 + confidence / 2.0, df) * se_log;
  t.ci_low_percent = 100.0 * std::expm1(diff_log - half);
  t.ci_high_percent = 100.0 * std::expm1(diff_log + half);
  return t;
}

void test_metrics(std::vector<MetricComparison>& metrics, const std::vector<UnitSpread>& spreads,
                  const MetricRegistry& registry, const CompareSettings& settings) {
  const std::size_t n = metrics.size();
  std::vector<double> variances(n), dfs(n);
  std::vector<std::uint32_t> group_of(n), coarse_of(n);
  std::map<std::tuple<int, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> groups;
  for (std::size_t i = 0; i < n; ++i) {
    variances[i] = spreads[i].valid ? spreads[i].variance : 0.0;
    dfs[i] = spreads[i].valid ? spreads[i].df : 0.0;
    const MetricIdentity& id = registry.identity(metrics[i].metric);
    group_of[i] = groups.emplace(fine_key(id), static_cast<std::uint32_t>(groups.size())).first->second;
    coarse_of[i] = static_cast<std::uint32_t>(id.kind);
  }
  const std::vector<ModeratedVariance> moderated = moderate_in_groups(variances, dfs, group_of, coarse_of, settings);
  in_chunks(n, analysis_threads(n), [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      MetricComparison& m = metrics[i];
      const UnitSpread& u = spreads[i];
      if (!u.valid) continue;
      m.zero_variance = u.df > 0.0 && u.variance <= 0.0;
      m.variance_outlier = moderated[i].outlier;
      const double variance = moderated[i].variance;
      const double df = moderated[i].df;
      m.change_percent = 100.0 * std::expm1(u.diff_log);
      m.tested_change_percent = m.change_percent;
      if (!(df > 0.0)) {
        m.untestable_why = "one_run_a_side";
        continue;
      }
      if (!(variance > 0.0)) {
        m.untestable_why = "zero_variance";
        continue;
      }
      m.test = "moderated_t";
      m.untestable_why = "";
      m.df = df;
      m.se_log = std::sqrt(variance * (1.0 / u.nb + 1.0 / u.na));
      const TTest t = t_test(u.diff_log, m.se_log, df, settings.confidence);
      m.p_value = t.p_value;
      m.ci_low_percent = t.ci_low_percent;
      m.ci_high_percent = t.ci_high_percent;
    }
  });
}

}  // namespace podperf

// The statistics of a before/after change (podperf compare): the two-sided Mann-Whitney U test (exact
// null distribution for small samples without ties, else the normal approximation) and the
// percentile-bootstrap interval of the change of medians. Floor: analysis/; pure, local; throws nothing.
#include "analysis/stats/change_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <utility>

#include "analysis/stats/stats.hpp"
#include "analysis/stats/t_power.hpp"

namespace podperf {
namespace {

// Cumulative null distribution of U for sample sizes n and m without ties: cdf[u] = P(U <= u).
// Counts by the recurrence N(n, m, u) = N(n-1, m, u-m) + N(n, m-1, u) (Mann and Whitney 1947).
const std::vector<double>& exact_u_cdf(std::size_t n, std::size_t m) {
  thread_local std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> cache;
  auto it = cache.find({n, m});
  if (it != cache.end()) return it->second;
  // counts[i][j]: distribution for sizes i and j, vector indexed by u in [0, i*j].
  std::vector<std::vector<std::vector<double>>> counts(n + 1, std::vector<std::vector<double>>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) {
    for (std::size_t j = 0; j <= m; ++j) {
      std::vector<double>& c = counts[i][j];
      c.assign(i * j + 1, 0.0);
      if (i == 0 || j == 0) {
        c[0] = 1.0;
        continue;
      }
      // The largest value is from a (contributes j to U) or from b (contributes nothing).
      const std::vector<double>& from_a = counts[i - 1][j];
      const std::vector<double>& from_b = counts[i][j - 1];
      for (std::size_t u = 0; u < from_a.size(); ++u) c[u + j] += from_a[u];
      for (std::size_t u = 0; u < from_b.size(); ++u) c[u] += from_b[u];
    }
  }
  std::vector<double> cdf = counts[n][m];
  double total = 0.0;
  for (double c : cdf) total += c;
  double running = 0.0;
  for (double& c : cdf) {
    running += c;
    c = running / total;
  }
  return cache.emplace(std::make_pair(n, m), std::move(cdf)).first->second;
}

}  // namespace

double sample_median(std::vector<double>& v) {
  if (v.empty()) return 0.0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double hi = v[mid];
  if (v.size() % 2 == 1) return hi;
  const double lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lo + hi);
}

MannWhitneyResult mann_whitney_u(std::span<const double> a, std::span<const double> b) {
  MannWhitneyResult r;
  const std::size_t n = a.size(), m = b.size();
  if (n == 0 || m == 0) return r;
  // Ranks of the pooled sample, ties sharing their average rank.
  std::vector<std::pair<double, bool>> pooled;  // value, from a
  pooled.reserve(n + m);
  for (double x : a) pooled.emplace_back(x, true);
  for (double x : b) pooled.emplace_back(x, false);
  std::sort(pooled.begin(), pooled.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  const std::size_t total = n + m;
  double rank_sum_a = 0.0, tie_term = 0.0;
  for (std::size_t i = 0; i < total;) {
    std::size_t j = i;
    while (j + 1 < total && pooled[j + 1].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i + 1);
    const double avg_rank = 0.5 * static_cast<double>(i + j) + 1.0;
    for (std::size_t k = i; k <= j; ++k) {
      if (pooled[k].second) rank_sum_a += avg_rank;
    }
    tie_term += t * t * t - t;
    i = j + 1;
  }
  const double nd = static_cast<double>(n), md = static_cast<double>(m), nm = nd * md;
  r.u = rank_sum_a - nd * (nd + 1.0) / 2.0;
  if (tie_term == 0.0 && n * m <= 400) {
    const std::vector<double>& cdf = exact_u_cdf(n, m);
    // U is an integer without ties; the null distribution is symmetric about nm/2.
    const auto lower = static_cast<std::size_t>(std::llround(std::min(r.u, nm - r.u)));
    r.p_value = std::min(1.0, 2.0 * cdf[lower]);
    r.exact = true;
    return r;
  }
  const double nt = nd + md;
  const double variance = nm / 12.0 * ((nt + 1.0) - tie_term / (nt * (nt - 1.0)));
  if (variance <= 0.0) return r;  // every value equal: no evidence of a difference
  const double diff = r.u - nm / 2.0;
  const double corrected = std::max(0.0, std::fabs(diff) - 0.5);
  r.z = std::copysign(corrected / std::sqrt(variance), diff);
  r.p_value = std::min(1.0, std::erfc(std::fabs(r.z) / std::sqrt(2.0)));
  return r;
}

PercentInterval bootstrap_change_interval(std::span<const double> before, std::span<const double> after,
                                          double confidence, int resamples, std::uint64_t seed) {
  PercentInterval out;
  if (before.empty() || after.empty() || resamples <= 0) return out;
  std::mt19937_64 rng(seed);
  std::vector<double> changes, rb(before.size()), ra(after.size());
  changes.reserve(static_cast<std::size_t>(resamples));
  // Index by modulo of the 64-bit draw: the bias (n / 2^64) is negligible and, unlike
  // std::uniform_int_distribution, the sequence is the same with every standard library.
  for (int k = 0; k < resamples; ++k) {
    for (double& x : rb) x = before[rng() % before.size()];
    for (double& x : ra) x = after[rng() % after.size()];
    const double mb = sample_median(rb);
    if (mb == 0.0) continue;
    changes.push_back(100.0 * (sample_median(ra) / mb - 1.0));
  }
  if (changes.empty()) return out;
  const double tail = (1.0 - confidence) / 2.0;
  out.low_percent = quantile(changes, tail);
  out.high_percent = quantile(changes, 1.0 - tail);
  return out;
}

}  // namespace podperf

namespace podperf {
namespace change_stats_detail {

void mean_and_variance(std::span<const double> logs, double& mean, double& variance) {
  mean = 0.0;
  for (double v : logs) mean += v;
  mean /= static_cast<double>(logs.size());
  variance = 0.0;
  for (double v : logs) variance += (v - mean) * (v - mean);
  variance /= static_cast<double>(logs.size() - 1);
}

}  // namespace change_stats_detail

using change_stats_detail::mean_and_variance;

double student_t_cdf(double t, double df) {
  return t_cdf(t, df);
}

double student_t_quantile(double p, double df) {
  return t_quantile(p, df);
}

RunLevelChange welch_log_change(std::span<const double> before_runs, std::span<const double> after_runs,
                                double confidence, double alpha, double power) {
  RunLevelChange r;
  std::vector<double> lb, la;
  for (double v : before_runs) {
    if (v > 0.0 && std::isfinite(v)) lb.push_back(std::log(v));
  }
  for (double v : after_runs) {
    if (v > 0.0 && std::isfinite(v)) la.push_back(std::log(v));
  }
  if (lb.size() < 2 || la.size() < 2) return r;
  r.valid = true;
  double mb = 0.0, vb = 0.0, ma = 0.0, va = 0.0;
  mean_and_variance(lb, mb, vb);
  mean_and_variance(la, ma, va);
  const double nb = static_cast<double>(lb.size()), na = static_cast<double>(la.size());
  r.pooled_log_variance = ((nb - 1.0) * vb + (na - 1.0) * va) / (nb + na - 2.0);
  const double diff = ma - mb;
  r.change_percent = 100.0 * std::expm1(diff);
  const double qb = vb / nb, qa = va / na, se2 = qb + qa;
  if (se2 <= 0.0) {
    // Every run of each side gave the same value: no spread to test against, so no test (not p = 0).
    r.zero_variance = true;
    r.p_value = 1.0;
    r.ci_low_percent = r.ci_high_percent = r.change_percent;
    r.df = nb + na - 2.0;
    r.mde_percent = std::numeric_limits<double>::infinity();
    return r;
  }
  const double se = std::sqrt(se2);
  r.df = se2 * se2 / (qb * qb / (nb - 1.0) + qa * qa / (na - 1.0));
  const double t = diff / se;
  r.p_value = t_two_sided_p(t, r.df);
  const double half = t_quantile(0.5 + confidence / 2.0, r.df) * se;
  r.ci_low_percent = 100.0 * std::expm1(diff - half);
  r.ci_high_percent = 100.0 * std::expm1(diff + half);
  // The noncentral t: the effect (in standard errors) this test finds with `power` at `alpha`.
  const double reach = detectable_noncentrality(r.df, alpha, power) * se;
  r.mde_percent = 100.0 * std::max(std::expm1(reach), -std::expm1(-reach));
  return r;
}

double log_median_standard_error(std::vector<double>& samples, std::vector<double>& scratch) {
  std::size_t n = 0;
  for (double v : samples) {
    if (v > 0.0 && std::isfinite(v)) samples[n++] = std::log(v);
  }
  samples.resize(n);
  if (n < 3) return std::nan("");
  constexpr double kSqrtHalfPi = 1.2533141373155003;
  return kSqrtHalfPi * robust_sigma_in_place(samples, scratch) / std::sqrt(static_cast<double>(n));
}

double iteration_share(double pooled_log_variance, double mean_se2) {
  if (!std::isfinite(mean_se2) || mean_se2 < 0.0 || !(pooled_log_variance > 0.0)) return -1.0;
  return std::min(1.0, mean_se2 / pooled_log_variance);
}

}  // namespace podperf

namespace podperf {

std::vector<double> benjamini_hochberg(const std::vector<double>& p_values) {
  std::vector<double> out = p_values;
  std::vector<std::size_t> tested;
  for (std::size_t i = 0; i < p_values.size(); ++i) {
    if (p_values[i] >= 0.0) tested.push_back(i);
  }
  std::stable_sort(tested.begin(), tested.end(),
                   [&](std::size_t x, std::size_t y) { return p_values[x] < p_values[y]; });
  const double count = static_cast<double>(tested.size());
  double running_min = 1.0;
  for (std::size_t k = tested.size(); k-- > 0;) {
    running_min = std::min(running_min, p_values[tested[k]] * count / static_cast<double>(k + 1));
    out[tested[k]] = running_min;
  }
  return out;
}

}  // namespace podperf

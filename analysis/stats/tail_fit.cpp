// The symmetric t tail fit (see tail_fit.hpp). Floor: analysis/stats; pure.
#include "analysis/stats/tail_fit.hpp"

#include <cmath>
#include <numbers>

namespace podperf {

namespace {

// The log likelihood of `values` under t(df) with location 0 and `scale`.
double t_log_likelihood(std::span<const double> values, double df, double scale) {
  const double constant = std::lgamma((df + 1.0) / 2.0) - std::lgamma(df / 2.0) -
                          0.5 * std::log(df * std::numbers::pi) - std::log(scale);
  double ll = 0.0;
  for (double x : values) {
    const double z = x / scale;
    ll += constant - (df + 1.0) / 2.0 * std::log1p(z * z / df);
  }
  return ll;
}

// The scale of t(df) at location 0 that maximizes the likelihood (EM: each value weighted by
// (df + 1) / (df + z^2)).
double t_scale(std::span<const double> values, double df, double start) {
  double scale = start;
  for (int iteration = 0; iteration < 200; ++iteration) {
    double sum = 0.0;
    for (double x : values) {
      const double z2 = (x / scale) * (x / scale);
      sum += (df + 1.0) / (df + z2) * x * x;
    }
    const double next = std::sqrt(sum / static_cast<double>(values.size()));
    if (!(next > 0.0)) return scale;
    const bool settled = std::fabs(next - scale) <= 1e-10 * scale;
    scale = next;
    if (settled) break;
  }
  return scale;
}

}  // namespace

TailFit fit_symmetric_tail(std::span<const double> values) {
  TailFit fit;
  fit.n = values.size();
  double sum_squares = 0.0;
  for (double x : values) sum_squares += x * x;
  if (values.size() < 8 || !(sum_squares > 0.0) || !std::isfinite(sum_squares)) return fit;
  const double n = static_cast<double>(values.size());
  const double sigma = std::sqrt(sum_squares / n);
  fit.scale = sigma;
  const double normal_ll = -0.5 * n * std::log(2.0 * std::numbers::pi * sigma * sigma) - 0.5 * n;
  double best_ll = -INFINITY, best_df = 0.0, best_scale = 0.0;
  for (double df : {1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 10.0, 20.0, 40.0}) {
    const double scale = t_scale(values, df, sigma);
    if (!(scale > 0.0)) continue;
    const double ll = t_log_likelihood(values, df, scale);
    if (ll > best_ll) {
      best_ll = ll;
      best_df = df;
      best_scale = scale;
    }
  }
  fit.log_likelihood_ratio = 2.0 * (best_ll - normal_ll);
  if (fit.log_likelihood_ratio > kHeavyTailChiSquare) {
    fit.heavy = true;
    fit.df = best_df;
    fit.scale = best_scale;
  }
  return fit;
}

}  // namespace podperf

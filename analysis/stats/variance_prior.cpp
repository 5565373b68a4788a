// The empirical-Bayes variance prior and moderation (see variance_prior.hpp). Floor: analysis/stats;
// pure, local; throws nothing (Boost.Math with a quiet error policy).
#include "analysis/stats/variance_prior.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/polygamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>
#include <cmath>
#include <limits>
#include <vector>

namespace podperf {
namespace variance_prior_detail {

namespace policies = boost::math::policies;
using Quiet =
    policies::policy<policies::domain_error<policies::ignore_error>, policies::pole_error<policies::ignore_error>,
                     policies::overflow_error<policies::ignore_error>,
                     policies::evaluation_error<policies::ignore_error>, policies::promote_double<false>>;

double digamma(double x) {
  return boost::math::digamma(x, Quiet());
}
double trigamma(double x) {
  return boost::math::trigamma(x, Quiet());
}

// P(s^2 / s0^2 >= ratio) for a variance with `df` degrees of freedom under the prior.
double upper_tail(double ratio, double df, double prior_df) {
  if (!std::isfinite(prior_df)) {
    const boost::math::chi_squared_distribution<double, Quiet> chi(df);
    return boost::math::cdf(boost::math::complement(chi, ratio * df));
  }
  const boost::math::fisher_f_distribution<double, Quiet> f(df, prior_df);
  return boost::math::cdf(boost::math::complement(f, ratio));
}

}  // namespace variance_prior_detail

using namespace variance_prior_detail;

double trigamma_inverse(double x) {
  if (!(x > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  if (x > 1e7) return 1.0 / std::sqrt(x);
  if (x < 1e-6) return 1.0 / x;
  double y = 0.5 + 1.0 / x;
  for (int i = 0; i < 50; ++i) {
    const double tri = trigamma(y);
    const double step = tri * (1.0 - tri / x) / boost::math::polygamma(2, y, Quiet());
    y += step;
    if (-step / y < 1e-8) break;
  }
  return y;
}

double variance_ratio_p(double ratio, double df1, double df2) {
  if (!(df1 > 0.0) || !(df2 > 0.0) || !(ratio >= 0.0)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(ratio)) return 0.0;
  const boost::math::fisher_f_distribution<double, Quiet> f(df1, df2);
  const double lower = boost::math::cdf(f, ratio);
  const double upper = boost::math::cdf(boost::math::complement(f, ratio));
  return std::min(1.0, 2.0 * std::min(lower, upper));
}

VariancePrior fit_variance_prior(std::span<const double> variances, std::span<const double> dfs) {
  VariancePrior prior;
  std::vector<double> s2, d;
  for (std::size_t i = 0; i < variances.size() && i < dfs.size(); ++i) {
    if (dfs[i] > 0.0 && std::isfinite(dfs[i]) && variances[i] >= 0.0 && std::isfinite(variances[i])) {
      s2.push_back(variances[i]);
      d.push_back(dfs[i]);
    }
  }
  if (s2.size() < 3) return prior;
  std::vector<double> sorted = s2;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
  const double median = sorted[sorted.size() / 2];
  if (!(median > 0.0)) return prior;  // most metrics without any spread: nothing to learn a prior from
  const double floor = 1e-5 * median;
  const auto g = static_cast<double>(s2.size());
  std::vector<double> e(s2.size());
  double mean = 0.0, trigamma_mean = 0.0, df_total = 0.0;
  for (std::size_t i = 0; i < s2.size(); ++i) {
    e[i] = std::log(std::max(s2[i], floor)) - digamma(d[i] / 2.0) + std::log(d[i] / 2.0);
    mean += e[i];
    trigamma_mean += trigamma(d[i] / 2.0);
    df_total += d[i];
  }
  mean /= g;
  trigamma_mean /= g;
  double spread = 0.0;
  for (double v : e) spread += (v - mean) * (v - mean);
  const double excess = spread / (g - 1.0) - trigamma_mean;
  prior.fitted = true;
  prior.metrics = s2.size();
  prior.df_total = df_total;
  if (excess > 0.0) {
    prior.df = 2.0 * trigamma_inverse(excess);
    prior.variance = std::exp(mean + digamma(prior.df / 2.0) - std::log(prior.df / 2.0));
  } else {
    prior.df = std::numeric_limits<double>::infinity();
    prior.variance = std::exp(mean);
  }
  if (!std::isfinite(prior.variance) || !(prior.df > 0.0)) prior = VariancePrior{};
  return prior;
}

ModeratedVariance moderate_variance(double variance, double df, const VariancePrior& prior, double outlier_p) {
  ModeratedVariance out{variance, df, false};
  if (!prior.fitted || !(prior.variance > 0.0)) return out;
  if (df > 0.0 && outlier_p > 0.0 && upper_tail(variance / prior.variance, df, prior.df) < outlier_p) {
    out.outlier = true;
    return out;
  }
  const double own = df > 0.0 ? df : 0.0;
  if (!std::isfinite(prior.df)) {
    out.variance = prior.variance;
    out.df = prior.df_total;
    return out;
  }
  out.variance = (prior.df * prior.variance + own * (own > 0.0 ? variance : 0.0)) / (prior.df + own);
  out.df = std::min(prior.df + own, prior.df_total);
  return out;
}

}  // namespace podperf

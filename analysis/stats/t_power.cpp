// Student's t and the noncentral t through Boost.Math (see t_power.hpp). Floor: analysis/stats; pure,
// local; throws nothing: the policy below turns Boost's domain, pole, overflow and evaluation errors
// into quiet results (NaN, or the infinite limit), which the callers check.
#include "analysis/stats/t_power.hpp"

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/non_central_t.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

namespace podperf {
namespace t_power_detail {

namespace policies = boost::math::policies;
// No exceptions; double arithmetic (no promotion to long double: millions of p values per comparison).
using Quiet =
    policies::policy<policies::domain_error<policies::ignore_error>, policies::pole_error<policies::ignore_error>,
                     policies::overflow_error<policies::ignore_error>,
                     policies::evaluation_error<policies::ignore_error>, policies::promote_double<false>>;
using StudentT = boost::math::students_t_distribution<double, Quiet>;
using Normal = boost::math::normal_distribution<double, Quiet>;
using NoncentralT = boost::math::non_central_t_distribution<double, Quiet>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool is_normal(double df) {
  return !std::isfinite(df) || df >= kNormalDegreesOfFreedom;
}

// P(T > t), T Student's t (or normal), accurate in the far tail (the complement, not 1 - cdf).
double upper_tail(double t, double df) {
  if (is_normal(df)) return boost::math::cdf(boost::math::complement(Normal(0.0, 1.0), t));
  return boost::math::cdf(boost::math::complement(StudentT(df), t));
}

// P(T' > c) + P(T' < -c), T' noncentral t with noncentrality `delta` (normal shifted by delta for
// infinite df).
double rejection_probability(double delta, double df, double c) {
  if (is_normal(df)) {
    const Normal z(0.0, 1.0);
    return boost::math::cdf(boost::math::complement(z, c - delta)) + boost::math::cdf(z, -c - delta);
  }
  const NoncentralT nct(df, delta);
  return boost::math::cdf(boost::math::complement(nct, c)) + boost::math::cdf(nct, -c);
}

}  // namespace t_power_detail

using namespace t_power_detail;

double t_cdf(double t, double df) {
  if (!(df > 0.0)) return 0.5;
  if (std::isnan(t)) return kNaN;
  if (std::isinf(t)) return t > 0.0 ? 1.0 : 0.0;
  if (is_normal(df)) return boost::math::cdf(Normal(0.0, 1.0), t);
  return boost::math::cdf(StudentT(df), t);
}

double t_two_sided_p(double t, double df) {
  if (!(df > 0.0)) return 1.0;
  if (std::isnan(t)) return kNaN;
  if (std::isinf(t)) return 0.0;
  return std::min(1.0, 2.0 * upper_tail(std::fabs(t), df));
}

double t_quantile(double p, double df) {
  if (!(df > 0.0) || std::isnan(p)) return kNaN;
  if (p <= 0.0) return -std::numeric_limits<double>::infinity();
  if (p >= 1.0) return std::numeric_limits<double>::infinity();
  if (is_normal(df)) return boost::math::quantile(Normal(0.0, 1.0), p);
  return boost::math::quantile(StudentT(df), p);
}

double f_quantile(double p, double df1, double df2) {
  if (!(df1 > 0.0) || !(df2 > 0.0) || !(p > 0.0 && p < 1.0)) return kNaN;
  return boost::math::quantile(boost::math::fisher_f_distribution<double, Quiet>(df1, df2), p);
}

double sigma_upper_factor(double df, double p) {
  if (!(df > 0.0) || is_normal(df) || !(p > 0.0 && p < 1.0)) return 1.0;
  const double q = boost::math::quantile(boost::math::chi_squared_distribution<double, Quiet>(df), p);
  return q > 0.0 ? std::sqrt(df / q) : 1.0;
}

double two_sided_t_power(double noncentrality, double df, double alpha) {
  if (!(df > 0.0) || !(alpha > 0.0 && alpha < 1.0)) return kNaN;
  const double c = t_quantile(1.0 - alpha / 2.0, df);
  return std::min(1.0, rejection_probability(std::fabs(noncentrality), df, c));
}

double detectable_noncentrality(double df, double alpha, double power) {
  if (!(df > 0.0) || !(alpha > 0.0 && alpha < 1.0) || !(power > alpha && power < 1.0)) return kNaN;
  const double c = t_quantile(1.0 - alpha / 2.0, df);
  if (!std::isfinite(c)) return kNaN;
  auto gap = [&](double delta) { return rejection_probability(delta, df, c) - power; };
  // At delta 0 the power is alpha (< power); widen the upper end until it exceeds the target.
  double low = 0.0, high = c + 4.0;
  for (int i = 0; i < 60 && gap(high) < 0.0; ++i) {
    low = high;
    high *= 2.0;
  }
  if (gap(high) < 0.0) return kNaN;
  std::uintmax_t iterations = 100;
  const auto bracket = boost::math::tools::toms748_solve(gap, low, high, boost::math::tools::eps_tolerance<double>(40),
                                                         iterations, Quiet());
  return 0.5 * (bracket.first + bracket.second);
}

}  // namespace podperf

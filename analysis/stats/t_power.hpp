#pragma once
// Student's t and the noncentral t (Boost.Math): two-sided p values, quantiles, and the power of a
// two-sided t test, so that a stated minimum detectable effect is the effect the test finds with the
// stated power, at the alpha the test really uses. Floor: analysis/stats; pure, local; throws nothing
// (an argument outside a distribution's domain gives NaN, or the limit named below).
namespace podperf {

// Degrees of freedom at or above this are treated as infinite (the normal distribution).
inline constexpr double kNormalDegreesOfFreedom = 1e7;

// P(T <= t) for Student's t with `df` > 0 degrees of freedom (df >= kNormalDegreesOfFreedom or
// infinite: the standard normal). df <= 0: 0.5.
double t_cdf(double t, double df);
// P(|T| >= |t|): the two-sided p value of t. Not finite t: 0; df <= 0: 1.
double t_two_sided_p(double t, double df);
// The p quantile of Student's t (0 < p < 1); p <= 0: -infinity, p >= 1: +infinity; df <= 0: NaN.
double t_quantile(double p, double df);

// The p quantile of the F distribution with df1 and df2 degrees of freedom (0 < p < 1; else NaN).
double f_quantile(double p, double df1, double df2);

// sqrt(df / chi-square(df)'s p quantile): how much larger than an estimate from `df` degrees of freedom
// the standard deviation may be at the one-sided (1 - p) upper bound. df infinite or <= 0: 1.
double sigma_upper_factor(double df, double p);

// The power of a two-sided t test at level `alpha` with `df` degrees of freedom when the true effect
// is `noncentrality` standard errors: P(|T'| > t(1 - alpha/2)), T' noncentral t.
double two_sided_t_power(double noncentrality, double df, double alpha);
// The noncentrality (the effect in standard errors) that the two-sided t test at `alpha` with `df`
// degrees of freedom detects with probability `power` (in (alpha, 1)): the inverse of
// two_sided_t_power, by Boost's TOMS 748 root finder. NaN when df <= 0 or the arguments are out of range.
double detectable_noncentrality(double df, double alpha, double power);

}  // namespace podperf

#pragma once
// Shared noise: an empirical-Bayes prior for the variances of many metrics measured alike (every pair
// of one size, every node of one pair matrix), and each metric's variance moderated by it, as limma's
// squeezeVar and moderated t do (Smyth 2004, "Linear models and empirical Bayes methods for assessing
// differential expression in microarray experiments"). A pair metric measured 3 runs against 3 has 4
// degrees of freedom of its own; thousands of pairs share the same fabric noise, so the prior lends
// each one tens to thousands more, and a test on the moderated variance is a t test with d0 + d
// degrees of freedom. Floor: analysis/stats; pure, local; throws nothing.
#include <cstddef>
#include <span>

namespace podperf {

// The prior: the metrics' true variances are scaled inverse chi-square with `df` degrees of freedom
// around `variance` (fitted by the method of moments on the log variances, limma's fitFDist).
struct VariancePrior {
  bool fitted = false;      // false: fewer than 3 usable variances, or most of them zero
  double df = 0.0;          // d0; +infinity: the variances agree with one common variance
  double variance = 0.0;    // s0^2
  std::size_t metrics = 0;  // variances it was fitted on
  double df_total = 0.0;    // the sum of their degrees of freedom: no moderated df exceeds it
};

// Fits the prior to `variances` (each with `dfs` > 0 degrees of freedom; entries with df <= 0 or a
// variance that is negative or not finite are skipped). Zero variances are floored at 1e-5 x the
// median, as limma does.
VariancePrior fit_variance_prior(std::span<const double> variances, std::span<const double> dfs);

// One metric's variance after moderation: (d0 s0^2 + d s^2) / (d0 + d) with min(d0 + d, df_total)
// degrees of freedom (d0 infinite: s0^2 with df_total). `outlier`: the metric's own variance is far
// above the prior's (s^2 / s0^2 beyond the 1 - outlier_p quantile of F(d, d0)): one noisy metric must
// not borrow the calm of the others, so it keeps its own variance and degrees of freedom (a simple
// form of limma's robust moderation). Without a fitted prior: the metric's own variance and df.
struct ModeratedVariance {
  double variance = 0.0;
  double df = 0.0;
  bool outlier = false;
};
ModeratedVariance moderate_variance(double variance, double df, const VariancePrior& prior, double outlier_p);

// Two-sided p of the F test that two variances with `df1` and `df2` degrees of freedom are equal, given
// their ratio (first over second): 2 min(P(F <= ratio), P(F >= ratio)). NaN for bad arguments.
double variance_ratio_p(double ratio, double df1, double df2);

// The inverse of the trigamma function (Newton's method as in limma's trigammaInverse): y with
// trigamma(y) = x, for x > 0.
double trigamma_inverse(double x);

}  // namespace podperf

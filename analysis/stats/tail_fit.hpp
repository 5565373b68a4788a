#pragma once
// How heavy the tails of a centred sample are: a symmetric Student's t (location 0) fitted by maximum
// likelihood over a grid of degrees of freedom, kept only when it beats the normal distribution by a
// likelihood-ratio test. Used where a value is judged against the spread of many others (one run a
// side in compare: each pair's change against the changes of all pairs), so that transients (a pair
// 20% slow during one job only) widen the reference instead of being findings. Floor: analysis/stats;
// pure, deterministic.
#include <span>

namespace podperf {

struct TailFit {
  bool heavy = false;   // the t fit beats the normal one (likelihood ratio beyond kHeavyTailChiSquare)
  double df = 0.0;      // the t's degrees of freedom when heavy (else 0)
  double scale = 0.0;   // the t's scale when heavy, else the normal's standard deviation (location 0)
  double log_likelihood_ratio = 0.0;  // 2 (LL of the best t - LL of the normal)
  std::size_t n = 0;
};

// The likelihood-ratio statistic (one added parameter, chi-square 1 df) beyond which the t fit is kept:
// its 99.9% point, so that a normal sample reads as heavy-tailed about once in a thousand.
inline constexpr double kHeavyTailChiSquare = 10.83;

// Fits `values` (taken as centred on 0: a sample and its mirror image, for instance one side of a
// centred sample reflected) with a normal and with t of 1, 1.5, 2, 3, 4, 6, 10, 20 and 40 degrees of
// freedom (scale by EM). Fewer than 8 values or all zero: not heavy, scale 0.
TailFit fit_symmetric_tail(std::span<const double> values);

}  // namespace podperf

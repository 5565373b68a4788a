#pragma once
// Robust baseline of a set of bandwidths (SuperBench iteration, FIELD-NOTES section 2).
#include <cstddef>
#include <span>

namespace podperf {

struct Baseline {
  double value = 0.0;     // mean of the values kept
  double spread = 0.0;    // standard deviation of the values kept (outliers are already dropped)
  std::size_t kept = 0;   // values kept after the iteration
  std::size_t total = 0;  // values given
  int passes = 0;
};

// Takes the mean, drops every value more than `threshold` (fraction) below it, recomputes, and
// repeats until nothing is dropped (or `max_passes`). Bad pairs then do not drag the baseline down.
// Guard: a pass that would keep fewer than floor(min_kept_fraction * n) values (at least 1) is not
// taken, so a
// noisy healthy set cannot cascade up to its single best value. Empty input gives value 0.
Baseline robust_baseline(std::span<const double> values, double threshold, int max_passes,
                         double min_kept_fraction);

}  // namespace podperf

#pragma once
// Robust baseline of a set of bandwidths (the SuperBench iteration).
#include <cstddef>
#include <span>

namespace podperf {

struct Baseline {
  double value = 0.0;     // mean of the values kept
  double spread = 0.0;    // standard deviation of the values kept (outliers are already dropped)
  std::size_t kept = 0;   // values kept after the iteration
  std::size_t total = 0;  // values given
  int passes = 0;
  bool anchored = false;  // anchored_baseline chose a fast group over the majority
};

// Takes the mean, drops every value more than `threshold` (fraction) below it, recomputes, and
// repeats until nothing is dropped (or `max_passes`). Bad pairs then do not drag the baseline down.
// Guard: a pass that would keep fewer than floor(min_kept_fraction * n) values (at least 1) is not
// taken, so a
// noisy healthy set cannot cascade up to its single best value. Empty input gives value 0.
Baseline robust_baseline(std::span<const double> values, double threshold, int max_passes, double min_kept_fraction);

// A baseline a slow majority cannot capture. Of the values more than `threshold` above the majority's
// baseline, if any, the fast group is those above the widest gap (between consecutive values, from the
// highest value below that cut up). When that gap exceeds `gap_fraction` of the fast group's lowest
// value and `spread_factor` times the standard deviation of either side (the fast group; every value
// below it), the values below are the slow nodes' pairs and the fast group is healthy: returns its
// mean and spread, kept = its size, total = all values, anchored = true. Otherwise `majority` (the
// robust_baseline of the same values) unchanged: the widest gap of a noisy continuum is a fraction of
// its spread.
Baseline anchored_baseline(std::span<const double> values, const Baseline& majority, double threshold,
                           double gap_fraction, double spread_factor);

}  // namespace podperf

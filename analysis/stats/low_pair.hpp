#pragma once
// The low-pair rule, written once: the pair judge (analysis/pairs) flags a pair with it, and the adaptive
// searches (sweep/adaptive_flat, sweep/adaptive_layered) pick their suspects with it. A pair is low when
// its busbw lies below its baseline by more than the cut, and the cut is the larger of the threshold and
// spread_factor times the healthy spread (as a share of the baseline, counted at most as
// max_spread_fraction): among hundreds of pairs, ordinary pair-to-pair spread is not a slow pair, while
// a noisy cluster cannot hide a pair at a fraction of its baseline. A failed measurement (not finite,
// not positive) is low. Floor: stats; pure, header only (sweep/ includes it); throws nothing.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include <string>

namespace podperf {

struct LowPairRule {
  double threshold = 0.05;           // [pairs] threshold (--threshold)
  double spread_factor = 4.0;        // [pairs] spread_factor
  double max_spread_fraction = 0.1;  // [pairs] max_spread_fraction
};

// The cut, as a fraction below the baseline, for a healthy spread of `spread_fraction` of the baseline.
inline double low_pair_cut(const LowPairRule& rule, double spread_fraction) {
  const double spread = std::min(std::max(spread_fraction, 0.0), rule.max_spread_fraction);
  return std::max(rule.threshold, rule.spread_factor * spread);
}

// Whether `busbw` is low against `baseline` with that spread (a share of the baseline).
inline bool pair_is_low(const LowPairRule& rule, double busbw, double baseline, double spread_fraction) {
  if (!std::isfinite(busbw) || busbw <= 0.0) return true;
  return busbw < baseline * (1.0 - low_pair_cut(rule, spread_fraction));
}

// Why the cut is what it is, in words: "the threshold" or "4 x the healthy spread 2.0%".
inline std::string low_pair_cut_reason(const LowPairRule& rule, double spread_fraction) {
  if (low_pair_cut(rule, spread_fraction) <= rule.threshold) return "the threshold";
  const bool capped = spread_fraction > rule.max_spread_fraction;
  return fmt::format("{:g} x the healthy spread {:.1f}%{}", rule.spread_factor,
                     std::min(spread_fraction, rule.max_spread_fraction) * 100.0,
                     capped ? fmt::format(" (counted at most as {:.0f}%)", rule.max_spread_fraction * 100.0) : "");
}

}  // namespace podperf

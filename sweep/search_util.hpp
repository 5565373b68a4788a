#pragma once
// Small helpers the adaptive searches share (sweep/adaptive_flat, sweep/adaptive_layered): the median
// of a few busbw values, a pair in canonical order, a seeded shuffle, the screening baseline, and the
// retest votes that confirm or clear a suspect (a node or a group). Floor: sweep (pure, local, header
// only). Throws nothing.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "sweep/pair_schedule.hpp"
#include "sweep/splitmix.hpp"

namespace podperf::search {

// The median (mean of the two middle values for an even count); 0 when empty.
inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  double m = v[mid];
  if (v.size() % 2 == 0) m = (m + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid))) / 2.0;
  return m;
}

// {a, b} with the smaller index first.
inline NodePair ordered(int a, int b) {
  return a < b ? NodePair{a, b} : NodePair{b, a};
}

// Fisher-Yates with the search's seeded generator: the same seed gives the same order everywhere.
template <typename T>
void shuffle(std::vector<T>& v, SplitMix& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

// The screening baseline (median busbw of the pairs that ran) and the healthy spread (1.4826 x MAD,
// at most max_spread_fraction of the baseline), from the screening rounds' (pair, busbw) results: the
// healthy majority sets both, so a few slow pairs move neither.
struct ScreenBaseline {
  double baseline = 0.0;
  double spread = 0.0;
};
inline ScreenBaseline screen_baseline(const std::vector<std::pair<NodePair, double>>& screened,
                                      double max_spread_fraction) {
  std::vector<double> ok;
  for (const auto& [pair, busbw] : screened) {
    if (std::isfinite(busbw) && busbw > 0.0) ok.push_back(busbw);
  }
  ScreenBaseline out;
  out.baseline = median_of(ok);
  std::vector<double> dev;
  for (double v : ok) dev.push_back(std::abs(v - out.baseline));
  out.spread = std::min(1.4826 * median_of(dev), max_spread_fraction * out.baseline);
  return out;
}

// The retests of one suspect (a node, or a group's uplink): each retest pair is low or good; the
// suspect is confirmed after `confirm` low ones, cleared after `clear + 2 * lows` good ones (every low
// retest asks for two more good ones), undecided until then. The flat and layered searches' node
// retests (confirm_lows, clear_oks) and the layered search's group retests (uplink_confirm twice).
class Votes {
 public:
  enum class Outcome { kUndecided, kConfirmed, kCleared };
  // Records one retest; returns what the votes say now (confirmation first).
  Outcome record(bool low, int confirm, int clear) {
    if (low) {
      ++lows_;
    } else {
      ++oks_;
    }
    if (lows_ >= confirm) return Outcome::kConfirmed;
    if (oks_ >= clear + 2 * lows_) return Outcome::kCleared;
    return Outcome::kUndecided;
  }
  [[nodiscard]] int lows() const { return lows_; }
  [[nodiscard]] int oks() const { return oks_; }

 private:
  int lows_ = 0;
  int oks_ = 0;
};

}  // namespace podperf::search

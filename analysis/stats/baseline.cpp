#include "analysis/stats/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "analysis/stats/stats.hpp"

namespace podperf {

Baseline robust_baseline(std::span<const double> values, double threshold, int max_passes, double min_kept_fraction) {
  Baseline out;
  out.total = values.size();
  if (values.empty()) return out;
  const auto min_kept = std::max<std::size_t>(
      1, static_cast<std::size_t>(std::floor(min_kept_fraction * static_cast<double>(values.size()))));
  // The values kept are all of them, then, once a pass is taken, those at or above the highest floor
  // taken so far (each pass keeps, of those kept, the ones at or above its floor). So every pass
  // reads the values in place, in their order: at scale millions of them, no copy per pass. Sums run
  // in that order, as std::accumulate over a copy of the kept values would (the same bits).
  bool filtered = false;
  double kept_floor = 0.0;
  const auto kept_value = [&](double v) { return !filtered || v >= kept_floor; };
  std::size_t kept = values.size();
  double sum = 0.0;
  for (double v : values) sum += v;
  double mean = sum / static_cast<double>(kept);
  for (int pass = 1; pass <= max_passes; ++pass) {
    out.passes = pass;
    const double floor = mean * (1.0 - threshold);
    const double next_floor = filtered ? std::max(kept_floor, floor) : floor;
    std::size_t next = 0;
    double next_sum = 0.0;
    for (double v : values) {
      if (kept_value(v) && v >= floor) {
        ++next;
        next_sum += v;
      }
    }
    if (next == kept || next == 0 || next < min_kept) break;
    filtered = true;
    kept_floor = next_floor;
    kept = next;
    mean = next_sum / static_cast<double>(kept);
  }
  out.value = mean;
  // The sample standard deviation of the kept values (as sample_stddev; not summarize(): its sorts
  // cost seconds at 8 million pairs).
  if (kept >= 2) {
    double kept_sum = 0.0;
    for (double v : values) {
      if (kept_value(v)) kept_sum += v;
    }
    const double kept_mean = kept_sum / static_cast<double>(kept);
    double ss = 0.0;
    for (double v : values) {
      if (kept_value(v)) ss += (v - kept_mean) * (v - kept_mean);
    }
    out.spread = std::sqrt(ss / static_cast<double>(kept - 1));
  }
  out.kept = kept;
  return out;
}

Baseline anchored_baseline(std::span<const double> values, const Baseline& majority, double threshold,
                           double gap_fraction, double spread_factor) {
  if (values.size() < 3 || majority.value <= 0.0 || gap_fraction <= 0.0) return majority;
  // The candidates: the values clearly above the majority (few: a fast minority, or a noisy tail).
  const double cut = majority.value * (1.0 + threshold);
  std::vector<double> upper;
  double below_max = 0.0;
  bool any_below = false;
  for (double v : values) {
    if (v >= cut) {
      upper.push_back(v);
    } else {
      below_max = any_below ? std::max(below_max, v) : v;
      any_below = true;
    }
  }
  if (upper.empty() || !any_below) return majority;
  std::sort(upper.begin(), upper.end());
  // The split: the widest gap between consecutive values from the highest value below the cut up.
  std::size_t split = 0;
  double gap = upper.front() - below_max;
  for (std::size_t i = 1; i < upper.size(); ++i) {
    if (upper[i] - upper[i - 1] > gap) gap = upper[i] - upper[i - 1], split = i;
  }
  const double fast_min = upper[split];
  const std::span<const double> fast_values(upper.data() + split, upper.size() - split);
  // The spread on each side of the gap: the fast group's, and that of every value below it (the slow
  // nodes' pairs and any others: a wide lower side means no clear gap).
  const auto sd = [](double sum, double squares, std::size_t count) {
    if (count < 2) return 0.0;
    const double mean = sum / static_cast<double>(count);
    return std::sqrt(std::max(0.0, (squares - mean * sum) / static_cast<double>(count - 1)));
  };
  double fast_sum = 0.0, fast_squares = 0.0;
  for (double v : fast_values) fast_sum += v, fast_squares += v * v;
  double slow_sum = 0.0, slow_squares = 0.0;
  std::size_t slow_count = 0;
  for (double v : values) {
    if (v < fast_min) slow_sum += v, slow_squares += v * v, ++slow_count;
  }
  const double fast_spread = sd(fast_sum, fast_squares, fast_values.size());
  const double slow_spread = sd(slow_sum, slow_squares, slow_count);
  // A clear gap: beyond gap_fraction of the fast group and spread_factor spreads of either side. Noise
  // (Gaussian or not) is a continuum whose widest gap is a fraction of its spread: no anchor.
  if (gap <= gap_fraction * fast_min || gap <= spread_factor * std::max(fast_spread, slow_spread)) return majority;
  Baseline fast;
  fast.value = fast_sum / static_cast<double>(fast_values.size());
  fast.spread = fast_spread;
  fast.kept = fast_values.size();
  fast.total = values.size();
  fast.passes = majority.passes;
  fast.anchored = true;
  return fast;
}

}  // namespace podperf

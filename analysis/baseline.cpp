#include "analysis/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "analysis/stats.hpp"

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
                           double gap_fraction, double spread_factor, int max_passes) {
  if (values.size() < 2 || majority.value <= 0.0 || gap_fraction <= 0.0) return majority;
  // The candidates: values clearly above the majority; their own robust baseline is the fast group.
  std::vector<double> upper;
  for (double v : values) {
    if (v >= majority.value * (1.0 + threshold)) upper.push_back(v);
  }
  if (upper.empty()) return majority;
  Baseline fast = robust_baseline(upper, threshold, max_passes, 0.5);
  const double fast_floor = fast.value * (1.0 - threshold);
  double fast_min = fast.value;
  double slow_max = 0.0;
  bool any_slow = false;
  for (double v : values) {
    if (v >= fast_floor) {
      fast_min = std::min(fast_min, v);
    } else {
      slow_max = std::max(slow_max, v);
      any_slow = true;
    }
  }
  // A clear gap below the fast group (beyond gap_fraction of it and spread_factor of its spread): a
  // continuum of noisy values has none.
  const double gap = fast_min - slow_max;
  if (!any_slow || gap <= gap_fraction * fast_min || gap <= spread_factor * fast.spread) return majority;
  fast.total = values.size();
  return fast;
}

}  // namespace podperf

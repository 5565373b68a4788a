#include "analysis/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "analysis/stats.hpp"

namespace podperf {

Baseline robust_baseline(std::span<const double> values, double threshold, int max_passes,
                         double min_kept_fraction) {
  Baseline out;
  out.total = values.size();
  std::vector<double> kept(values.begin(), values.end());
  if (kept.empty()) return out;
  const auto min_kept = std::max<std::size_t>(
      1, static_cast<std::size_t>(std::floor(min_kept_fraction * static_cast<double>(values.size()))));
  double mean = std::accumulate(kept.begin(), kept.end(), 0.0) / static_cast<double>(kept.size());
  for (int pass = 1; pass <= max_passes; ++pass) {
    out.passes = pass;
    const double floor = mean * (1.0 - threshold);
    std::vector<double> next;
    next.reserve(kept.size());
    for (double v : kept) {
      if (v >= floor) next.push_back(v);
    }
    if (next.size() == kept.size() || next.empty() || next.size() < min_kept) break;
    kept = std::move(next);
    mean = std::accumulate(kept.begin(), kept.end(), 0.0) / static_cast<double>(kept.size());
  }
  out.value = mean;
  out.spread = sample_stddev(kept);  // not summarize(): its sorts cost seconds at 8 million pairs
  out.kept = kept.size();
  return out;
}

}  // namespace podperf

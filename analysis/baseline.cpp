#include "analysis/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "analysis/stats.hpp"

namespace podperf {

Baseline robust_baseline_in_place(std::vector<double>& values, double threshold, int max_passes,
                                  double min_kept_fraction) {
  Baseline out;
  out.total = values.size();
  if (values.empty()) return out;
  const auto min_kept = std::max<std::size_t>(
      1, static_cast<std::size_t>(std::floor(min_kept_fraction * static_cast<double>(values.size()))));
  // values[0, kept) are the values kept so far, in their given order (the mean sums them in order).
  std::size_t kept = values.size();
  const auto kept_end = [&values, &kept] { return values.begin() + static_cast<std::ptrdiff_t>(kept); };
  double mean = std::accumulate(values.begin(), kept_end(), 0.0) / static_cast<double>(kept);
  for (int pass = 1; pass <= max_passes; ++pass) {
    out.passes = pass;
    const double floor = mean * (1.0 - threshold);
    const auto stays = [floor](double v) { return v >= floor; };
    // Counted first: a pass that is not taken leaves the kept values as they are.
    const auto next = static_cast<std::size_t>(std::count_if(values.begin(), kept_end(), stays));
    if (next == kept || next == 0 || next < min_kept) break;
    // remove_if keeps the order of what stays (and, unlike stable_partition, needs no buffer).
    const auto end = std::remove_if(values.begin(), kept_end(), [floor](double v) { return !(v >= floor); });
    kept = static_cast<std::size_t>(end - values.begin());  // == next
    mean = std::accumulate(values.begin(), kept_end(), 0.0) / static_cast<double>(kept);
  }
  values.resize(kept);
  out.value = mean;
  out.spread = sample_stddev(values);  // not summarize(): its sorts cost seconds at 8 million pairs
  out.kept = kept;
  return out;
}

Baseline robust_baseline(std::span<const double> values, double threshold, int max_passes,
                         double min_kept_fraction) {
  std::vector<double> kept(values.begin(), values.end());
  return robust_baseline_in_place(kept, threshold, max_passes, min_kept_fraction);
}

}  // namespace podperf

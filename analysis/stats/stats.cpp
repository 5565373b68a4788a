#include "analysis/stats/stats.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "analysis/stats/sort_network.hpp"

namespace podperf {

double quantile(std::span<const double> values, double q) {
  if (values.empty()) return 0.0;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = static_cast<std::size_t>(std::ceil(pos));
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

double median(std::span<const double> values) {
  return quantile(values, 0.5);
}

double robust_sigma(std::span<const double> values) {
  if (values.empty()) return 0.0;
  const double med = median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - med));
  return 1.4826 * median(deviations);
}

double median_in_place(std::vector<double>& values) {
  if (values.empty()) return 0.0;
  // As quantile(values, 0.5): the elements at floor and ceil of the middle position, interpolated.
  const double pos = 0.5 * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = static_cast<std::size_t>(std::ceil(pos));
  const double frac = pos - static_cast<double>(lo);
  double low = 0.0;
  double high = 0.0;
  if (values.size() <= kSortNetworkMax) {
    sort_small(values.data(), values.size());
    low = values[lo];
    high = values[hi];
  } else if (values.size() <= 32) {
    // A pair's iterations: insertion sort beats nth_element's setup on a few values.
    for (std::size_t i = 1; i < values.size(); ++i) {
      const double v = values[i];
      std::size_t j = i;
      for (; j > 0 && v < values[j - 1]; --j) values[j] = values[j - 1];
      values[j] = v;
    }
    low = values[lo];
    high = values[hi];
  } else {
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(lo), values.end());
    low = values[lo];
    high = hi == lo ? low : *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(hi), values.end());
  }
  return low + (high - low) * frac;
}

double sample_stddev(std::span<const double> values) {
  if (values.size() < 2) return 0.0;
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  double ss = 0.0;
  for (double v : values) ss += (v - mean) * (v - mean);
  return std::sqrt(ss / static_cast<double>(values.size() - 1));
}

namespace {

inline double abs_of(double v) {
  return std::fabs(v);
}
inline double splat(double v, double) {
  return v;
}
#if defined(__SSE2__)
inline Lanes2 abs_of(Lanes2 v) {
  return _mm_andnot_pd(_mm_set1_pd(-0.0), v);
}  // fabs per lane
inline Lanes2 splat(double v, Lanes2) {
  return _mm_set1_pd(v);
}
#endif

// robust_sigma_small on one sample (V = double) or two of the same size at once (V = Lanes2).
template <class V>
V robust_sigma_lanes(V* values, std::size_t n) {
  // As median_in_place and robust_sigma_in_place: the order statistics at floor and ceil of the
  // middle position, interpolated; the values sorted by a network.
  const std::size_t lo = (n - 1) / 2;
  const std::size_t hi = n / 2;
  const V frac = splat(0.5 * static_cast<double>(n - 1) - static_cast<double>(lo), V{});
  sort_small(values, n);
  const V med = values[lo] + (values[hi] - values[lo]) * frac;
  // The deviations d[i] = |values[i] - med| of the sorted values form two ascending runs:
  // A = d[lo], d[lo - 1], ..., d[0] and B = d[lo + 1], ..., d[n - 1] (as robust_sigma_in_place
  // merges them). The k-th smallest (from 0) of both together is the least, over the ways of taking
  // i values from A and k + 1 - i from B, of the larger of the last values taken: no sort, no branch.
  V d[kSortNetworkMax] = {};
  for (std::size_t i = 0; i < n; ++i) d[i] = abs_of(values[i] - med);
  const std::size_t a = lo + 1;
  const std::size_t b = n - a;
  const auto kth = [&](std::size_t k) {
    V best = splat(std::numeric_limits<double>::infinity(), V{});
    if (k < b) best = d[lo + 1 + k];            // all k + 1 from B
    if (k < a) best = min_of(best, d[lo - k]);  // all from A
    const std::size_t first = std::max<std::size_t>(1, k + 1 > b ? k + 1 - b : 0);
    const std::size_t last = std::min(k, a);
    for (std::size_t i = first; i <= last; ++i) {  // i from A (its last d[lo + 1 - i]), the rest from B
      best = min_of(best, max_of(d[lo + 1 - i], d[lo + 1 + k - i]));
    }
    return best;
  };
  const V low = kth(lo);
  const V high = hi == lo ? low : kth(hi);
  return splat(1.4826, V{}) * (low + (high - low) * frac);
}

}  // namespace

double robust_sigma_small(double* values, std::size_t n) {
  if (n == 0) return 0.0;
  return robust_sigma_lanes(values, n);
}

void robust_sigma_small_2(double* first, double* second, std::size_t n, double& first_sigma, double& second_sigma) {
#if defined(__SSE2__) && !defined(__FMA__)
  // Without FMA the compiler cannot fuse the scalar path's multiply-adds either, so both lanes give
  // what robust_sigma_small gives.
  if (n > 0) {
    Lanes2 v[kSortNetworkMax];
    for (std::size_t i = 0; i < n; ++i) v[i] = _mm_set_pd(second[i], first[i]);
    const Lanes2 sigma = robust_sigma_lanes(v, n);
    first_sigma = _mm_cvtsd_f64(sigma);
    second_sigma = _mm_cvtsd_f64(_mm_unpackhi_pd(sigma, sigma));
    return;
  }
#endif
  first_sigma = robust_sigma_small(first, n);
  second_sigma = robust_sigma_small(second, n);
}

double upper_median_in_place(std::vector<double>& values, std::vector<double>& scratch) {
  if (values.empty()) return 0.0;
  const std::size_t n = values.size();
  const std::size_t k = n / 2;
  const auto kth = values.begin() + static_cast<std::ptrdiff_t>(k);
  constexpr std::size_t kSample = 127;
  constexpr std::size_t kMargin = 16;  // sample ranks either side: the bracket misses rarely
  if (n < 4 * kSample) {
    std::nth_element(values.begin(), kth, values.end());
    return *kth;
  }
  // Bracket the middle by a sorted sample of evenly spaced values, keep the values inside it (one
  // pass without branches), and select among those alone: a quarter of them or so.
  std::array<double, kSample> sample{};
  bool comparable = true;  // no NaN (sorting needs an order)
  for (std::size_t i = 0; i < kSample; ++i) {
    sample[i] = values[i * n / kSample];
    comparable &= sample[i] == sample[i];
  }
  if (!comparable) {
    std::nth_element(values.begin(), kth, values.end());
    return *kth;
  }
  std::sort(sample.begin(), sample.end());
  const std::size_t center = k * kSample / n;
  const double low = sample[center > kMargin ? center - kMargin : 0];
  const double high = sample[std::min(kSample - 1, center + kMargin)];
  scratch.resize(n);
  std::size_t below = 0;
  std::size_t above = 0;
  std::size_t inside = 0;
  for (double v : values) {
    below += v < low ? 1 : 0;
    above += v > high ? 1 : 0;
    scratch[inside] = v;
    inside += ((v >= low) & (v <= high)) ? 1 : 0;
  }
  // All values compared (no NaN) and the k-th among those inside: it is the (k - below)-th of them.
  if (below + inside + above == n && below <= k && k < below + inside) {
    const auto mid = scratch.begin() + static_cast<std::ptrdiff_t>(k - below);
    std::nth_element(scratch.begin(), mid, scratch.begin() + static_cast<std::ptrdiff_t>(inside));
    return *mid;
  }
  std::nth_element(values.begin(), kth, values.end());
  return *kth;
}

double robust_sigma_in_place(std::vector<double>& values, std::vector<double>& scratch) {
  if (values.empty()) return 0.0;
  if (values.size() <= kSortNetworkMax) return robust_sigma_small(values.data(), values.size());
  const double med = median_in_place(values);
  const std::size_t n = values.size();
  const double pos = 0.5 * static_cast<double>(n - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = static_cast<std::size_t>(std::ceil(pos));
  const double frac = pos - static_cast<double>(lo);
  if (n <= 32) {
    // median_in_place sorted them: the deviations |v - med| ascend from the middle outwards, in two
    // runs (values[lo] down to values[0], values[lo + 1] up). Merging the runs up to position hi
    // gives the deviations' median without sorting them.
    std::size_t left = lo + 1;   // values[left - 1] is the next on the left
    std::size_t right = lo + 1;  // values[right] is the next on the right
    double low = 0.0;
    double high = 0.0;
    for (std::size_t k = 0; k <= hi; ++k) {
      double next = 0.0;
      const double dl = left > 0 ? std::fabs(values[left - 1] - med) : 0.0;
      const double dr = right < n ? std::fabs(values[right] - med) : 0.0;
      if (left > 0 && (right >= n || dl <= dr)) {
        next = dl;
        --left;
      } else {
        next = dr;
        ++right;
      }
      if (k == lo) low = next;
      if (k == hi) high = next;
    }
    return 1.4826 * (low + (high - low) * frac);
  }
  scratch.clear();
  for (double v : values) scratch.push_back(std::fabs(v - med));
  return 1.4826 * median_in_place(scratch);
}

Summary summarize(std::span<const double> values) {
  Summary s;
  s.count = values.size();
  if (values.empty()) return s;
  auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  s.min = *mn;
  s.max = *mx;
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  s.median = median(values);
  s.p99 = quantile(values, 0.99);
  s.stddev = sample_stddev(values);
  s.robust_sigma = robust_sigma(values);
  s.cv = s.mean != 0.0 ? s.stddev / s.mean : 0.0;
  return s;
}

double normal_upper_quantile(double p) {
  if (!(p > 0.0 && p < 1.0)) throw std::invalid_argument("normal_upper_quantile: p must lie in (0, 1)");
  double lo = -40.0;
  double hi = 40.0;
  for (int i = 0; i < 200 && hi - lo > 1e-10; ++i) {
    const double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(mid / std::sqrt(2.0)) > p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace podperf

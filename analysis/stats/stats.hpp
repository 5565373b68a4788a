#pragma once
// Descriptive statistics of a sample. Pure functions.
#include <span>
#include <vector>

namespace podperf {

struct Summary {
  std::size_t count = 0;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
  double median = 0.0;
  double p99 = 0.0;
  double stddev = 0.0;        // sample standard deviation (n-1)
  double robust_sigma = 0.0;  // 1.4826 * median absolute deviation
  double cv = 0.0;            // stddev / mean (0 when mean is 0)
};

// Summarizes `values`; an empty span gives a zero Summary.
Summary summarize(std::span<const double> values);
// Linear-interpolated quantile, q in [0, 1]; `values` need not be sorted. Empty -> 0.
double quantile(std::span<const double> values, double q);
double median(std::span<const double> values);
// 1.4826 * MAD: a standard-deviation estimate that ignores outliers.
double robust_sigma(std::span<const double> values);

// The same median and robust sigma (bit for bit), computed in place with nth_element instead of a
// sorted copy: for hot loops over millions of small samples (the pairs analysis). Reorder `values`;
// `scratch` is a reusable buffer for the deviations.
double median_in_place(std::vector<double>& values);
// Sample standard deviation (n-1); 0 for fewer than 2 values. Summary::stddev is this.
double sample_stddev(std::span<const double> values);
double robust_sigma_in_place(std::vector<double>& values, std::vector<double>& scratch);
// z with P(Z > z) = p for a standard normal Z (0 < p < 1): 1.645 for 0.05, 4.753 for 1e-6. Bisection on
// erfc, accurate to 1e-9.
double normal_upper_quantile(double p);
// The upper median: the element at size/2 of the values in ascending order (what nth_element
// there gives; 0 when empty), for thousands of values (a host's pair ratios): bracketed by a sorted
// sample first, then selected among the values inside the bracket. Reorders `values`; `scratch` is a
// reusable buffer.
double upper_median_in_place(std::vector<double>& values, std::vector<double>& scratch);
// robust_sigma_in_place of n <= kSortNetworkMax (16, analysis/stats/sort_network.hpp) values, bit for bit
// (NaN-free input), with sorting networks and no allocation: a pair's samples. Sorts `values`.
double robust_sigma_small(double* values, std::size_t n);
// robust_sigma_small of two samples of the same size n <= 16 at once (one per SSE2 lane where
// available; the same results bit for bit). Sorts both.
void robust_sigma_small_2(double* first, double* second, std::size_t n, double& first_sigma, double& second_sigma);

}  // namespace podperf

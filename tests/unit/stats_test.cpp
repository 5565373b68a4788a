#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "analysis/stats.hpp"

TEST(Stats, MedianOfOddAndEven) {
  std::vector<double> odd{3, 1, 2};
  std::vector<double> even{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(podperf::median(odd), 2.0);
  EXPECT_DOUBLE_EQ(podperf::median(even), 2.5);
}

// The in-place median and robust sigma (the pairs analysis's hot loop) give exactly, bit for bit,
// what median and robust_sigma give, for small samples (insertion sort) and large ones
// (nth_element), with ties, odd and even counts.
TEST(Stats, InPlaceMedianAndRobustSigmaMatchTheSortedCopies) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(1.0, 0.3);
  std::uniform_int_distribution<int> small(0, 4);
  for (std::size_t n : {1u, 2u, 3u, 4u, 5u, 9u, 10u, 20u, 31u, 32u, 33u, 64u, 101u, 1000u}) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> values(n);
      for (double& v : values) v = trial % 2 == 0 ? noise(rng) : static_cast<double>(small(rng));  // odd: ties
      std::vector<double> a = values, b = values, scratch;
      EXPECT_EQ(podperf::median_in_place(a), podperf::median(values)) << "n " << n;
      EXPECT_EQ(podperf::robust_sigma_in_place(b, scratch), podperf::robust_sigma(values)) << "n " << n;
      EXPECT_EQ(podperf::sample_stddev(values), podperf::summarize(values).stddev) << "n " << n;
    }
  }
  std::vector<double> empty, scratch;
  EXPECT_EQ(podperf::median_in_place(empty), 0.0);
  EXPECT_EQ(podperf::robust_sigma_in_place(empty, scratch), 0.0);
  EXPECT_EQ(podperf::sample_stddev(std::vector<double>{5.0}), 0.0);
  EXPECT_EQ(podperf::sample_stddev(std::vector<double>{1.0, 3.0}), std::sqrt(2.0));
}

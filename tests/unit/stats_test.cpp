#include "analysis/stats/stats.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "analysis/stats/sort_network.hpp"

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

// The sorting networks (analysis/stats/sort_network.hpp) sort every input of 0 to 16 values: by the 0-1
// principle, a comparator network sorts all inputs when it sorts all 2^n inputs of zeros and ones;
// and random doubles with ties come out as std::sort orders them.
TEST(Stats, SortingNetworksSortEveryInputUpTo16Values) {
  for (std::size_t n = 0; n <= podperf::kSortNetworkMax; ++n) {
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
      double v[podperf::kSortNetworkMax];
      for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>((mask >> i) & 1u);
      podperf::sort_small(v, n);
      ASSERT_TRUE(std::is_sorted(v, v + n)) << "n " << n << " mask " << mask;
    }
  }
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::uniform_int_distribution<int> small(-3, 3);
  for (std::size_t n = 0; n <= podperf::kSortNetworkMax; ++n) {
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<double> values(n);
      for (double& x : values) x = trial % 2 == 0 ? noise(rng) : static_cast<double>(small(rng));
      std::vector<double> sorted = values;
      std::sort(sorted.begin(), sorted.end());
      podperf::sort_small(values.data(), n);
      EXPECT_EQ(values, sorted) << "n " << n;
    }
  }
}

// robust_sigma_small (the per-pair noise of the pairs analysis) and the in-place routines, which use
// the networks up to 16 values, give bit for bit what the sorted-copy robust_sigma and median give,
// for every n from 1 to 17 (17: the insertion sort path), odd and even, with and without ties, with
// a constant sample (MAD 0) and times as the analysis turns them into busbw.
TEST(Stats, NetworkMedianAndRobustSigmaMatchTheSortedCopiesBitForBit) {
  std::mt19937_64 rng(19);
  std::normal_distribution<double> noise(40.0, 2.0);
  std::uniform_int_distribution<int> small(0, 3);
  for (std::size_t n = 1; n <= podperf::kSortNetworkMax + 1; ++n) {
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<double> values(n);
      for (double& x : values) {
        switch (trial % 3) {
          case 0: x = noise(rng); break;
          case 1: x = static_cast<double>(small(rng)) * 0.1; break;  // ties
          default: x = 40.0 * 0.0125 / (0.0125 * (1.0 + std::fabs(noise(rng) - 40.0) / 100.0)); break;
        }
      }
      if (trial == 0) std::fill(values.begin(), values.end(), 3.5);
      const double expected_sigma = podperf::robust_sigma(values);
      const double expected_median = podperf::median(values);
      std::vector<double> a = values, b = values, c = values, scratch;
      EXPECT_EQ(podperf::median_in_place(a), expected_median) << "n " << n << " trial " << trial;
      EXPECT_EQ(podperf::robust_sigma_in_place(b, scratch), expected_sigma) << "n " << n << " trial " << trial;
      if (n <= podperf::kSortNetworkMax) {
        EXPECT_EQ(podperf::robust_sigma_small(c.data(), n), expected_sigma) << "n " << n << " trial " << trial;
      }
    }
  }
  EXPECT_EQ(podperf::robust_sigma_small(nullptr, 0), 0.0);
  double two[] = {2.0, 1.0};
  EXPECT_EQ(podperf::robust_sigma_small(two, 2), 1.4826 * 0.5);
}

// upper_median_in_place (a host's median pair ratio in correlate, thousands of values): the element at
// size/2 of the sorted values, on small sets (nth_element alone) and large ones (bracketed by a
// sample) of narrow noise, ties, ascending values and a third of the values far below the rest (the
// bracket then sits off the sample's middle), and with a NaN (the plain nth_element path).
TEST(Stats, UpperMedianMatchesTheSortedElement) {
  std::mt19937_64 rng(29);
  std::normal_distribution<double> ratio(1.0, 0.02);
  std::uniform_int_distribution<int> small(0, 3);
  std::vector<double> scratch;
  for (std::size_t n : {1u, 2u, 3u, 100u, 507u, 508u, 509u, 1000u, 4095u, 4096u}) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<double> values(n);
      for (std::size_t i = 0; i < n; ++i) {
        switch (trial % 4) {
          case 0: values[i] = ratio(rng); break;
          case 1: values[i] = static_cast<double>(small(rng)); break;
          case 2: values[i] = static_cast<double>(i); break;
          default: values[i] = i % 3 == 0 ? 0.5 : ratio(rng); break;
        }
      }
      std::vector<double> sorted = values;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(podperf::upper_median_in_place(values, scratch), sorted[n / 2]) << "n " << n << " trial " << trial;
    }
  }
  std::vector<double> empty;
  EXPECT_EQ(podperf::upper_median_in_place(empty, scratch), 0.0);
  for (std::size_t nan_at : {0u, 10u}) {  // 0 is in the sample, 10 is not
    std::vector<double> with_nan(1000, 1.0);
    with_nan[nan_at] = std::nan("");
    with_nan[500] = 0.5;
    std::vector<double> copy = with_nan;
    std::nth_element(copy.begin(), copy.begin() + 500, copy.end());
    EXPECT_EQ(podperf::upper_median_in_place(with_nan, scratch), copy[500]) << nan_at;
  }
}

#include <gtest/gtest.h>

#include "analysis/stats.hpp"

TEST(Stats, MedianOfOddAndEven) {
  std::vector<double> odd{3, 1, 2};
  std::vector<double> even{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(podperf::median(odd), 2.0);
  EXPECT_DOUBLE_EQ(podperf::median(even), 2.5);
}

// Data patterns and their verification (host twins of the device kernels).
#include "kernels/pattern.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace podperf {
namespace {

// What an all-reduce leaves in every buffer: the element-wise float sum of every rank's pattern.
std::vector<float> reduced(std::size_t count, int nranks, std::uint64_t first_index = 0) {
  std::vector<float> sum(count, 0.0F);
  std::vector<float> mine(count);
  for (int r = 0; r < nranks; ++r) {
    fill_pattern(std::span<float>(mine), r, first_index);
    for (std::size_t i = 0; i < count; ++i) sum[i] += mine[i];
  }
  return sum;
}

TEST(Pattern, ValuesAreSmallPositiveIntegers) {
  for (int rank : {0, 1, 7, 1000, 65535}) {
    for (std::uint64_t i = 0; i < 200; ++i) {
      const float v = pattern_value(rank, i);
      EXPECT_GE(v, 1.0F);
      EXPECT_LE(v, 61.0F);
      EXPECT_EQ(v, static_cast<float>(static_cast<int>(v)));
    }
  }
}

TEST(Pattern, FillMatchesPatternValueWithOffset) {
  std::vector<float> buf(100);
  fill_pattern(std::span<float>(buf), 5, 1000);
  for (std::size_t i = 0; i < buf.size(); ++i) EXPECT_EQ(buf[i], pattern_value(5, 1000 + i));
}

TEST(Pattern, SumOfNRanksVerifies) {
  for (int nranks : {1, 2, 3, 8, 16, 256, 4096}) {
    for (std::uint64_t first : {0ULL, 12345ULL}) {
      const std::vector<float> sum = reduced(1000, nranks, first);
      EXPECT_EQ(count_wrong_sum(std::span<const float>(sum), nranks, first), 0) << nranks << " ranks, first " << first;
    }
  }
}

TEST(Pattern, OneFlippedElementIsOneWrong) {
  for (int nranks : {2, 8, 1024}) {
    std::vector<float> sum = reduced(1000, nranks);
    sum[417] += 1.0F;
    EXPECT_EQ(count_wrong_sum(std::span<const float>(sum), nranks), 1) << nranks << " ranks";
    sum[0] = 0.0F;
    EXPECT_EQ(count_wrong_sum(std::span<const float>(sum), nranks), 2) << nranks << " ranks";
  }
}

TEST(Pattern, SumCheckedAgainstTheWrongRankCountFails) {
  const std::vector<float> sum = reduced(1000, 8);
  EXPECT_EQ(count_wrong_sum(std::span<const float>(sum), 7), 1000);
  EXPECT_EQ(count_wrong_sum(std::span<const float>(sum), 9), 1000);
}

TEST(Pattern, SumCheckedAtTheWrongOffsetFails) {
  const std::vector<float> sum = reduced(1000, 8, 0);
  EXPECT_GT(count_wrong_sum(std::span<const float>(sum), 8, 1), 900);
}

TEST(Pattern, CountWrongCopy) {
  std::vector<float> buf(1000);
  fill_pattern(std::span<float>(buf), 3, 50);
  EXPECT_EQ(count_wrong_copy(std::span<const float>(buf), 3, 50), 0);
  buf[999] = 0.0F;
  EXPECT_EQ(count_wrong_copy(std::span<const float>(buf), 3, 50), 1);
  buf[0] += 0.5F;
  EXPECT_EQ(count_wrong_copy(std::span<const float>(buf), 3, 50), 2);
  // Checked against the wrong rank or offset: nearly every element differs.
  fill_pattern(std::span<float>(buf), 3, 50);
  EXPECT_GT(count_wrong_copy(std::span<const float>(buf), 4, 50), 900);
  EXPECT_GT(count_wrong_copy(std::span<const float>(buf), 3, 51), 900);
}

TEST(Pattern, EmptyBuffersHaveNothingWrong) {
  EXPECT_EQ(count_wrong_sum(std::span<const float>(), 8), 0);
  EXPECT_EQ(count_wrong_copy(std::span<const float>(), 0), 0);
}

TEST(Pattern, CopyFromAnotherRankIsDetected) {
  // A sendrecv or broadcast that delivers the wrong peer's buffer must not verify. The pattern
  // depends on rank only through rank * 131 mod 61, so ranks 61 apart share one pattern.
  std::vector<float> buf(1000);
  for (int from = 0; from < 128; ++from) {
    fill_pattern(std::span<float>(buf), from);
    for (int expected : {0, 1, 2}) {
      if (from == expected) continue;
      EXPECT_GT(count_wrong_copy(std::span<const float>(buf), expected), 0)
          << "rank " << from << "'s data verifies as rank " << expected << "'s";
    }
  }
}

TEST(Pattern, CopyAtAShiftedOffsetIsDetected) {
  // A copy that lands k elements off (a wrong displacement) must not verify. The pattern repeats
  // every 61 elements, so shifts by multiples of 61 pass.
  std::vector<float> buf(1000);
  for (std::uint64_t shift = 1; shift <= 128; ++shift) {
    fill_pattern(std::span<float>(buf), 5, shift);
    EXPECT_GT(count_wrong_copy(std::span<const float>(buf), 5, 0), 0)
        << "data shifted by " << shift << " elements verifies";
  }
}

}  // namespace
}  // namespace podperf

namespace podperf {
namespace {

// The narrow pattern (half and bfloat16 sums): at any rank count every sum is a small exact integer,
// each element sums the non-zero values of kNarrowWindow ranks, and every rank counts somewhere.
TEST(NarrowPattern, SumsStayExactAndEveryRankCountsAtAnyScale) {
  for (const int n : {1, 2, 7, 8, 9, 125, 1000, 1075, 4096}) {
    std::vector<int> elements_with_rank(static_cast<std::size_t>(n), 0);
    for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(2 * n); ++i) {
      std::uint32_t sum = 0;
      int contributors = 0;
      for (int r = 0; r < n; ++r) {
        const std::uint32_t v = narrow_pattern_int(r, i, n);
        EXPECT_LE(v, 4U);
        if (v != 0) {
          ++contributors;
          ++elements_with_rank[static_cast<std::size_t>(r)];
        }
        sum += v;
      }
      EXPECT_EQ(contributors, std::min(n, kNarrowWindow)) << "n=" << n << " i=" << i;
      EXPECT_EQ(sum, narrow_pattern_sum(n, i)) << "n=" << n << " i=" << i;
      EXPECT_LE(sum, 32U);  // exact in bfloat16 (integers to 256) and half (to 2048)
      EXPECT_GT(sum, 0U);   // an all-zero result fails every element
    }
    for (int r = 0; r < n; ++r) EXPECT_GT(elements_with_rank[static_cast<std::size_t>(r)], 0) << "rank " << r;
  }
}

TEST(NarrowPattern, AMissingRankChangesSomeSums) {
  const int n = 1000;
  int changed = 0;
  for (std::uint64_t i = 0; i < 4000; ++i) {
    if (narrow_pattern_int(517, i, n) != 0) ++changed;  // without rank 517 these sums are short
  }
  EXPECT_GE(changed, 4000 * kNarrowWindow / n);
}

}  // namespace
}  // namespace podperf

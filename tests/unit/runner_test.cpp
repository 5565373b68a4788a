// fill_timing: per-iteration times -> a PairResult's timing fields, bandwidths and status.
#include <gtest/gtest.h>

#include <vector>

#include "bench/collectives.hpp"
#include "bench/runner.hpp"

namespace podperf {
namespace {

PairResult pair_of(std::uint64_t size_bytes) {
  PairResult p;
  p.size_bytes = size_bytes;
  return p;
}

TEST(FillTiming, AllReduceOnTwoRanks) {
  PairResult p = pair_of(1000000000);
  fill_timing(p, CaseMeasurement{{1.0, 2.0, 3.0}, 0}, find_op("all_reduce"), 2);
  EXPECT_EQ(p.samples_s, (std::vector<double>{1.0, 2.0, 3.0}));
  EXPECT_DOUBLE_EQ(p.median_s, 2.0);
  EXPECT_DOUBLE_EQ(p.min_s, 1.0);
  EXPECT_DOUBLE_EQ(p.max_s, 3.0);
  EXPECT_DOUBLE_EQ(p.p99_s, 2.98);
  EXPECT_DOUBLE_EQ(p.cv, 0.5);  // stddev 1 / mean 2
  EXPECT_DOUBLE_EQ(p.algbw_gbps, 0.5);
  EXPECT_DOUBLE_EQ(p.busbw_gbps, 0.5);  // 2(n-1)/n = 1 at n = 2
  EXPECT_EQ(p.ranks, 2);
  EXPECT_EQ(p.wrong, 0);
  EXPECT_EQ(p.status, "ok");
}

TEST(FillTiming, BusbwFactorTable) {
  struct Case {
    const char* op;
    int nranks;
    double busbw;
  };
  const std::vector<Case> cases{
      {"all_reduce", 8, 0.5 * 1.75},
      {"all_reduce", 16, 0.5 * 1.875},
      {"all_gather", 8, 0.5 * 0.875},
      {"reduce_scatter", 4, 0.5 * 0.75},
      {"alltoall", 2, 0.5 * 0.5},
      {"broadcast", 8, 0.5},
      {"reduce", 8, 0.5},
      {"sendrecv", 8, 0.5},
  };
  for (const Case& c : cases) {
    PairResult p = pair_of(1000000000);
    fill_timing(p, CaseMeasurement{{1.0, 2.0, 3.0}, 0}, find_op(c.op), c.nranks);
    EXPECT_DOUBLE_EQ(p.algbw_gbps, 0.5) << c.op << " n=" << c.nranks;
    EXPECT_DOUBLE_EQ(p.busbw_gbps, c.busbw) << c.op << " n=" << c.nranks;
    EXPECT_EQ(p.ranks, c.nranks);
  }
}

TEST(FillTiming, MedianOfEvenCountAndUnsortedSamples) {
  PairResult p = pair_of(4000000);
  fill_timing(p, CaseMeasurement{{0.004, 0.001, 0.003, 0.002}, 0}, find_op("all_reduce"), 2);
  EXPECT_DOUBLE_EQ(p.median_s, 0.0025);
  EXPECT_DOUBLE_EQ(p.algbw_gbps, 4000000 / 0.0025 / 1e9);
  EXPECT_EQ(p.samples_s, (std::vector<double>{0.004, 0.001, 0.003, 0.002})) << "samples kept in iteration order";
}

TEST(FillTiming, WrongElementsMakeStatusWrong) {
  PairResult p = pair_of(1000000000);
  fill_timing(p, CaseMeasurement{{1.0, 2.0, 3.0}, 5}, find_op("all_reduce"), 2);
  EXPECT_EQ(p.wrong, 5);
  EXPECT_EQ(p.status, "wrong");
  EXPECT_DOUBLE_EQ(p.busbw_gbps, 0.5) << "timing is still reported";
}

TEST(FillTiming, NoSamplesLeavesBandwidthZero) {
  PairResult p = pair_of(1000000000);
  fill_timing(p, CaseMeasurement{{}, 0}, find_op("all_reduce"), 2);
  EXPECT_EQ(p.median_s, 0.0);
  EXPECT_EQ(p.algbw_gbps, 0.0);
  EXPECT_EQ(p.busbw_gbps, 0.0);
}

}  // namespace
}  // namespace podperf

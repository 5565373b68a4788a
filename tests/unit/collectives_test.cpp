// The collectives table (nccl-tests doc/PERFORMANCE.md): one test per op row, checking its busbw factor at
// n = 2, 8, 16 and whether algbw bytes scale with the rank count.
#include "bench/collectives.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {

struct Expected {
  double n2, n8, n16;
  bool per_rank_count_times_n;
};

void expect_row(std::string_view name, const Expected& e) {
  const Op& op = find_op(name);
  EXPECT_EQ(op.name, name);
  EXPECT_DOUBLE_EQ(bus_factor(op, 2), e.n2) << name << " n=2";
  EXPECT_DOUBLE_EQ(bus_factor(op, 8), e.n8) << name << " n=8";
  EXPECT_DOUBLE_EQ(bus_factor(op, 16), e.n16) << name << " n=16";
  EXPECT_EQ(op.per_rank_count_times_n, e.per_rank_count_times_n) << name;
}

TEST(Collectives, AllReduce) {  // 2(n-1)/n
  expect_row("all_reduce", {1.0, 1.75, 1.875, false});
  EXPECT_EQ(find_op("all_reduce").kind, OpKind::kAllReduce);
}

TEST(Collectives, AllGather) {  // (n-1)/n, count per rank
  expect_row("all_gather", {0.5, 0.875, 0.9375, true});
  EXPECT_EQ(find_op("all_gather").kind, OpKind::kAllGather);
}

TEST(Collectives, ReduceScatter) {  // (n-1)/n, count per rank
  expect_row("reduce_scatter", {0.5, 0.875, 0.9375, true});
  EXPECT_EQ(find_op("reduce_scatter").kind, OpKind::kReduceScatter);
}

TEST(Collectives, AllToAll) {  // (n-1)/n
  expect_row("alltoall", {0.5, 0.875, 0.9375, true});
  EXPECT_EQ(find_op("alltoall").kind, OpKind::kAllToAll);
}

TEST(Collectives, Broadcast) {  // 1
  expect_row("broadcast", {1.0, 1.0, 1.0, false});
  EXPECT_EQ(find_op("broadcast").kind, OpKind::kBroadcast);
}

TEST(Collectives, Reduce) {  // 1
  expect_row("reduce", {1.0, 1.0, 1.0, false});
  EXPECT_EQ(find_op("reduce").kind, OpKind::kReduce);
}

TEST(Collectives, SendRecv) {  // 1
  expect_row("sendrecv", {1.0, 1.0, 1.0, false});
  EXPECT_EQ(find_op("sendrecv").kind, OpKind::kSendRecv);
}

TEST(Collectives, TableHasSevenUniqueOps) {
  std::set<std::string_view> names;
  for (const Op& op : all_ops()) EXPECT_TRUE(names.insert(op.name).second) << op.name;
  EXPECT_EQ(names.size(), 7U);
}

TEST(Collectives, FindOpUnknownNameListsKnownNames) {
  for (const char* name : {"allreduce", "", "ALL_REDUCE", "all_reduce "}) {
    try {
      (void)find_op(name);
      ADD_FAILURE() << "'" << name << "' found";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(std::string("'") + name + "'"), std::string::npos) << what;
      for (const Op& op : all_ops()) EXPECT_NE(what.find(op.name), std::string::npos) << op.name << " in " << what;
    }
  }
}

}  // namespace
}  // namespace podperf

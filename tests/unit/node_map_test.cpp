// build_node_map: ranks grouped into nodes by shared memory, named by hostname, optionally split
// into virtual nodes. Pure; gather_node_map (MPI) is covered by the MPI tests.
#include "bench/node_map.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {

// One record per rank: rank r lives on host_of_rank[r]; the shared leader is that host's lowest rank.
std::vector<RankRecord> records_for(const std::vector<std::string>& host_of_rank) {
  std::vector<RankRecord> out;
  for (std::size_t r = 0; r < host_of_rank.size(); ++r) {
    RankRecord rec;
    rec.world_rank = static_cast<int>(r);
    rec.hostname = host_of_rank[r];
    const auto first = std::find(host_of_rank.begin(), host_of_rank.end(), host_of_rank[r]);
    rec.shared_leader = static_cast<int>(first - host_of_rank.begin());
    rec.local_rank = static_cast<int>(std::count(host_of_rank.begin(), host_of_rank.begin() + static_cast<long>(r), host_of_rank[r]));
    rec.local_size = static_cast<int>(std::count(host_of_rank.begin(), host_of_rank.end(), host_of_rank[r]));
    rec.instance_id = "i-" + host_of_rank[r];
    rec.instance_type = "p5.48xlarge";
    out.push_back(rec);
  }
  return out;
}

std::vector<std::string> labels(const NodeMap& map) {
  std::vector<std::string> out;
  for (const NodeInfo& n : map.nodes) out.push_back(n.label);
  return out;
}

// node_of_rank agrees with every node's rank list, indices match positions, every rank once.
void expect_consistent(const NodeMap& map, std::size_t nranks) {
  ASSERT_EQ(map.node_of_rank.size(), nranks);
  std::vector<int> seen(nranks, 0);
  for (std::size_t i = 0; i < map.nodes.size(); ++i) {
    const NodeInfo& node = map.nodes[i];
    EXPECT_EQ(node.index, static_cast<int>(i));
    EXPECT_FALSE(node.ranks.empty()) << node.label;
    EXPECT_TRUE(std::is_sorted(node.ranks.begin(), node.ranks.end())) << node.label;
    for (int r : node.ranks) {
      EXPECT_EQ(map.node_of_rank[static_cast<std::size_t>(r)], node.index) << "rank " << r;
      ++seen[static_cast<std::size_t>(r)];
    }
  }
  for (std::size_t r = 0; r < nranks; ++r) EXPECT_EQ(seen[r], 1) << "rank " << r;
}

TEST(NodeMap, FourHostsOneRankEach) {
  const NodeMap map = build_node_map(records_for({"a", "b", "c", "d"}), 0);
  expect_consistent(map, 4);
  EXPECT_EQ(labels(map), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(map.node_of_rank, (std::vector<int>{0, 1, 2, 3}));
  for (const NodeInfo& n : map.nodes) {
    EXPECT_EQ(n.hostname, n.label);
    EXPECT_FALSE(n.is_virtual);
    EXPECT_EQ(n.instance_id, "i-" + n.hostname);
    EXPECT_EQ(n.instance_type, "p5.48xlarge");
  }
}

TEST(NodeMap, TwoHostsFourRanksRoundRobin) {
  // Round-robin placement: even ranks on gpu-b, odd ranks on gpu-a.
  const NodeMap map = build_node_map(records_for({"gpu-b", "gpu-a", "gpu-b", "gpu-a", "gpu-b", "gpu-a", "gpu-b", "gpu-a"}), 0);
  expect_consistent(map, 8);
  // Ordered by lowest rank, not by name.
  EXPECT_EQ(labels(map), (std::vector<std::string>{"gpu-b", "gpu-a"}));
  EXPECT_EQ(map.nodes[0].ranks, (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(map.nodes[1].ranks, (std::vector<int>{1, 3, 5, 7}));
  EXPECT_EQ(map.node_of_rank, (std::vector<int>{0, 1, 0, 1, 0, 1, 0, 1}));
}

TEST(NodeMap, RecordOrderDoesNotMatter) {
  std::vector<RankRecord> records = records_for({"x", "y", "x", "y", "z", "z"});
  const NodeMap expected = build_node_map(records, 0);
  std::mt19937 rng(42);
  for (int trial = 0; trial < 10; ++trial) {
    std::shuffle(records.begin(), records.end(), rng);
    const NodeMap map = build_node_map(records, 0);
    EXPECT_EQ(labels(map), labels(expected));
    EXPECT_EQ(map.node_of_rank, expected.node_of_rank);
  }
}

TEST(NodeMap, FourVirtualNodesOnOneHost) {
  const NodeMap map = build_node_map(records_for({"box", "box", "box", "box"}), 4);
  expect_consistent(map, 4);
  EXPECT_EQ(labels(map), (std::vector<std::string>{"box/v0", "box/v1", "box/v2", "box/v3"}));
  for (int i = 0; i < 4; ++i) {
    const NodeInfo& n = map.nodes[static_cast<std::size_t>(i)];
    EXPECT_TRUE(n.is_virtual);
    EXPECT_EQ(n.hostname, "box");
    EXPECT_EQ(n.ranks, std::vector<int>{i});
  }
}

TEST(NodeMap, VirtualNodesSplitContiguousBlocksTable) {
  struct Case {
    int ranks;
    int virtual_nodes;
    std::vector<std::vector<int>> blocks;
  };
  const std::vector<Case> cases{
      {4, 3, {{0, 1}, {2}, {3}}},
      {4, 2, {{0, 1}, {2, 3}}},
      {4, 1, {{0, 1, 2, 3}}},
      {5, 2, {{0, 1, 2}, {3, 4}}},
      {8, 3, {{0, 1, 2}, {3, 4, 5}, {6, 7}}},
  };
  for (const Case& c : cases) {
    const NodeMap map = build_node_map(records_for(std::vector<std::string>(static_cast<std::size_t>(c.ranks), "box")),
                                       c.virtual_nodes);
    expect_consistent(map, static_cast<std::size_t>(c.ranks));
    ASSERT_EQ(map.nodes.size(), c.blocks.size()) << c.ranks << " ranks, " << c.virtual_nodes << " virtual";
    for (std::size_t v = 0; v < c.blocks.size(); ++v) {
      EXPECT_EQ(map.nodes[v].ranks, c.blocks[v]) << c.ranks << " ranks, " << c.virtual_nodes << " virtual, v" << v;
      EXPECT_EQ(map.nodes[v].label, "box/v" + std::to_string(v));
      EXPECT_TRUE(map.nodes[v].is_virtual);
    }
  }
}

TEST(NodeMap, VirtualNodesOnTwoHosts) {
  const NodeMap map = build_node_map(records_for({"a", "a", "a", "a", "b", "b", "b", "b"}), 2);
  expect_consistent(map, 8);
  EXPECT_EQ(labels(map), (std::vector<std::string>{"a/v0", "a/v1", "b/v0", "b/v1"}));
  EXPECT_EQ(map.node_of_rank, (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3}));
}

TEST(NodeMap, VirtualNodesOnRoundRobinHostsAreOrderedByLowestRank) {
  // The header promises nodes "ordered by lowest world rank" (as the pair schedule and reports
  // index them). Round-robin placement: a has ranks 0 2 4 6, b has 1 3 5 7.
  const NodeMap map = build_node_map(records_for({"a", "b", "a", "b", "a", "b", "a", "b"}), 2);
  expect_consistent(map, 8);
  std::vector<int> lowest;
  for (const NodeInfo& n : map.nodes) lowest.push_back(n.ranks.front());
  EXPECT_TRUE(std::is_sorted(lowest.begin(), lowest.end()))
      << "labels " << ::testing::PrintToString(labels(map)) << ", lowest ranks " << ::testing::PrintToString(lowest);
}

TEST(NodeMap, MoreVirtualNodesThanRanksThrows) {
  EXPECT_THROW((void)build_node_map(records_for({"box", "box", "box"}), 4), UsageError);
  // Every host must have enough ranks, not just the first.
  EXPECT_THROW((void)build_node_map(records_for({"a", "a", "a", "a", "b"}), 2), UsageError);
  try {
    (void)build_node_map(records_for({"a", "a", "b"}), 2);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("host b has 1"), std::string::npos) << what;
  }
}

TEST(NodeMap, SameHostnameInTwoSharedGroupsGetsDistinctLabels) {
  // Two containers both called "worker", each its own shared-memory group.
  std::vector<RankRecord> records = records_for({"worker", "worker", "worker", "worker"});
  records[2].shared_leader = 2;
  records[3].shared_leader = 2;
  const NodeMap map = build_node_map(records, 0);
  expect_consistent(map, 4);
  EXPECT_EQ(labels(map), (std::vector<std::string>{"worker", "worker#2"}));
  EXPECT_EQ(map.nodes[1].hostname, "worker");
  EXPECT_EQ(map.nodes[1].ranks, (std::vector<int>{2, 3}));

  const NodeMap split = build_node_map(records, 2);
  EXPECT_EQ(labels(split), (std::vector<std::string>{"worker/v0", "worker/v1", "worker#2/v0", "worker#2/v1"}));
}

// Each node carries its host's scheduler names; two hosts reporting one Slurm node name had it copied (a
// launcher forwarding its own environment): every Slurm name is dropped, with a warning, rather than
// name the wrong node in accept's drain lines. Kubernetes node names may repeat (two pods, one node), not across
// instances.
TEST(NodeMap, SchedulerNamesAndCopiedSlurmNames) {
  std::vector<RankRecord> records = records_for({"a", "a", "b", "b"});
  for (RankRecord& r : records) {
    r.slurm_node_name = "ip-" + r.hostname;
    r.kubernetes_node_name = "node-" + r.hostname;
  }
  std::vector<std::string> warnings;
  NodeMap map = build_node_map(records, 2, &warnings);
  ASSERT_EQ(map.nodes.size(), 4u);
  EXPECT_EQ(map.nodes[0].slurm_node_name, "ip-a");  // both virtual nodes of a: one host, one name
  EXPECT_EQ(map.nodes[1].slurm_node_name, "ip-a");
  EXPECT_EQ(map.nodes[3].slurm_node_name, "ip-b");
  EXPECT_EQ(map.nodes[3].kubernetes_node_name, "node-b");
  EXPECT_TRUE(warnings.empty());

  for (RankRecord& r : records) r.slurm_node_name = "ip-a";  // b reports a's name: copied
  map = build_node_map(records, 0, &warnings);
  for (const NodeInfo& n : map.nodes) EXPECT_EQ(n.slurm_node_name, "") << n.label;
  EXPECT_EQ(map.nodes[1].kubernetes_node_name, "node-b");
  for (RankRecord& r : records) r.kubernetes_node_name = "node-1";
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("hosts a and b both report SLURMD_NODENAME=ip-a"), std::string::npos) << warnings[0];

  // Pods of two instances (i-a, i-b: records_for's ids) with one Kubernetes node name: copied, dropped.
  warnings.clear();
  for (RankRecord& r : records) r.slurm_node_name = "";
  map = build_node_map(records, 0, &warnings);
  for (const NodeInfo& n : map.nodes) EXPECT_EQ(n.kubernetes_node_name, "") << n.label;
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("instances i-a and i-b both report PODPERF_NODE_NAME=node-1"), std::string::npos)
      << warnings[0];
  // Two pods of one instance share the name: kept.
  for (RankRecord& r : records) r.instance_id = "i-0";
  warnings.clear();
  map = build_node_map(records, 0, &warnings);
  for (const NodeInfo& n : map.nodes) EXPECT_EQ(n.kubernetes_node_name, "node-1") << n.label;
  EXPECT_TRUE(warnings.empty());
}

TEST(NodeMap, EmptyRecordsGiveAnEmptyMap) {
  const NodeMap map = build_node_map({}, 0);
  EXPECT_TRUE(map.nodes.empty());
  EXPECT_TRUE(map.node_of_rank.empty());
}

}  // namespace
}  // namespace podperf

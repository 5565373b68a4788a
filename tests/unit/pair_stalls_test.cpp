// A node whose pairs stall for moments (analysis/pairs/pair_stalls.hpp): medians healthy, a few iterations
// many times slower, in pairs with two or more partners.
#include "analysis/pairs/pair_stalls.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "analysis/pairs/pair_judge.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

using synthetic::make_run;

const PairThresholds& config() {
  return synthetic::builtin_pair_thresholds();
}

std::vector<const Finding*> stalls(const Run& run) {
  return synthetic::findings_of(run, "pairs.stalling_node");
}

// `count` iterations of the pair a:b, from the first, `factor` times slower.
void stall(Run& run, int a, int b, int count, double factor) {
  for (PairResult& p : run.pairs) {
    if (p.nodes[0] != a || p.nodes[1] != b) continue;
    for (int i = 0; i < count && i < static_cast<int>(p.samples_s.size()); ++i)
      p.samples_s[static_cast<std::size_t>(i)] *= factor;
  }
}

TEST(PairStalls, IterationsCountedAgainstTheirOwnMedian) {
  EXPECT_EQ(stalled_iterations({1.0, 1.0, 1.1, 0.9, 6.0, 7.0}, 5.0), 2);
  EXPECT_EQ(stalled_iterations({1.0, 1.0, 4.9}, 5.0), 0);
  EXPECT_EQ(stalled_iterations({}, 5.0), 0);
}

TEST(PairStalls, ANodeStallingInTwoPairsIsNamedWhileItsMediansLookHealthy) {
  // The namespaced cluster's h3 with its link down to 300mbit 2 s of every 6: 2-7 iterations of 50
  // at 17-21x in two of its three pairs; every median healthy.
  podperf::Run run = make_run(4, [](int, int) { return 100.0; });
  for (PairResult& p : run.pairs) p.samples_s.resize(50, p.samples_s.front());
  stall(run, 1, 2, 3, 17.0);
  stall(run, 0, 2, 2, 19.0);
  judge_pairs(run, config());
  EXPECT_TRUE(run.stragglers.empty());
  EXPECT_TRUE(run.links.empty());
  const auto found = stalls(run);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0]->tag, Tag::kConcern);
  EXPECT_EQ(found[0]->host, run.nodes[2].hostname);
  EXPECT_NE(found[0]->observed.find("2 of its 3 pairs"), std::string::npos) << found[0]->observed;
  EXPECT_NE(found[0]->observed.find("3 of 50 iterations, up to 17x"), std::string::npos) << found[0]->observed;
  EXPECT_NE(found[0]->next_step.find("--pairs node2:node0,node2:node1"), std::string::npos) << found[0]->next_step;
  EXPECT_EQ(pairs_exit_code(run), 1) << "a stalling node is something slow";
  // Judged again: replaced, not added twice.
  judge_pairs(run, config());
  EXPECT_EQ(stalls(run).size(), 1U);
}

TEST(PairStalls, OneStalledPairOneStallPerPairOrMildTailsNameNobody) {
  const auto judged = [](const std::function<void(podperf::Run&)>& shape) {
    podperf::Run run = make_run(4, [](int, int) { return 100.0; });
    for (PairResult& p : run.pairs) p.samples_s.resize(50, p.samples_s.front());
    shape(run);
    judge_pairs(run, config());
    return run;
  };
  // One stalled pair: the node or the link, cannot tell.
  EXPECT_TRUE(stalls(judged([](podperf::Run& r) { stall(r, 1, 2, 5, 17.0); })).empty());
  // One slow iteration per pair (a hiccup): not a stall.
  EXPECT_TRUE(stalls(judged([](podperf::Run& r) { stall(r, 1, 2, 1, 17.0), stall(r, 0, 2, 1, 17.0); })).empty());
  // Tails of this machine's healthy runs, up to 1.9x: not a stall.
  const podperf::Run mild = judged([](podperf::Run& r) { stall(r, 1, 2, 10, 1.9), stall(r, 0, 2, 10, 1.9); });
  EXPECT_TRUE(stalls(mild).empty());
  EXPECT_EQ(pairs_exit_code(mild), 0);
}

TEST(PairStalls, RetestIterationsCountAgainstTheRetestsMedian) {
  podperf::Run run = make_run(4, [](int, int) { return 100.0; });
  for (PairResult& p : run.pairs) {
    p.samples_s.resize(20, p.samples_s.front());
    p.retest_samples_s = p.samples_s;
    p.retest_busbw_gbps = p.busbw_gbps;
  }
  // One stall in the first measurement and one in the retest of each of node 3's pairs with 0 and 1.
  for (PairResult& p : run.pairs) {
    if (p.nodes[1] == 3 && p.nodes[0] < 2) p.samples_s[0] *= 10.0, p.retest_samples_s[5] *= 10.0;
  }
  judge_pairs(run, config());
  const auto found = stalls(run);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0]->host, run.nodes[3].hostname);
  EXPECT_NE(found[0]->observed.find("2 of 40 iterations"), std::string::npos) << found[0]->observed;
}

}  // namespace
}  // namespace podperf

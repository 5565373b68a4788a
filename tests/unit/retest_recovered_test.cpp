// A node whose pairs were slow at first and fast in their retest stays visible
// (analysis/pairs/retest_recovered.hpp): an INFO that changes no verdict.
#include "analysis/pairs/retest_recovered.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

std::vector<const Finding*> recovered(const Run& run) {
  return synthetic::findings_of(run, "pairs.recovered_in_retest");
}

// Every pair of `run` measured again: the pairs `again_slow` says at their first value, the others at
// `healthy_gbps` (a flapping node fast again).
void retest_all(Run& run, double healthy_gbps, const std::function<bool(int, int)>& again_slow) {
  for (PairResult& p : run.pairs) {
    const double busbw = again_slow(p.nodes[0], p.nodes[1]) ? p.busbw_gbps : healthy_gbps;
    p.retest_busbw_gbps = busbw;
    p.retest_samples_s.clear();
    for (double s : p.samples_s) p.retest_samples_s.push_back(s * p.busbw_gbps / busbw);
  }
}

TEST(RetestRecovered, ANodeSlowAtFirstInTwoPairsAndFastInTheirRetestsIsShownNotNamed) {
  // Node 3 of 6 slow (50%) in two of its five first measurements, fast in both retests: a flapping
  // NIC seen twice. Too few links for pairs.intermittent_node, cleared by the retests.
  podperf::Run run = make_run(6, [](int a, int b) { return (b == 3 && (a == 0 || a == 1)) ? 50.0 : 100.0; });
  retest_all(run, 100.0, [](int, int) { return false; });
  judge_pairs(run, config());
  EXPECT_TRUE(run.stragglers.empty());
  EXPECT_TRUE(run.links.empty());
  EXPECT_EQ(pairs_exit_code(run), 0) << "an INFO changes no verdict";
  const auto found = recovered(run);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0]->tag, Tag::kInfo);
  EXPECT_EQ(found[0]->host, run.nodes[3].hostname);
  EXPECT_NE(found[0]->observed.find("2 of its 5 pairs"), std::string::npos) << found[0]->observed;
  EXPECT_NE(found[0]->observed.find("with node0 50%, retest 100%"), std::string::npos) << found[0]->observed;
  EXPECT_NE(found[0]->next_step.find("--pairs node3:node0,node3:node1 --retest 2"), std::string::npos)
      << found[0]->next_step;
}

TEST(RetestRecovered, OnePairRecoveredOrNodesAlreadyNamedGiveNone) {
  // One pair slow once: noise, nothing shown.
  podperf::Run once = make_run(6, [](int a, int b) { return a == 0 && b == 3 ? 50.0 : 100.0; });
  retest_all(once, 100.0, [](int, int) { return false; });
  judge_pairs(once, config());
  EXPECT_TRUE(recovered(once).empty());
  // Two recovered pairs that share no node: no node to show.
  podperf::Run apart =
      make_run(6, [](int a, int b) { return (a == 0 && b == 1) || (a == 2 && b == 3) ? 50.0 : 100.0; });
  retest_all(apart, 100.0, [](int, int) { return false; });
  judge_pairs(apart, config());
  EXPECT_TRUE(recovered(apart).empty());
  // A straggler (every pair slow again in its retest) is named, not shown here too.
  podperf::Run slow = make_run(6, [](int a, int b) { return a == 3 || b == 3 ? 50.0 : 100.0; });
  retest_all(slow, 100.0, [](int a, int b) { return a == 3 || b == 3; });
  judge_pairs(slow, config());
  ASSERT_EQ(slow.stragglers.size(), 1U);
  EXPECT_TRUE(recovered(slow).empty());
  // Judged again, the finding is replaced, not added twice.
  podperf::Run twice = make_run(6, [](int a, int b) { return (b == 3 && (a == 0 || a == 1)) ? 50.0 : 100.0; });
  retest_all(twice, 100.0, [](int, int) { return false; });
  judge_pairs(twice, config());
  judge_pairs(twice, config());
  EXPECT_EQ(recovered(twice).size(), 1U);
}

}  // namespace
}  // namespace podperf

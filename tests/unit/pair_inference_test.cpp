// The pair inference (analysis/pairs/pair_inference.hpp) on its own, and through judge_pairs on a table of
// scenarios over N = 2..64 nodes with noise on every pair: k = 0..4 slow nodes (k >= N/2 included),
// slow links, a slow crossing with and without a topology, and the cases the pairs cannot decide.
#include "analysis/pairs/pair_inference.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/pairs/pair_inference_findings.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/topology/topology.hpp"
#include "analysis/topology/topology_analysis.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

using synthetic::kJudgedSize;
using synthetic::make_run;

const PairThresholds& config() { return synthetic::builtin_pair_thresholds(); }

// --- the inference alone ---------------------------------------------------------------------------

TEST(PairInference, FastPairClearsAndSlowPairsWithClearedPartnersNameTheNode) {
  // Four nodes, 2 and 3 slow: only 0-1 is fast.
  PairInferenceInput in;
  in.nodes = 4;
  in.fast_pairs = {1, 1, 0, 0};
  in.slow_pairs = {{0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  const PairInference out = infer_pair_faults(in);
  EXPECT_EQ(out.slow, (std::vector<bool>{false, false, true, true}));
  EXPECT_EQ(out.slow_evidence[2], (std::vector<int>{0, 1}));
  EXPECT_TRUE(out.links.empty());
  EXPECT_TRUE(out.ambiguous.empty());
  EXPECT_TRUE(out.unexplained.empty());
}

TEST(PairInference, OneSlowPairWithAClearedPartnerIsAmbiguous) {
  // Node 3 measured once (with 0, which is fast elsewhere): node 3 or the link 0-3.
  PairInferenceInput in;
  in.nodes = 4;
  in.fast_pairs = {1, 1, 1, 0};
  in.slow_pairs = {{0, 3}};
  const PairInference out = infer_pair_faults(in);
  EXPECT_EQ(std::count(out.slow.begin(), out.slow.end(), true), 0);
  ASSERT_EQ(out.ambiguous.size(), 1U);
  EXPECT_EQ(out.ambiguous[0].node, 3);
  EXPECT_EQ(out.ambiguous[0].cleared_partners, (std::vector<int>{0}));
  EXPECT_EQ(out.ambiguous[0].retest_partner, 1);  // a cleared node it was not measured with
}

TEST(PairInference, TwoNodesOneSlowPairCannotBeTold) {
  PairInferenceInput in;
  in.nodes = 2;
  in.fast_pairs = {0, 0};
  in.slow_pairs = {{0, 1}};
  const PairInference out = infer_pair_faults(in);
  ASSERT_EQ(out.ambiguous.size(), 2U);
  EXPECT_EQ(out.ambiguous[0].retest_partner, -1);  // no known-good node in the run
  EXPECT_EQ(out.unexplained.size(), 1U);
}

TEST(PairInference, SlowPairsBetweenClearedNodesAreLinksOrOneCrossing) {
  // {0,1} and {2,3}: fast inside, slow across.
  const std::vector<InferencePair> slow = {{0, 2}, {0, 3}, {1, 2}, {1, 3}};
  const std::vector<InferencePair> fast = {{0, 1}, {2, 3}};
  PairInferenceInput in;
  in.nodes = 4;
  in.fast_pairs = {1, 1, 1, 1};
  in.slow_pairs = slow;
  in.measured_pairs = {3, 3, 3, 3};
  PairInference out = infer_pair_faults(in);
  EXPECT_EQ(out.links.size(), 4U);  // no fast pairs given: no crossing looked for
  EXPECT_EQ(std::count(out.slow.begin(), out.slow.end(), true), 0) << "2 of 3 pairs slow is not mostly slow";
  find_slow_crossing(slow, fast, out);
  EXPECT_TRUE(out.links.empty());
  const PairInference lazily = infer_pair_faults(in, [&] { return fast; });
  EXPECT_TRUE(lazily.links.empty());
  ASSERT_EQ(lazily.crossings.size(), 1U);
  ASSERT_EQ(out.crossings.size(), 1U);
  EXPECT_EQ(out.crossings[0].side_a, (std::vector<int>{0, 1}));
  EXPECT_EQ(out.crossings[0].side_b, (std::vector<int>{2, 3}));

  // A fast pair across the two sides: no single slow path, the links stay links.
  PairInference again = infer_pair_faults(in);
  find_slow_crossing(slow, {{0, 1}, {2, 3}, {0, 2}}, again);
  EXPECT_TRUE(again.crossings.empty());
  EXPECT_EQ(again.links.size(), 4U);
}

// --- the scenario table through judge_pairs ------------------------------------------------------

struct Expect {
  std::set<int> slow_nodes;
  std::set<std::pair<int, int>> links;
  bool crossing = false;
  std::size_t ambiguous = 0;
};

std::set<int> named(const Run& run) {
  std::set<int> out;
  for (const Straggler& s : run.stragglers) out.insert(s.node);
  return out;
}
std::set<std::pair<int, int>> linked(const Run& run) {
  std::set<std::pair<int, int>> out;
  for (const LinkFinding& l : run.links)
    out.insert({std::min(l.nodes[0], l.nodes[1]), std::max(l.nodes[0], l.nodes[1])});
  return out;
}
std::size_t count_check(const Run& run, const std::string& check) {
  return static_cast<std::size_t>(
      std::count_if(run.findings.begin(), run.findings.end(), [&](const Finding& f) { return f.check == check; }));
}

// Healthy 100 GB/s +-2% on every pair (seeded); `factor(a, b)` slows a pair.
Run scenario(int n, std::uint32_t seed, const std::function<double(int, int)>& factor) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> noise(-0.02, 0.02);
  return make_run(n, [&](int a, int b) { return 100.0 * (1.0 + noise(rng)) * factor(a, b); });
}

void check(const Run& run, const Expect& want, const std::string& what) {
  EXPECT_EQ(named(run), want.slow_nodes) << what;
  EXPECT_EQ(linked(run), want.links) << what;
  EXPECT_EQ(count_check(run, "pairs.slow_crossing") > 0, want.crossing) << what;
  EXPECT_EQ(count_check(run, "pairs.ambiguous"), want.ambiguous) << what;
}

TEST(PairInferenceTable, SlowNodesAreNamedExactlyEvenAsAMajority) {
  for (int n : {2, 3, 4, 5, 6, 8, 12, 16, 32, 64}) {
    for (int k = 0; k <= 4 && k <= n; ++k) {
      for (std::uint32_t seed = 1; seed <= 3; ++seed) {
        std::set<int> bad;
        for (int i = 0; i < k; ++i) bad.insert((i * 7 + static_cast<int>(seed)) % n);
        if (static_cast<int>(bad.size()) != k) continue;
        podperf::Run run =
            scenario(n, seed, [&](int a, int b) { return bad.contains(a) || bad.contains(b) ? 0.4 : 1.0; });
        judge_pairs(run, config());
        const std::string what = "n=" + std::to_string(n) + " k=" + std::to_string(k) + " seed=" + std::to_string(seed);
        Expect want;
        // Three healthy nodes (three fast pairs) anchor "healthy" and name every slow node, however
        // many. Two (one fast pair): the baseline rests on that one pair, which must be reproduced by
        // its retest first (analysis/pairs/anchor_check.hpp): without one the run says it cannot tell (one
        // pairs.ambiguous). With fewer, every pair holds a slow node, all look alike and nothing can
        // be told (no healthy node is blamed either).
        if (n - k >= 3) {
          want.slow_nodes = bad;
        } else if (n - k == 2 && k > 0) {
          want.ambiguous = 1;
        }
        check(run, want, what);
        if (n - k != 2 || k == 0) continue;
        // The fast pair's retest reproduces it: one slow node, or two slow hosts of four slow with
        // each other too, are named; more, and the one fast pair may be the odd one (a faster path
        // between its nodes): still one pairs.ambiguous.
        for (PairResult& p : run.pairs) {
          if (bad.contains(p.nodes[0]) || bad.contains(p.nodes[1])) continue;
          p.retest_samples_s = p.samples_s;
          p.retest_busbw_gbps = p.busbw_gbps;
        }
        judge_pairs(run, config());
        Expect retested;
        if (k <= 2) {
          retested.slow_nodes = bad;
        } else {
          retested.ambiguous = 1;
        }
        check(run, retested, what + " (fast pair retested)");
      }
    }
  }
}

// Retests of the pairs `fast` says are fast, reproducing them: three nodes keep a baseline of one or
// two pairs, which names nothing until reproduced (analysis/pairs/anchor_check.hpp).
void retest_fast(podperf::Run& run, const std::function<bool(int, int)>& fast) {
  for (PairResult& p : run.pairs) {
    if (fast(p.nodes[0], p.nodes[1])) p.retest_samples_s = p.samples_s, p.retest_busbw_gbps = p.busbw_gbps;
  }
}

TEST(PairInferenceTable, SlowLinksAreLinksNotNodes) {
  for (int n : {3, 4, 6, 16, 64}) {
    podperf::Run run = scenario(n, 5, [](int a, int b) { return a == 0 && b == 1 ? 0.5 : 1.0; });
    if (n == 3) retest_fast(run, [](int a, int b) { return !(a == 0 && b == 1); });  // a baseline of 2 pairs
    judge_pairs(run, config());
    Expect want;
    want.links = {{0, 1}};
    check(run, want, "one link, n=" + std::to_string(n));
  }
  // Two unrelated links among 16.
  podperf::Run run =
      scenario(16, 6, [](int a, int b) { return (a == 2 && b == 9) || (a == 4 && b == 11) ? 0.5 : 1.0; });
  judge_pairs(run, config());
  Expect want;
  want.links = {{2, 9}, {4, 11}};
  check(run, want, "two links, n=16");
}

TEST(PairInferenceTable, SlowCrossingBlamesNoNodeWithOrWithoutTopology) {
  for (int n : {4, 8, 16}) {
    for (bool with_topology : {false, true}) {
      // Two leaves of n/2 under one spine, every crossing pair at 40% (the majority of the pairs).
      podperf::Run run = scenario(n, 7, [n](int a, int b) { return (a < n / 2) != (b < n / 2) ? 0.4 : 1.0; });
      if (with_topology) {
        run.topology_levels = {"switch-level-1", "switch-level-0"};
        for (int i = 0; i < n; ++i)
          run.nodes[static_cast<std::size_t>(i)].topology = {"spine", i < n / 2 ? "leafA" : "leafB"};
      }
      // Four nodes: the baseline rests on the two pairs inside the leaves, fewer than anchor_min_pairs;
      // their retests reproduce them (analysis/pairs/anchor_check.hpp).
      for (PairResult& p : run.pairs) {
        if (n == 4 && (p.nodes[0] < n / 2) == (p.nodes[1] < n / 2)) {
          p.retest_samples_s = p.samples_s;
          p.retest_busbw_gbps = p.busbw_gbps;
        }
      }
      judge_pairs(run, config());
      Expect want;
      want.crossing = true;
      const std::string what = "crossing n=" + std::to_string(n) + (with_topology ? " topology" : "");
      check(run, want, what);
      const auto f = std::find_if(run.findings.begin(), run.findings.end(),
                                  [](const Finding& x) { return x.check == "pairs.slow_crossing"; });
      ASSERT_NE(f, run.findings.end());
      // Two groups only: which side's uplink cannot be told; the finding says so.
      EXPECT_NE(f->next_step.find("ambiguous which side"), std::string::npos) << what;
      if (with_topology) {
        EXPECT_NE(f->observed.find("leafA"), std::string::npos) << f->observed;
      }
    }
  }
}

TEST(PairInferenceTable, SlowUplinkOfOneGroupAmongThree) {
  // Three leaves of 4; leaf 0's uplink at 50%: its pairs out are slow, all else fast.
  podperf::Run run = scenario(12, 8, [](int a, int b) { return (a < 4) != (b < 4) ? 0.5 : 1.0; });
  run.topology_levels = {"spine", "leaf"};
  for (int i = 0; i < 12; ++i) {
    run.nodes[static_cast<std::size_t>(i)].topology = {"sp1", "leaf" + std::to_string(i / 4)};
  }
  judge_pairs(run, config());
  Expect want;
  want.crossing = true;
  check(run, want, "uplink of leaf0");
  const auto f = std::find_if(run.findings.begin(), run.findings.end(),
                              [](const Finding& x) { return x.check == "pairs.slow_crossing"; });
  ASSERT_NE(f, run.findings.end());
  EXPECT_NE(f->observed.find("leaf leaf0"), std::string::npos) << f->observed;
}

TEST(PairInferenceTable, ANodeALittleSlowIsNotClearedByAPairInsideTheThreshold) {
  // Node 5 of 16 at 85%, but its pairs with 0 and 1 fall inside the threshold: those two fast pairs
  // clear it, yet 13 of its 15 pairs are slow with healthy partners. Named, with no links.
  for (int n : {16, 64}) {
    podperf::Run run = scenario(n, 11, [](int a, int b) {
      const bool with5 = a == 5 || b == 5;
      const bool spared = (a == 5 && b < 2) || (b == 5 && a < 2);
      return with5 && !spared ? 0.85 : 1.0;
    });
    judge_pairs(run, config());
    Expect want;
    want.slow_nodes = {5};
    check(run, want, "mostly slow, n=" + std::to_string(n));
  }
}

TEST(PairInferenceTable, ANodeSlowInSomePairsOnlyIsIntermittentNotAStraggler) {
  // Node 5 of 16 slow with 5 partners only (a flapping NIC, throttling now and then): links, and the
  // CONCERN that names it as their likely shared cause; no straggler.
  podperf::Run run = scenario(16, 12, [](int a, int b) {
    const int other = a == 5 ? b : b == 5 ? a : -1;
    return other >= 8 && other < 13 ? 0.6 : 1.0;
  });
  judge_pairs(run, config());
  EXPECT_TRUE(named(run).empty());
  EXPECT_EQ(linked(run).size(), 5U);
  EXPECT_EQ(count_check(run, "pairs.intermittent_node"), 1U);
  EXPECT_EQ(count_check(run, "pairs.ambiguous"), 0U);
}

TEST(PairInferenceTable, ASlowGroupNamesItsNodesAndASlowUplinkNone) {
  // Three leaves of 4: every node of leaf 0 slow (pairs inside it slow too) is four slow nodes; leaf
  // 0's uplink slow (pairs inside it fast) is a crossing, with or without the topology.
  for (bool with_topology : {false, true}) {
    const auto leaf = [](int i) { return i / 4; };
    podperf::Run group = scenario(12, 13, [&](int a, int b) { return leaf(a) == 0 || leaf(b) == 0 ? 0.5 : 1.0; });
    podperf::Run uplink = scenario(12, 14, [&](int a, int b) { return (leaf(a) == 0) != (leaf(b) == 0) ? 0.5 : 1.0; });
    for (podperf::Run* run : {&group, &uplink}) {
      if (!with_topology) continue;
      run->topology_levels = {"spine", "leaf"};
      for (int i = 0; i < 12; ++i) {
        run->nodes[static_cast<std::size_t>(i)].topology = {"sp1", "leaf" + std::to_string(leaf(i))};
      }
    }
    judge_pairs(group, config());
    judge_pairs(uplink, config());
    const std::string what = with_topology ? " (topology)" : " (no topology)";
    Expect slow_group;
    slow_group.slow_nodes = {0, 1, 2, 3};
    check(group, slow_group, "slow group" + what);
    Expect slow_uplink;
    slow_uplink.crossing = true;
    check(uplink, slow_uplink, "slow uplink" + what);
  }
}

TEST(PairInferenceTable, UnequalSlowNodesAsAMajorityAreNamedAgainstTheFastestGroup) {
  // Half the nodes slow, each at its own speed (60% to 75% of healthy, a pair at its slower node's
  // speed, +-1% noise): no gap in the values, but one in the nodes' best pairs (analysis/
  // fastest_group.hpp). Two slow hosts of four included: their one fast pair needs its retest first.
  for (int n : {4, 6, 8, 12, 16, 32}) {
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
      std::mt19937 rng(seed);
      std::uniform_real_distribution<double> noise(-0.01, 0.01);
      std::vector<double> speed(static_cast<std::size_t>(n), 1.0);
      std::set<int> bad;
      for (int i = 0; i < n / 2; ++i) {
        const int node = (i * 5 + static_cast<int>(seed)) % n;
        if (!bad.insert(node).second) continue;
        speed[static_cast<std::size_t>(node)] = 0.6 + 0.15 * i / std::max(1, n / 2 - 1);
      }
      podperf::Run run = make_run(n, [&](int a, int b) {
        return 100.0 * std::min(speed[static_cast<std::size_t>(a)], speed[static_cast<std::size_t>(b)]) *
               (1.0 + noise(rng));
      });
      retest_fast(run, [&](int a, int b) { return !bad.contains(a) && !bad.contains(b); });
      judge_pairs(run, config());
      const std::string what = "n=" + std::to_string(n) + " seed=" + std::to_string(seed);
      Expect want;
      if (n == 4) {
        // Two of four: the fastest group is one pair, about 1.5x the others. A pair on a faster path
        // than the rest explains that as well (single_pair_anchor_max_ratio): cannot tell, not a guess.
        want.ambiguous = 1;
      } else {
        want.slow_nodes = bad;
      }
      check(run, want, what);
      EXPECT_EQ(pairs_exit_code(run), 1) << what;
      if (n == 4) {
        const auto f = std::find_if(run.findings.begin(), run.findings.end(),
                                    [](const Finding& x) { return x.check == "pairs.ambiguous"; });
        ASSERT_NE(f, run.findings.end()) << what;
        EXPECT_NE(f->meaning.find("faster path"), std::string::npos) << what << ": " << f->meaning;
      }
    }
  }
}

TEST(PairInferenceTable, AgainstOneFastPairOnlyANodeFarBelowItIsNamed) {
  // Two slow hosts of four, the fast pair reproduced by its retest. Named when both run at most half
  // as fast as the fast pair; a node nearer (a faster path between the two fast nodes explains it as
  // well) is left undecided, while the far one is named still: it is slow under either reading.
  struct Case {
    double slow2, slow3;
    std::set<int> named;
    std::size_t ambiguous;
  };
  for (const Case& c : {Case{0.40, 0.40, {2, 3}, 0}, Case{0.35, 0.45, {2, 3}, 0}, Case{0.40, 0.80, {2}, 1},
                        Case{0.70, 0.75, {}, 1}, Case{0.55, 0.60, {}, 1}}) {
    const std::vector<double> speed = {1.0, 1.0, c.slow2, c.slow3};
    podperf::Run run = make_run(4, [&](int a, int b) {
      return 100.0 * std::min(speed[static_cast<std::size_t>(a)], speed[static_cast<std::size_t>(b)]);
    });
    retest_fast(run, [](int a, int b) { return a < 2 && b < 2; });
    judge_pairs(run, config());
    const std::string what = fmt::format("slow nodes at {} and {}", c.slow2, c.slow3);
    Expect want;
    want.slow_nodes = c.named;
    want.ambiguous = c.ambiguous;
    check(run, want, what);
  }
}

TEST(PairInferenceTable, ThreeNodesOneSlowNodeIsNamedOneSlowLinkIsALink) {
  // Node 2 slow with both others, which are fast with each other: one slow node explains two slow
  // pairs (two slow links would be two faults). One slow link: both its nodes fast with the third.
  podperf::Run node = scenario(3, 15, [](int a, int b) { return a == 2 || b == 2 ? 0.5 : 1.0; });
  judge_pairs(node, config());
  Expect unconfirmed;
  unconfirmed.ambiguous = 1;
  check(node, unconfirmed, "three nodes, one slow node, the fast pair not measured again");
  retest_fast(node, [](int a, int b) { return a != 2 && b != 2; });
  judge_pairs(node, config());
  Expect one_node;
  one_node.slow_nodes = {2};
  check(node, one_node, "three nodes, one slow node");
  podperf::Run link = scenario(3, 16, [](int a, int b) { return a == 0 && b == 2 ? 0.5 : 1.0; });
  retest_fast(link, [](int a, int b) { return !(a == 0 && b == 2); });
  judge_pairs(link, config());
  Expect one_link;
  one_link.links = {{0, 2}};
  check(link, one_link, "three nodes, one slow link");
}

TEST(PairInferenceTable, OneFastPairAndThreeSlowNodesCannotBeTold) {
  // Five nodes, three slow: the one fast pair (0-1) may be the odd one (a faster path between its
  // nodes) as well as three nodes being slow. Said plainly, nobody named; the finding says what decides.
  podperf::Run run = scenario(5, 17, [](int a, int b) { return a >= 2 || b >= 2 ? 0.5 : 1.0; });
  judge_pairs(run, config());
  Expect ambiguous;
  ambiguous.ambiguous = 1;
  check(run, ambiguous, "five nodes, three slow");
  const auto f = std::find_if(run.findings.begin(), run.findings.end(),
                              [](const Finding& x) { return x.check == "pairs.ambiguous"; });
  ASSERT_NE(f, run.findings.end());
  EXPECT_NE(f->meaning.find("cannot tell: 3 nodes are slow"), std::string::npos) << f->meaning;
  EXPECT_NE(f->next_step.find("published figure"), std::string::npos) << f->next_step;
  EXPECT_EQ(pairs_exit_code(run), 1);
}

TEST(PairInferenceTable, OnePairPerNodeNamesNobody) {
  // A run cut after its first round: 6 nodes, 3 disjoint pairs, one at 82%.
  std::mt19937 rng(9);
  podperf::Run run = make_run(6, [](int, int) { return 100.0; });
  run.pairs.clear();
  run.pairs.push_back(synthetic::make_pair(0, 5, kJudgedSize, 99.0));
  run.pairs.push_back(synthetic::make_pair(1, 4, kJudgedSize, 82.0));
  run.pairs.push_back(synthetic::make_pair(2, 3, kJudgedSize, 101.0));
  judge_pairs(run, config());
  Expect want;
  want.ambiguous = 2;  // 1 and 4: either may be slow, or only their link
  check(run, want, "one round");
}

TEST(PairInferenceTable, ANodeWithOneMeasuredPairIsAmbiguousWithItsRetest) {
  // Eight nodes fully measured, a ninth measured once, slowly, with node 0.
  podperf::Run run = scenario(8, 10, [](int, int) { return 1.0; });
  run.nodes = synthetic::make_nodes(9);
  run.pairs.push_back(synthetic::make_pair(0, 8, kJudgedSize, 50.0));
  judge_pairs(run, config());
  Expect want;
  want.ambiguous = 1;
  check(run, want, "ninth node");
  const auto f = std::find_if(run.findings.begin(), run.findings.end(),
                              [](const Finding& x) { return x.check == "pairs.ambiguous"; });
  ASSERT_NE(f, run.findings.end());
  EXPECT_NE(f->next_step.find("--pairs node8:node1"), std::string::npos) << f->next_step;
  EXPECT_EQ(pairs_exit_code(run), 1);  // nothing named, yet something is slow: the CONCERN says what to retest
}

TEST(PairInferenceTable, TopologyGroupNameIsTheInputsName) {
  podperf::Run run = make_run(4, [](int, int) { return 1.0; });
  run.topology_levels = {"topology.k8s.aws/network-node-layer-1", "topology.k8s.aws/network-node-layer-2"};
  const std::vector<std::vector<std::string>> paths = {
      {"nn-1", "nn-a"}, {"nn-1", "nn-a"}, {"nn-1", "nn-b"}, {"nn-1", "nn-b"}};
  for (std::size_t i = 0; i < 4; ++i) run.nodes[i].topology = paths[i];
  EXPECT_EQ(topology_group_name(run, {0, 1}), "topology.k8s.aws/network-node-layer-2 nn-a");
  EXPECT_EQ(topology_group_name(run, {0}), "");  // part of a group only
  EXPECT_EQ(topology_group_name(run, {0, 1, 2, 3}), "topology.k8s.aws/network-node-layer-1 nn-1");
}

TEST(PairInferenceTable, SlurmSwitchesAreNamedAsSlurmNamesThem) {
  // scontrol show topology: two leaf switches under one spine. Slurm names switches, not levels: the
  // findings name the switches (leafA, spine), never the parser's own "switch-level-0".
  podperf::Run run = scenario(4, 7, [](int a, int b) { return (a < 2) != (b < 2) ? 0.4 : 1.0; });
  apply_topology(run, parse_slurm_topology("SwitchName=spine Switches=leafA,leafB\n"
                                           "SwitchName=leafA Nodes=node[0-1]\nSwitchName=leafB Nodes=node[2-3]\n",
                                           "topology.conf"));
  EXPECT_EQ(topology_group_name(run, {0, 1}), "switch leafA");
  EXPECT_EQ(topology_class_name(run, 1), "crosses leafA, leafB under spine");
  for (PairResult& p : run.pairs) {
    if ((p.nodes[0] < 2) == (p.nodes[1] < 2)) p.retest_samples_s = p.samples_s, p.retest_busbw_gbps = p.busbw_gbps;
  }
  judge_pairs(run, config());
  const auto f = std::find_if(run.findings.begin(), run.findings.end(),
                              [](const Finding& x) { return x.check == "pairs.slow_crossing"; });
  ASSERT_NE(f, run.findings.end());
  EXPECT_NE(f->observed.find("switch leafA (node0, node1)"), std::string::npos) << f->observed;
  EXPECT_NE(f->observed.find("switch leafB (node2, node3)"), std::string::npos) << f->observed;
  for (const Finding& x : run.findings) {
    EXPECT_EQ(x.observed.find("switch-level"), std::string::npos) << x.check << ": " << x.observed;
    EXPECT_EQ(x.meaning.find("switch-level"), std::string::npos) << x.check << ": " << x.meaning;
  }
}

}  // namespace
}  // namespace podperf

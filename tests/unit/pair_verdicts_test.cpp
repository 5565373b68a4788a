// The pair judge's verdicts (analysis/pairs/pair_verdicts.hpp through judge_pairs and judge_run): a table
// of scenarios over N = 2..64 nodes with noise on every pair (slow nodes, links, crossings, groups,
// classes), and the cases issue 31 measured on the judge before it (each failed there): a steady
// 10%-slow node at 2-3% pair noise, a 7% node at 1%, two unequal slow nodes, a fabric of leaf groups
// whose crossing is slower, one fast pair at four nodes, retests that replaced each other, nodes of
// different kinds, the confirmation judged against itself, the cut printed that was not the one applied.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/judge_run.hpp"
#include "analysis/model/attach_retest.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/pairs/pair_reference.hpp"
#include "analysis/report/run_text.hpp"
#include "analysis/topology/topology.hpp"
#include "analysis/topology/topology_analysis.hpp"
#include "bench/sim_pairs.hpp"
#include "sim/sim_model.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

using synthetic::kJudgedSize;
using synthetic::make_run;

const PairThresholds& config() {
  return synthetic::builtin_pair_thresholds();
}

struct Expect {
  std::set<int> slow_nodes;
  std::set<std::pair<int, int>> links;
  bool crossing = false;
  bool ambiguous = false;
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
const Finding* finding(const Run& run, const std::string& check) {
  for (const Finding& f : run.findings) {
    if (f.check == check) return &f;
  }
  return nullptr;
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
  EXPECT_EQ(count_check(run, "pairs.ambiguous") > 0, want.ambiguous) << what;
}

void place(Run& run, const std::vector<std::string>& levels, const std::function<std::vector<std::string>(int)>& path) {
  run.topology_levels = levels;
  for (std::size_t i = 0; i < run.nodes.size(); ++i) run.nodes[i].topology = path(static_cast<int>(i));
}

// --- the scenario table ----------------------------------------------------------------------------

TEST(PairVerdicts, SlowNodesAreNamedExactly) {
  for (int n : {5, 6, 8, 12, 16, 32, 64}) {
    for (int k = 0; k <= 4 && 2 * k < n; ++k) {
      for (std::uint32_t seed = 1; seed <= 3; ++seed) {
        std::set<int> bad;
        for (int i = 0; i < k; ++i) bad.insert((i * 7 + static_cast<int>(seed)) % n);
        if (static_cast<int>(bad.size()) != k) continue;
        podperf::Run run =
            scenario(n, seed, [&](int a, int b) { return bad.contains(a) || bad.contains(b) ? 0.4 : 1.0; });
        judge_pairs(run, config());
        Expect want;
        want.slow_nodes = bad;
        check(run, want, fmt::format("n={} k={} seed={}", n, k, seed));
      }
    }
  }
}

TEST(PairVerdicts, TwoNodesCannotJudgeRelativelyAndSaySo) {
  podperf::Run run = make_run(2, [](int, int) { return 50.0; });
  judge_pairs(run, config());
  EXPECT_TRUE(run.stragglers.empty());
  EXPECT_TRUE(run.links.empty());
  const Finding* f = finding(run, "pairs.no_reference");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->next_step.find("--sku"), std::string::npos) << f->next_step;
  EXPECT_NE(f->next_step.find("--baseline-from"), std::string::npos) << f->next_step;
  EXPECT_NE(run.pair_judgement.reference.find("no relative judgement"), std::string::npos)
      << run.pair_judgement.reference;
  EXPECT_NE(render_summary(run, "r").find("reference: no relative judgement"), std::string::npos);
}

// Two slow hosts of four: the one fast pair between the healthy two looks exactly like a pair on a faster
// path (issue 31: one persistent pair 2x faster named two healthy nodes). Named only far below
// (half_split_max_ratio), else said ambiguous; never a guess.
TEST(PairVerdicts, TwoSlowHostsOfFourAreNamedOnlyFarBelowTheFastPair) {
  struct Case {
    double slow;
    bool name;
  };
  for (const Case& c : {Case{0.10, true}, Case{0.25, true}, Case{0.50, false}, Case{0.60, false}}) {
    podperf::Run run = make_run(4, [&](int a, int b) { return 100.0 * (a >= 2 || b >= 2 ? c.slow : 1.0); });
    judge_pairs(run, config());
    const std::string what = fmt::format("slow hosts at {}", c.slow);
    Expect want;
    if (c.name) want.slow_nodes = {2, 3};
    want.ambiguous = !c.name;
    check(run, want, what);
    EXPECT_EQ(pairs_exit_code(run), 1) << what;
  }
}

TEST(PairVerdicts, OneFastPairAtFourNodesNamesNobody) {
  for (double fast : {1.5, 2.0, 2.5}) {
    podperf::Run run = scenario(4, 3, [&](int a, int b) { return a == 0 && b == 1 ? fast : 1.0; });
    judge_pairs(run, config());
    EXPECT_TRUE(run.stragglers.empty()) << fast;
    EXPECT_TRUE(run.links.empty()) << fast;
  }
}

TEST(PairVerdicts, SlowLinksAreLinksNotNodes) {
  for (int n : {5, 6, 16, 64}) {
    podperf::Run run = scenario(n, 5, [](int a, int b) { return a == 0 && b == 1 ? 0.5 : 1.0; });
    judge_pairs(run, config());
    Expect want;
    want.links = {{0, 1}};
    check(run, want, "one link, n=" + std::to_string(n));
  }
  podperf::Run run =
      scenario(16, 6, [](int a, int b) { return (a == 2 && b == 9) || (a == 4 && b == 11) ? 0.5 : 1.0; });
  judge_pairs(run, config());
  Expect want;
  want.links = {{2, 9}, {4, 11}};
  check(run, want, "two links, n=16");
}

// A slow crossing between two halves: one pairs.slow_crossing (the class gap, once), no node, no link;
// without a topology the blocks are found in the matrix (6 nodes or more).
TEST(PairVerdicts, SlowCrossingIsOneFindingWithOrWithoutTopology) {
  for (int n : {4, 8, 16}) {
    for (bool with_topology : {false, true}) {
      if (n == 4 && !with_topology) continue;  // two blocks of two: below what the matrix can tell (below)
      podperf::Run run = scenario(n, 7, [n](int a, int b) { return (a < n / 2) != (b < n / 2) ? 0.4 : 1.0; });
      if (with_topology) {
        place(run, {"spine", "leaf"}, [n](int i) {
          return std::vector<std::string>{"s1", i < n / 2 ? "leafA" : "leafB"};
        });
      }
      judge_pairs(run, config());
      const std::string what = fmt::format("crossing n={}{}", n, with_topology ? " topology" : "");
      Expect want;
      want.crossing = true;
      check(run, want, what);
      EXPECT_EQ(count_check(run, "pairs.slow_crossing"), 1U) << what;
      if (with_topology) {
        EXPECT_NE(finding(run, "pairs.slow_crossing")->observed.find("crosses leaf"), std::string::npos) << what;
      }
    }
  }
  // Four nodes, no topology: two fast pairs and four slow ones are a faster class or a slow crossing;
  // nobody is named, and the fast pairs are said.
  podperf::Run run = scenario(4, 7, [](int a, int b) { return (a < 2) != (b < 2) ? 0.4 : 1.0; });
  judge_pairs(run, config());
  EXPECT_TRUE(run.stragglers.empty());
  EXPECT_TRUE(run.links.empty());
}

// A shaped crossing jitters (4 nodes in two leaves, the crossing pairs at 3-5% of the pairs inside and
// 30% apart from each other, the pairs inside within 2%: a namespaced cluster's tbf-shaped uplink): the
// gap is tested with each class's own noise, so the quiet pairs inside are not lent the crossing's
// jitter and the crossing is said. One pooled noise (29% on 3 degrees of freedom) hid a 25x gap in
// some runs. The same jitter about the inside level is no finding.
TEST(PairVerdicts, AJitteryCrossingIsTestedWithEachClassOwnNoise) {
  const auto leaves = [](podperf::Run& run) {
    place(run, {"spine", "leaf"}, [](int i) { return std::vector<std::string>{"s1", i < 2 ? "leafA" : "leafB"}; });
  };
  // h1-h3, h1-h4, h2-h3, h2-h4 as measured; the pairs inside at 0.440 and 0.431 GB/s.
  const auto crossing = [](int a, int b) {
    if ((a < 2) == (b < 2)) return a < 2 ? 0.431 : 0.440;
    if (a == 0) return b == 2 ? 0.012 : 0.018;
    return b == 2 ? 0.023 : 0.012;
  };
  podperf::Run run = make_run(4, crossing);
  leaves(run);
  judge_pairs(run, config());
  EXPECT_EQ(count_check(run, "pairs.slow_crossing"), 1U);
  EXPECT_TRUE(run.stragglers.empty());
  EXPECT_TRUE(run.links.empty());
  for (double spread : {0.3, 0.5}) {
    podperf::Run healthy = make_run(4, [&](int a, int b) {
      if ((a < 2) == (b < 2)) return a < 2 ? 0.431 : 0.440;
      return 0.435 * std::exp(spread * (((a + b) % 2 == 0) ? 1.0 : -1.0) * (a == 0 ? 1.0 : 0.5));
    });
    leaves(healthy);
    judge_pairs(healthy, config());
    EXPECT_EQ(count_check(healthy, "pairs.slow_crossing"), 0U) << "jitter " << spread;
  }
}

// Leaves of 2 (the topology known): each has one pair inside, which a slow inside term would fit exactly.
// One transient on it (a third of its speed in its one measurement) is no slow switch: it stays a flagged
// pair for the retest to decide. Before, "the pairs inside leaf-2 run at 35% of their class" (a
// pairs.slow_crossing) in about 1% of healthy runs, and the pair, explained, was never retested.
TEST(PairVerdicts, OnePairInsideALeafOfTwoIsNoSlowSwitch) {
  podperf::Run run = scenario(8, 11, [](int a, int b) { return a == 4 && b == 5 ? 0.35 : 1.0; });
  place(run, {"spine", "leaf"}, [](int i) { return std::vector<std::string>{"s1", fmt::format("leaf{}", i / 2)}; });
  judge_pairs(run, config());
  EXPECT_EQ(count_check(run, "pairs.slow_crossing"), 0U);
  EXPECT_TRUE(run.stragglers.empty());
  bool flagged = false;
  for (const PairResult& p : run.pairs) flagged |= p.nodes[0] == 4 && p.nodes[1] == 5 && p.flagged;
  EXPECT_TRUE(flagged);
}

// Many small groups without a topology (8 leaves of 8 among 64 nodes, crossing at 88%: the pairs inside
// are 1/9 of all pairs), two nodes 12% slow inside their leaves (a fault as large as the crossing gap):
// the blocks are found (the split from the quartiles missed a fast level this thin, and the slow nodes'
// pairs inside their leaf looked like crossings), the crossing is said once, both nodes are named, and
// no pair is a link. Before: "211 pairs faster than their class", no crossing.
TEST(PairVerdicts, ManySmallGroupsWithoutATopologyAreBlocksAndTheirSlowNodesAreNamed) {
  const std::set<int> slow{9, 42};
  podperf::Run run = scenario(64, 21, [&](int a, int b) {
    const double node = slow.contains(a) || slow.contains(b) ? 0.88 : 1.0;
    return node * (a / 8 == b / 8 ? 1.0 : 0.88);
  });
  judge_pairs(run, config());
  Expect want;
  want.slow_nodes = slow;
  want.crossing = true;
  check(run, want, "8 leaves of 8");
  EXPECT_EQ(count_check(run, "pairs.slow_crossing"), 1U);
  EXPECT_EQ(count_check(run, "pairs.faster_class"), 0U);
}

// Groups of 2 without a topology (two nodes under one switch, NVLink pairs: the pairs inside faster than
// all the others): too small for a block of 3, they were "N pairs faster than their class" (the
// benchmark's groups-hidden rows at 8 and 16 nodes: 8-60% exact). The fast pairs form a matching, and
// the matching is the grouping: one slow_crossing finding, the slow node named, no faster_class.
TEST(PairVerdicts, GroupsOfTwoWithoutATopologyAreBlocks) {
  for (int n : {8, 16}) {
    for (std::uint32_t seed : {1U, 2U, 3U}) {
      podperf::Run run = scenario(n, seed, [&](int a, int b) {
        const double node = a == 5 || b == 5 ? 0.88 : 1.0;
        return node * (a / 2 == b / 2 ? 1.0 : 0.8);
      });
      judge_pairs(run, config());
      Expect want;
      want.slow_nodes = {5};
      want.crossing = true;
      check(run, want, fmt::format("{} nodes in pairs, seed {}", n, seed));
      EXPECT_EQ(count_check(run, "pairs.slow_crossing"), 1U);
      EXPECT_EQ(count_check(run, "pairs.faster_class"), 0U);
    }
  }
  // Two fast pairs among 8 (a quarter of the nodes on a faster path) are no grouping: a faster class.
  podperf::Run two = scenario(8, 4, [](int a, int b) { return (a / 2 == b / 2 && a < 4) ? 1.25 : 1.0; });
  judge_pairs(two, config());
  EXPECT_EQ(count_check(two, "pairs.slow_crossing"), 0U);
  EXPECT_TRUE(two.stragglers.empty());
  EXPECT_TRUE(two.links.empty());
}

// A group too small for a block (16 nodes in leaves of 5, 5, 5 and 1, crossing at 77%, no topology):
// the lone node's pairs all cross, so it is as fast with every block and stays apart instead of joining
// one, where its 5 pairs inside would look like 5 slow links. A guard for the finer block search (the
// quartile split alone also got this right, in 40 of 40 seeds at 77% and 88% crossings).
TEST(PairVerdicts, ALoneNodeOfItsOwnGroupIsNotPutInABlockWhereItsPairsWouldBeLinks) {
  podperf::Run run = scenario(16, 5, [](int a, int b) { return a / 5 == b / 5 ? 1.0 : 0.77; });
  judge_pairs(run, config());
  Expect want;
  want.crossing = true;
  check(run, want, "leaves of 5, 5, 5, 1");
}

TEST(PairVerdicts, SlowUplinkOfOneGroupAmongThreeIsTheGroupsNotItsNodes) {
  podperf::Run run = scenario(12, 8, [](int a, int b) { return (a < 4) != (b < 4) ? 0.5 : 1.0; });
  place(run, {"spine", "leaf"}, [](int i) { return std::vector<std::string>{"sp1", "leaf" + std::to_string(i / 4)}; });
  judge_pairs(run, config());
  Expect want;
  want.crossing = true;
  check(run, want, "uplink of leaf0");
  const Finding* f = finding(run, "pairs.slow_crossing");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->observed.find("leaf leaf0"), std::string::npos) << f->observed;
}

TEST(PairVerdicts, ASlowGroupNamesItsNodes) {
  for (bool with_topology : {false, true}) {
    podperf::Run run = scenario(12, 13, [](int a, int b) { return a / 4 == 0 || b / 4 == 0 ? 0.5 : 1.0; });
    if (with_topology) {
      place(run, {"spine", "leaf"}, [](int i) {
        return std::vector<std::string>{"sp1", "leaf" + std::to_string(i / 4)};
      });
    }
    judge_pairs(run, config());
    Expect want;
    want.slow_nodes = {0, 1, 2, 3};
    check(run, want, with_topology ? "slow group (topology)" : "slow group");
  }
}

TEST(PairVerdicts, ANodeALittleSlowIsNamedThoughTwoOfItsPairsLookFine) {
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

// Slow with 5 partners of 15 (a flapping NIC): intermittent, its slow pairs are its (no links), no straggler.
TEST(PairVerdicts, ANodeSlowInSomePairsOnlyIsIntermittentNotAStraggler) {
  podperf::Run run = scenario(16, 12, [](int a, int b) {
    const int other = a == 5 ? b : b == 5 ? a : -1;
    return other >= 8 && other < 13 ? 0.6 : 1.0;
  });
  judge_pairs(run, config());
  EXPECT_TRUE(named(run).empty());
  EXPECT_TRUE(linked(run).empty());
  ASSERT_EQ(count_check(run, "pairs.intermittent_node"), 1U);
  EXPECT_EQ(finding(run, "pairs.intermittent_node")->host, "node5");
  EXPECT_EQ(run.node_estimates[5].verdict, "intermittent");
}

// --- issue 31's cases ------------------------------------------------------------------------------

// The modelled fabric measured as podperf pairs --backend sim --schedule all|adaptive -b 64M -e 64M -n 10.
SimRunResult simulate(const std::string& model_toml, int nodes, std::uint64_t seed, const std::string& schedule = "all",
                      int retest = 1) {
  SimFabric fabric(parse_sim_model(model_toml, "test", "test.toml"), nodes, seed);
  const NodeMap map = sim_node_map(fabric);
  PairsOptions o;
  o.min_bytes = "64M";
  o.max_bytes = "64M";
  o.iters = 10;
  const Plan plan = make_plan(o, map);
  ScheduleOptions so;
  so.schedule = schedule;
  so.seed = seed;
  so.retest = retest;
  return simulate_pairs(fabric, plan, map, so, o.iters);
}

std::string model(double pair_cv, const std::vector<std::pair<int, double>>& slow, const std::string& more = "") {
  std::string text = fmt::format(
      "[model]\ndescription = \"t\"\nranks_per_node = 8\nlatency_us = 30.0\nbusbw_gbps = 300.0\nnic_factor = 1.0\n"
      "[noise]\npair_cv = {}\niteration_cv = 0.03\n",
      pair_cv);
  for (const auto& [node, factor] : slow) text += fmt::format("[[slow_node]]\nnode = {}\nfactor = {}\n", node, factor);
  return text + more;
}

TEST(PairVerdictsIssue31, ASteadyTenPercentSlowNodeIsNamedAtTwoAndThreePercentNoise) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const SimRunResult r = simulate(model(0.02, {{5, 0.90}}), 16, seed);
    EXPECT_EQ(named(r.run), (std::set<int>{5})) << "16 nodes, 2%, seed " << seed;
    EXPECT_EQ(count_check(r.run, "pairs.intermittent_node"), 0U) << seed;
    EXPECT_TRUE(r.run.links.empty()) << seed;
  }
  const SimRunResult r = simulate(model(0.03, {{5, 0.90}}), 64, 2);
  EXPECT_EQ(named(r.run), (std::set<int>{5})) << "64 nodes, 3%";
  EXPECT_TRUE(r.run.links.empty());
}

TEST(PairVerdictsIssue31, ASevenPercentNodeAndTwoUnequalSlowNodesAmong32) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    EXPECT_EQ(named(simulate(model(0.01, {{9, 0.93}}), 32, seed).run), (std::set<int>{9})) << seed;
    EXPECT_EQ(named(simulate(model(0.01, {{3, 0.85}, {20, 0.92}}), 32, seed).run), (std::set<int>{3, 20})) << seed;
  }
}

TEST(PairVerdictsIssue31, TwoTenPercentNodesAmong256Adaptive) {
  const SimRunResult r = simulate(model(0.02, {{17, 0.90}, {200, 0.90}}), 256, 4, "adaptive");
  EXPECT_EQ(named(r.run), (std::set<int>{17, 200}));
}

// 24 nodes in three leaf groups of 8 whose crossing pairs run at 70% (the topology known): one finding for
// the class gap, no links, no intermittent nodes; a node at 80% inside is named.
TEST(PairVerdictsIssue31, StructureIsOneFindingAndASlowNodeInsideIsNamed) {
  const std::string topology =
      "[topology]\nlevels = [\"spine\", \"leaf\"]\ngroup_sizes = [24, 8]\n"
      "crossing_factors = [1.0, 0.7]\n";
  const SimRunResult healthy = simulate(model(0.02, {}, topology), 24, 3);
  EXPECT_TRUE(healthy.run.stragglers.empty());
  EXPECT_TRUE(healthy.run.links.empty());
  EXPECT_EQ(count_check(healthy.run, "pairs.slow_crossing"), 1U);
  EXPECT_EQ(count_check(healthy.run, "pairs.intermittent_node"), 0U);
  EXPECT_EQ(count_check(healthy.run, "topology.cross_layer"), 0U) << "the gap is said once";
  const SimRunResult slow = simulate(model(0.02, {{10, 0.8}}, topology), 24, 3);
  EXPECT_EQ(named(slow.run), (std::set<int>{10}));
  EXPECT_TRUE(slow.run.links.empty());
  // Summary: one line per class, no flood.
  const std::string text = render_summary(slow.run, "r");
  EXPECT_LT(std::count(text.begin(), text.end(), '\n'), 80) << text;
}

// A fast class (one leaf whose pairs inside run 1.6x: an NVLink domain) is a class, never the level the
// others are judged by. With 4 groups or more; with two groups of which one is fast inside, which one is the
// norm is not identifiable (a known limit, docs/judging-inference.md).
TEST(PairVerdictsIssue31, AFastClassIsAClassNotTheAnchor) {
  const std::string topology =
      "[topology]\nlevels = [\"leaf\"]\ngroup_sizes = [4]\ncrossing_factors = [1.0]\n"
      "[[group_factor]]\nlevel = \"leaf\"\ngroup = 0\nfactor = 1.6\n";
  for (int n : {16, 24}) {
    const SimRunResult r = simulate(model(0.02, {}, topology), n, 5);
    EXPECT_TRUE(r.run.stragglers.empty()) << n;
    EXPECT_TRUE(r.run.links.empty()) << n;
    EXPECT_EQ(count_check(r.run, "pairs.faster_class"), 1U) << n;
  }
}

// Leaves of 2 (one fast inside) with a node 12% slow in another leaf: that leaf's one inside pair runs at
// the slow node's speed, which is the node's, not a slow switch (before: "the pairs inside leaf-0003 run
// at 88% of their class", a false slow_crossing concern beside the named node, in about half the runs).
TEST(PairVerdictsIssue31, ASlowNodeInALeafOfTwoIsNotItsSwitch) {
  const std::string topology =
      "[topology]\nlevels = [\"leaf\"]\ngroup_sizes = [2]\ncrossing_factors = [1.0]\n"
      "[[group_factor]]\nlevel = \"leaf\"\ngroup = 0\nfactor = 1.6\n";
  for (std::uint32_t seed : {1U, 2U, 3U, 4U}) {
    const SimRunResult r = simulate(model(0.02, {{7, 0.88}}, topology), 16, seed);
    EXPECT_EQ(named(r.run), (std::set<int>{7})) << seed;
    EXPECT_TRUE(r.run.links.empty()) << seed;
    EXPECT_EQ(count_check(r.run, "pairs.slow_crossing"), 0U) << seed;
    EXPECT_EQ(count_check(r.run, "pairs.faster_class"), 1U) << seed;
  }
}

// 4 nodes, two slow links at one node (sim0003 with sim0000 at 0.5 and with sim0001 at 0.7): two of its
// three pairs are slow, but its pair with sim0002 runs at the level, and a pair runs at its slower
// node's speed, so sim0003 is not slow. Before, its median pair (the 0.7 link) named it a straggler in
// every one of these seeds (a healthy node named in 10-20% of 4-node runs with slow links). A real slow
// node at 4 nodes (all three pairs slow) still is.
TEST(PairVerdictsIssue31, APairAtTheLevelContradictsASlowMedianAtFourNodes) {
  const std::string links = "[[slow_link]]\nnodes = [0, 3]\nfactor = 0.5\n[[slow_link]]\nnodes = [1, 3]\nfactor = 0.7\n";
  for (std::uint64_t seed = 2; seed <= 7; ++seed) {
    const SimRunResult r = simulate(model(0.01, {}, links), 4, seed);
    EXPECT_EQ(named(r.run), (std::set<int>{})) << seed;
  }
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    EXPECT_EQ(named(simulate(model(0.01, {{3, 0.6}}), 4, seed).run), (std::set<int>{3})) << seed;
  }
}

// Nodes with 4 ranks and half the capacity beside nodes with 8: judged apart, and said; a slow node of
// the larger kind is named.
TEST(PairVerdictsIssue31, NodesOfDifferentKindsAreJudgedApart) {
  const std::string kinds = "[[node_kind]]\nfirst = 12\ncount = 4\nranks_per_node = 4\nfactor = 0.5\n";
  const SimRunResult r = simulate(model(0.02, {{3, 0.85}}, kinds), 16, 6);
  EXPECT_EQ(named(r.run), (std::set<int>{3}));
  const Finding* f = finding(r.run, "pairs.mixed_nodes");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->observed.find("4 ranks"), std::string::npos) << f->observed;
}

// Every measurement is kept: a later retest adds to the first, and a pair is judged by them all.
TEST(PairVerdictsIssue31, RetestsAddEvidenceAndNeverReplaceIt) {
  podperf::Run run = scenario(8, 21, [](int, int) { return 1.0; });
  run.options.retest = 2;
  PairResult retest = run.pairs[0];
  retest.busbw_gbps = 60.0;
  ASSERT_TRUE(attach_retest(run, retest));
  retest.busbw_gbps = 101.0;
  ASSERT_TRUE(attach_retest(run, retest));
  EXPECT_DOUBLE_EQ(run.pairs[0].retest_busbw_gbps, 60.0);
  ASSERT_EQ(run.pairs[0].later_retest_busbw_gbps.size(), 1U);
  EXPECT_DOUBLE_EQ(run.pairs[0].later_retest_busbw_gbps[0], 101.0);
  judge_pairs(run, config());
  EXPECT_FALSE(run.pairs[0].flagged) << "slow in one of three measurements: not a slow pair";
  EXPECT_EQ(run.pair_judgement.measurements, run.pairs.size() + 2);
  // Slow in two of three: flagged.
  run.pairs[0].busbw_gbps = 55.0;
  judge_pairs(run, config());
  EXPECT_TRUE(run.pairs[0].flagged);
}

// A steady slow link (low in both of its measurements) on a node that also has a few lows that went away
// on retest, as every run has here and there: the link is named, the node is not intermittent. The link's
// repeats count as one low, not as further evidence that its node is slow now and then (before: node 7
// intermittent, "its slow pairs are its, not links", and the link not named).
TEST(PairVerdictsIssue31, ASteadyLinkIsNotEvidenceThatItsNodeFlaps) {
  podperf::Run run = scenario(24, 5, [](int a, int b) { return (a == 3 && b == 7) || (a == 7 && b == 3) ? 0.7 : 1.0; });
  run.options.retest = 2;
  const std::set<std::pair<int, int>> chance{{1, 7},   {2, 7},   {4, 7},   {10, 11}, {12, 13},
                                             {14, 15}, {16, 17}, {18, 19}, {20, 21}};
  for (PairResult& p : run.pairs) {
    PairResult retest = p;
    const std::pair<int, int> key{std::min(p.nodes[0], p.nodes[1]), std::max(p.nodes[0], p.nodes[1])};
    if (chance.contains(key)) p.busbw_gbps *= 0.8;  // low once, fine on its retests
    ASSERT_TRUE(attach_retest(run, retest));
    ASSERT_TRUE(attach_retest(run, retest));
  }
  judge_pairs(run, config());
  EXPECT_TRUE(named(run).empty());
  EXPECT_EQ(linked(run), (std::set<std::pair<int, int>>{{3, 7}}));
  EXPECT_EQ(count_check(run, "pairs.intermittent_node"), 0U);
}

// The cut printed is the cut applied: every straggler lies beyond it, every node beyond it and its bound is
// one, and the summary prints it with its reason, the plain mean and the pairs more than 5% below it.
TEST(PairVerdictsIssue31, TheCutPrintedIsTheCutApplied) {
  for (double cv : {0.01, 0.05}) {
    const SimRunResult r = simulate(model(cv, {{2, 0.80}, {7, 0.96}}), 16, 8);
    const PairJudgement& j = r.run.pair_judgement;
    for (const NodeEstimate& e : r.run.node_estimates) {
      const bool beyond = e.ratio < 1.0 - r.run.thresholds.pairs.threshold && e.high < 1.0;
      EXPECT_EQ(e.verdict == "straggler", beyond) << e.label << " " << e.ratio << " (" << e.high << ")";
    }
    EXPECT_GE(j.node_cut, r.run.thresholds.pairs.threshold);
    const std::string text = render_summary(r.run, "results/x");
    EXPECT_NE(text.find(fmt::format("node cut {:.1f}%: ", j.node_cut * 100.0)), std::string::npos) << text;
    EXPECT_NE(text.find(fmt::format("plain mean {:.3f} GB/s; {} of", j.mean_gbps, j.pairs_below_mean)),
              std::string::npos)
        << text;
    std::size_t below = 0;
    for (const PairResult& p : r.run.pairs) below += p.busbw_gbps < j.mean_gbps * 0.95 ? 1 : 0;
    EXPECT_EQ(j.pairs_below_mean, below);
  }
}

// The confirmation podperf suggests is judged against the run it confirms (--baseline-from), never
// against itself; without the reference it says it cannot judge.
TEST(PairVerdictsIssue31, AConfirmationIsJudgedAgainstTheRunItConfirms) {
  const SimRunResult first = simulate(model(0.01, {{5, 0.70}}), 16, 9);
  ASSERT_EQ(named(first.run), (std::set<int>{5}));
  ASSERT_FALSE(first.run.stragglers[0].next_step.empty());
  EXPECT_NE(first.run.stragglers[0].next_step.find("--baseline-from"), std::string::npos);
  // The confirmation: only sim0005 with a known-good node measured.
  podperf::Run confirm = first.run;
  confirm.pairs.clear();
  for (const PairResult& p : first.run.pairs) {
    if ((p.nodes[0] == 0 && p.nodes[1] == 5) || (p.nodes[0] == 5 && p.nodes[1] == 0)) confirm.pairs.push_back(p);
  }
  confirm.pairs.front().retest_samples_s.clear();
  confirm.pairs.front().later_retest_busbw_gbps.clear();
  confirm.options.retest = 0;
  confirm.findings.clear();
  judge_pairs(confirm, config());
  EXPECT_TRUE(confirm.stragglers.empty()) << "one pair against itself names nobody";
  EXPECT_NE(finding(confirm, "pairs.no_reference"), nullptr);
  confirm.pair_reference = pair_reference_of(first.run, "first/run.json", 0, "");
  judge_pairs(confirm, config());
  EXPECT_EQ(named(confirm), (std::set<int>{5}));
  EXPECT_NE(confirm.pair_judgement.reference.find("--baseline-from first/run.json"), std::string::npos)
      << confirm.pair_judgement.reference;
}

// Every suggested command is complete: the launcher with the hosts, sizes, iterations, backend.
TEST(PairVerdictsIssue31, SuggestedCommandsAreCompleteAndRunnable) {
  podperf::Run run = scenario(8, 22, [](int a, int b) { return a == 3 || b == 3 ? 0.6 : 1.0; });
  run.launcher.kind = "slurm";
  run.options.iters = 20;
  run.options.warmup = 5;
  run.options.sizes_bytes = {kJudgedSize};
  run.run_id = "r1";
  judge_pairs(run, config(), 0, nullptr, PairJudgeContext{{}, "results/r1"});
  ASSERT_EQ(named(run), (std::set<int>{3}));
  const std::string& next = run.stragglers[0].next_step;
  // The host list: the straggler and its known-good partner, in node order.
  EXPECT_TRUE(std::regex_search(next, std::regex("srun --mpi=pmix -N2 -w (node3,node[0-9]|node[0-9],node3) "))) << next;
  EXPECT_NE(next.find("--ntasks-per-node=2 podperf pairs --backend host -b 1G -e 1G -n 20 -w 5 --pairs node3:node"),
            std::string::npos)
      << next;
  EXPECT_NE(next.find("--baseline-from results/r1"), std::string::npos) << next;
  run.launcher.kind = "openmpi";
  judge_pairs(run, config(), 0, nullptr, PairJudgeContext{{}, "results/r1"});
  EXPECT_TRUE(std::regex_search(run.stragglers[0].next_step,
                                std::regex("mpirun -np 4 -H (node3:2,node[0-9]:2|node[0-9]:2,node3:2) podperf pairs")))
      << run.stragglers[0].next_step;
}

// An absolute reference is said: relative only without a known instance type; with one whose published
// figure the whole population falls below, a CONCERN (8 nodes all at half speed are no longer OK).
TEST(PairVerdictsIssue31, AbsoluteReferenceLine) {
  podperf::Run run = scenario(8, 23, [](int, int) { return 1.0; });
  judge_pairs(run, config());
  EXPECT_NE(run.pair_judgement.reference.find("relative judgement only"), std::string::npos);
  EXPECT_EQ(pairs_exit_code(run), 0);
  podperf::Run slow = make_run(8, [](int, int) { return 218.0; });  // half of p5.48xlarge's 437 GB/s at 1G
  for (NodeInfo& n : slow.nodes) n.instance_type = "p5.48xlarge";
  slow.backend = "nccl";  // the published figures are NCCL's: the host backend is not held to them
  judge_pairs(slow, config());
  EXPECT_NE(slow.pair_judgement.reference.find("absolute"), std::string::npos) << slow.pair_judgement.reference;
  EXPECT_NE(finding(slow, "pairs.below_published"), nullptr);
  EXPECT_EQ(pairs_exit_code(slow), 1);
}

// The summary scales: one line per node at most, stragglers slowest first, the rest in the files.
TEST(PairVerdictsIssue31, SummaryScalesAndLeadsWithTheAnswer) {
  const int n = 300;
  podperf::Run run =
      scenario(n, 24, [](int a, int b) { return a % 10 == 0 || b % 10 == 0 ? 0.7 + 0.01 * ((a + b) % 7) : 1.0; });
  judge_pairs(run, config());
  EXPECT_EQ(run.stragglers.size(), 30U);
  for (std::size_t i = 1; i < run.stragglers.size(); ++i) {
    EXPECT_LE(run.stragglers[i - 1].median_ratio, run.stragglers[i].median_ratio);
  }
  const std::string text = render_summary(run, "results/big");
  EXPECT_LT(std::count(text.begin(), text.end(), '\n'), 60) << text;
  EXPECT_NE(text.find("... and 10 more in report.md"), std::string::npos) << text;
  EXPECT_NE(text.find("Reports: results/big/report.html, results/big/report.md"), std::string::npos);
  EXPECT_EQ(text.find("1073741824"), std::string::npos) << "sizes as 1G";
}

}  // namespace
}  // namespace podperf

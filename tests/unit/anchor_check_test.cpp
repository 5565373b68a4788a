// A baseline anchored on a few pairs is reproduced before it condemns the rest
// (analysis/pairs/anchor_check.hpp): offline, through judge_pairs with and without the anchor's retest,
// and end to end on the modelled fabric, where the retest planning (retest_candidates) measures the
// anchor pair again beside the flagged ones.
#include "analysis/pairs/anchor_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "bench/pairs_run.hpp"
#include "bench/sim_pairs.hpp"
#include "sim/sim_model.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

using synthetic::make_run;

const PairThresholds& config() { return synthetic::builtin_pair_thresholds(); }

std::size_t count_check(const Run& run, const std::string& check) {
  return static_cast<std::size_t>(
      std::count_if(run.findings.begin(), run.findings.end(), [&](const Finding& f) { return f.check == check; }));
}

const Finding* find_check(const Run& run, const std::string& check) {
  const auto it =
      std::find_if(run.findings.begin(), run.findings.end(), [&](const Finding& f) { return f.check == check; });
  return it == run.findings.end() ? nullptr : &*it;
}

std::set<int> named(const Run& run) {
  std::set<int> out;
  for (const Straggler& s : run.stragglers) out.insert(s.node);
  return out;
}

PairResult& pair_of(Run& run, int a, int b) {
  for (PairResult& p : run.pairs) {
    if (p.nodes[0] == a && p.nodes[1] == b) return p;
  }
  throw std::runtime_error("no such pair");
}

// A retest of `p` at `busbw_gbps`, its iterations spread as the first measurement's.
void retest(PairResult& p, double busbw_gbps) {
  p.retest_busbw_gbps = busbw_gbps;
  p.retest_samples_s.clear();
  for (double s : p.samples_s) p.retest_samples_s.push_back(s * p.busbw_gbps / busbw_gbps);
}

// Seen on main on this machine, a HEALTHY run (mpirun -np 4 pairs --virtual-nodes 4 -b 1M -e 4M):
// pair 0:3 ran at 2.857 GB/s in round 1 beside 1:2 at 1.817; the other four at 1.26-1.40.
Run lucky_pair_run() {
  return make_run(4, [](int a, int b) {
    if (a == 0 && b == 3) return 2.857;
    if (a == 1 && b == 2) return 1.817;
    return 1.26 + 0.035 * (a + b);
  });
}

TEST(AnchorCheck, ALuckyPairWhoseRetestFallsBackCondemnsNobody) {
  podperf::Run run = lucky_pair_run();
  judge_pairs(run, config());
  // Before the retest: the anchor rests on one pair and is not confirmed, so the run names nothing
  // and says it cannot tell (on main it named a slow crossing {0,3} / {1,2}).
  EXPECT_TRUE(run.stragglers.empty());
  EXPECT_TRUE(run.links.empty());
  EXPECT_EQ(count_check(run, "pairs.slow_crossing"), 0U);
  ASSERT_EQ(count_check(run, "pairs.ambiguous"), 1U);
  const Finding* f = find_check(run, "pairs.ambiguous");
  EXPECT_NE(f->observed.find("the baseline rests on 1 pair"), std::string::npos) << f->observed;
  EXPECT_NE(f->observed.find("node0:node3"), std::string::npos) << f->observed;
  EXPECT_NE(f->meaning.find("would name stragglers node1, node2"), std::string::npos)
      << "says what it withheld: " << f->meaning;
  EXPECT_NE(f->next_step.find("--retest 1"), std::string::npos) << f->next_step;
  EXPECT_EQ(pairs_exit_code(run), 1);
  // The retest planning measures the anchor pair beside the flagged ones.
  EXPECT_EQ(anchor_pairs_to_retest(run, config()), (std::vector<std::array<int, 2>>{{0, 3}}));

  // The retest: the anchor pair at 1.30 (the lucky measurement did not repeat), the others as before.
  retest(pair_of(run, 0, 3), 1.30);
  retest(pair_of(run, 1, 2), 1.33);
  for (PairResult& p : run.pairs) {
    if (p.retest_samples_s.empty()) retest(p, p.busbw_gbps);
  }
  judge_pairs(run, config());
  EXPECT_TRUE(run.stragglers.empty());
  EXPECT_TRUE(run.links.empty());
  EXPECT_EQ(count_check(run, "pairs.slow_crossing"), 0U);
  EXPECT_EQ(count_check(run, "pairs.ambiguous"), 0U);
  EXPECT_EQ(count_check(run, "pairs.anchor_not_reproduced"), 1U);
  EXPECT_LT(run.baselines[0].baseline_gbps, 1.5);
  EXPECT_EQ(std::count_if(run.pairs.begin(), run.pairs.end(), [](const PairResult& p) { return p.flagged; }), 0);
  EXPECT_EQ(pairs_exit_code(run), 0);
  EXPECT_TRUE(anchor_pairs_to_retest(run, config()).empty());
}

// Two runs measured on the namespaced 4-host cluster (srun --mpi=pmix -N4, pairs -b 4M -e 4M -n 10
// -w 2), busbw in MB/s with the retest's: {a, b, first, retest}.
struct MeasuredPair {
  int a, b;
  double first_mbps, retest_mbps;
};
Run measured_run(const std::vector<MeasuredPair>& pairs) {
  Run run = make_run(4, [&](int a, int b) {
    for (const MeasuredPair& m : pairs) {
      if (m.a == a && m.b == b) return m.first_mbps / 1000.0;
    }
    throw std::runtime_error("pair not measured");
  });
  for (const MeasuredPair& m : pairs) retest(pair_of(run, m.a, m.b), m.retest_mbps / 1000.0);
  return run;
}

TEST(AnchorCheck, OneReproducedFastPairNamesOnlyNodesFarBelowIt) {
  // Healthy, nothing shaped (cc-quiet h8): h1:h3 fast and reproduced, the five others at 59-68% of it.
  // A pair on a faster path explains that as well as h2 and h4 slow: the run cannot tell, drains no one.
  podperf::Run healthy = measured_run(
      {{0, 3, 377, 374}, {1, 2, 327, 369}, {0, 2, 552, 527}, {1, 3, 354, 350}, {0, 1, 366, 327}, {2, 3, 350, 312}});
  judge_pairs(healthy, config());
  EXPECT_TRUE(healthy.stragglers.empty());
  EXPECT_TRUE(healthy.links.empty());
  ASSERT_EQ(count_check(healthy, "pairs.ambiguous"), 1U);
  const Finding* f = find_check(healthy, "pairs.ambiguous");
  EXPECT_NE(f->meaning.find("faster path"), std::string::npos) << f->meaning;
  EXPECT_NE(f->observed.find("node1, node3"), std::string::npos) << f->observed;
  // h3 and h4 shaped to 2200mbit (their pairs at 35-45% of a typical healthy pair): h1:h2 fast, h4's
  // pairs with h1 and h2 at 38-53% of it. Their mean (44%), not the best (53%), judges h4: named.
  podperf::Run shaped = measured_run(
      {{0, 3, 134, 138}, {1, 2, 133, 138}, {0, 2, 163, 185}, {1, 3, 188, 162}, {0, 1, 353, 365}, {2, 3, 193, 173}});
  judge_pairs(shaped, config());
  EXPECT_EQ(named(shaped), (std::set<int>{2, 3}));
  EXPECT_EQ(count_check(shaped, "pairs.ambiguous"), 0U);
}

TEST(AnchorCheck, TwoSlowHostsOfFourAreNamedOnceTheFastPairIsReproduced) {
  // The real case: h1-h2 (0:1) the one fast pair, the other five at ~40%.
  podperf::Run run = make_run(4, [](int a, int b) { return a == 0 && b == 1 ? 1.00 : 0.40 + 0.01 * (a + b); });
  judge_pairs(run, config());
  EXPECT_TRUE(run.stragglers.empty()) << "unconfirmed: nothing named yet";
  EXPECT_EQ(count_check(run, "pairs.ambiguous"), 1U);
  EXPECT_EQ(anchor_pairs_to_retest(run, config()), (std::vector<std::array<int, 2>>{{0, 1}}));
  // Retests: the fast pair reproduces (0.97), the slow pairs stay slow.
  for (PairResult& p : run.pairs) retest(p, p.nodes == std::array<int, 2>{0, 1} ? 0.97 : p.busbw_gbps * 1.02);
  judge_pairs(run, config());
  EXPECT_EQ(named(run), (std::set<int>{2, 3}));
  EXPECT_EQ(count_check(run, "pairs.ambiguous"), 0U);
  EXPECT_EQ(count_check(run, "pairs.anchor_not_reproduced"), 0U);
  EXPECT_EQ(pairs_exit_code(run), 1);
}

TEST(AnchorCheck, AnAnchorOfEnoughPairsNeedsNoRetest) {
  // Three healthy nodes of six: three fast pairs anchor "healthy" on their own.
  podperf::Run run = make_run(6, [](int a, int b) { return a < 3 && b < 3 ? 1.0 + 0.005 * (a + b) : 0.40; });
  judge_pairs(run, config());
  EXPECT_EQ(named(run), (std::set<int>{3, 4, 5}));
  EXPECT_EQ(count_check(run, "pairs.ambiguous"), 0U);
  EXPECT_TRUE(anchor_pairs_to_retest(run, config()).empty());
  // anchor_min_pairs 4 asks for a retest of all three before naming.
  PairThresholds strict = config();
  strict.anchor_min_pairs = 4;
  judge_pairs(run, strict);
  EXPECT_TRUE(run.stragglers.empty());
  EXPECT_EQ(anchor_pairs_to_retest(run, strict).size(), 3U);
}

TEST(AnchorCheck, ASecondLuckyPairIsCheckedTheSameWay) {
  // The first anchor (0:3) falls back in its retest; the next fastest (1:2) becomes the anchor and
  // is not measured again: cannot tell, never a verdict.
  podperf::Run run = lucky_pair_run();
  retest(pair_of(run, 0, 3), 1.30);
  judge_pairs(run, config());
  EXPECT_TRUE(run.stragglers.empty());
  EXPECT_EQ(count_check(run, "pairs.slow_crossing"), 0U);
  EXPECT_EQ(count_check(run, "pairs.anchor_not_reproduced"), 1U);
  const Finding* f = find_check(run, "pairs.ambiguous");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->observed.find("node1:node2"), std::string::npos) << f->observed;
  EXPECT_EQ(anchor_pairs_to_retest(run, config()), (std::vector<std::array<int, 2>>{{1, 2}}));
}

// End to end on the modelled fabric (the retest planning of bench/pairs_run.cpp included): two slow
// nodes of four are named after the fast pair's retest reproduces it.
TEST(AnchorCheck, SimulatedTwoSlowOfFourAreNamedAfterTheAnchorRetest) {
  SimModel model = load_sim_model("random4");
  model.random_slow_nodes = 0;
  for (int node : {1, 3}) {
    SimNodeFault f;
    f.node = node;
    f.factor = 0.4;
    model.slow_nodes.push_back(f);
  }
  for (std::uint64_t seed : {1U, 2U, 3U}) {
    SimFabric fabric(model, 4, seed);
    const NodeMap map = sim_node_map(fabric);
    PairsOptions o;
    o.min_bytes = "64M";
    o.max_bytes = "64M";
    o.iters = 10;
    const Plan plan = make_plan(o, map);
    ScheduleOptions so;
    so.schedule = "all";
    so.seed = seed;
    so.retest = 1;
    const SimRunResult r = simulate_pairs(fabric, plan, map, so, o.iters);
    EXPECT_EQ(named(r.run), (std::set<int>{1, 3})) << "seed " << seed;
    const auto anchor = std::find_if(r.run.pairs.begin(), r.run.pairs.end(), [](const PairResult& p) {
      return p.nodes == std::array<int, 2>{0, 2};
    });
    ASSERT_NE(anchor, r.run.pairs.end());
    EXPECT_FALSE(anchor->retest_samples_s.empty()) << "the anchor pair was measured again";
  }
}

}  // namespace
}  // namespace podperf

// The adaptive straggler search (sweep/adaptive_search): on a synthetic fabric it finds the injected
// slow nodes and a slow link it measured, clears nodes that were low once by chance, keeps within
// its round budget, and plans only disjoint rounds. And end to end on the modelled fabric
// (simulate_pairs): the run's own analysis names the slow nodes from the pairs the search measured.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "bench/sim_pairs.hpp"
#include "sweep/adaptive_search.hpp"
#include "sweep/splitmix.hpp"

namespace podperf {
namespace {

// busbw 100 x the slower node's factor x a link factor, with 1% noise; checks each round is disjoint.
struct Fabric {
  std::map<int, double> slow;            // node -> factor
  std::map<NodePair, double> links;      // pair -> factor
  std::set<NodePair> low_once;           // low the first time only (noise)
  SplitMix rng{99};
  int rounds = 0;
  std::vector<double> operator()(const SearchRound& r, int number) {
    EXPECT_EQ(number, ++rounds);
    EXPECT_EQ(r.pairs.size(), r.repeat.size());
    std::set<int> busy;
    std::vector<double> out;
    for (const NodePair& p : r.pairs) {
      EXPECT_LT(p[0], p[1]);
      EXPECT_TRUE(busy.insert(p[0]).second) << "node " << p[0] << " twice in round " << number;
      EXPECT_TRUE(busy.insert(p[1]).second) << "node " << p[1] << " twice in round " << number;
      double f = 1.0;
      for (int n : p) {
        auto it = slow.find(n);
        if (it != slow.end()) f = std::min(f, it->second);
      }
      if (auto it = links.find(p); it != links.end()) f *= it->second;
      if (low_once.erase(p) > 0) f *= 0.7;
      out.push_back(100.0 * f * (1.0 + 0.01 * rng.normal()));
    }
    return out;
  }
};

int budget(int n) {
  int log2n = 0;
  while ((1 << log2n) < n) ++log2n;
  return 2 * log2n;
}

TEST(AdaptiveSearch, RandomMatchingIsPerfectAndSeeded) {
  for (int n : {2, 7, 64, 101}) {
    const Round r = random_matching(n, 5);
    EXPECT_EQ(r.size(), static_cast<std::size_t>(n / 2));
    std::set<int> seen;
    for (const NodePair& p : r) {
      EXPECT_LT(p[0], p[1]);
      EXPECT_TRUE(seen.insert(p[0]).second);
      EXPECT_TRUE(seen.insert(p[1]).second);
    }
    EXPECT_EQ(r, random_matching(n, 5));
  }
  EXPECT_NE(random_matching(64, 5), random_matching(64, 6));
}

TEST(AdaptiveSearch, FindsSlowNodesWithinTheBudget) {
  for (int n : {64, 128, 256}) {
    for (std::uint64_t seed : {1, 2, 3}) {
      Fabric fabric;
      fabric.slow = {{3, 0.9}, {n / 2, 0.75}, {n - 1, 0.6}};
      AdaptiveParams p;
      p.seed = seed;
      const AdaptiveResult r = adaptive_search(n, p, std::ref(fabric));
      EXPECT_EQ(r.slow_nodes, (std::vector<int>{3, n / 2, n - 1})) << "n " << n << " seed " << seed;
      EXPECT_TRUE(r.slow_links.empty());
      EXPECT_TRUE(r.converged);
      EXPECT_LE(r.rounds, budget(n)) << "n " << n;
      EXPECT_EQ(r.rounds, fabric.rounds);
      EXPECT_NEAR(r.baseline, 100.0, 1.0);
    }
  }
}

TEST(AdaptiveSearch, SeparatesASlowLinkFromSlowNodes) {
  for (std::uint64_t seed : {1, 2, 3}) {
    // The link fault sits on the first pair the search measures (so it is measured at all).
    Fabric fabric;
    fabric.slow = {{10, 0.8}};
    AdaptiveParams p;
    p.seed = seed;
    NodePair link{-1, -1};
    auto measure = [&](const SearchRound& r, int number) {
      if (number == 1) {
        link = r.pairs[0][0] == 10 || r.pairs[0][1] == 10 ? r.pairs[1] : r.pairs[0];
        fabric.links[link] = 0.6;
      }
      return fabric(r, number);
    };
    const AdaptiveResult r = adaptive_search(128, p, measure);
    EXPECT_EQ(r.slow_nodes, (std::vector<int>{10})) << "seed " << seed;
    EXPECT_EQ(r.slow_links, (std::vector<NodePair>{link})) << "seed " << seed;
    EXPECT_LE(r.rounds, budget(128));
  }
}

TEST(AdaptiveSearch, ClearsNodesLowOnceByChance) {
  Fabric fabric;
  AdaptiveParams p;
  p.seed = 4;
  // Two pairs of the first matching are low once (noise): their four nodes become suspects.
  auto measure = [&](const SearchRound& r, int number) {
    if (number == 1) fabric.low_once = {r.pairs[0], r.pairs[1]};
    return fabric(r, number);
  };
  const AdaptiveResult r = adaptive_search(64, p, measure);
  EXPECT_TRUE(r.slow_nodes.empty());
  EXPECT_TRUE(r.slow_links.empty());  // each low pair measured again: fine
  EXPECT_EQ(r.suspects, 4);
  EXPECT_EQ(r.cleared.size(), 4u);
  EXPECT_LE(r.rounds, budget(64));
}

TEST(AdaptiveSearch, NoiseOnlyEndsAfterScreening) {
  Fabric fabric;
  AdaptiveParams p;
  const AdaptiveResult r = adaptive_search(256, p, std::ref(fabric));
  EXPECT_TRUE(r.slow_nodes.empty());
  EXPECT_EQ(r.rounds, p.screen_rounds);
  EXPECT_EQ(r.measurements, 3 * 128);
}

TEST(AdaptiveSearch, FailedPairsCountAsLow) {
  Fabric fabric;
  AdaptiveParams p;
  auto measure = [&](const SearchRound& r, int number) {
    std::vector<double> v = fabric(r, number);
    for (std::size_t i = 0; i < r.pairs.size(); ++i) {
      if (r.pairs[i][0] == 5 || r.pairs[i][1] == 5) v[i] = std::nan("");
    }
    return v;
  };
  EXPECT_EQ(adaptive_search(64, p, measure).slow_nodes, (std::vector<int>{5}));
}

// End to end on the modelled fabric: the same steps and analysis as podperf pairs --backend sim.
TEST(AdaptiveSearch, SimulatedRunNamesTheStragglersFromMeasuredPairs) {
  SimFabric fabric(load_sim_model("stragglers"), 128, 7);
  const NodeMap map = sim_node_map(fabric);
  PairsOptions o;
  o.min_bytes = "64M";
  o.max_bytes = "256M";
  o.iters = 10;
  const Plan plan = make_plan(o, map);
  ScheduleOptions so;
  so.schedule = "adaptive";
  so.seed = 7;
  const SimRunResult r = simulate_pairs(fabric, plan, map, so, o.iters);
  std::set<int> named;
  for (const Straggler& s : r.run.stragglers) named.insert(s.node);
  EXPECT_EQ(named, (std::set<int>{3, 17, 42}));
  EXPECT_LE(r.outcome.rounds, budget(128));
  // Far fewer pairs than every pair: 128 x 127 / 2 = 8128 pairs at 3 sizes.
  EXPECT_LT(r.run.pairs.size(), 8128u * 3 / 5);
  // Every measured pair at every size, as a real run records it.
  EXPECT_EQ(r.run.pairs.size() % 3, 0u);
}

}  // namespace
}  // namespace podperf

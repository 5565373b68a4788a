// The topology-aware adaptive search (sweep/adaptive_layered.cpp, --adaptive-scope within|layered):
// on a synthetic fabric of racks it screens inside racks, finds a slow node there, tells a slow uplink
// (pairs leaving a rack slow, pairs inside it not) from slow nodes and links, copes with odd racks, a
// rack of one and unplaced nodes, and without a topology is exactly the flat search. End to end on
// the modelled fabric (configs/sim/uplink.toml) the run's analysis blames the slow nodes only.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench/adaptive_scope.hpp"
#include "bench/sim_pairs.hpp"
#include "sweep/adaptive_search.hpp"
#include "sweep/splitmix.hpp"

namespace podperf {
namespace {

// Nodes in racks (`rack_of`, -1: unplaced) under layers (`layer_of`); busbw 100 x the slower node's
// factor x crossing (0.98 across racks, 0.96 across layers; `crossing` scales both) x a slow uplink's
// factor for pairs leaving its rack, with 1% noise. Checks rounds are disjoint and records them.
struct RackFabric {
  std::vector<int> rack_of, layer_of;
  std::map<int, double> slow;    // node -> factor
  std::map<int, double> uplink;  // rack -> factor
  double crossing = 1.0;
  SplitMix rng{7};
  std::vector<SearchRound> rounds;

  std::vector<double> operator()(const SearchRound& r, int number) {
    rounds.push_back(r);
    EXPECT_EQ(number, static_cast<int>(rounds.size()));
    std::set<int> busy;
    std::vector<double> out;
    for (const NodePair& p : r.pairs) {
      EXPECT_LT(p[0], p[1]);
      EXPECT_TRUE(busy.insert(p[0]).second) << "node " << p[0] << " twice in round " << number;
      EXPECT_TRUE(busy.insert(p[1]).second) << "node " << p[1] << " twice in round " << number;
      double f = 1.0;
      for (int n : p) {
        if (auto it = slow.find(n); it != slow.end()) f = std::min(f, it->second);
      }
      const int ra = rack_of[static_cast<std::size_t>(p[0])], rb = rack_of[static_cast<std::size_t>(p[1])];
      if (ra != rb) {
        f *= layer_of[static_cast<std::size_t>(p[0])] != layer_of[static_cast<std::size_t>(p[1])] ? 0.96 * crossing
                                                                                                  : 0.98 * crossing;
        for (int rack : {ra, rb}) {
          if (auto it = uplink.find(rack); it != uplink.end()) f *= it->second;
        }
      }
      out.push_back(100.0 * f * (1.0 + 0.01 * rng.normal()));
    }
    return out;
  }
};

// n nodes in racks of `rack` under layers of `layer` (both divide n).
RackFabric racks(int n, int rack, int layer) {
  RackFabric f;
  for (int i = 0; i < n; ++i) {
    f.rack_of.push_back(i / rack);
    f.layer_of.push_back(i / layer);
  }
  return f;
}

SearchGroups groups_of(const RackFabric& f) {
  std::vector<std::vector<std::string>> paths;
  for (std::size_t i = 0; i < f.rack_of.size(); ++i) {
    if (f.rack_of[i] < 0) {
      paths.emplace_back();
    } else {
      paths.push_back({"layer-" + std::to_string(f.layer_of[i]), "rack-" + std::to_string(f.rack_of[i])});
    }
  }
  return search_groups(paths, {"layer", "rack"});
}

AdaptiveParams layered(std::uint64_t seed) {
  AdaptiveParams p;
  p.seed = seed;
  p.scope = AdaptiveParams::Scope::kLayered;
  return p;
}

TEST(AdaptiveLayered, GroupsAreKeyedByTheirPath) {
  const SearchGroups g = search_groups({{"a", "r1"}, {"a", "r1"}, {"b", "r1"}, {}, {"b", "r2"}}, {"layer", "rack"});
  EXPECT_EQ(g.group[1], (std::vector<int>{0, 0, 1, -1, 2}));  // r1 under b is not r1 under a
  EXPECT_EQ(g.group[0], (std::vector<int>{0, 0, 1, -1, 1}));
  EXPECT_EQ(g.names[1], (std::vector<std::string>{"r1", "r1", "r2"}));
}

TEST(AdaptiveLayered, ScreensInsideRacksAndFindsASlowNode) {
  for (std::uint64_t seed : {1, 2, 3}) {
    RackFabric fabric = racks(128, 8, 32);
    fabric.slow = {{5, 0.75}, {77, 0.9}};
    const SearchGroups groups = groups_of(fabric);
    AdaptiveParams p = layered(seed);
    p.scope = AdaptiveParams::Scope::kWithin;
    const AdaptiveResult r = adaptive_search(128, p, std::ref(fabric), &groups);
    EXPECT_EQ(r.slow_nodes, (std::vector<int>{5, 77})) << "seed " << seed;
    EXPECT_TRUE(r.slow_groups.empty());
    EXPECT_TRUE(r.slow_links.empty());
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.scope, "within");
    EXPECT_EQ(r.level_name, "rack");
    EXPECT_EQ(r.across_rounds, 0);
    EXPECT_EQ(r.rounds, r.screen_rounds + r.retest_rounds);
    EXPECT_LE(r.rounds, adaptive_round_budget(128, p));
    // Every pair of the search stays inside a rack: screening and retests alike.
    for (const SearchRound& round : fabric.rounds) {
      for (const NodePair& pair : round.pairs) {
        EXPECT_EQ(pair[0] / 8, pair[1] / 8) << "pair " << pair[0] << "-" << pair[1];
      }
    }
    // The screening is a perfect matching inside each rack.
    for (int s = 0; s < r.screen_rounds; ++s) EXPECT_EQ(fabric.rounds[static_cast<std::size_t>(s)].pairs.size(), 64u);
  }
}

TEST(AdaptiveLayered, TellsASlowUplinkFromSlowNodes) {
  for (std::uint64_t seed : {1, 2, 3, 4}) {
    RackFabric fabric = racks(256, 16, 64);
    fabric.uplink = {{3, 0.7}};
    fabric.slow = {{40, 0.8}, {200, 0.85}};
    const SearchGroups groups = groups_of(fabric);
    const AdaptiveParams p = layered(seed);
    const AdaptiveResult r = adaptive_search(256, p, std::ref(fabric), &groups);
    EXPECT_EQ(r.slow_nodes, (std::vector<int>{40, 200})) << "seed " << seed;  // rack 3 (48..63) not blamed
    ASSERT_EQ(r.slow_groups.size(), 1u) << "seed " << seed;
    const SlowGroup& g = r.slow_groups[0];
    EXPECT_EQ(g.name, "rack-3");
    EXPECT_EQ(g.level_name, "rack");
    EXPECT_EQ(g.members.front(), 48);
    EXPECT_EQ(g.members.size(), 16u);
    EXPECT_TRUE(g.decided);
    EXPECT_GT(g.low_out * 2, g.pairs_out);
    EXPECT_GE(g.confirm_lows, p.uplink_confirm);
    EXPECT_NEAR(g.out_ratio, 0.7, 0.05);
    EXPECT_TRUE(r.slow_links.empty()) << "pairs leaving the slow rack are not links";
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.across_rounds, p.across_rounds);
    EXPECT_LE(r.rounds, adaptive_round_budget(256, p));
    EXPECT_EQ(r.rounds, r.screen_rounds + r.across_rounds + r.retest_rounds);
    // The across matchings pair every node with another rack, under the same layer when it can.
    for (int a = 0; a < r.across_rounds; ++a) {
      const SearchRound& round = fabric.rounds[static_cast<std::size_t>(r.screen_rounds + a)];
      int same_layer = 0;
      for (const NodePair& pair : round.pairs) {
        EXPECT_NE(pair[0] / 16, pair[1] / 16);
        same_layer += pair[0] / 64 == pair[1] / 64 ? 1 : 0;
      }
      EXPECT_EQ(same_layer, static_cast<int>(round.pairs.size()));
      EXPECT_GE(round.pairs.size(), 118u);  // the slow nodes rest, and a few left over; everyone else pairs
    }
    // Whatever leaves the slow rack in the retests is a confirmation against a node outside it.
    EXPECT_TRUE(leaves_slow_group(r.slow_groups, 48, 100));
    EXPECT_FALSE(leaves_slow_group(r.slow_groups, 48, 63));
    EXPECT_FALSE(leaves_slow_group(r.slow_groups, 1, 100));
  }
}

TEST(AdaptiveLayered, CrossingSlowerByDesignIsNoFault) {
  RackFabric fabric = racks(128, 16, 64);
  fabric.crossing = 0.9;  // every pair across racks 12-14% below the ones inside
  const SearchGroups groups = groups_of(fabric);
  const AdaptiveResult r = adaptive_search(128, layered(5), std::ref(fabric), &groups);
  EXPECT_TRUE(r.slow_nodes.empty());
  EXPECT_TRUE(r.slow_groups.empty());
  EXPECT_TRUE(r.slow_links.empty());
  EXPECT_EQ(r.group_suspects, 0);
  EXPECT_EQ(r.rounds, r.screen_rounds + r.across_rounds);  // nothing to retest
}

TEST(AdaptiveLayered, OddRacksARackOfOneAndUnplacedNodes) {
  // Racks of 5, 3, 1 and 7 nodes, then 2 nodes the topology does not name.
  RackFabric fabric;
  const std::vector<int> sizes{5, 3, 1, 7};
  for (std::size_t rack = 0; rack < sizes.size(); ++rack) {
    for (int k = 0; k < sizes[rack]; ++k) {
      fabric.rack_of.push_back(static_cast<int>(rack));
      fabric.layer_of.push_back(0);
    }
  }
  for (int k = 0; k < 2; ++k) {
    fabric.rack_of.push_back(-1);
    fabric.layer_of.push_back(-1);
  }
  const int n = static_cast<int>(fabric.rack_of.size());  // 18
  fabric.slow = {{8, 0.7}};                               // the rack of one
  const SearchGroups groups = groups_of(fabric);
  for (std::uint64_t seed : {1, 2, 3}) {
    RackFabric f = fabric;
    const AdaptiveResult r = adaptive_search(n, layered(seed), std::ref(f), &groups);
    EXPECT_EQ(r.slow_nodes, (std::vector<int>{8})) << "seed " << seed;
    EXPECT_TRUE(r.slow_groups.empty());
    EXPECT_TRUE(r.converged);
    for (int s = 0; s < r.screen_rounds; ++s) {
      const SearchRound& round = f.rounds[static_cast<std::size_t>(s)];
      // Inside racks: 2 + 1 + 0 + 3 pairs; the left-over nodes (one of racks 0, 1, 3, the rack of one,
      // the 2 unplaced) pair among themselves: 3 more.
      EXPECT_EQ(round.pairs.size(), 9u);
      int across = 0;
      for (const NodePair& pair : round.pairs) {
        across += f.rack_of[static_cast<std::size_t>(pair[0])] != f.rack_of[static_cast<std::size_t>(pair[1])] ||
                          f.rack_of[static_cast<std::size_t>(pair[0])] < 0
                      ? 1
                      : 0;
      }
      EXPECT_EQ(across, 3);
    }
  }
}

TEST(AdaptiveLayered, WithoutATopologyItIsTheFlatSearch) {
  for (std::uint64_t seed : {1, 9}) {
    RackFabric a = racks(64, 8, 32), b = racks(64, 8, 32), c = racks(64, 8, 32);
    a.slow = b.slow = c.slow = {{3, 0.8}, {33, 0.7}};
    AdaptiveParams flat;
    flat.seed = seed;
    const AdaptiveResult want = adaptive_search(64, flat, std::ref(a));
    const SearchGroups none;
    const AdaptiveResult no_groups = adaptive_search(64, layered(seed), std::ref(b), &none);
    const SearchGroups groups = groups_of(c);
    const AdaptiveResult flat_scope = adaptive_search(64, flat, std::ref(c), &groups);
    for (const AdaptiveResult* got : {&no_groups, &flat_scope}) {
      EXPECT_EQ(got->slow_nodes, want.slow_nodes);
      EXPECT_EQ(got->rounds, want.rounds);
      EXPECT_EQ(got->measurements, want.measurements);
      EXPECT_EQ(got->scope, "flat");
    }
    ASSERT_EQ(b.rounds.size(), a.rounds.size());
    for (std::size_t i = 0; i < a.rounds.size(); ++i) {
      EXPECT_EQ(b.rounds[i].pairs, a.rounds[i].pairs);
      EXPECT_EQ(c.rounds[i].pairs, a.rounds[i].pairs);
    }
  }
}

TEST(AdaptiveLayered, SameSeedSameRounds) {
  RackFabric a = racks(128, 16, 64), b = racks(128, 16, 64);
  a.uplink = b.uplink = {{2, 0.7}};
  const SearchGroups groups = groups_of(a);
  adaptive_search(128, layered(11), std::ref(a), &groups);
  adaptive_search(128, layered(11), std::ref(b), &groups);
  ASSERT_EQ(a.rounds.size(), b.rounds.size());
  for (std::size_t i = 0; i < a.rounds.size(); ++i) EXPECT_EQ(a.rounds[i].pairs, b.rounds[i].pairs);
}

// End to end on the modelled fabric: the uplink model's slow rack is a slow group, the run's own
// analysis names the two slow nodes as stragglers and no link.
TEST(AdaptiveLayered, SimulatedUplinkRun) {
  SimFabric fabric(load_sim_model("uplink"), 128, 3);
  const NodeMap map = sim_node_map(fabric);
  PairsOptions o;
  o.min_bytes = "256M";
  o.max_bytes = "256M";
  o.iters = 10;
  o.schedule = "adaptive";
  const Plan plan = make_plan(o, map);
  ScheduleOptions so;
  so.schedule = "adaptive";
  so.seed = 3;
  std::vector<std::string> levels = fabric.model().levels;
  resolve_adaptive_scope(o, levels, map.nodes, so);
  ASSERT_EQ(so.scope, AdaptiveParams::Scope::kLayered);
  const SimRunResult r = simulate_pairs(fabric, plan, map, so, o.iters);
  std::set<int> named;
  for (const Straggler& s : r.run.stragglers) named.insert(s.node);
  EXPECT_EQ(named, (std::set<int>{5, 40}));
  EXPECT_TRUE(r.run.links.empty());
  ASSERT_EQ(r.outcome.search.slow_groups.size(), 1u);
  EXPECT_EQ(r.outcome.search.slow_groups[0].name, "rack-0003");
  const std::vector<Finding> findings = slow_group_findings(r.outcome.search);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "topology.slow_uplink");
  EXPECT_EQ(findings[0].tag, Tag::kConcern);
  EXPECT_NE(findings[0].observed.find("rack rack-0003 (16 nodes)"), std::string::npos) << findings[0].observed;
  for (const Finding& f : r.run.findings) EXPECT_NE(f.check, "pairs.intermittent_node") << f.host;
}

TEST(AdaptiveLayered, ScopeAndLevelAreChecked) {
  PairsOptions o;
  o.schedule = "adaptive";
  std::vector<NodeInfo> nodes(4);
  for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i].topology = {"s" + std::to_string(i / 2)};
  ScheduleOptions so;
  resolve_adaptive_scope(o, {"leaf"}, nodes, so);
  EXPECT_EQ(so.scope, AdaptiveParams::Scope::kLayered);
  resolve_adaptive_scope(o, {}, nodes, so);  // auto without a topology: flat
  EXPECT_EQ(so.scope, AdaptiveParams::Scope::kFlat);
  EXPECT_TRUE(so.groups.empty());
  o.adaptive_level = "spine";
  try {
    resolve_adaptive_scope(o, {"leaf"}, nodes, so);
    ADD_FAILURE() << "no error for an unknown level";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("levels: leaf"), std::string::npos) << e.what();
  }
  o.adaptive_level.clear();
  o.adaptive_scope = "within";
  EXPECT_THROW(resolve_adaptive_scope(o, {}, nodes, so), UsageError);
  o.schedule = "all";
  EXPECT_THROW(resolve_adaptive_scope(o, {"leaf"}, nodes, so), UsageError);
}

}  // namespace
}  // namespace podperf

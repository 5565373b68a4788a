// The node model of the pair test (analysis/pairs/node_model.hpp) on small inputs given directly: the
// node terms under the min model, the reference, the noise with its prior, the group terms, a pair's
// value from its measurements, and a fit against a reference run.
#include "analysis/pairs/node_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "analysis/pairs/pair_input.hpp"

namespace podperf {
namespace {

// Every pair of n nodes once, one class, log busbw = log(100 * value(a, b)).
ModelInput full(int n, const std::function<double(int, int)>& value, int classes = 1,
                const std::function<int(int, int)>& class_of = nullptr) {
  ModelInput in;
  in.nodes = static_cast<std::size_t>(n);
  in.judged.assign(in.nodes, true);
  for (int c = 0; c < classes; ++c) in.class_names.push_back("class " + std::to_string(c));
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      ModelPair q;
      q.a = a;
      q.b = b;
      q.cls = class_of ? class_of(a, b) : 0;
      q.first = static_cast<std::uint32_t>(in.logs.size());
      q.count = 1;
      q.value = q.upper = std::log(100.0 * value(a, b));
      in.logs.push_back(q.value);
      in.pairs.push_back(q);
    }
  }
  return in;
}

std::function<double(int, int)> noisy(std::uint32_t seed, double cv, const std::function<double(int, int)>& f) {
  auto rng = std::make_shared<std::mt19937>(seed);
  return [=](int a, int b) {
    std::normal_distribution<double> z(0.0, cv);
    return f(a, b) * std::exp(z(*rng));
  };
}

TEST(NodeModel, HealthyNodesSitAtTheReferenceWithTheirNoise) {
  const NodeModel m = fit_node_model(full(32, noisy(1, 0.02, [](int, int) { return 1.0; })), ModelParams{});
  for (double v : m.node) EXPECT_NEAR(v, 0.0, 0.02);
  EXPECT_NEAR(m.sigma, 0.02, 0.006);
  EXPECT_NEAR(std::exp(m.class_level[0]), 100.0, 1.5);
  EXPECT_EQ(m.judged_nodes, 32U);
}

// A pair runs at its slower node: the slow node's pairs give its term; a healthy node leaves its pair
// with a slower partner out (it says nothing of the healthy one).
TEST(NodeModel, TheMinModelGivesEachNodeItsOwnSpeed) {
  const std::vector<double> speed = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.6};
  const NodeModel m =
      fit_node_model(full(8, [&](int a, int b) { return std::min(speed[a], speed[b]); }), ModelParams{});
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(m.node[static_cast<std::size_t>(i)], 0.0, 1e-9) << i;
  EXPECT_NEAR(m.node[6], std::log(0.8), 1e-9);
  EXPECT_NEAR(m.node[7], std::log(0.6), 1e-9);
  EXPECT_EQ(m.support[0], 5);  // its pairs with the five other healthy nodes
  EXPECT_EQ(m.support[6], 6);  // node 6: every partner but the slower node 7
}

// Two slow of four: started from each node's upper quartile, the healthy pair is found even though the
// slow half are as many; the reference is the upper median node.
TEST(NodeModel, AHealthyHalfIsFoundAndIsTheReference) {
  const std::vector<double> speed = {1.0, 1.0, 0.3, 0.3};
  const NodeModel m =
      fit_node_model(full(4, [&](int a, int b) { return std::min(speed[a], speed[b]); }), ModelParams{});
  EXPECT_NEAR(m.node[0], 0.0, 1e-9);
  EXPECT_NEAR(m.node[1], 0.0, 1e-9);
  EXPECT_NEAR(m.node[2], std::log(0.3), 1e-9);
  EXPECT_NEAR(m.node[3], std::log(0.3), 1e-9);
}

// Four nodes say little about the noise: the prior keeps it from being small by chance.
TEST(NodeModel, FewPairsLeanOnTheNoisePrior) {
  ModelParams p;
  const NodeModel quiet = fit_node_model(full(4, [](int, int) { return 1.0; }), p);
  EXPECT_GE(quiet.sigma, p.noise_prior * std::sqrt(p.noise_prior_df / (quiet.df)) - 1e-9);
  EXPECT_LT(quiet.df, 10.0);
  const NodeModel many = fit_node_model(full(64, noisy(2, 0.01, [](int, int) { return 1.0; })), p);
  EXPECT_NEAR(many.sigma, 0.01, 0.004) << "with 2016 pairs the run's own noise rules";
  EXPECT_GT(many.df, 1000.0);
}

// Three leaves of four: leaf 0's uplink slow (its pairs out at 60%, inside fast) is one group term, not
// four slow nodes; leaf 0 slow inside and out alike is its nodes (no term).
TEST(NodeModel, AnUplinkIsAGroupTermAndASlowGroupIsItsNodes) {
  ModelGrouping leaf;
  leaf.name = "leaf";
  leaf.group_names = {"l0", "l1", "l2"};
  for (int i = 0; i < 12; ++i) leaf.group.push_back(i / 4);
  const auto crossing = [](int a, int b) { return a / 4 != b / 4 ? 1 : 0; };
  ModelInput uplink =
      full(12, noisy(3, 0.01, [](int a, int b) { return (a / 4 == 0) != (b / 4 == 0) ? 0.6 : 1.0; }), 2, crossing);
  uplink.groupings = {leaf};
  const NodeModel m = fit_node_model(uplink, ModelParams{});
  int kept = 0;
  for (const GroupTerm& g : m.groups) {
    if (!g.kept) continue;
    ++kept;
    EXPECT_EQ(g.group, 0);
    EXPECT_FALSE(g.inside);
    EXPECT_NEAR(std::exp(g.value), 0.6, 0.05);
  }
  EXPECT_EQ(kept, 1);
  for (double v : m.node) EXPECT_NEAR(v, 0.0, 0.05);

  ModelInput rack =
      full(12, noisy(4, 0.01, [](int a, int b) { return a / 4 == 0 || b / 4 == 0 ? 0.6 : 1.0; }), 2, crossing);
  rack.groupings = {leaf};
  const NodeModel r = fit_node_model(rack, ModelParams{});
  for (const GroupTerm& g : r.groups) EXPECT_FALSE(g.kept) << g.group << (g.inside ? " inside" : " out");
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(r.node[static_cast<std::size_t>(i)], std::log(0.6), 0.05) << i;
}

TEST(NodeModel, APairsValueLeavesADipOut) {
  const double t = 0.05;
  EXPECT_DOUBLE_EQ(pair_value({std::log(100.0)}, t), std::log(100.0));
  EXPECT_NEAR(pair_value({std::log(100.0), std::log(98.0)}, t), (std::log(100.0) + std::log(98.0)) / 2, 1e-12);
  EXPECT_DOUBLE_EQ(pair_value({std::log(100.0), std::log(33.0)}, t), std::log(100.0)) << "an outlier is a dip";
  EXPECT_DOUBLE_EQ(pair_value({std::log(60.0), std::log(100.0), std::log(61.0)}, t), std::log(61.0));
}

// Against a reference run: its class level and node capacities stand; one pair of a node known good
// tells the other node's speed.
TEST(NodeModel, AReferenceRunFixesTheLevelAndTheKnownNodes) {
  ModelInput in;
  in.nodes = 2;
  in.judged = {true, true};
  in.class_names = {"all pairs"};
  ModelPair q;
  q.a = 0;
  q.b = 1;
  q.count = 1;
  q.value = q.upper = std::log(70.0);
  in.logs = {q.value};
  in.pairs = {q};
  in.referenced = true;
  in.class_fixed = {std::log(100.0)};
  in.node_prior = {0.0, std::nan("")};
  in.reference_noise = 0.01;
  in.reference_df = 500.0;
  const NodeModel m = fit_node_model(in, ModelParams{});
  EXPECT_NEAR(m.node[0], 0.0, 1e-9);
  EXPECT_NEAR(m.node[1], std::log(0.7), 1e-9);
  EXPECT_NEAR(m.sigma, 0.01, 1e-3);
}

}  // namespace
}  // namespace podperf

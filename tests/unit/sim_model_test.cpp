// The modelled fabric (--backend sim): built-in models parse, the same seed gives the same numbers,
// faults change what they should and nothing else, and bad model files name file:line.
#include "sim/sim_model.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "sim/sim_fabric.hpp"

namespace podperf {
namespace {

const char* kHealthy = R"(
[model]
description = "test"
ranks_per_node = 2
latency_us = 10.0
busbw_gbps = 100.0
nic_factor = 1.0
[noise]
pair_cv = 0.0
iteration_cv = 0.0
)";

std::string error_of(const std::string& text, int nodes = 64) {
  try {
    SimFabric fabric(parse_sim_model(text, "t", "t.toml"), nodes, 1);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// busbw of one measurement moving `bytes` (bus bytes), from the median of its iterations.
double busbw(SimFabric& f, int a, int b, double bytes) {
  std::vector<double> s = f.measure(a, b, bytes, 9);
  std::sort(s.begin(), s.end());
  return bytes / s[4] / 1e9;
}

TEST(SimModel, BuiltInModelsParseAndBuild) {
  const std::vector<std::string> names = builtin_sim_models();
  for (const char* expected : {"healthy", "stragglers", "rack", "random4", "uplink"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  for (const std::string& name : names) {
    const SimModel m = load_sim_model(name);
    EXPECT_FALSE(m.description.empty()) << name;
    EXPECT_NO_THROW(SimFabric(m, 256, 7)) << name;
  }
}

TEST(SimModel, AlphaBetaWithoutNoise) {
  SimFabric f(parse_sim_model(kHealthy, "t", "t.toml"), 4, 1);
  // 1 GB at 100 GB/s plus 10 us.
  const std::vector<double> s = f.measure(0, 1, 1e9, 3);
  for (double t : s) EXPECT_NEAR(t, 0.01 + 1e-5, 1e-12);
  // Small messages are latency-bound: busbw far below the link's.
  EXPECT_LT(busbw(f, 0, 1, 1e3), 1.0);
}

TEST(SimModel, SameSeedSameNumbersOtherSeedOthers) {
  const SimModel m = load_sim_model("rack");
  SimFabric a(m, 128, 7), b(m, 128, 7), c(m, 128, 8);
  std::vector<double> va, vb, vc;
  for (int i = 0; i < 20; ++i) {
    for (double t : a.measure(i, 127 - i, 1e8, 5)) va.push_back(t);
    for (double t : b.measure(i, 127 - i, 1e8, 5)) vb.push_back(t);
    for (double t : c.measure(i, 127 - i, 1e8, 5)) vc.push_back(t);
  }
  EXPECT_EQ(va, vb);
  EXPECT_NE(va, vc);
}

TEST(SimModel, FaultsSlowWhatTheyName) {
  SimFabric f(load_sim_model("stragglers"), 64, 1);
  EXPECT_DOUBLE_EQ(f.node_factor(3), 0.7);
  EXPECT_DOUBLE_EQ(f.node_factor(17), 0.85);
  EXPECT_DOUBLE_EQ(f.node_factor(0), 1.0);
  EXPECT_DOUBLE_EQ(f.pair_factor(3, 17), 0.7);  // the slower NIC of the two
  EXPECT_DOUBLE_EQ(f.pair_factor(5, 9), 0.6);   // the slow link
  EXPECT_DOUBLE_EQ(f.pair_factor(9, 5), 0.6);
  EXPECT_DOUBLE_EQ(f.pair_factor(5, 10), 1.0);  // its nodes are fine with others
  EXPECT_EQ(f.faulty_nodes(), (std::vector<int>{3, 17, 42}));
  // Measured: the slow node's pair near 70% of a healthy pair (1% pair noise, 3% per iteration).
  double healthy = 0.0, slow = 0.0;
  for (int i = 0; i < 20; ++i) {
    healthy += busbw(f, 20, 21, 1e9);
    slow += busbw(f, 3, 21, 1e9);
  }
  EXPECT_NEAR(slow / healthy, 0.7, 0.02);
}

TEST(SimModel, TopologyCrossingSlowRackAndFlapping) {
  SimFabric f(load_sim_model("rack"), 128, 1);
  EXPECT_DOUBLE_EQ(f.pair_factor(0, 1), 1.0);     // same rack
  EXPECT_DOUBLE_EQ(f.pair_factor(0, 16), 0.99);   // racks differ, same layer
  EXPECT_DOUBLE_EQ(f.pair_factor(0, 64), 0.97);   // layers differ
  for (int n = 32; n < 48; ++n) EXPECT_DOUBLE_EQ(f.node_factor(n), 0.8) << n;  // rack 2
  EXPECT_EQ(f.topology(40), (std::vector<std::string>{"network-node-layer-0000", "rack-0002"}));
  EXPECT_EQ(f.topology(100), (std::vector<std::string>{"network-node-layer-0001", "rack-0006"}));
  // Node 52 flaps: slow in about half of its measurements, never slower than its factor allows.
  int slow = 0;
  for (int i = 0; i < 200; ++i) {
    const double v = busbw(f, 52, 53, 1e9) / 300.0;
    if (v < 0.8) ++slow;
    EXPECT_GT(v, 0.5);
  }
  EXPECT_GT(slow, 60);
  EXPECT_LT(slow, 140);
}

TEST(SimModel, SlowUplinkSlowsPairsLeavingItsGroupOnly) {
  SimFabric f(load_sim_model("uplink"), 128, 1);
  EXPECT_DOUBLE_EQ(f.pair_factor(48, 63), 1.0);          // inside rack 3
  EXPECT_DOUBLE_EQ(f.pair_factor(48, 16), 0.99 * 0.7);   // leaving it, same layer
  EXPECT_DOUBLE_EQ(f.pair_factor(50, 100), 0.97 * 0.7);  // leaving it and the layer
  EXPECT_DOUBLE_EQ(f.pair_factor(0, 16), 0.99);          // elsewhere untouched
  EXPECT_DOUBLE_EQ(f.node_factor(48), 1.0);              // its nodes are healthy
  EXPECT_EQ(f.slow_uplinks(), (std::vector<std::array<int, 2>>{{1, 3}}));
  EXPECT_EQ(f.faulty_nodes(), (std::vector<int>{5, 40}));
  // At the outer level: a whole layer's uplink.
  const std::string layer = std::string(kHealthy) +
                            "\n[topology]\nlevels = [\"layer\", \"rack\"]\ngroup_sizes = [32, 8]\n"
                            "crossing_factors = [1.0, 1.0]\n[[slow_uplink]]\nlevel = \"layer\"\ngroup = 1\nfactor = 0.5\n";
  SimFabric g(parse_sim_model(layer, "t", "t.toml"), 64, 1);
  EXPECT_DOUBLE_EQ(g.pair_factor(32, 40), 1.0);  // racks differ inside layer 1
  EXPECT_DOUBLE_EQ(g.pair_factor(32, 0), 0.5);
  EXPECT_DOUBLE_EQ(g.pair_factor(0, 8), 1.0);
}

TEST(SimModel, RandomSlowNodesComeFromTheSeed) {
  const SimModel m = load_sim_model("random4");
  SimFabric a(m, 256, 11), b(m, 256, 11), c(m, 256, 12);
  ASSERT_EQ(a.faulty_nodes().size(), 4u);
  EXPECT_EQ(a.faulty_nodes(), b.faulty_nodes());
  EXPECT_NE(a.faulty_nodes(), c.faulty_nodes());
  for (int n : a.faulty_nodes()) {
    EXPECT_GE(a.node_factor(n), 0.6);
    EXPECT_LE(a.node_factor(n), 0.9);
  }
}

TEST(SimModel, BadFilesNameFileAndLine) {
  EXPECT_NE(error_of(std::string(kHealthy) + "\n[[slow_node]]\nnode = 70\nfactor = 0.5\n").find("t.toml:13"),
            std::string::npos)
      << error_of(std::string(kHealthy) + "\n[[slow_node]]\nnode = 70\nfactor = 0.5\n");
  EXPECT_NE(error_of(std::string(kHealthy) + "\n[[slow_node]]\nnode = 7\nfactor = 1.5\n").find("t.toml:14"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kHealthy) + "\n[[slow_nodes]]\nnode = 7\n").find("slow_nodes"), std::string::npos);
  const std::string topo = std::string(kHealthy) +
                           "\n[topology]\nlevels = [\"layer\", \"rack\"]\ngroup_sizes = [64, 10]\n"
                           "crossing_factors = [0.9, 0.95]\n";
  const std::string err = error_of(topo);
  EXPECT_NE(err.find("t.toml:14"), std::string::npos) << err;
  EXPECT_NE(err.find("does not divide"), std::string::npos) << err;
  const std::string rack = std::string(kHealthy) + "\n[[slow_rack]]\nrack = 1\nfactor = 0.5\n";
  EXPECT_NE(error_of(rack).find("needs a [topology]"), std::string::npos) << error_of(rack);
  const std::string uplink_no_topo = std::string(kHealthy) + "\n[[slow_uplink]]\nlevel = \"rack\"\ngroup = 1\nfactor = 0.5\n";
  EXPECT_NE(error_of(uplink_no_topo).find("needs a [topology]"), std::string::npos) << error_of(uplink_no_topo);
  const std::string racks = std::string(kHealthy) +
                            "\n[topology]\nlevels = [\"layer\", \"rack\"]\ngroup_sizes = [32, 8]\n"
                            "crossing_factors = [1.0, 1.0]\n";
  const std::string bad_level = racks + "[[slow_uplink]]\nlevel = \"spine\"\ngroup = 1\nfactor = 0.5\n";
  EXPECT_NE(error_of(bad_level).find("t.toml:17: 'slow_uplink.level' = \"spine\" is not a level of [topology] "
                                     "(levels: layer, rack)"),
            std::string::npos)
      << error_of(bad_level);
  const std::string bad_group = racks + "[[slow_uplink]]\nlevel = \"rack\"\ngroup = 8\nfactor = 0.5\n";
  EXPECT_NE(error_of(bad_group).find("t.toml:18: 'slow_uplink.group' = 8 but 64 nodes in rack groups of 8 make 8"),
            std::string::npos)
      << error_of(bad_group);
  const std::string bad_key = racks + "[[slow_uplink]]\nlevel = \"rack\"\ngroup = 1\nfactor = 0.5\nrack = 2\n";
  EXPECT_NE(error_of(bad_key).find("rack"), std::string::npos) << error_of(bad_key);
  EXPECT_NE(error_of(racks + "[[slow_uplink]]\nlevel = \"rack\"\ngroup = 1\nfactor = 0\n").find("factor"),
            std::string::npos);
  const std::string syntax = std::string(kHealthy) + "\n[noise\n";
  EXPECT_NE(error_of(syntax).find("t.toml:12"), std::string::npos) << error_of(syntax);
  EXPECT_NE(error_of("[noise]\npair_cv = 0.0\niteration_cv = 0.0\n").find("missing table [model]"), std::string::npos);
  try {
    load_sim_model("no-such-model");
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("healthy"), std::string::npos) << e.what();  // lists the built-in ones
  }
}

}  // namespace
}  // namespace podperf

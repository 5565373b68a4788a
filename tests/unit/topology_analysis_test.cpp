// Topology analysis: pairs grouped by the outermost level their nodes differ at, the
// topology.cross_layer finding (CONCERN when crossing pairs are slower than same-leaf ones beyond the
// threshold), topology.unmatched, the heatmap's node order, and the reports' topology table (golden).
#include "analysis/topology/topology_analysis.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/report/common.hpp"
#include "analysis/report/csv.hpp"
#include "analysis/report/html.hpp"
#include "analysis/report/markdown.hpp"
#include "analysis/report/run_text.hpp"
#include "golden.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

// 8 nodes: spine s1 holds leaves l1 (nodes 0-1) and l2 (2-3), spine s2 leaves l3 (4-5) and l4 (6-7).
// Listed in an order that is not the topology's (node index 1 under l3...), to test the ordering.
const std::vector<std::vector<std::string>> kPaths = {{"s1", "l1"}, {"s2", "l3"}, {"s1", "l1"}, {"s1", "l2"},
                                                      {"s2", "l3"}, {"s1", "l2"}, {"s2", "l4"}, {"s2", "l4"}};

// Pairs inside a leaf at 100 GB/s, across leaves of one spine at `leaf_factor`, across spines at `spine_factor`.
Run topology_run(double leaf_factor, double spine_factor) {
  podperf::Run run = synthetic::make_run(8, [&](int a, int b) {
    const auto& pa = kPaths[static_cast<std::size_t>(a)];
    const auto& pb = kPaths[static_cast<std::size_t>(b)];
    if (pa[0] != pb[0]) return 100.0 * spine_factor;
    if (pa[1] != pb[1]) return 100.0 * leaf_factor;
    return 100.0;
  });
  run.topology_levels = {"spine", "leaf"};
  run.topology_source = "racks.csv";
  for (std::size_t i = 0; i < run.nodes.size(); ++i) run.nodes[i].topology = kPaths[i];
  judge_pairs(run, load_thresholds("").pairs);
  return run;
}

const Finding* finding(const Run& run, const std::string& check) {
  for (const Finding& f : run.findings) {
    if (f.check == check) return &f;
  }
  return nullptr;
}

const TopologyClass* cls(const TopologyComparison& c, const std::string& name) {
  for (const TopologyClass& k : c.classes) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

// The CSV gives each pair its class in a trailing "topology" column (before "simulated"), only on runs
// with a topology: spreadsheet users can pivot on it.
TEST(TopologyAnalysis, CsvNamesEachPairsClass) {
  podperf::Run run = topology_run(0.9, 0.8);
  const auto lines = [](const std::string& csv) {
    std::vector<std::string> out;
    for (std::size_t at = 0; at < csv.size();) {
      const std::size_t end = csv.find("\r\n", at);
      out.push_back(csv.substr(at, end - at));
      at = end + 2;
    }
    return out;
  };
  const auto ends_with = [](const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
  };
  std::vector<std::string> rows = lines(render_csv(run));
  ASSERT_EQ(rows.size(), run.pairs.size() + 1);
  EXPECT_TRUE(ends_with(rows[0], ",error,topology")) << rows[0];
  for (std::size_t i = 0; i < run.pairs.size(); ++i) {
    const int level = topology_split_level(run, run.pairs[i].nodes[0], run.pairs[i].nodes[1]);
    const std::string expected = level == 0 ? ",crosses spine" : level == 1 ? ",crosses leaf" : ",same leaf";
    EXPECT_TRUE(ends_with(rows[i + 1], expected)) << rows[i + 1];
  }
  // Nodes 0 and 2 share leaf l1, 0 and 3 only spine s1, 0 and 1 nothing.
  EXPECT_EQ(topology_split_level(run, 0, 2), 2);
  EXPECT_EQ(topology_split_level(run, 0, 3), 1);
  EXPECT_EQ(topology_split_level(run, 0, 1), 0);
  run.simulated = true;
  rows = lines(render_csv(run));
  EXPECT_TRUE(ends_with(rows[0], ",error,topology,simulated")) << rows[0];
  EXPECT_TRUE(ends_with(rows[1], ",true")) << rows[1];
  run.simulated = false;
  run.topology_levels.clear();
  for (NodeInfo& n : run.nodes) n.topology.clear();
  rows = lines(render_csv(run));
  EXPECT_TRUE(ends_with(rows[0], ",error")) << rows[0];
  EXPECT_EQ(rows[0].find("topology"), std::string::npos) << rows[0];
}

TEST(TopologyAnalysis, ClassifiesByOutermostDifferingLevel) {
  const podperf::Run run = topology_run(0.9, 0.8);
  EXPECT_EQ(topology_split_level(run, 0, 2), 2);  // same leaf
  EXPECT_EQ(topology_split_level(run, 0, 3), 1);  // other leaf, same spine
  EXPECT_EQ(topology_split_level(run, 0, 1), 0);  // other spine
  EXPECT_EQ(topology_class_name(run, 0), "crosses spine");
  EXPECT_EQ(topology_class_name(run, 1), "crosses leaf");
  EXPECT_EQ(topology_class_name(run, 2), "same leaf");
  const TopologyComparison c = compare_topology(run, 2);
  ASSERT_EQ(c.classes.size(), 3U);
  EXPECT_EQ(c.classes[0].name, "crosses spine");  // outermost first
  EXPECT_EQ(c.classes[2].name, "same leaf");
  EXPECT_EQ(c.reference, "same leaf");
  // Same leaf: 4 leaves of 2 nodes; leaves of one spine: 2 spines x 4; across spines: 4 x 4.
  EXPECT_EQ(cls(c, "same leaf")->pairs, 4U);
  EXPECT_EQ(cls(c, "crosses leaf")->pairs, 8U);
  EXPECT_EQ(cls(c, "crosses spine")->pairs, 16U);
  EXPECT_NEAR(cls(c, "crosses spine")->median_busbw_gbps, 80.0, 1e-9);
  EXPECT_NEAR(cls(c, "crosses spine")->ratio, 0.8, 1e-9);
  EXPECT_NEAR(cls(c, "crosses leaf")->ratio, 0.9, 1e-9);
}

TEST(TopologyAnalysis, CrossLayerTwentyPercentSlowerIsAConcern) {
  podperf::Run run = topology_run(1.0, 0.8);
  judge_topology(run, load_thresholds("").topology);
  const Finding* f = finding(run, "topology.cross_layer");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tag, Tag::kConcern);
  EXPECT_NE(f->observed.find("crosses spine: 16 pairs, median 80.000 GB/s (80% of same leaf)"), std::string::npos)
      << f->observed;
  EXPECT_NE(f->meaning.find("different spine"), std::string::npos) << f->meaning;
  EXPECT_FALSE(f->next_step.empty());
  EXPECT_EQ(finding(run, "topology.unmatched"), nullptr);
}

TEST(TopologyAnalysis, EqualPairsAreInfo) {
  podperf::Run run = topology_run(1.0, 1.0);
  judge_topology(run, load_thresholds("").topology);
  const Finding* f = finding(run, "topology.cross_layer");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tag, Tag::kInfo);
  // Within the threshold (10%): 95% is not a concern; a stricter threshold makes it one.
  run = topology_run(1.0, 0.95);
  judge_topology(run, load_thresholds("").topology);
  EXPECT_EQ(finding(run, "topology.cross_layer")->tag, Tag::kInfo);
  judge_topology(run, TopologyThresholds{0.03, 2});
  EXPECT_EQ(finding(run, "topology.cross_layer")->tag, Tag::kConcern);
  EXPECT_EQ(std::count_if(run.findings.begin(), run.findings.end(),
                          [](const Finding& x) { return x.check == "topology.cross_layer"; }),
            1);  // re-analysis replaces, never duplicates
}

TEST(TopologyAnalysis, NoSameLeafPairsComparesWithTheRunBaseline) {
  podperf::Run run = topology_run(1.0, 0.7);
  for (std::size_t i = 0; i < run.nodes.size(); ++i) run.nodes[i].topology = {kPaths[i][0], "own" + std::to_string(i)};
  const TopologyComparison c = compare_topology(run, 2);
  EXPECT_EQ(c.reference, "run baseline");
  EXPECT_EQ(cls(c, "same leaf"), nullptr);
  ASSERT_NE(cls(c, "crosses spine"), nullptr);
  EXPECT_GT(c.reference_gbps, 0.0);
  EXPECT_NEAR(cls(c, "crosses spine")->ratio, 70.0 / c.reference_gbps, 1e-9);
}

TEST(TopologyAnalysis, StragglerPairsAreLeftOut) {
  // Node 7 slow in every pair: without leaving its pairs out, the crossing classes would look slow.
  podperf::Run run = synthetic::make_run(8, [](int a, int b) { return a == 7 || b == 7 ? 60.0 : 100.0; });
  run.topology_levels = {"spine", "leaf"};
  for (std::size_t i = 0; i < run.nodes.size(); ++i) run.nodes[i].topology = kPaths[i];
  judge_pairs(run, load_thresholds("").pairs);
  ASSERT_EQ(run.stragglers.size(), 1U);
  judge_topology(run, load_thresholds("").topology);
  EXPECT_EQ(finding(run, "topology.cross_layer")->tag, Tag::kInfo);
  EXPECT_EQ(compare_topology(run, 2).straggler_pairs_left_out, 7U);
  // Every node a straggler (no healthy majority): nothing would be left to compare, so all pairs count.
  for (int i = 0; i < 8; ++i) {
    Straggler s;
    s.node = i;
    run.stragglers.push_back(s);
  }
  const TopologyComparison all = compare_topology(run, 2);
  EXPECT_EQ(all.straggler_pairs_left_out, 0U);
  ASSERT_FALSE(all.classes.empty());
  std::size_t pairs = 0;
  for (const TopologyClass& c : all.classes) pairs += c.pairs;
  EXPECT_EQ(pairs, 28U);
}

TEST(TopologyAnalysis, UnmatchedNodesAreListed) {
  podperf::Run run = topology_run(1.0, 1.0);
  run.nodes[5].topology.clear();
  run.nodes[6].topology.clear();
  judge_topology(run, load_thresholds("").topology);
  const Finding* f = finding(run, "topology.unmatched");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tag, Tag::kInfo);
  EXPECT_NE(f->observed.find("2 of 8 nodes not found in racks.csv: node5, node6"), std::string::npos) << f->observed;
  const TopologyComparison c = compare_topology(run, 2);
  ASSERT_NE(cls(c, "topology unknown"), nullptr);
  EXPECT_EQ(c.classes.back().name, "topology unknown");
}

TEST(TopologyAnalysis, NoTopologyNoFinding) {
  podperf::Run run = synthetic::make_run(4, [](int, int) { return 100.0; });
  judge_pairs(run, load_thresholds("").pairs);
  judge_topology(run, load_thresholds("").topology);
  EXPECT_TRUE(run.findings.empty());
  EXPECT_TRUE(compare_topology(run, 2).classes.empty());
  EXPECT_EQ(matrix_node_order(run), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(matrix_group_starts(run, matrix_node_order(run)).empty());
}

TEST(TopologyOrder, HeatmapGroupsNodesByTopology) {
  podperf::Run run = topology_run(1.0, 1.0);
  run.nodes[3].topology.clear();  // not in the topology: last
  // l1: 0, 2; l2: 5; l3: 1, 4; l4: 6, 7; unknown: 3.
  const std::vector<int> order = matrix_node_order(run);
  EXPECT_EQ(order, (std::vector<int>{0, 2, 5, 1, 4, 6, 7, 3}));
  EXPECT_EQ(matrix_group_starts(run, order), (std::vector<std::size_t>{2, 3, 5, 7}));
  const std::string html = render_html(run);
  EXPECT_NE(html.find("<line class=\"group\""), std::string::npos);
  EXPECT_NE(html.find("Nodes in topology order"), std::string::npos);
}

TEST(TopologyReport, Golden) {
  podperf::Run run = topology_run(0.95, 0.75);
  run.command = "pairs";
  run.run_id = "topology-fixed";
  run.podperf_version = "0.1.0";
  run.started_at = "2025-01-02T03:04:05.678Z";
  run.finished_at = "2025-01-02T03:09:10.123Z";
  run.launcher.kind = "slurm";
  judge_topology(run, load_thresholds("").topology);
  const std::string text = render_summary(run, "");
  // The judge's classes of pairs say the topology once (issue 31), each against the population's level.
  EXPECT_NE(text.find("Classes of pairs:"), std::string::npos) << text;
  EXPECT_NE(text.find("crosses spine      16 pairs  level    75.000 GB/s"), std::string::npos) << text;
  golden::expect_golden("report_topology.html", render_html(run));
  golden::expect_golden("report_topology.md", render_markdown(run));
  golden::expect_golden("summary_topology.txt", text);
}

}  // namespace
}  // namespace podperf

// Topology input: Slurm hostlist expansion, the EKS / Slurm / CSV parsers on the fixtures in
// tests/fixtures/topology (and their errors: file:line and what was wrong), format detection, and
// matching the run's nodes to the file's names.
#include "analysis/topology/topology.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/topology/hostlist.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

using Path = std::vector<std::string>;

std::string fixture(const std::string& name) {
  return std::string(PODPERF_FIXTURES_DIR) + "/topology/" + name;
}

// The InputError text of loading `name` (fails the test when it loads).
std::string load_error(const std::string& name, const std::string& format = "auto") {
  try {
    (void)load_topology(fixture(name), format);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << name << " loaded without an error";
  return "";
}

std::string hostlist_error(const std::string& expression) {
  try {
    (void)expand_hostlist(expression);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << expression << " expanded without an error";
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Hostlist, ExpandsRangesListsAndPadding) {
  EXPECT_EQ(expand_hostlist("node[01-03,10],gpu-[1-2]"),
            (std::vector<std::string>{"node01", "node02", "node03", "node10", "gpu-1", "gpu-2"}));
  EXPECT_EQ(expand_hostlist("a"), (std::vector<std::string>{"a"}));
  EXPECT_EQ(expand_hostlist("n[8-10]"), (std::vector<std::string>{"n8", "n9", "n10"}));
  EXPECT_EQ(expand_hostlist("n[098-100]"), (std::vector<std::string>{"n098", "n099", "n100"}));
  EXPECT_EQ(expand_hostlist("r[1-2]n[1-2]"), (std::vector<std::string>{"r1n1", "r1n2", "r2n1", "r2n2"}));
  EXPECT_EQ(expand_hostlist("h[3]-ib"), (std::vector<std::string>{"h3-ib"}));
}

TEST(Hostlist, ErrorsSayWhatIsWrong) {
  EXPECT_TRUE(has(hostlist_error("node[05-01]"), "runs backwards")) << hostlist_error("node[05-01]");
  EXPECT_TRUE(has(hostlist_error("node[01-04"), "never closed"));
  EXPECT_TRUE(has(hostlist_error("node01]"), "']' without '['"));
  EXPECT_TRUE(has(hostlist_error("node[a-b]"), "'a' is not a number"));
  EXPECT_TRUE(has(hostlist_error("a,,b"), "empty host name"));
  EXPECT_TRUE(has(hostlist_error("n[1,]"), "empty range"));
  EXPECT_TRUE(has(hostlist_error("n[0-99999999]"), "too large"));
}

TEST(TopologyEks, KubectlNodesJson) {
  const Topology t = load_topology(fixture("eks_nodes.json"), "auto");
  EXPECT_EQ(t.format, "eks");
  EXPECT_EQ(t.levels, (Path{"zone", "network-node-layer-1", "network-node-layer-2", "network-node-layer-3"}));
  ASSERT_EQ(t.paths.size(), 3U);  // the m5.large has no network-node labels: left out
  EXPECT_EQ(t.paths.at("ip-10-1-2-4.us-west-2.compute.internal"),
            (Path{"us-west-2a", "nn-1111", "nn-2221", "nn-3332"}));
  EXPECT_EQ(t.paths.count("ip-10-1-0-1.us-west-2.compute.internal"), 0U);
}

TEST(TopologyEks, UltraserverIsTheInnermostLevel) {
  const Topology t = load_topology(fixture("eks_ultraserver.json"), "eks");
  ASSERT_EQ(t.levels.size(), 5U);
  EXPECT_EQ(t.levels.back(), "ultraserver-id");
  EXPECT_EQ(t.paths.at("us-b").back(), "us-0002");
}

TEST(TopologyEks, BrokenJsonNamesTheLine) {
  const std::string e = load_error("eks_broken.json");
  EXPECT_TRUE(has(e, "eks_broken.json:4: not valid JSON")) << e;
  try {
    (void)parse_topology(R"({"items": [{"metadata": {"labels": {}}}]})", "x.json", "eks");
    ADD_FAILURE() << "no error";
  } catch (const InputError& err) {
    EXPECT_TRUE(has(err.what(), "items[0] has no metadata.name")) << err.what();
  }
  try {
    (void)parse_topology(R"({"items": [{"metadata": {"name": "a"}}]})", "x.json", "eks");
    ADD_FAILURE() << "no error";
  } catch (const InputError& err) {
    EXPECT_TRUE(has(err.what(), "no node has a topology label")) << err.what();
  }
}

// nlohmann throws out_of_range (not parse_error) for a number beyond a double; it must still be a
// clean InputError (found by fuzz_config: crash on "5e111111111111111111111111111").
TEST(TopologyEks, NumberBeyondADoubleIsAnInputError) {
  for (const char* text :
       {"5e111111111111111111111111111", R"({"items": [{"metadata": {"name": "a", "n": 1e999}}]})"}) {
    for (const char* format : {"auto", "eks"}) {
      try {
        (void)parse_topology(text, "x.json", format);
        ADD_FAILURE() << "no error for " << text << " as " << format;
      } catch (const InputError& err) {
        EXPECT_TRUE(has(err.what(), "x.json")) << err.what();
      }
    }
  }
}

TEST(TopologySlurm, TopologyConfTree) {
  const Topology t = load_topology(fixture("topology.conf"), "auto");
  EXPECT_EQ(t.format, "slurm");
  EXPECT_EQ(t.levels, (Path{"switch-level-1", "switch-level-0"}));
  ASSERT_EQ(t.paths.size(), 7U);
  EXPECT_EQ(t.paths.at("node02"), (Path{"spine", "leaf1"}));
  EXPECT_EQ(t.paths.at("node05"), (Path{"spine", "leaf2"}));
  EXPECT_EQ(t.paths.at("gpu-2"), (Path{"spine", "leaf2"}));
}

TEST(TopologySlurm, ScontrolShowTopology) {
  // Upper switches list every node below them: each node's place is its leaf switch.
  const Topology t = load_topology(fixture("scontrol_topology.txt"), "slurm");
  EXPECT_EQ(t.levels, (Path{"switch-level-2", "switch-level-1", "switch-level-0"}));
  EXPECT_EQ(t.paths.at("node01"), (Path{"s5", "s3", "s0"}));
  EXPECT_EQ(t.paths.at("node04"), (Path{"s5", "s3", "s1"}));
  EXPECT_EQ(t.paths.at("node06"), (Path{"s5", "s4", "s2"}));
}

TEST(TopologySlurm, UnbalancedTreeRepeatsTheLeaf) {
  const Topology t = parse_topology(
      "SwitchName=top Switches=mid,leafA\nSwitchName=mid Switches=leafB\n"
      "SwitchName=leafA Nodes=a\nSwitchName=leafB Nodes=b\n",
      "t.conf", "slurm");
  EXPECT_EQ(t.paths.at("a"), (Path{"top", "leafA", "leafA"}));
  EXPECT_EQ(t.paths.at("b"), (Path{"top", "mid", "leafB"}));
}

TEST(TopologySlurm, BlockPlugin) {
  const Topology t = load_topology(fixture("block.conf"), "auto");
  EXPECT_EQ(t.levels, (Path{"block"}));
  EXPECT_EQ(t.paths.at("node03"), (Path{"b1"}));
  EXPECT_EQ(t.paths.at("node08"), (Path{"b2"}));
}

TEST(TopologySlurm, Errors) {
  std::string e = load_error("slurm_two_leaves.conf");
  EXPECT_TRUE(has(e, "slurm_two_leaves.conf:3: node 'node04' is under switch 's3' and under switch 's2' (line 2)"))
      << e;
  e = load_error("slurm_malformed.conf", "slurm");
  EXPECT_TRUE(has(e, "slurm_malformed.conf:3: 'this' is not KEY=VALUE")) << e;
  e = load_error("slurm_bad_hostlist.conf");
  EXPECT_TRUE(has(e, "slurm_bad_hostlist.conf:1: hostlist 'node[05-01]'")) << e;
  const auto error_of = [](const std::string& text) {
    try {
      (void)parse_topology(text, "t.conf", "slurm");
    } catch (const InputError& err) {
      return std::string(err.what());
    }
    return std::string("no error");
  };
  EXPECT_TRUE(
      has(error_of("SwitchName=a Switches=b\n"), "t.conf:1: switch 'a' lists switch 'b', which is never defined"));
  EXPECT_TRUE(has(error_of("SwitchName=a Nodes=x\nSwitchName=a Nodes=y\n"), "t.conf:2: switch 'a' is defined twice"));
  EXPECT_TRUE(has(error_of("SwitchName=r Switches=a\nSwitchName=a Switches=b\nSwitchName=b Switches=a Nodes=n\n"),
                  "not a tree"));
  EXPECT_TRUE(has(error_of("SwitchName=s Nodes=a\nBlockName=b Nodes=c\n"), "one file describes one plugin"));
  EXPECT_TRUE(has(error_of("Foo=bar\n"), "t.conf:1: expected SwitchName=..."));
  EXPECT_TRUE(has(error_of("BlockName=b1 Nodes=n[1-2]\nBlockName=b2 Nodes=n2\n"),
                  "t.conf:2: node 'n2' is in block 'b2' and in block 'b1' (line 1)"));
}

TEST(TopologyCsv, ParsesLevelsAndRows) {
  const Topology t = load_topology(fixture("nodes.csv"), "auto");
  EXPECT_EQ(t.format, "csv");
  EXPECT_EQ(t.levels, (Path{"zone", "spine", "leaf"}));
  ASSERT_EQ(t.paths.size(), 4U);
  EXPECT_EQ(t.paths.at("node2"), (Path{"az1", "spine1", "leaf2"}));
}

TEST(TopologyCsv, Errors) {
  std::string e = load_error("csv_duplicate.csv");
  EXPECT_TRUE(has(e, "csv_duplicate.csv:4: node 'a' is listed twice (first on line 2)")) << e;
  e = load_error("csv_short_row.csv");
  EXPECT_TRUE(has(e, "csv_short_row.csv:3: 2 fields, expected 3")) << e;
  const auto error_of = [](const std::string& text) {
    try {
      (void)parse_topology(text, "t.csv", "csv");
    } catch (const InputError& err) {
      return std::string(err.what());
    }
    return std::string("no error");
  };
  EXPECT_TRUE(has(error_of("host,leaf\na,l1\n"), "t.csv:1: the header must start with 'node'"));
  EXPECT_TRUE(has(error_of("node,leaf\na,\n"), "t.csv:2: node 'a' has no value for level 'leaf'"));
  EXPECT_TRUE(has(error_of("node,leaf,leaf\n"), "level 'leaf' appears twice"));
  EXPECT_TRUE(has(error_of("node,leaf\n"), "followed by no node"));
}

TEST(TopologyFormat, DetectionAndOverride) {
  EXPECT_EQ(detect_topology_format("  {\"items\": []}", "x"), "eks");
  EXPECT_EQ(detect_topology_format("# c\n\nswitchname=s1 Nodes=a\n", "x"), "slurm");
  EXPECT_EQ(detect_topology_format("node,leaf\na,l\n", "x"), "csv");
  std::string e = load_error("unknown_format.txt");
  EXPECT_TRUE(has(e, "unknown_format.txt: cannot tell the topology format from 'hello,world'")) << e;
  EXPECT_TRUE(has(e, "--topology-format")) << e;
  // An explicit format wins over detection: the CSV read as Slurm is a malformed Slurm file.
  e = load_error("nodes.csv", "slurm");
  EXPECT_TRUE(has(e, "nodes.csv:2:")) << e;
  EXPECT_THROW((void)parse_topology("node,a\nx,y\n", "x", "yaml"), UsageError);
  e = load_error("does_not_exist.csv");
  EXPECT_TRUE(has(e, "does_not_exist.csv: cannot open")) << e;
}

TEST(TopologyApply, MatchesLabelHostnameAndShortName) {
  podperf::Run run;
  run.nodes = synthetic::make_nodes(5);
  run.nodes[3].hostname = "node3";               // the CSV says node3.cluster.local
  run.nodes[1].hostname = "node1.ec2.internal";  // the CSV says node1
  run.nodes[1].label = "node1.ec2.internal";
  run.nodes[4].hostname = "stranger";
  run.nodes[4].label = "stranger";
  apply_topology(run, load_topology(fixture("nodes.csv"), "csv"));
  EXPECT_EQ(run.topology_levels, (Path{"zone", "spine", "leaf"}));
  EXPECT_EQ(run.topology_source, fixture("nodes.csv"));
  EXPECT_EQ(run.nodes[0].topology, (Path{"az1", "spine1", "leaf1"}));
  EXPECT_EQ(run.nodes[1].topology, (Path{"az1", "spine1", "leaf1"}));
  EXPECT_EQ(run.nodes[3].topology, (Path{"az1", "spine2", "leaf3"}));
  EXPECT_TRUE(run.nodes[4].topology.empty());
}

TEST(TopologyApply, VirtualNodesByLabel) {
  podperf::Run run;
  run.nodes = synthetic::make_nodes(2, true);  // box/v0, box/v1 on host box
  apply_topology(run, parse_topology("node,leaf\nbox/v0,l1\nbox/v1,l2\n", "v.csv", "csv"));
  EXPECT_EQ(run.nodes[0].topology, (Path{"l1"}));
  EXPECT_EQ(run.nodes[1].topology, (Path{"l2"}));
}

}  // namespace
}  // namespace podperf

// The commands that act on accept's FAIL nodes (analysis/report/accept_actions) and the names they may
// carry (analysis/base/node_names): Slurm's node names, not hostnames; Kubernetes node names, never a
// pod's hostname; EC2 instance ids in calls of at most 25; every word safe for a shell.
#include "analysis/report/accept_actions.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/base/node_names.hpp"
#include "analysis/report/accept_text.hpp"

namespace podperf {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// A judged run of `n` nodes whose nodes in `failed` FAIL `check`; names from the callbacks.
Run judged_run(int n, const std::vector<int>& failed, const std::string& check = "straggler") {
  Run run;
  run.run_id = "r";
  run.launcher.kind = "slurm";
  run.verdict.status = failed.empty() ? "PASS" : "FAIL";
  run.verdict.profile = "quick";
  for (int i = 0; i < n; ++i) {
    NodeInfo node;
    node.index = i;
    node.hostname = fmt::format("worker-{}", i);
    node.label = node.hostname;
    node.ranks = {i};
    run.nodes.push_back(node);
    const bool fails = std::find(failed.begin(), failed.end(), i) != failed.end();
    run.verdict.nodes.push_back(NodeVerdict{node.label, node.hostname, fails ? "FAIL" : "PASS", {}});
    run.verdict.checks.push_back(VerdictCheck{node.label, check, fails ? "FAIL" : "PASS", ""});
    if (fails) run.verdict.drain.push_back(node.hostname);
  }
  return run;
}

TEST(NodeNames, WhatMayStandForANode) {
  EXPECT_TRUE(valid_node_name("ip-10-1-2-3"));
  EXPECT_TRUE(valid_node_name("ip-10-1-2-3.us-west-2.compute.internal"));
  EXPECT_TRUE(valid_node_name("hyperpod-i-0123456789abcdef0"));
  EXPECT_TRUE(valid_node_name("gpu_node7"));
  EXPECT_FALSE(valid_node_name(""));
  EXPECT_FALSE(valid_node_name("-rf"));
  EXPECT_FALSE(valid_node_name("a b"));
  EXPECT_FALSE(valid_node_name("n1;reboot"));
  EXPECT_FALSE(valid_node_name("n$(id)"));
  EXPECT_FALSE(valid_node_name(std::string(254, 'a')));
  EXPECT_TRUE(valid_node_name(std::string(253, 'a')));
  EXPECT_TRUE(ec2_instance_id("i-0123456789abcdef0"));
  EXPECT_TRUE(ec2_instance_id("i-01234567"));
  EXPECT_FALSE(ec2_instance_id("i-0001"));
  EXPECT_FALSE(ec2_instance_id("i-0123456789ABCDEF0"));
  EXPECT_FALSE(ec2_instance_id("Default string"));
  EXPECT_EQ(shell_word("ip-10-1-2-3"), "ip-10-1-2-3");
  EXPECT_EQ(shell_word("NodeName=a,b"), "NodeName=a,b");
  EXPECT_EQ(shell_word("arn:aws:sagemaker:us-west-2:123456789012:cluster/abc"),
            "arn:aws:sagemaker:us-west-2:123456789012:cluster/abc");
  EXPECT_EQ(shell_word("my box"), "'my box'");
  EXPECT_EQ(shell_word("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_word("$(reboot)"), "'$(reboot)'");
  EXPECT_EQ(shell_word(""), "''");
}

// Every orchestrator's lines, each naming the node the way its tool does.
TEST(AcceptActions, SlurmKubernetesAndHyperPodLinesNameTheRightThing) {
  podperf::Run run = judged_run(4, {2, 3});
  for (NodeInfo& n : run.nodes) {
    n.slurm_node_name = fmt::format("ip-10-1-2-{}", n.index);
    n.kubernetes_node_name = fmt::format("hyperpod-i-0123456789abcdef{}", n.index);
    n.instance_id = fmt::format("i-0123456789abcdef{}", n.index);
  }
  run.verdict.checks.push_back(VerdictCheck{"worker-3", "wrong_results", "FAIL", ""});
  const std::string out = render_node_actions(run, action_hosts(run), "my-cluster");
  EXPECT_EQ(out,
            "  # Slurm, with Slurm's node names: drain (running jobs finish, no new ones start)\n"
            "  scontrol update NodeName=ip-10-1-2-2 State=DRAIN Reason=\"podperf accept: straggler\"\n"
            "  scontrol update NodeName=ip-10-1-2-3 State=DRAIN Reason=\"podperf accept: straggler,wrong_results\"\n"
            "  # Slurm on HyperPod: reboot, or replace (HyperPod acts on exactly these reasons)\n"
            "  scontrol update node=ip-10-1-2-2,ip-10-1-2-3 state=fail reason=\"Action:Reboot\"\n"
            "  scontrol update node=ip-10-1-2-2,ip-10-1-2-3 state=fail reason=\"Action:Replace\"\n"
            "  # Kubernetes, with the nodes' names (not the pods'): cordon (no new pods start)\n"
            "  kubectl cordon hyperpod-i-0123456789abcdef2 hyperpod-i-0123456789abcdef3\n"
            "  # EKS on HyperPod: reboot, or replace (needs automatic node recovery enabled on the cluster)\n"
            "  kubectl label node hyperpod-i-0123456789abcdef2 hyperpod-i-0123456789abcdef3 "
            "sagemaker.amazonaws.com/node-health-status=UnschedulablePendingReboot --overwrite\n"
            "  kubectl label node hyperpod-i-0123456789abcdef2 hyperpod-i-0123456789abcdef3 "
            "sagemaker.amazonaws.com/node-health-status=UnschedulablePendingReplacement --overwrite\n"
            "  # HyperPod API, any orchestrator: reboot, or replace (at most 25 instance ids a call)\n"
            "  aws sagemaker batch-reboot-cluster-nodes --cluster-name my-cluster --node-ids i-0123456789abcdef2 "
            "i-0123456789abcdef3\n"
            "  aws sagemaker batch-replace-cluster-nodes --cluster-name my-cluster --node-ids i-0123456789abcdef2 "
            "i-0123456789abcdef3\n");
  // Never a hostname where a scheduler name is known.
  EXPECT_FALSE(has(out, "worker-")) << out;
  // Without --cluster-name: the placeholder, and the text says podperf cannot know it.
  const std::string placeholder = render_node_actions(run, action_hosts(run), "");
  EXPECT_TRUE(has(placeholder, "--cluster-name CLUSTER_NAME --node-ids")) << placeholder;
  EXPECT_TRUE(has(placeholder, "# CLUSTER_NAME: your HyperPod cluster's name or ARN, which podperf cannot know"));
  // The verdict text: what the lines do, and that replacing destroys the instance's volumes.
  const std::string verdict = render_verdict(run, "my-cluster");
  EXPECT_TRUE(has(verdict,
                  "Drain, reboot or replace 2 FAIL nodes: worker-2 worker-3 (printed only; podperf never "
                  "runs these)."))
      << verdict;
  EXPECT_TRUE(has(verdict, "replacing terminates the instance and destroys its volumes, root and secondary"));
  EXPECT_FALSE(has(verdict, "Drain or replace"));
}

// A run under mpirun with no scheduler names (an MPIJob without PODPERF_NODE_NAME): no scontrol or kubectl
// line names a pod, comments say why; ids that are not EC2's give no HyperPod API line. Under Slurm
// (launcher slurm) without recorded names, the Slurm lines use the hostnames and say so.
TEST(AcceptActions, WithoutSchedulerNamesNothingNamesAPod) {
  podperf::Run run = judged_run(3, {1});
  run.launcher.kind = "openmpi";
  run.nodes[1].hostname = "podperf-pairs-worker-1";
  run.nodes[1].instance_id = "Default string";
  const std::string out = render_node_actions(run, action_hosts(run), "");
  EXPECT_FALSE(has(out, "podperf-pairs-worker-1")) << out;
  EXPECT_TRUE(has(out, "# Slurm: no Slurm node names recorded (the run was not started by srun)")) << out;
  EXPECT_TRUE(has(out, "# Kubernetes: no node names recorded (PODPERF_NODE_NAME unset), and a pod's hostname is not"))
      << out;
  EXPECT_FALSE(has(out, "aws sagemaker")) << out;
  run.launcher.kind = "slurm";
  const std::string slurm = render_node_actions(run, action_hosts(run), "");
  EXPECT_TRUE(has(slurm, "Hostnames: Slurm's node names were not\n  # recorded (run under srun to record them)"))
      << slurm;
  EXPECT_TRUE(has(slurm, "  scontrol update NodeName=podperf-pairs-worker-1 State=DRAIN")) << slurm;
  // Under Slurm the Kubernetes note is noise: left out.
  EXPECT_FALSE(has(slurm, "Kubernetes")) << slurm;
}

// HyperPod's node APIs take at most 25 instance ids a call: 30 FAIL nodes are two calls per action.
TEST(AcceptActions, HyperPodCallsCarryAtMost25Ids) {
  std::vector<int> all;
  for (int i = 0; i < 30; ++i) all.push_back(i);
  podperf::Run run = judged_run(30, all);
  for (NodeInfo& n : run.nodes) n.instance_id = fmt::format("i-{:017x}", 0xabc000 + n.index);
  const std::string out = render_node_actions(run, action_hosts(run), "c");
  EXPECT_EQ(count(out, "aws sagemaker batch-reboot-cluster-nodes --cluster-name c --node-ids "), 2u) << out;
  EXPECT_EQ(count(out, "aws sagemaker batch-replace-cluster-nodes --cluster-name c --node-ids "), 2u) << out;
  for (const std::string& line : {std::string("batch-reboot"), std::string("batch-replace")}) {
    std::size_t at = out.find(line);
    const std::size_t end = out.find('\n', at);
    EXPECT_EQ(count(out.substr(at, end - at), " i-"), 25u);
    at = out.find(line, end);
    EXPECT_EQ(count(out.substr(at, out.find('\n', at) - at), " i-"), 5u);
  }
}

// Two pods of one node (Kubernetes) give one node; virtual nodes of one host give one host; a host with
// an odd hostname is quoted, so the line stays one command.
TEST(AcceptActions, NamesAreDeduplicatedAndShellSafe) {
  podperf::Run run = judged_run(3, {0, 1, 2});
  run.nodes[0].kubernetes_node_name = "node-a";
  run.nodes[1].kubernetes_node_name = "node-a";
  run.nodes[2].kubernetes_node_name = "node-b";
  run.nodes[2].hostname = "odd host;x";
  const std::string out = render_node_actions(run, action_hosts(run), "");
  EXPECT_TRUE(has(out, "  kubectl cordon node-a node-b\n")) << out;
  EXPECT_TRUE(has(out, "'NodeName=worker-0,worker-1,odd host;x'")) << out;
  EXPECT_TRUE(has(out, "'node=worker-0,worker-1,odd host;x'")) << out;
  podperf::Run virt = judged_run(2, {0, 1});
  virt.nodes[0].label = "box/v0";
  virt.nodes[1].label = "box/v1";
  virt.nodes[0].hostname = virt.nodes[1].hostname = "box";
  virt.nodes[0].is_virtual = virt.nodes[1].is_virtual = true;
  virt.verdict.nodes[0].node = "box/v0";
  virt.verdict.nodes[1].node = "box/v1";
  virt.verdict.checks[0].node = "box/v0";
  virt.verdict.checks[1].node = "box/v1";
  const std::vector<ActionHost> hosts = action_hosts(virt);
  ASSERT_EQ(hosts.size(), 1u);
  EXPECT_EQ(hosts[0].label, "box");
  EXPECT_EQ(hosts[0].failures, std::vector<std::string>{"straggler"});
}

TEST(AcceptActions, NothingToActOnWhenNoNodeFails) {
  const podperf::Run run = judged_run(3, {});
  EXPECT_TRUE(action_hosts(run).empty());
  EXPECT_EQ(render_node_actions(run, action_hosts(run), ""), "");
  EXPECT_TRUE(has(render_verdict(run), "Nothing to drain."));
}

}  // namespace
}  // namespace podperf

#pragma once
// The commands that act on podperf accept's FAIL nodes, for people to paste: drain, reboot and replace
// with Slurm, Kubernetes and SageMaker HyperPod's node APIs, each naming the node the way its tool does
// (Slurm's node name, the Kubernetes node name, the EC2 instance id). Printed only, never run. Floor: the
// printers' wing (analysis/report/); pure, local; throws nothing. A projection of run.verdict and
// run.nodes: layout and grouping only.
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

// The placeholder the HyperPod API lines carry when no cluster name was given (podperf cannot know it).
inline constexpr const char* kClusterNamePlaceholder = "CLUSTER_NAME";

// HyperPod's node APIs take at most this many instance ids a call.
inline constexpr std::size_t kHyperPodNodesPerCall = 25;

// One host to act on: the FAIL nodes of run.verdict, virtual nodes of one host together, in node order.
struct ActionHost {
  std::string label;     // the host's label ("h3"; for virtual nodes the part before "/v")
  std::string hostname;  // gethostname(): in a Kubernetes pod, the pod's name
  std::string slurm_node_name;
  std::string kubernetes_node_name;
  std::string instance_id;            // as recorded; an EC2 id only where ec2_instance_id() holds
  std::vector<std::string> failures;  // the failed check ids, sorted, deduplicated
};

// The hosts run.verdict fails (empty when it fails none).
std::vector<ActionHost> action_hosts(const Run& run);

// The commands for `hosts`, as the lines of a shell script (comments say what each group does and on
// which orchestrator; every line is runnable as printed: a comment or a command, each name shell-safe):
//   Slurm: one scontrol DRAIN line per set of failed checks, then HyperPod's own recovery
//     (scontrol update node=... state=fail reason="Action:Reboot" / "Action:Replace"). Slurm's node
//     names; a host without one is named by its hostname, and the lines say so, when the run was started
//     by Slurm (launcher slurm) or other hosts have one; else no Slurm line, a comment says why.
//   Kubernetes (hosts with a Kubernetes node name only, never a pod's hostname): kubectl cordon, then
//     HyperPod EKS's node-health-status labels UnschedulablePendingReboot / UnschedulablePendingReplacement.
//   HyperPod API (hosts with an EC2 instance id): aws sagemaker batch-reboot-cluster-nodes and
//     batch-replace-cluster-nodes, at most 25 ids a call, --cluster-name `cluster_name` or CLUSTER_NAME.
// Replacing destroys the instance's volumes: the text says so. Empty when `hosts` is empty.
std::string render_node_actions(const Run& run, const std::vector<ActionHost>& hosts, const std::string& cluster_name);

}  // namespace podperf

// The commands that act on podperf accept's FAIL nodes. Printers' wing; pure, local; throws nothing.
#include "analysis/report/accept_actions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/base/node_names.hpp"
#include "analysis/base/text.hpp"
#include "analysis/report/format_append.hpp"

namespace podperf {
namespace {

// The host part of a node label: "h3/v1" -> "h3" for virtual nodes.
std::string host_label_of(const NodeInfo& n) {
  if (!n.is_virtual) return n.label;
  const std::size_t slash = n.label.rfind('/');
  return slash == std::string::npos ? n.label : n.label.substr(0, slash);
}

// "a b c" of the names, each a shell word.
std::string words(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& n : names) out.push_back(shell_word(n));
  return text::join(out, " ");
}

void slurm_lines(const Run& run, const std::vector<ActionHost>& hosts, std::string& out) {
  const bool any_name =
      std::any_of(hosts.begin(), hosts.end(), [](const ActionHost& h) { return !h.slurm_node_name.empty(); });
  // Not started by Slurm and no Slurm names: a hostname would be a guess (on EKS, a pod's name).
  if (!any_name && run.launcher.kind != "slurm") {
    out +=
        "  # Slurm: no Slurm node names recorded (the run was not started by srun); `scontrol show node`\n"
        "  # names the nodes for scontrol update NodeName=...\n";
    return;
  }
  std::vector<std::string> fallback;
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // failed checks -> Slurm names
  std::vector<std::string> all;
  for (const ActionHost& h : hosts) {
    const std::string name = h.slurm_node_name.empty() ? h.hostname : h.slurm_node_name;
    if (h.slurm_node_name.empty()) fallback.push_back(h.hostname);
    if (std::find(all.begin(), all.end(), name) != all.end()) continue;
    all.push_back(name);
    const std::string reason = text::join(h.failures, ",");
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == reason; });
    if (it == groups.end()) {
      groups.push_back({reason, {name}});
    } else {
      it->second.push_back(name);
    }
  }
  if (fallback.empty()) {
    out += "  # Slurm, with Slurm's node names: drain (running jobs finish, no new ones start)\n";
  } else if (fallback.size() == hosts.size()) {
    out +=
        "  # Slurm: drain (running jobs finish, no new ones start). Hostnames: Slurm's node names were not\n"
        "  # recorded (run under srun to record them); where they differ, `scontrol show node` names them\n";
  } else {
    append(out,
           "  # Slurm: drain (running jobs finish, no new ones start). Hostnames for {}: no Slurm node name "
           "recorded\n",
           text::join(fallback, ", "));
  }
  for (const auto& [reason, names] : groups) {
    append(out, "  scontrol update {} State=DRAIN Reason=\"podperf accept: {}\"\n",
           shell_word("NodeName=" + text::join(names, ",")), reason);
  }
  out += "  # Slurm on HyperPod: reboot, or replace (HyperPod acts on exactly these reasons)\n";
  const std::string nodes = shell_word("node=" + text::join(all, ","));
  append(out, "  scontrol update {} state=fail reason=\"Action:Reboot\"\n", nodes);
  append(out, "  scontrol update {} state=fail reason=\"Action:Replace\"\n", nodes);
}

void kubernetes_lines(const Run& run, const std::vector<ActionHost>& hosts, std::string& out) {
  std::vector<std::string> names;
  std::vector<std::string> without;
  for (const ActionHost& h : hosts) {
    if (h.kubernetes_node_name.empty()) {
      without.push_back(h.label);
    } else if (std::find(names.begin(), names.end(), h.kubernetes_node_name) == names.end()) {
      names.push_back(h.kubernetes_node_name);
    }
  }
  if (names.empty()) {
    // A run under Slurm has no Kubernetes nodes to name; elsewhere say why no kubectl line is printed.
    if (run.launcher.kind != "slurm") {
      out +=
          "  # Kubernetes: no node names recorded (PODPERF_NODE_NAME unset), and a pod's hostname is not its\n"
          "  # node's name: deploy/k8s/podperf-mpijob.yaml sets it from spec.nodeName (docs/deploy.md)\n";
    }
    return;
  }
  append(out, "  # Kubernetes, with the nodes' names (not the pods'): cordon (no new pods start){}\n",
         without.empty() ? "" : fmt::format("; no node name recorded for {}", text::join(without, ", ")));
  append(out, "  kubectl cordon {}\n", words(names));
  out += "  # EKS on HyperPod: reboot, or replace (needs automatic node recovery enabled on the cluster)\n";
  for (const char* status : {"UnschedulablePendingReboot", "UnschedulablePendingReplacement"}) {
    append(out, "  kubectl label node {} sagemaker.amazonaws.com/node-health-status={} --overwrite\n", words(names),
           status);
  }
}

void hyperpod_api_lines(const std::vector<ActionHost>& hosts, const std::string& cluster_name, std::string& out) {
  std::vector<std::string> ids;
  std::vector<std::string> without;
  for (const ActionHost& h : hosts) {
    if (!ec2_instance_id(h.instance_id)) {
      without.push_back(h.label);
    } else if (std::find(ids.begin(), ids.end(), h.instance_id) == ids.end()) {
      ids.push_back(h.instance_id);
    }
  }
  if (ids.empty()) return;  // not EC2 instances (or ids not readable): HyperPod's API cannot name them
  const std::string cluster = cluster_name.empty() ? kClusterNamePlaceholder : shell_word(cluster_name);
  append(out, "  # HyperPod API, any orchestrator: reboot, or replace (at most {} instance ids a call{})\n",
         kHyperPodNodesPerCall,
         without.empty() ? "" : fmt::format("; no EC2 instance id recorded for {}", text::join(without, ", ")));
  if (cluster_name.empty()) {
    append(out,
           "  # {}: your HyperPod cluster's name or ARN, which podperf cannot know on a node (aws sagemaker\n"
           "  # list-clusters); accept --cluster-name NAME prints it here\n",
           kClusterNamePlaceholder);
  }
  for (const char* verb : {"reboot", "replace"}) {
    for (std::size_t at = 0; at < ids.size(); at += kHyperPodNodesPerCall) {
      const std::vector<std::string> chunk(
          ids.begin() + static_cast<std::ptrdiff_t>(at),
          ids.begin() + static_cast<std::ptrdiff_t>(std::min(ids.size(), at + kHyperPodNodesPerCall)));
      append(out, "  aws sagemaker batch-{}-cluster-nodes --cluster-name {} --node-ids {}\n", verb, cluster,
             words(chunk));
    }
  }
}

}  // namespace

std::vector<ActionHost> action_hosts(const Run& run) {
  const Verdict& v = run.verdict;
  std::set<std::string> failed_labels;
  for (const NodeVerdict& n : v.nodes) {
    if (n.status == "FAIL") failed_labels.insert(n.node);
  }
  std::map<std::string, std::set<std::string>> failures_of_label;
  for (const VerdictCheck& c : v.checks) {
    if (c.status == "FAIL" && !c.node.empty()) failures_of_label[c.node].insert(c.check);
  }
  std::vector<ActionHost> hosts;
  for (const NodeInfo& n : run.nodes) {
    if (!failed_labels.contains(n.label)) continue;
    const std::string label = host_label_of(n);
    auto it = std::find_if(hosts.begin(), hosts.end(), [&](const ActionHost& h) { return h.label == label; });
    if (it == hosts.end()) {
      hosts.push_back(ActionHost{label, n.hostname, n.slurm_node_name, n.kubernetes_node_name, n.instance_id, {}});
      it = hosts.end() - 1;
    }
    for (const std::string& c : failures_of_label[n.label]) {
      if (std::find(it->failures.begin(), it->failures.end(), c) == it->failures.end()) it->failures.push_back(c);
    }
    std::sort(it->failures.begin(), it->failures.end());
  }
  // A verdict without node records (written by an older podperf): its drain list of hostnames.
  if (hosts.empty()) {
    for (const std::string& h : v.drain) hosts.push_back(ActionHost{h, h, "", "", "", {}});
  }
  return hosts;
}

std::string render_node_actions(const Run& run, const std::vector<ActionHost>& hosts, const std::string& cluster_name) {
  if (hosts.empty()) return "";
  std::string out;
  slurm_lines(run, hosts, out);
  kubernetes_lines(run, hosts, out);
  hyperpod_api_lines(hosts, cluster_name, out);
  return out;
}

}  // namespace podperf

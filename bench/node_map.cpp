#include "bench/node_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/base/node_names.hpp"
#include "signals/root_path.hpp"

namespace podperf {
namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return "";
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\t')) line.pop_back();
  return line;
}

// A Slurm NodeName names one host: when two hosts (not virtual nodes of one) report the same, the names
// were copied, not Slurm's, and every node's is dropped.
void drop_repeated_slurm_names(NodeMap& map, std::vector<std::string>* warnings) {
  std::map<std::string, std::string> host_of_name;  // slurm name -> the host label that reported it first
  std::string repeated;
  for (const NodeInfo& n : map.nodes) {
    if (n.slurm_node_name.empty()) continue;
    const std::string host = n.is_virtual ? n.label.substr(0, n.label.rfind('/')) : n.label;
    auto [it, inserted] = host_of_name.emplace(n.slurm_node_name, host);
    if (!inserted && it->second != host) {
      repeated = fmt::format("hosts {} and {} both report SLURMD_NODENAME={}", it->second, host, n.slurm_node_name);
      break;
    }
  }
  if (repeated.empty()) return;
  for (NodeInfo& n : map.nodes) n.slurm_node_name.clear();
  if (warnings != nullptr) {
    warnings->push_back(
        fmt::format("{}: Slurm node names not recorded (a launcher copied one host's environment "
                    "to the others; accept's Slurm lines fall back to hostnames)",
                    repeated));
  }
}

// A Kubernetes node is one instance: two pods may share a node name, but not when their instance ids
// differ. Then the name was copied (mpirun -x forwarding the launcher pod's PODPERF_NODE_NAME) and every
// node's is dropped.
void drop_copied_kubernetes_names(NodeMap& map, std::vector<std::string>* warnings) {
  std::map<std::string, const NodeInfo*> first_of_name;
  std::string copied;
  for (const NodeInfo& n : map.nodes) {
    if (n.kubernetes_node_name.empty() || n.instance_id.empty()) continue;
    auto [it, inserted] = first_of_name.emplace(n.kubernetes_node_name, &n);
    if (!inserted && !it->second->instance_id.empty() && it->second->instance_id != n.instance_id) {
      copied = fmt::format("instances {} and {} both report PODPERF_NODE_NAME={}", it->second->instance_id,
                           n.instance_id, n.kubernetes_node_name);
      break;
    }
  }
  if (copied.empty()) return;
  for (NodeInfo& n : map.nodes) n.kubernetes_node_name.clear();
  if (warnings != nullptr) {
    warnings->push_back(
        fmt::format("{}: Kubernetes node names not recorded (one node's name was copied to the "
                    "others; set it per worker from spec.nodeName, never forward it with mpirun -x)",
                    copied));
  }
}

// The scheduler node name in `variable`, or "" (unset; or not a node name, said on stderr when `say`).
std::string node_name_from_env(const char* variable, const std::string& host, bool say) {
  const char* value = std::getenv(variable);
  if (value == nullptr || *value == '\0') return "";
  if (valid_node_name(value)) return value;
  if (say)
    std::fprintf(stderr,
                 "podperf: warning: host %s: %s is not a node name (letters, digits, '-', '.', '_'); not recorded\n",
                 host.c_str(), variable);
  return "";
}

}  // namespace

NodeMap build_node_map(std::vector<RankRecord> records, int virtual_nodes, std::vector<std::string>* warnings) {
  std::sort(records.begin(), records.end(),
            [](const RankRecord& a, const RankRecord& b) { return a.world_rank < b.world_rank; });
  // Hosts in order of their lowest world rank.
  std::map<int, std::vector<const RankRecord*>> hosts;  // shared_leader -> ranks
  for (const RankRecord& r : records) hosts[r.shared_leader].push_back(&r);
  std::vector<int> leaders;
  for (const auto& [leader, ranks] : hosts) leaders.push_back(leader);
  std::sort(leaders.begin(), leaders.end(),
            [&hosts](int a, int b) { return hosts[a].front()->world_rank < hosts[b].front()->world_rank; });

  NodeMap map;
  map.node_of_rank.assign(records.empty() ? 0 : static_cast<std::size_t>(records.back().world_rank) + 1, -1);
  std::map<std::string, int> name_count;
  for (int leader : leaders) {
    const auto& ranks = hosts[leader];
    const RankRecord& first = *ranks.front();
    const int seen = ++name_count[first.hostname];
    const std::string host_label = seen == 1 ? first.hostname : fmt::format("{}#{}", first.hostname, seen);
    const int parts = virtual_nodes > 0 ? virtual_nodes : 1;
    if (static_cast<int>(ranks.size()) < parts) {
      throw UsageError(fmt::format("--virtual-nodes {} needs at least {} ranks on each host; host {} has {}",
                                   virtual_nodes, virtual_nodes, first.hostname, ranks.size()));
    }
    const std::size_t base = map.nodes.size();
    for (int v = 0; v < parts; ++v) {
      NodeInfo node;
      node.index = static_cast<int>(base) + v;
      node.hostname = first.hostname;
      node.label = virtual_nodes > 0 ? fmt::format("{}/v{}", host_label, v) : host_label;
      node.instance_id = first.instance_id;
      node.instance_type = first.instance_type;
      node.slurm_node_name = first.slurm_node_name;
      node.kubernetes_node_name = first.kubernetes_node_name;
      node.is_virtual = virtual_nodes > 0;
      map.nodes.push_back(std::move(node));
    }
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const std::size_t v = i * static_cast<std::size_t>(parts) / ranks.size();
      NodeInfo& node = map.nodes[base + v];
      node.ranks.push_back(ranks[i]->world_rank);
      map.node_of_rank[static_cast<std::size_t>(ranks[i]->world_rank)] = node.index;
    }
  }
  drop_repeated_slurm_names(map, warnings);
  drop_copied_kubernetes_names(map, warnings);
  // Virtual nodes of round-robin placed hosts interleave: order every node by its lowest rank.
  std::sort(map.nodes.begin(), map.nodes.end(),
            [](const NodeInfo& a, const NodeInfo& b) { return a.ranks.front() < b.ranks.front(); });
  for (std::size_t i = 0; i < map.nodes.size(); ++i) {
    map.nodes[i].index = static_cast<int>(i);
    for (int r : map.nodes[i].ranks) map.node_of_rank[static_cast<std::size_t>(r)] = static_cast<int>(i);
  }
  return map;
}

NodeMap gather_node_map(const Comm& world, int virtual_nodes, const std::string& dmi_root) {
  Comm shared = world.split_shared();
  int leader = world.rank();
  PODPERF_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, shared.raw()));
  const std::string dmi = under_root(dmi_root, "/sys/devices/virtual/dmi/id/");
  const std::string host = local_hostname();
  const bool say = shared.rank() == 0;  // one warning per host
  nlohmann::json mine = {
      {"rank", world.rank()},
      {"host", host},
      {"leader", leader},
      {"local_rank", shared.rank()},
      {"local_size", shared.size()},
      {"instance_id", read_first_line(dmi + "board_asset_tag")},
      {"instance_type", read_first_line(dmi + "product_name")},
      {"slurm_node_name", node_name_from_env("SLURMD_NODENAME", host, say)},
      {"kubernetes_node_name", node_name_from_env("PODPERF_NODE_NAME", host, say)},
  };
  std::vector<RankRecord> records;
  for (const std::string& text :
       allgather_strings(world, mine.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))) {
    const auto j = nlohmann::json::parse(text);
    records.push_back(RankRecord{j["rank"], j["host"], j["leader"], j["local_rank"], j["local_size"], j["instance_id"],
                                 j["instance_type"], j["slurm_node_name"], j["kubernetes_node_name"]});
  }
  std::vector<std::string> warnings;
  NodeMap map = build_node_map(std::move(records), virtual_nodes, &warnings);
  if (world.rank() == 0) {
    for (const std::string& w : warnings) std::fprintf(stderr, "podperf: warning: %s\n", w.c_str());
  }
  return map;
}

}  // namespace podperf

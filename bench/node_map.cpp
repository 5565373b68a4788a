#include "bench/node_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

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

}  // namespace

NodeMap build_node_map(std::vector<RankRecord> records, int virtual_nodes) {
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
  nlohmann::json mine = {
      {"rank", world.rank()},
      {"host", local_hostname()},
      {"leader", leader},
      {"local_rank", shared.rank()},
      {"local_size", shared.size()},
      {"instance_id", read_first_line(dmi + "board_asset_tag")},
      {"instance_type", read_first_line(dmi + "product_name")},
  };
  std::vector<RankRecord> records;
  for (const std::string& text :
       allgather_strings(world, mine.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))) {
    const auto j = nlohmann::json::parse(text);
    records.push_back(RankRecord{j["rank"], j["host"], j["leader"], j["local_rank"], j["local_size"], j["instance_id"],
                                 j["instance_type"]});
  }
  return build_node_map(std::move(records), virtual_nodes);
}

}  // namespace podperf

// EKS topology: `kubectl get nodes -o json` (a List of Node objects, or one Node). A node's path is
// its labels topology.kubernetes.io/zone, topology.k8s.aws/network-node-layer-1..3 and, where present,
// topology.k8s.aws/ultraserver-id (innermost).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/base/errors.hpp"
#include "analysis/topology/topology.hpp"

namespace podperf {
namespace {

struct Level {
  const char* name;
  const char* label;
};
constexpr std::array<Level, 5> kLevels{{
    {"zone", "topology.kubernetes.io/zone"},
    {"network-node-layer-1", "topology.k8s.aws/network-node-layer-1"},
    {"network-node-layer-2", "topology.k8s.aws/network-node-layer-2"},
    {"network-node-layer-3", "topology.k8s.aws/network-node-layer-3"},
    {"ultraserver-id", "topology.k8s.aws/ultraserver-id"},
}};

std::size_t line_of_byte(std::string_view text, std::size_t byte) {
  byte = std::min(byte, text.size());
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n'));
}

}  // namespace

Topology parse_eks_topology(std::string_view text, const std::string& source) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(fmt::format("{}:{}: not valid JSON ({}); expected `kubectl get nodes -o json` output", source,
                                 line_of_byte(text, e.byte), e.what()));
  } catch (const nlohmann::json::exception& e) {
    // e.g. out_of_range 406, a number too large for a double such as 5e1111 (found by fuzz_config)
    throw InputError(
        fmt::format("{}: not valid JSON ({}); expected `kubectl get nodes -o json` output", source, e.what()));
  }
  std::vector<const nlohmann::json*> items;
  if (doc.is_object() && doc.contains("items") && doc["items"].is_array()) {
    for (const nlohmann::json& item : doc["items"]) items.push_back(&item);
  } else if (doc.is_object() && doc.contains("metadata")) {
    items.push_back(&doc);
  } else {
    throw InputError(
        fmt::format("{}: expected `kubectl get nodes -o json` output (an object with items[] of Nodes)", source));
  }
  Topology t;
  t.source = source;
  t.format = "eks";
  // Each item's name and labels, checked.
  std::vector<std::pair<std::string, std::map<std::string, std::string>>> nodes;
  std::set<std::string> names;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const nlohmann::json& item = *items[i];
    const nlohmann::json* metadata = item.is_object() && item.contains("metadata") ? &item["metadata"] : nullptr;
    if (metadata == nullptr || !metadata->is_object() || !metadata->contains("name") ||
        !(*metadata)["name"].is_string() || (*metadata)["name"].get<std::string>().empty()) {
      throw InputError(fmt::format("{}: items[{}] has no metadata.name", source, i));
    }
    std::pair<std::string, std::map<std::string, std::string>> node{(*metadata)["name"].get<std::string>(), {}};
    if (metadata->contains("labels")) {
      const nlohmann::json& labels = (*metadata)["labels"];
      if (!labels.is_object())
        throw InputError(fmt::format("{}: items[{}] ({}): metadata.labels is not an object", source, i, node.first));
      for (const Level& level : kLevels) {
        if (!labels.contains(level.label)) continue;
        if (!labels[level.label].is_string() || labels[level.label].get<std::string>().empty()) {
          throw InputError(fmt::format("{}: items[{}] ({}): label {} is not a non-empty string", source, i, node.first,
                                       level.label));
        }
        node.second[level.label] = labels[level.label].get<std::string>();
      }
    }
    if (!names.insert(node.first).second) {
      throw InputError(fmt::format("{}: items[{}]: node '{}' is listed twice", source, i, node.first));
    }
    nodes.push_back(std::move(node));
  }
  // The levels some node has; a node lacking one of them is left out (its place is not known).
  std::vector<const Level*> used;
  for (const Level& level : kLevels) {
    if (std::any_of(nodes.begin(), nodes.end(), [&level](const auto& n) { return n.second.count(level.label) != 0; })) {
      used.push_back(&level);
      t.levels.emplace_back(level.name);
    }
  }
  if (used.empty()) {
    throw InputError(
        fmt::format("{}: no node has a topology label (topology.kubernetes.io/zone, "
                    "topology.k8s.aws/network-node-layer-1..3)",
                    source));
  }
  for (const auto& [name, labels] : nodes) {
    std::vector<std::string> path;
    for (const Level* level : used) {
      const auto it = labels.find(level->label);
      if (it == labels.end()) break;
      path.push_back(it->second);
    }
    if (path.size() == used.size()) t.paths[name] = std::move(path);
  }
  return t;
}

}  // namespace podperf

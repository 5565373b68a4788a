// Slurm topology: topology.conf or `scontrol show topology` output, tree plugin (SwitchName= with
// Switches= and/or Nodes=) or block plugin (BlockName= with Nodes=). Hostlists are expanded; a node's
// path runs from the root switch down to its leaf switch.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

#include "analysis/base/errors.hpp"
#include "analysis/base/text.hpp"
#include "analysis/topology/hostlist.hpp"
#include "analysis/topology/topology.hpp"

namespace podperf {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct Entry {
  std::size_t line = 0;
  std::string name;
  std::vector<std::string> switches;  // child switches (tree)
  std::vector<std::string> nodes;
};

// key=value tokens of one line; keys lower-cased.
std::map<std::string, std::string> tokens(std::string_view line, const std::string& where) {
  std::map<std::string, std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])) != 0) ++i;
    if (i >= line.size()) break;
    std::size_t end = i;
    while (end < line.size() && std::isspace(static_cast<unsigned char>(line[end])) == 0) ++end;
    const std::string_view token = line.substr(i, end - i);
    const std::size_t eq = token.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      throw InputError(fmt::format("{}: '{}' is not KEY=VALUE", where, token));
    }
    out[lower(token.substr(0, eq))] = std::string(token.substr(eq + 1));
    i = end;
  }
  return out;
}

std::vector<std::string> hosts(const std::map<std::string, std::string>& kv, const char* key,
                               const std::string& where) {
  const auto it = kv.find(key);
  if (it == kv.end()) return {};
  if (it->second.empty())
    throw InputError(fmt::format("{}: {}= is empty", where, key == std::string("nodes") ? "Nodes" : "Switches"));
  try {
    return expand_hostlist(it->second);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", where, e.what()));
  }
}

Topology tree(const std::vector<Entry>& switches, const std::string& source) {
  std::map<std::string, const Entry*> by_name;
  for (const Entry& e : switches) {
    const auto [at, inserted] = by_name.emplace(e.name, &e);
    if (!inserted) {
      throw InputError(fmt::format("{}:{}: switch '{}' is defined twice (first on line {})", source, e.line, e.name,
                                   at->second->line));
    }
  }
  std::map<std::string, const Entry*> parent_of;
  for (const Entry& e : switches) {
    for (const std::string& child : e.switches) {
      if (by_name.count(child) == 0) {
        throw InputError(
            fmt::format("{}:{}: switch '{}' lists switch '{}', which is never defined", source, e.line, e.name, child));
      }
      const auto [at, inserted] = parent_of.emplace(child, &e);
      if (!inserted && at->second != &e) {
        throw InputError(fmt::format("{}:{}: switch '{}' is under both '{}' (line {}) and '{}': not a tree", source,
                                     e.line, child, at->second->name, at->second->line, e.name));
      }
    }
  }
  Topology t;
  t.source = source;
  t.format = "slurm";
  std::map<std::string, const Entry*> leaf_of;
  std::set<std::string> reached;
  std::size_t depth = 0;
  std::function<void(const Entry&, std::vector<std::string>&)> walk = [&](const Entry& e,
                                                                          std::vector<std::string>& path) {
    if (!reached.insert(e.name).second) return;
    path.push_back(e.name);
    for (const std::string& child : e.switches) walk(*by_name.at(child), path);
    const bool leaf = e.switches.empty();
    for (const std::string& node : e.nodes) {
      // `scontrol show topology` lists under an upper switch every node below it: those are placed by
      // their leaf already. A node only an upper switch names hangs off that switch directly.
      if (!leaf && leaf_of.count(node) != 0) continue;
      const auto [at, inserted] = leaf_of.emplace(node, &e);
      if (!inserted) {
        throw InputError(fmt::format("{}:{}: node '{}' is under switch '{}' and under switch '{}' (line {})", source,
                                     e.line, node, e.name, at->second->name, at->second->line));
      }
      t.paths[node] = path;
      depth = std::max(depth, path.size());
    }
    path.pop_back();
  };
  for (const Entry& e : switches) {
    if (parent_of.count(e.name) != 0) continue;
    std::vector<std::string> path;
    walk(e, path);
  }
  for (const Entry& e : switches) {
    if (reached.count(e.name) == 0) {
      throw InputError(
          fmt::format("{}:{}: switch '{}' is part of a loop of switches: not a tree", source, e.line, e.name));
    }
  }
  if (t.paths.empty()) throw InputError(fmt::format("{}: no switch lists any Nodes=", source));
  // Leaf switches at different depths: the shallower paths repeat their leaf switch, so every path has
  // one name per level. Levels are named as Slurm counts them: 0 at the leaves.
  for (auto& [node, path] : t.paths) {
    while (path.size() < depth) path.push_back(path.back());
  }
  for (std::size_t i = 0; i < depth; ++i) t.levels.push_back(fmt::format("switch-level-{}", depth - 1 - i));
  return t;
}

}  // namespace

Topology parse_slurm_topology(std::string_view text, const std::string& source) {
  std::vector<Entry> switches;
  std::vector<Entry> blocks;
  const std::vector<std::string_view> lines = text::split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    const std::size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    line = text::trim(line);
    if (line.empty()) continue;
    const std::string where = fmt::format("{}:{}", source, i + 1);
    const std::map<std::string, std::string> kv = tokens(line, where);
    Entry e;
    e.line = i + 1;
    if (kv.count("switchname") != 0) {
      e.name = kv.at("switchname");
      if (e.name.empty()) throw InputError(fmt::format("{}: SwitchName= is empty", where));
      e.switches = hosts(kv, "switches", where);
      e.nodes = hosts(kv, "nodes", where);
      switches.push_back(std::move(e));
    } else if (kv.count("blockname") != 0) {
      e.name = kv.at("blockname");
      if (e.name.empty()) throw InputError(fmt::format("{}: BlockName= is empty", where));
      e.nodes = hosts(kv, "nodes", where);
      blocks.push_back(std::move(e));
    } else if (kv.count("blocksizes") != 0 || kv.count("blocksize") != 0) {
      continue;  // block plugin settings: not where nodes are
    } else {
      throw InputError(fmt::format("{}: expected SwitchName=..., BlockName=... or BlockSizes=..., got '{}'", where,
                                   line.substr(0, std::min<std::size_t>(line.size(), 60))));
    }
  }
  if (!switches.empty() && !blocks.empty()) {
    throw InputError(
        fmt::format("{}:{}: BlockName= after SwitchName= (line {}): one file describes one plugin, tree "
                    "or block",
                    source, blocks.front().line, switches.front().line));
  }
  if (!switches.empty()) return tree(switches, source);
  if (blocks.empty()) throw InputError(fmt::format("{}: no SwitchName= or BlockName= line", source));
  Topology t;
  t.source = source;
  t.format = "slurm";
  t.levels = {"block"};
  std::map<std::string, const Entry*> block_of;
  for (const Entry& b : blocks) {
    for (const std::string& node : b.nodes) {
      const auto [at, inserted] = block_of.emplace(node, &b);
      if (!inserted) {
        throw InputError(fmt::format("{}:{}: node '{}' is in block '{}' and in block '{}' (line {})", source, b.line,
                                     node, b.name, at->second->name, at->second->line));
      }
      t.paths[node] = {b.name};
    }
  }
  if (t.paths.empty()) throw InputError(fmt::format("{}: no block lists any Nodes=", source));
  return t;
}

}  // namespace podperf

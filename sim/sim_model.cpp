#include "sim/sim_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"
#include "analysis/base/toml_require.hpp"

namespace podperf {
namespace {

constexpr std::string_view kPrefix = "sim/";

// A required array of numbers; each element checked against [lo, hi].
std::vector<double> require_numbers(const TomlCtx& c, std::string_view key, double lo, double hi) {
  const toml::node& node = toml_require_node(c, key);
  const toml::array* array = node.as_array();
  if (array == nullptr) {
    throw ConfigError(fmt::format("{}: '{}{}' must be an array of numbers", toml_where(c.source, node), c.prefix, key));
  }
  std::vector<double> out;
  for (const toml::node& element : *array) {
    const auto value = element.value<double>();
    if (!value || !(element.is_floating_point() || element.is_integer())) {
      throw ConfigError(
          fmt::format("{}: '{}{}' must be an array of numbers", toml_where(c.source, node), c.prefix, key));
    }
    if (!(*value >= lo && *value <= hi)) {
      throw ConfigError(fmt::format("{}: '{}{}' has {}, out of range (expected {} to {})", toml_where(c.source, node),
                                    c.prefix, key, *value, lo, hi));
    }
    out.push_back(*value);
  }
  return out;
}

// Each table of an array of tables `key` ([[key]]), with its context.
template <typename Fn>
void for_each_table(const toml::table& root, std::string_view key, const std::string& source, Fn&& fn) {
  const toml::node* node = root.get(key);
  if (node == nullptr) return;
  const toml::array* array = node->as_array();
  if (array == nullptr || !array->is_array_of_tables()) {
    throw ConfigError(fmt::format("{}: '{}' must be an array of tables ([[{}]])", toml_where(source, *node), key, key));
  }
  for (const toml::node& element : *array) {
    const TomlCtx c{*element.as_table(), std::string(key) + ".", source};
    fn(c, toml_where(source, element));
  }
}

constexpr int kMaxNodes = 1 << 20;

// "file:line" of a key that exists (a fault's node, for errors found when the fabric is built).
std::string key_where(const TomlCtx& c, std::string_view key) {
  return toml_where(c.source, toml_require_node(c, key));
}

}  // namespace

namespace {

// [model]: the fabric's ranks per node, latency and bandwidth.
void read_model(const toml::table& root, const std::string& source, SimModel& m) {
  const TomlCtx model{toml_require_table(root, "model", source), "model.", source};
  toml_reject_unknown(model.table, {"description", "ranks_per_node", "latency_us", "busbw_gbps", "nic_factor"},
                      "model.", source);
  m.description = toml_require_string(model, "description");
  m.ranks_per_node = static_cast<int>(toml_require_int(model, "ranks_per_node", 1, 1024));
  m.latency_us = toml_require_number(model, "latency_us", 0.0, 1e6);
  m.busbw_gbps = toml_require_number(model, "busbw_gbps", 1e-3, 1e6);
  m.nic_factor = toml_require_number(model, "nic_factor", 1e-3, 10.0);
}

// [noise]: pair and iteration noise, heavy tails and outliers.
void read_noise(const toml::table& root, const std::string& source, SimModel& m) {
  const TomlCtx noise{toml_require_table(root, "noise", source), "noise.", source};
  toml_reject_unknown(noise.table, {"pair_cv", "iteration_cv", "pair_tail_df", "outlier_probability", "outlier_factor"},
                      "noise.", source);
  m.pair_cv = toml_require_number(noise, "pair_cv", 0.0, 0.5);
  m.iteration_cv = toml_require_number(noise, "iteration_cv", 0.0, 1.0);
  // The heavy tails are optional (absent: normal noise, no outliers).
  if (noise.table.contains("pair_tail_df")) m.pair_tail_df = toml_require_number(noise, "pair_tail_df", 0.0, 1000.0);
  if (noise.table.contains("outlier_probability")) {
    m.outlier_probability = toml_require_number(noise, "outlier_probability", 0.0, 1.0);
    m.outlier_factor = toml_require_number(noise, "outlier_factor", 1e-3, 10.0);
  }
}

// [topology]: levels, group sizes (each dividing the one before) and crossing factors.
void read_topology(const toml::table& root, const std::string& source, SimModel& m) {
  if (root.contains("topology")) {
    const TomlCtx topo{toml_require_table(root, "topology", source), "topology.", source};
    toml_reject_unknown(topo.table, {"levels", "group_sizes", "crossing_factors"}, "topology.", source);
    m.topology_where = toml_where(source, topo.table);
    m.levels = toml_require_strings(topo, "levels");
    for (double v : require_numbers(topo, "group_sizes", 1, kMaxNodes)) {
      if (v != static_cast<double>(static_cast<int>(v))) {
        throw ConfigError(fmt::format("{}: 'topology.group_sizes' must be whole numbers",
                                      toml_where(source, toml_require_node(topo, "group_sizes"))));
      }
      m.group_sizes.push_back(static_cast<int>(v));
    }
    m.crossing_factors = require_numbers(topo, "crossing_factors", 1e-3, 1.0);
    const std::string where = toml_where(source, toml_require_node(topo, "levels"));
    if (m.levels.empty()) throw ConfigError(fmt::format("{}: 'topology.levels' is empty", where));
    if (m.group_sizes.size() != m.levels.size() || m.crossing_factors.size() != m.levels.size()) {
      throw ConfigError(fmt::format(
          "{}: 'topology.levels', 'topology.group_sizes' and 'topology.crossing_factors' must have one entry per "
          "level ({}, {} and {} given)",
          where, m.levels.size(), m.group_sizes.size(), m.crossing_factors.size()));
    }
    for (std::size_t i = 1; i < m.group_sizes.size(); ++i) {
      if (m.group_sizes[i - 1] % m.group_sizes[i] != 0) {
        throw ConfigError(fmt::format(
            "{}: 'topology.group_sizes' = {} does not divide {} (each level's groups split the one before)",
            toml_where(source, toml_require_node(topo, "group_sizes")), m.group_sizes[i], m.group_sizes[i - 1]));
      }
    }
  }
}

// [[slow_node]], [[flapping_node]], [[slow_link]].
void read_node_and_link_faults(const toml::table& root, const std::string& source, SimModel& m) {
  for_each_table(root, "slow_node", source, [&](const TomlCtx& c, const std::string& /*where*/) {
    toml_reject_unknown(c.table, {"node", "factor"}, "slow_node.", source);
    m.slow_nodes.push_back({static_cast<int>(toml_require_int(c, "node", 0, kMaxNodes)),
                            toml_require_number(c, "factor", 1e-3, 1.0), 1.0, key_where(c, "node")});
  });
  for_each_table(root, "flapping_node", source, [&](const TomlCtx& c, const std::string& /*where*/) {
    toml_reject_unknown(c.table, {"node", "factor", "probability"}, "flapping_node.", source);
    m.flapping_nodes.push_back({static_cast<int>(toml_require_int(c, "node", 0, kMaxNodes)),
                                toml_require_number(c, "factor", 1e-3, 1.0),
                                toml_require_number(c, "probability", 0.0, 1.0), key_where(c, "node")});
  });
  for_each_table(root, "slow_link", source, [&](const TomlCtx& c, const std::string& /*where*/) {
    toml_reject_unknown(c.table, {"nodes", "factor"}, "slow_link.", source);
    const std::vector<double> nodes = require_numbers(c, "nodes", 0, kMaxNodes);
    if (nodes.size() != 2 || nodes[0] == nodes[1] || nodes[0] != static_cast<double>(static_cast<int>(nodes[0])) ||
        nodes[1] != static_cast<double>(static_cast<int>(nodes[1]))) {
      throw ConfigError(fmt::format("{}: 'slow_link.nodes' must be two different node indices, e.g. [3, 9]",
                                    toml_where(source, toml_require_node(c, "nodes"))));
    }
    SimLinkFault f;
    f.nodes = {static_cast<int>(std::min(nodes[0], nodes[1])), static_cast<int>(std::max(nodes[0], nodes[1]))};
    f.factor = toml_require_number(c, "factor", 1e-3, 1.0);
    f.where = key_where(c, "nodes");
    m.slow_links.push_back(f);
  });
}

// [[slow_rack]], [[slow_uplink]], [[group_factor]]: each needs a [topology].
void read_group_faults(const toml::table& root, const std::string& source, SimModel& m) {
  for_each_table(root, "slow_rack", source, [&](const TomlCtx& c, const std::string& where) {
    toml_reject_unknown(c.table, {"rack", "factor"}, "slow_rack.", source);
    if (m.levels.empty()) {
      throw ConfigError(
          fmt::format("{}: [[slow_rack]] needs a [topology] (its racks are the innermost groups)", where));
    }
    m.slow_racks.push_back({static_cast<int>(toml_require_int(c, "rack", 0, kMaxNodes)),
                            toml_require_number(c, "factor", 1e-3, 1.0), key_where(c, "rack")});
  });
  for_each_table(root, "slow_uplink", source, [&](const TomlCtx& c, const std::string& where) {
    toml_reject_unknown(c.table, {"level", "group", "factor"}, "slow_uplink.", source);
    if (m.levels.empty()) {
      throw ConfigError(
          fmt::format("{}: [[slow_uplink]] needs a [topology] (its group is one of a level's groups)", where));
    }
    const std::string level = toml_require_string(c, "level");
    const auto it = std::find(m.levels.begin(), m.levels.end(), level);
    if (it == m.levels.end()) {
      throw ConfigError(fmt::format("{}: 'slow_uplink.level' = \"{}\" is not a level of [topology] (levels: {})",
                                    key_where(c, "level"), level, fmt::join(m.levels, ", ")));
    }
    m.slow_uplinks.push_back({static_cast<int>(it - m.levels.begin()),
                              static_cast<int>(toml_require_int(c, "group", 0, kMaxNodes)),
                              toml_require_number(c, "factor", 1e-3, 1.0), key_where(c, "group")});
  });
  for_each_table(root, "group_factor", source, [&](const TomlCtx& c, const std::string& where) {
    toml_reject_unknown(c.table, {"level", "group", "factor"}, "group_factor.", source);
    if (m.levels.empty()) {
      throw ConfigError(
          fmt::format("{}: [[group_factor]] needs a [topology] (its group is one of a level's groups)", where));
    }
    const std::string level = toml_require_string(c, "level");
    const auto it = std::find(m.levels.begin(), m.levels.end(), level);
    if (it == m.levels.end()) {
      throw ConfigError(fmt::format("{}: 'group_factor.level' = \"{}\" is not a level of [topology] (levels: {})",
                                    key_where(c, "level"), level, fmt::join(m.levels, ", ")));
    }
    m.group_factors.push_back({static_cast<int>(it - m.levels.begin()),
                               static_cast<int>(toml_require_int(c, "group", 0, kMaxNodes)),
                               toml_require_number(c, "factor", 1e-3, 100.0), key_where(c, "group")});
  });
}

// [[node_kind]] and [random_slow_nodes].
void read_kinds_and_random_faults(const toml::table& root, const std::string& source, SimModel& m) {
  for_each_table(root, "node_kind", source, [&](const TomlCtx& c, const std::string& /*where*/) {
    toml_reject_unknown(c.table, {"first", "count", "ranks_per_node", "factor"}, "node_kind.", source);
    m.node_kinds.push_back({static_cast<int>(toml_require_int(c, "first", 0, kMaxNodes)),
                            static_cast<int>(toml_require_int(c, "count", 1, kMaxNodes)),
                            static_cast<int>(toml_require_int(c, "ranks_per_node", 1, 1024)),
                            toml_require_number(c, "factor", 1e-3, 100.0), key_where(c, "first")});
  });
  if (root.contains("random_slow_nodes")) {
    const TomlCtx c{toml_require_table(root, "random_slow_nodes", source), "random_slow_nodes.", source};
    toml_reject_unknown(c.table, {"count", "min_factor", "max_factor"}, "random_slow_nodes.", source);
    m.random_slow_nodes = static_cast<int>(toml_require_int(c, "count", 0, kMaxNodes));
    m.random_min_factor = toml_require_number(c, "min_factor", 1e-3, 1.0);
    m.random_max_factor = toml_require_number(c, "max_factor", 1e-3, 1.0);
    if (m.random_min_factor > m.random_max_factor) {
      throw ConfigError(fmt::format("{}: 'random_slow_nodes.min_factor' = {} is larger than max_factor = {}",
                                    toml_where(source, toml_require_node(c, "min_factor")), m.random_min_factor,
                                    m.random_max_factor));
    }
  }
}

}  // namespace

SimModel parse_sim_model(std::string_view toml_text, const std::string& name, const std::string& source) {
  const toml::table root = toml_parse(toml_text, source);
  toml_reject_unknown(root,
                      {"model", "noise", "topology", "slow_node", "slow_link", "slow_rack", "slow_uplink",
                       "flapping_node", "random_slow_nodes", "group_factor", "node_kind"},
                      "", source);
  SimModel m;
  m.name = name;
  m.source = source;
  read_model(root, source, m);
  read_noise(root, source, m);
  read_topology(root, source, m);
  read_node_and_link_faults(root, source, m);
  read_group_faults(root, source, m);
  read_kinds_and_random_faults(root, source, m);
  return m;
}

SimModel load_sim_model(const std::string& name_or_file) {
  std::string source;
  const std::string text = named_config_text(name_or_file, kPrefix, "sim model", source);
  return parse_sim_model(text, name_or_file, source);
}

std::vector<std::string> builtin_sim_models() {
  return embedded_config_names(kPrefix);
}

}  // namespace podperf

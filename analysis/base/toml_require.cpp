#include "analysis/base/toml_require.hpp"

#include <fmt/format.h>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"

namespace podperf {

const toml::table& toml_require_table(const toml::table& parent, std::string_view key, const std::string& source) {
  const toml::node* node = parent.get(key);
  if (node == nullptr) throw ConfigError(fmt::format("{}: missing table [{}]", source, key));
  const auto* table = node->as_table();
  if (table == nullptr) throw ConfigError(fmt::format("{}: [{}] must be a table", toml_where(source, *node), key));
  return *table;
}

const toml::node& toml_require_node(const TomlCtx& c, std::string_view key) {
  const toml::node* node = c.table.get(key);
  if (node == nullptr) {
    throw ConfigError(fmt::format("{}: missing key '{}{}'", toml_where(c.source, c.table), c.prefix, key));
  }
  return *node;
}

std::string toml_require_string(const TomlCtx& c, std::string_view key) {
  const toml::node& node = toml_require_node(c, key);
  const auto value = node.value<std::string>();
  if (!node.is_string() || !value) {
    throw ConfigError(fmt::format("{}: '{}{}' must be a string", toml_where(c.source, node), c.prefix, key));
  }
  return *value;
}

double toml_require_number(const TomlCtx& c, std::string_view key, double lo, double hi) {
  const toml::node& node = toml_require_node(c, key);
  const auto value = node.value<double>();
  if (!value || !(node.is_floating_point() || node.is_integer())) {
    throw ConfigError(fmt::format("{}: '{}{}' must be a number", toml_where(c.source, node), c.prefix, key));
  }
  if (!(*value >= lo && *value <= hi)) {
    throw ConfigError(fmt::format("{}: '{}{}' = {} is out of range (expected {} to {})", toml_where(c.source, node),
                                  c.prefix, key, *value, lo, hi));
  }
  return *value;
}

std::int64_t toml_require_int(const TomlCtx& c, std::string_view key, std::int64_t lo, std::int64_t hi) {
  const toml::node& node = toml_require_node(c, key);
  const auto value = node.value<std::int64_t>();
  if (!node.is_integer() || !value) {
    throw ConfigError(fmt::format("{}: '{}{}' must be a whole number", toml_where(c.source, node), c.prefix, key));
  }
  if (*value < lo || *value > hi) {
    throw ConfigError(fmt::format("{}: '{}{}' = {} is out of range (expected {} to {})", toml_where(c.source, node),
                                  c.prefix, key, *value, lo, hi));
  }
  return *value;
}

bool toml_require_bool(const TomlCtx& c, std::string_view key) {
  const toml::node& node = toml_require_node(c, key);
  const auto value = node.value<bool>();
  if (!node.is_boolean() || !value) {
    throw ConfigError(fmt::format("{}: '{}{}' must be true or false", toml_where(c.source, node), c.prefix, key));
  }
  return *value;
}

std::vector<std::string> toml_require_strings(const TomlCtx& c, std::string_view key) {
  const toml::node& node = toml_require_node(c, key);
  const toml::array* array = node.as_array();
  if (array == nullptr) {
    throw ConfigError(fmt::format("{}: '{}{}' must be an array of strings", toml_where(c.source, node), c.prefix, key));
  }
  std::vector<std::string> out;
  for (const toml::node& item : *array) {
    const auto value = item.value<std::string>();
    if (!item.is_string() || !value) {
      throw ConfigError(
          fmt::format("{}: '{}{}' must be an array of strings", toml_where(c.source, item), c.prefix, key));
    }
    out.push_back(*value);
  }
  return out;
}

}  // namespace podperf

// The helpers every rule domain shares (signals/rules_common.hpp): rules.toml key readers in the style of
// analysis/config/thresholds.cpp, and the text of findings. Pure, local; only the readers throw (ConfigError).
#include "signals/rules_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"

namespace podperf::signal_rules {

const toml::table& require_table(const toml::table& parent, std::string_view key, std::string_view prefix,
                                 const std::string& source) {
  const toml::node* node = parent.get(key);
  if (node == nullptr) throw ConfigError(fmt::format("{}: missing table [{}{}]", source, prefix, key));
  const auto* table = node->as_table();
  if (table == nullptr) {
    throw ConfigError(fmt::format("{}: '{}{}' must be a table (expected [{}{}])", toml_where(source, *node), prefix,
                                  key, prefix, key));
  }
  return *table;
}

const toml::node& require_key(const toml::table& table, std::string_view key, std::string_view prefix,
                              const std::string& source) {
  const toml::node* node = table.get(key);
  if (node == nullptr) throw ConfigError(fmt::format("{}: missing key '{}{}'", source, prefix, key));
  return *node;
}

double require_number(const toml::table& table, std::string_view key, std::string_view prefix, double lo, double hi,
                      const std::string& source) {
  const toml::node& node = require_key(table, key, prefix, source);
  std::optional<double> value = node.value<double>();
  if (!value || !(node.is_floating_point() || node.is_integer())) {
    throw ConfigError(
        fmt::format("{}: '{}{}' must be a number (expected {} to {})", toml_where(source, node), prefix, key, lo, hi));
  }
  if (!(*value >= lo && *value <= hi)) {
    throw ConfigError(fmt::format("{}: '{}{}' = {} is out of range (expected {} to {})", toml_where(source, node),
                                  prefix, key, *value, lo, hi));
  }
  return *value;
}

std::int64_t require_integer(const toml::node& node, std::string_view name, std::int64_t lo, std::int64_t hi,
                             const std::string& source) {
  if (!node.is_integer()) {
    throw ConfigError(
        fmt::format("{}: '{}' must be a whole number (expected {} to {})", toml_where(source, node), name, lo, hi));
  }
  const std::int64_t v = node.as_integer()->get();
  if (v < lo || v > hi) {
    throw ConfigError(
        fmt::format("{}: '{}' = {} is out of range (expected {} to {})", toml_where(source, node), name, v, lo, hi));
  }
  return v;
}

std::uint64_t require_bytes(const toml::table& table, std::string_view key, std::string_view prefix,
                            const std::string& source) {
  const toml::node& node = require_key(table, key, prefix, source);
  constexpr std::int64_t kMax = std::int64_t{1} << 50;  // 1 PiB
  return static_cast<std::uint64_t>(require_integer(node, fmt::format("{}{}", prefix, key), 1, kMax, source));
}

const toml::array& require_array(const toml::table& table, std::string_view key, std::string_view prefix,
                                 const std::string& source) {
  const toml::node& node = require_key(table, key, prefix, source);
  const toml::array* a = node.as_array();
  if (a == nullptr)
    throw ConfigError(fmt::format("{}: '{}{}' must be an array", toml_where(source, node), prefix, key));
  return *a;
}

Finding make(Tag tag, std::string check, const std::string& host, std::string observed, std::string expected,
             std::string meaning, std::string effect, std::string next_step) {
  Finding f;
  f.tag = tag;
  f.source = "signals";
  f.check = std::move(check);
  f.host = host;
  f.observed = std::move(observed);
  f.expected = std::move(expected);
  f.meaning = std::move(meaning);
  f.effect = std::move(effect);
  f.next_step = std::move(next_step);
  return f;
}

std::string percent(double v) {
  return fmt::format("{:.1f}%", v);
}

std::string list(const std::vector<std::string>& items, std::size_t cap) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < cap; ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  if (items.size() > cap) out += fmt::format(" +{} more", items.size() - cap);
  return out;
}

const MountInfo* find_mount(const HostSnapshot& s, const std::string& mount_point) {
  if (!s.mounts.readable) return nullptr;
  for (const auto& m : s.mounts.value)
    if (m.mount_point == mount_point) return &m;
  return nullptr;
}

std::string groups_text(const std::map<std::string, std::vector<std::string>>& groups) {
  std::vector<std::string> parts;
  for (const auto& [value, hosts] : groups) parts.push_back(value + ": " + list(hosts, 6));
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? "; " : "") + parts[i];
  return s;
}

std::optional<int> expected_efa_count(const HostSnapshot& s, const Rules& r) {
  if (!s.instance_type.readable) return std::nullopt;
  auto it = r.efa_expected_count.find(s.instance_type.value);
  if (it == r.efa_expected_count.end()) return std::nullopt;
  return it->second;
}

}  // namespace podperf::signal_rules

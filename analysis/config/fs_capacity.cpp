#include "analysis/config/fs_capacity.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"

namespace podperf {
namespace {

// A per-TiB throughput: a number in (0, 1e6] MB/s per TiB.
double require_rate(const toml::table& table, std::string_view key, const std::string& prefix,
                    const std::string& source) {
  const toml::node* node = table.get(key);
  if (node == nullptr) throw ConfigError(fmt::format("{}: missing key '{}{}'", source, prefix, key));
  const std::optional<double> value = node->value<double>();
  if (!value || !(node->is_floating_point() || node->is_integer())) {
    throw ConfigError(
        fmt::format("{}: '{}{}' must be a number (MB/s per TiB)", toml_where(source, *node), prefix, key));
  }
  if (!(*value > 0.0 && *value <= 1e6)) {
    throw ConfigError(
        fmt::format("{}: '{}{}' = {} is out of range (expected more than 0, at most 1000000 MB/s per TiB)",
                    toml_where(source, *node), prefix, key, *value));
  }
  return *value;
}

std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

}  // namespace

FsCapacityTable parse_fs_capacity(std::string_view toml_text, const std::string& source) {
  const toml::table root = toml_parse(toml_text, source);
  toml_reject_unknown(root, {"fsx"}, "", source);
  const toml::node* fsx_node = root.get("fsx");
  if (fsx_node == nullptr) throw ConfigError(fmt::format("{}: missing table [fsx]", source));
  const toml::table* fsx = fsx_node->as_table();
  if (fsx == nullptr) throw ConfigError(fmt::format("{}: [fsx] must be a table", toml_where(source, *fsx_node)));
  FsCapacityTable out;
  out.source = source;
  for (const auto& [key, value] : *fsx) {
    const std::string name(key.str());
    const toml::table* entry = value.as_table();
    if (entry == nullptr) {
      throw ConfigError(
          fmt::format("{}: 'fsx.{}' must be a table [fsx.{}] with network_mb_s_per_tib, "
                      "disk_read_mb_s_per_tib and disk_write_mb_s_per_tib",
                      toml_where(source, value), name, name));
    }
    const std::string prefix = "fsx." + name + ".";
    toml_reject_unknown(*entry, {"network_mb_s_per_tib", "disk_read_mb_s_per_tib", "disk_write_mb_s_per_tib"}, prefix,
                        source);
    FsxDeployment d;
    d.name = name;
    d.network_mb_s_per_tib = require_rate(*entry, "network_mb_s_per_tib", prefix, source);
    d.disk_read_mb_s_per_tib = require_rate(*entry, "disk_read_mb_s_per_tib", prefix, source);
    d.disk_write_mb_s_per_tib = require_rate(*entry, "disk_write_mb_s_per_tib", prefix, source);
    for (const FsxDeployment& other : out.fsx) {
      if (upper(other.name) == upper(name)) {
        throw ConfigError(fmt::format("{}: deployment type '{}' is listed twice (names are case-insensitive)",
                                      toml_where(source, value), name));
      }
    }
    out.fsx.push_back(std::move(d));
  }
  if (out.fsx.empty()) throw ConfigError(fmt::format("{}: [fsx] lists no deployment types", source));
  return out;
}

FsCapacityTable load_fs_capacity(const std::string& path) {
  std::string source;
  const std::string text = config_text(path, "filesystems.toml", "filesystems file", source);
  return parse_fs_capacity(text, source);
}

FsExpected fsx_expected(const FsCapacityTable& table, const std::string& deployment, double capacity_tib) {
  const FsxDeployment* found = nullptr;
  for (const FsxDeployment& d : table.fsx) {
    if (upper(d.name) == upper(deployment)) found = &d;
  }
  if (found == nullptr) {
    std::vector<std::string> known;
    for (const FsxDeployment& d : table.fsx) known.push_back(d.name);
    throw UsageError(fmt::format("unknown FSx deployment type '{}' (known in {}: {})", deployment, table.source,
                                 fmt::join(known, ", ")));
  }
  if (!(capacity_tib > 0.0) || !std::isfinite(capacity_tib)) {
    throw UsageError(fmt::format("FSx capacity must be more than 0 TiB (got {})", capacity_tib));
  }
  FsExpected out;
  out.read_mb_s = capacity_tib * std::min(found->network_mb_s_per_tib, found->disk_read_mb_s_per_tib);
  out.write_mb_s = capacity_tib * std::min(found->network_mb_s_per_tib, found->disk_write_mb_s_per_tib);
  out.source = fmt::format("FSx {} x {:g} TiB, per {}", found->name, capacity_tib, table.source);
  return out;
}

}  // namespace podperf

#include "analysis/config/sku.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/base/embedded_configs.hpp"
#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"
#include "analysis/base/toml_require.hpp"
#include "analysis/base/units.hpp"

namespace podperf {
namespace {

constexpr std::string_view kSkuPrefix = "skus/";

}  // namespace

std::optional<double> Sku::pair_busbw_at(std::uint64_t size_bytes) const {
  for (const SkuBusbw& b : pair_busbw) {
    if (b.size_bytes == size_bytes) return b.gbps;
  }
  return std::nullopt;
}

Sku parse_sku(std::string_view toml_text, const std::string& source) {
  const toml::table root = toml_parse(toml_text, source);
  toml_reject_unknown(root, {"sku"}, "", source);
  const TomlCtx c{toml_require_table(root, "sku", source), "sku.", source};
  toml_reject_unknown(c.table, {"instance_type", "gpus", "efa_devices", "single_node_busbw_min_gbps", "pair_busbw"},
                      "sku.", source);
  Sku out;
  out.source = source;
  out.instance_type = toml_require_string(c, "instance_type");
  if (out.instance_type.empty()) {
    throw ConfigError(
        fmt::format("{}: 'sku.instance_type' is empty", toml_where(source, toml_require_node(c, "instance_type"))));
  }
  out.gpus = static_cast<int>(toml_require_int(c, "gpus", 1, 1024));
  out.efa_devices = static_cast<int>(toml_require_int(c, "efa_devices", 0, 1024));
  out.single_node_busbw_min_gbps = toml_require_number(c, "single_node_busbw_min_gbps", 0.0, 1e6);
  const toml::node& list = toml_require_node(c, "pair_busbw");
  const toml::array* array = list.as_array();
  if (array == nullptr) {
    throw ConfigError(fmt::format("{}: 'sku.pair_busbw' must be an array of {{ size = \"1G\", gbps = 437.0 }}",
                                  toml_where(source, list)));
  }
  for (std::size_t i = 0; i < array->size(); ++i) {
    const toml::node& item = *array->get(i);
    const toml::table* t = item.as_table();
    const std::string prefix = fmt::format("sku.pair_busbw[{}].", i);
    if (t == nullptr) {
      throw ConfigError(fmt::format("{}: 'sku.pair_busbw[{}]' must be a table {{ size = \"1G\", gbps = 437.0 }}",
                                    toml_where(source, item), i));
    }
    toml_reject_unknown(*t, {"size", "gbps"}, prefix, source);
    const TomlCtx e{*t, prefix, source};
    SkuBusbw b;
    b.size = toml_require_string(e, "size");
    try {
      b.size_bytes = parse_size(b.size, "size");
    } catch (const UsageError&) {
      throw ConfigError(fmt::format("{}: '{}size' = \"{}\" is not a size (expected e.g. \"1G\")",
                                    toml_where(source, toml_require_node(e, "size")), prefix, b.size));
    }
    b.gbps = toml_require_number(e, "gbps", 0.001, 1e6);
    if (out.pair_busbw_at(b.size_bytes)) {
      throw ConfigError(fmt::format("{}: '{}size' = \"{}\" is listed twice", toml_where(source, item), prefix, b.size));
    }
    out.pair_busbw.push_back(b);
  }
  return out;
}

std::vector<std::string> builtin_skus() {
  return embedded_config_names(kSkuPrefix);
}

Sku load_sku(const std::string& name_or_file) {
  std::string source;
  const std::string text = named_config_text(name_or_file, kSkuPrefix, "SKU", source);
  return parse_sku(text, source);
}

std::optional<Sku> builtin_sku_for(const std::string& instance_type) {
  if (instance_type.empty() || is_config_path(instance_type)) return std::nullopt;
  const std::string embedded = fmt::format("{}{}.toml", kSkuPrefix, instance_type);
  if (!embedded_configs().contains(embedded)) return std::nullopt;
  return load_sku(instance_type);
}

}  // namespace podperf

#pragma once
// Per-instance baselines (configs/skus/<instance type>.toml, podperf accept --sku NAME|FILE): the
// published 2-node all_reduce busbw a node's pairs are held to, and the instance's GPU and EFA counts
// (the published numbers: awsome-distributed-training nccl-tests README, its gpu-cluster-healthcheck,
// cluster-health-scanner; every value's source is a comment in its file). Pure.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

// A published 2-node all_reduce busbw (float, nccl-tests busbw, GB/s) at one message size.
struct SkuBusbw {
  std::string size;  // as written, "1G"
  std::uint64_t size_bytes = 0;
  double gbps = 0.0;
};

struct Sku {
  std::string instance_type;  // "p5.48xlarge", as /sys/devices/virtual/dmi/id/product_name reads
  std::string source;         // "configs/skus/p5.48xlarge.toml (built in)" or the path
  int gpus = 0;
  int efa_devices = 0;
  double single_node_busbw_min_gbps = 0.0;  // reference only (one node's NVLink all_reduce), not judged
  std::vector<SkuBusbw> pair_busbw;         // empty: no published figure
  // The published figure at exactly `size_bytes`, if any.
  [[nodiscard]] std::optional<double> pair_busbw_at(std::uint64_t size_bytes) const;
};

// Parses SKU TOML: [sku] instance_type, gpus, efa_devices, single_node_busbw_min_gbps, pair_busbw (an
// array, possibly empty, of {size, gbps}). Every key required, unknown keys rejected. Throws
// ConfigError "source:line: ... 'key'".
Sku parse_sku(std::string_view toml_text, const std::string& source);

// NAME (built in: configs/skus/NAME.toml) or FILE (contains '/' or ends with .toml). Throws
// ConfigError for an unknown name (listing the built-in ones) or an unreadable/invalid file.
Sku load_sku(const std::string& name_or_file);

// The built-in SKU names (instance types), sorted.
std::vector<std::string> builtin_skus();

// The built-in SKU of an instance type, if there is one.
std::optional<Sku> builtin_sku_for(const std::string& instance_type);

}  // namespace podperf

// The filesystem probes' plan (see fs_plan.hpp). Floor bench/, pure, local.
#include "bench/fs/fs_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "analysis/base/errors.hpp"
#include "analysis/base/units.hpp"
#include "analysis/config/fs_probes.hpp"
#include "bench/fs/probe_catalog.hpp"

namespace podperf {
namespace {

constexpr std::uint64_t kDirectAlign = 4096;

std::uint64_t positive_size(const std::string& text, const char* flag) {
  const std::uint64_t v = parse_size(text, flag);
  if (v == 0) throw UsageError(fmt::format("{} {}: must be more than 0 bytes", flag, text));
  return v;
}

void require_aligned(std::uint64_t bytes, const char* flag, const std::string& text) {
  if (bytes % kDirectAlign != 0) {
    throw UsageError(
        fmt::format("{} {}: --direct needs a multiple of 4K (O_DIRECT transfers are aligned)", flag, text));
  }
}

// The host a node lives on (virtual nodes of one host share it).
std::string host_key(const NodeInfo& n) {
  return n.is_virtual ? n.hostname : n.label;
}

}  // namespace

bool FsPlan::runs(std::string_view option) const {
  return std::find(options.begin(), options.end(), option) != options.end();
}

namespace {

// make_fs_plan, step 1: the --probes items, in catalog order ("all": every one). Throws UsageError for
// an unknown item (listing the catalog's), an empty list, or a reader without its writer.
std::vector<std::string> parse_probes(const std::string& list) {
  std::set<std::string, std::less<>> chosen;
  std::stringstream in(list);
  std::string item;
  int count = 0;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    ++count;
    if (item == "all") {
      for (const std::string& o : fs_probe_options()) chosen.insert(o);
    } else if (is_fs_probe_option(item)) {
      chosen.insert(item);
    } else {
      throw UsageError(fmt::format("--probes: unknown probe '{}' (expected {} or all)", item, fs_probe_options_text()));
    }
  }
  if (count == 0) throw UsageError("--probes: empty list (expected e.g. seq-write,seq-read)");
  std::vector<std::string> options;
  for (const std::string& o : fs_probe_options()) {
    if (chosen.contains(o)) options.push_back(o);
  }
  const std::string missing = fs_missing_writer(options);
  if (!missing.empty()) throw UsageError("--probes: " + missing);
  return options;
}

// make_fs_plan, step 2: the sizes and counts, each checked (positive, at least 1).
void parse_sizes(const FsOptions& o, FsPlan& plan) {
  plan.block_size_bytes = positive_size(o.block_size, "--block-size");
  plan.file_size_bytes = positive_size(o.file_size, "--file-size");
  plan.rand_block_size_bytes = positive_size(o.rand_block_size, "--rand-block-size");
  plan.meta_file_size_bytes = parse_size(o.meta_file_size, "--meta-file-size");
  plan.ckpt_shard_size_bytes = positive_size(o.ckpt_shard_size, "--ckpt-shard-size");
  if (o.rand_ops < 1) throw UsageError(fmt::format("--rand-ops {}: must be at least 1", o.rand_ops));
  if (o.meta_files < 1) throw UsageError(fmt::format("--meta-files {}: must be at least 1", o.meta_files));
  if (o.ckpt_shards < 1) throw UsageError(fmt::format("--ckpt-shards {}: must be at least 1", o.ckpt_shards));
  plan.rand_ops = static_cast<std::uint64_t>(o.rand_ops);
  plan.meta_files = static_cast<std::uint64_t>(o.meta_files);
  plan.ckpt_shards = static_cast<std::uint64_t>(o.ckpt_shards);
}

// make_fs_plan, step 4: the expected throughput, from --fsx-deployment and --fsx-capacity-tib (both)
// or --expected-mb-s (not with them).
void set_expected(const FsOptions& o, FsPlan& plan) {
  if (!o.fsx_deployment.empty() || o.fsx_capacity_tib > 0.0) {
    if (o.fsx_deployment.empty() || !(o.fsx_capacity_tib > 0.0)) {
      throw UsageError("--fsx-deployment and --fsx-capacity-tib go together (e.g. PERSISTENT_2-250 and 4.8)");
    }
    if (o.expected_mb_s > 0.0) throw UsageError("--expected-mb-s and --fsx-deployment exclude each other");
    plan.expected = fsx_expected(load_fs_capacity(""), o.fsx_deployment, o.fsx_capacity_tib);
  } else if (o.expected_mb_s > 0.0) {
    plan.expected.read_mb_s = o.expected_mb_s;
    plan.expected.write_mb_s = o.expected_mb_s;
    plan.expected.source = fmt::format("--expected-mb-s {}", o.expected_mb_s);
  }
}

}  // namespace

FsPlan make_fs_plan(const FsOptions& o, const std::string& thresholds_path) {
  FsPlan plan;
  plan.options = parse_probes(o.probes);
  parse_sizes(o, plan);
  // Step 3: what each chosen probe asks of the sizes (a block no larger than the file it reads).
  for (const FsProbeRunner& runner : fs_probe_runners()) {
    if (runner.check != nullptr && plan.runs(find_fs_probe(runner.name)->option)) runner.check(plan, o);
  }
  plan.direct = o.direct;
  if (plan.direct) {
    require_aligned(plan.block_size_bytes, "--block-size", o.block_size);
    require_aligned(plan.file_size_bytes, "--file-size", o.file_size);
    require_aligned(plan.rand_block_size_bytes, "--rand-block-size", o.rand_block_size);
    require_aligned(plan.ckpt_shard_size_bytes, "--ckpt-shard-size", o.ckpt_shard_size);
  }
  plan.keep = o.keep;
  plan.thresholds = load_thresholds(thresholds_path);
  set_expected(o, plan);
  return plan;
}

std::uint64_t fs_peak_bytes_per_rank(const FsPlan& plan) {
  std::uint64_t peak = 0;
  for (const FsProbeRunner& runner : fs_probe_runners()) {
    if (runner.peak_bytes != nullptr && plan.runs(find_fs_probe(runner.name)->option)) {
      peak = std::max(peak, runner.peak_bytes(plan));
    }
  }
  return peak;
}

int fs_read_source(int rank, const NodeMap& map, bool shared) {
  const int node = map.node_of_rank.at(static_cast<std::size_t>(rank));
  const NodeInfo& mine = map.nodes.at(static_cast<std::size_t>(node));
  const auto local =
      static_cast<std::size_t>(std::find(mine.ranks.begin(), mine.ranks.end(), rank) - mine.ranks.begin());
  if (shared) {
    const NodeInfo& next = map.nodes[(static_cast<std::size_t>(node) + 1) % map.nodes.size()];
    return next.ranks[local % next.ranks.size()];
  }
  // Node-local: the ranks of this host, in world rank order.
  std::vector<int> host_ranks;
  for (const NodeInfo& n : map.nodes) {
    if (host_key(n) == host_key(mine)) host_ranks.insert(host_ranks.end(), n.ranks.begin(), n.ranks.end());
  }
  std::sort(host_ranks.begin(), host_ranks.end());
  const auto at = static_cast<std::size_t>(std::find(host_ranks.begin(), host_ranks.end(), rank) - host_ranks.begin());
  return host_ranks[(at + 1) % host_ranks.size()];
}

}  // namespace podperf

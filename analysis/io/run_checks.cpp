#include "analysis/io/run_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <initializer_list>
#include <set>
#include <string_view>
#include <utility>

#include "analysis/base/errors.hpp"
#include "analysis/base/node_names.hpp"
#include "analysis/base/text.hpp"
#include "analysis/config/thresholds.hpp"

namespace podperf {
namespace {

// What docs/run.schema.json allows, as one rule per kind of field. Every failure is one line naming
// the file, the field (with its index) and the value.
class FieldCheck {
 public:
  explicit FieldCheck(const std::string& path) : path_(path) {}

  [[noreturn]] void fail(std::string_view field, std::string_view what) const {
    throw InputError(fmt::format("{}: bad field: {} {} (docs/run.schema.json)", path_, field, what));
  }
  // A number that must be finite and at least `min` (0 for every time, rate and ratio).
  void at_least(double value, double min, std::string_view field) const {
    if (!std::isfinite(value)) fail(field, fmt::format("= {} is not a finite number", value));
    if (value < min) fail(field, fmt::format("= {} is below {}", value, min));
  }
  void non_negative(double value, std::string_view field) const { at_least(value, 0.0, field); }
  void every_non_negative(const std::vector<double>& values, std::string_view field) const {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!(std::isfinite(values[i]) && values[i] >= 0.0)) {
        fail(fmt::format("{}[{}]", field, i), fmt::format("= {} is not a finite number >= 0", values[i]));
      }
    }
  }
  template <class Int>
  void in_range(Int value, Int lo, Int hi, std::string_view field) const {
    if (value < lo || value > hi) fail(field, fmt::format("= {} is out of range ({} to {})", value, lo, hi));
  }
  void one_of(const std::string& value, std::initializer_list<std::string_view> allowed, std::string_view field) const {
    for (std::string_view a : allowed) {
      if (value == a) return;
    }
    fail(field, fmt::format("= \"{}\" is not one of {}", value, fmt::join(allowed, ", ")));
  }
  void node(int index, int nodes, std::string_view field) const {
    if (index < 0 || index >= nodes) {
      fail(field, fmt::format("= {} names no node of this run (it has {}: 0 to {})", index, nodes, nodes - 1));
    }
  }

 private:
  const std::string& path_;
};

// The largest message size a run.json may hold: 1 TiB (nccl-tests runs reach tens of GiB); beyond it a
// size is damage, not a measurement (a 1e30 in the file reads as 2^63 here).
constexpr std::uint64_t kMaxMessageBytes = 1ULL << 40;

void check_nodes(const Run& run, const FieldCheck& c) {
  if (run.nodes.empty()) c.fail("nodes", "is empty (a run has at least one node)");
  std::set<std::string_view> labels;
  for (std::size_t i = 0; i < run.nodes.size(); ++i) {
    const NodeInfo& n = run.nodes[i];
    if (n.index != static_cast<int>(i)) {
      c.fail(fmt::format("nodes[{}].index", i), fmt::format("= {} (nodes are listed in index order from 0)", n.index));
    }
    if (n.label.empty()) c.fail(fmt::format("nodes[{}].label", i), "is empty");
    if (!labels.insert(n.label).second) {
      c.fail(fmt::format("nodes[{}].label", i), fmt::format("= \"{}\" is listed twice", n.label));
    }
    // The scheduler's names go into the commands accept prints for people to paste.
    for (const auto& [field, name] : {std::pair{"slurm_node_name", &n.slurm_node_name},
                                      std::pair{"kubernetes_node_name", &n.kubernetes_node_name}}) {
      if (!name->empty() && !valid_node_name(*name)) {
        c.fail(fmt::format("nodes[{}].{}", i, field),
               fmt::format("= \"{}\" is not a node name (1 to {} letters, digits, '-', '.' or '_', starting with a "
                           "letter or digit)",
                           text::printable(*name, 80, true), kMaxNodeNameLength));
      }
    }
  }
}

void check_pair(const PairResult& p, std::size_t i, int nodes, const FieldCheck& c) {
  const auto field = [i](std::string_view name) { return fmt::format("pairs[{}].{}", i, name); };
  c.node(p.nodes[0], nodes, field("nodes[0]"));
  c.node(p.nodes[1], nodes, field("nodes[1]"));
  if (p.nodes[0] == p.nodes[1]) c.fail(field("nodes"), fmt::format("= [{0}, {0}] pairs a node with itself", p.nodes[0]));
  c.in_range<std::uint64_t>(p.size_bytes, 1, kMaxMessageBytes, field("size_bytes"));
  c.one_of(p.status, {"ok", "wrong", "error", "timeout", "aborted"}, field("status"));
  if (p.wrong < 0) c.fail(field("wrong"), fmt::format("= {} is negative", p.wrong));
  c.every_non_negative(p.samples_s, field("samples_s"));
  c.every_non_negative(p.retest_samples_s, field("retest_samples_s"));
  c.non_negative(p.median_s, field("median_s"));
  c.non_negative(p.min_s, field("min_s"));
  c.non_negative(p.max_s, field("max_s"));
  c.non_negative(p.p99_s, field("p99_s"));
  c.non_negative(p.cv, field("cv"));
  c.non_negative(p.algbw_gbps, field("algbw_gbps"));
  c.non_negative(p.busbw_gbps, field("busbw_gbps"));
  c.non_negative(p.retest_busbw_gbps, field("retest_busbw_gbps"));
  c.every_non_negative(p.later_retest_busbw_gbps, field("later_retest_busbw_gbps"));
  c.non_negative(p.baseline_gbps, field("baseline_gbps"));
  c.non_negative(p.ratio, field("ratio"));
  c.non_negative(p.noise_gbps, field("noise_gbps"));
}

void check_collective(const CollectiveResult& r, std::size_t i, const FieldCheck& c) {
  const auto field = [i](std::string_view name) { return fmt::format("collectives[{}].{}", i, name); };
  if (r.group.empty()) c.fail(field("group"), "is empty");
  c.in_range<std::uint64_t>(r.size_bytes, 0, kMaxMessageBytes, field("size_bytes"));
  c.one_of(r.status, {"ok", "wrong", "error", "skipped"}, field("status"));
  if (r.wrong < 0) c.fail(field("wrong"), fmt::format("= {} is negative", r.wrong));
  c.every_non_negative(r.samples_s, field("samples_s"));
  c.non_negative(r.median_s, field("median_s"));
  c.non_negative(r.min_s, field("min_s"));
  c.non_negative(r.max_s, field("max_s"));
  c.non_negative(r.p99_s, field("p99_s"));
  c.non_negative(r.cv, field("cv"));
  c.non_negative(r.algbw_gbps, field("algbw_gbps"));
  c.non_negative(r.busbw_gbps, field("busbw_gbps"));
}

void check_fs(const FsRun& fs, int nodes, const FieldCheck& c) {
  for (std::size_t i = 0; i < fs.probes.size(); ++i) {
    const FsProbeResult& p = fs.probes[i];
    const auto field = [i](std::string_view name) { return fmt::format("fs.probes[{}].{}", i, name); };
    c.one_of(p.status, {"ok", "wrong", "error"}, field("status"));
    c.non_negative(p.duration_s, field("duration_s"));
    c.non_negative(p.mb_per_s, field("mb_per_s"));
    c.non_negative(p.ops_per_s, field("ops_per_s"));
    c.non_negative(p.baseline, field("baseline"));
    for (std::size_t r = 0; r < p.ranks.size(); ++r) {
      const FsRankResult& rank = p.ranks[r];
      const std::string at = fmt::format("fs.probes[{}].ranks[{}]", i, r);
      c.node(rank.node, nodes, at + ".node");
      c.one_of(rank.status, {"ok", "wrong", "error"}, at + ".status");
      c.non_negative(rank.mb_per_s, at + ".mb_per_s");
      c.non_negative(rank.ops_per_s, at + ".ops_per_s");
    }
    for (std::size_t n = 0; n < p.nodes.size(); ++n) {
      const std::string at = fmt::format("fs.probes[{}].nodes[{}]", i, n);
      c.node(p.nodes[n].node, nodes, at + ".node");
      c.non_negative(p.nodes[n].mb_per_s, at + ".mb_per_s");
      c.non_negative(p.nodes[n].ops_per_s, at + ".ops_per_s");
      c.non_negative(p.nodes[n].ratio, at + ".ratio");
    }
  }
  for (std::size_t i = 0; i < fs.slow_nodes.size(); ++i) {
    c.node(fs.slow_nodes[i].node, nodes, fmt::format("fs.slow_nodes[{}].node", i));
  }
}

void check_findings_of_nodes(const Run& run, int nodes, const FieldCheck& c) {
  for (std::size_t i = 0; i < run.stragglers.size(); ++i) {
    c.node(run.stragglers[i].node, nodes, fmt::format("stragglers[{}].node", i));
  }
  for (std::size_t i = 0; i < run.links.size(); ++i) {
    c.node(run.links[i].nodes[0], nodes, fmt::format("links[{}].nodes[0]", i));
    c.node(run.links[i].nodes[1], nodes, fmt::format("links[{}].nodes[1]", i));
  }
}

// The recorded thresholds, checked by the rules of a thresholds file; a file of an older podperf
// records none: the built-in ones, with the threshold its options name.
void check_thresholds(Run& run, const std::string& path) {
  if (run.thresholds.source.empty()) {
    Thresholds built_in = load_thresholds("");
    if (run.options.threshold > 0.0) {
      (run.command == "fs" ? built_in.fs.threshold : built_in.pairs.threshold) = run.options.threshold;
    }
    built_in.source = "built-in configs/thresholds.toml (this run.json records no thresholds; options.threshold applied)";
    run.thresholds = std::move(built_in);
    return;
  }
  try {
    const std::string source = run.thresholds.source;
    run.thresholds = parse_thresholds(thresholds_toml(run.thresholds), path + ": thresholds");
    run.thresholds.source = source;
  } catch (const ConfigError& e) {
    throw InputError(e.what());
  }
}

}  // namespace

void check_run_fields(Run& run, const std::string& path) {
  const FieldCheck c(path);
  // A file without these is not a podperf run (`{"schema_version": 1}` alone reads as an empty Run).
  if (run.run_id.empty()) c.fail("run_id", "is empty or missing (is this a podperf run?)");
  c.one_of(run.command, {"pairs", "run", "collective", "fs", "accept"}, "command");
  c.one_of(run.backend, {"host", "nccl", "sim", "posix"}, "backend");
  c.one_of(run.status, {"complete", "timeout", "aborted"}, "status");
  if (run.ranks < 1) c.fail("ranks", fmt::format("= {} (a run has at least one rank)", run.ranks));
  check_nodes(run, c);
  const int nodes = static_cast<int>(run.nodes.size());
  for (std::size_t i = 0; i < run.options.sizes_bytes.size(); ++i) {
    c.in_range<std::uint64_t>(run.options.sizes_bytes[i], 1, kMaxMessageBytes,
                              fmt::format("options.sizes_bytes[{}]", i));
  }
  if (run.options.iters < 0) c.fail("options.iters", fmt::format("= {} is negative", run.options.iters));
  c.in_range<std::uint64_t>(run.judged_size_bytes, 0, kMaxMessageBytes, "judged_size_bytes");
  for (std::size_t i = 0; i < run.pairs.size(); ++i) check_pair(run.pairs[i], i, nodes, c);
  for (std::size_t i = 0; i < run.collectives.size(); ++i) check_collective(run.collectives[i], i, c);
  check_fs(run.fs, nodes, c);
  check_findings_of_nodes(run, nodes, c);
  check_thresholds(run, path);
}

}  // namespace podperf

// The metrics of a comparison's runs by integer key, each run summarized once into per-metric values
// (podperf compare at thousands of nodes). Floor: analysis/; pure, deterministic for any thread count.
#include "analysis/compare/compare_metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/base/chunks.hpp"
#include "analysis/base/units.hpp"
#include "analysis/compare/types.hpp"
#include "analysis/config/fs_probes.hpp"
#include "analysis/model/run_blocks.hpp"
#include "analysis/stats/change_stats.hpp"
#include "analysis/topology/topology_analysis.hpp"

// File-local helpers live in a named namespace: this file shares a unity batch with others.
namespace podperf {
namespace compare_metrics_detail {
namespace {

// A filesystem quantity: what it is, its unit, its word in the metric's name, its direction, its field.
struct FsQuantity {
  const char* quantity;
  const char* unit;
  const char* label;
  bool higher_is_better;
  double FsRankResult::*field;
};

// MetricIdentity::quantity indexes this table.
constexpr FsQuantity kFsQuantities[] = {
    {"mb_per_s", "MB/s", "MB/s", true, &FsRankResult::mb_per_s},
    {"ops_per_s", "ops/s", "ops/s", true, &FsRankResult::ops_per_s},
    {"ops_per_s", "ops/s", "IOPS", true, &FsRankResult::ops_per_s},
    {"lat_p99_us", "us", "p99 latency", false, &FsRankResult::lat_p99_us},
};

// The quantities (indices into kFsQuantities) of a probe, per rank over the job or per node.
std::vector<std::uint8_t> fs_quantities(const std::string& probe, bool per_node) {
  const FsProbeTraits* traits = find_fs_probe(probe);
  const FsJudge judge = traits != nullptr ? traits->judge : FsJudge::kBandwidth;
  if (judge == FsJudge::kRate) return {1};
  if (judge == FsJudge::kLatency) return per_node ? std::vector<std::uint8_t>{2} : std::vector<std::uint8_t>{2, 3};
  return {0};
}

// Where the samples of one entry of a metric come from, without copying them.
struct Source {
  enum Type : std::uint8_t { kPairSamples, kPairRetestSamples, kCollectiveSamples, kValue };
  std::uint32_t local = 0;  // the metric, by its index in this run's summary
  Type type = kValue;
  std::uint32_t index = 0;  // kPair*Samples: into run.pairs; kCollectiveSamples: into run.collectives; kValue:
                            // its block (podperf fs --repeat, 1-based; 0: none)
  double value = 0.0;       // kValue
};

// Per-iteration busbw from per-iteration times, appended to `out`: busbw_i = busbw(median) * median_s
// / t_i (busbw is bytes * factor / time, so the factor already in the run is reused, not re-derived).
void append_busbw_samples(const std::vector<double>& samples_s, double busbw_gbps, double median_s,
                          std::vector<double>& out) {
  if (busbw_gbps <= 0.0 || median_s <= 0.0) return;
  for (double t : samples_s) {
    if (t > 0.0 && std::isfinite(t)) out.push_back(busbw_gbps * median_s / t);
  }
}

// The measurement of a pair that compare takes from a run without blocks: its retest when the run
// cleared the pair by it (the first measurement was slow against the baseline and the retest was not,
// so the run's own verdict rests on the retest and calls the first a transient), else the first.
// Measured on the namespaced cluster (issue 19): 2 of 12 healthy runs had their whole first round
// 30-40% slow, both pairs cleared by their retest; compared by the first measurement, one healthy run
// against the next exited 1 beyond the 25% allowance. A pair whose retest confirmed it keeps its first
// measurement (both are slow), and so does a pair of a node the run itself names as slow now and then
// (`intermittent`: the concerns pairs.intermittent_node and pairs.stalling_node, which clear a test of
// chance): there the slow first measurement is the finding, not a transient, and compare must not hide
// it. The note pairs.recovered_in_retest (two or more cleared pairs share a node, no test of chance: the
// run names nothing) does not: with transients in 2% of measurements, a 16-node run has two or three,
// and they share a node by chance in most runs (benchmark: healthy one against one exited 1 in 23% of
// comparisons at 16 nodes, every one from such a node's first measurements). A run with blocks keeps
// the first measurement: its per-block medians already outvote a transient block, and the retest is no
// block of its own.
// Whether either node of pair `p` is one `intermittent` (intermittent_nodes) names.
bool on_intermittent_node(const PairResult& p, const std::vector<char>& intermittent) {
  auto named = [&](int node) {
    return node >= 0 && static_cast<std::size_t>(node) < intermittent.size() && intermittent[node] != 0;
  };
  return named(p.nodes[0]) || named(p.nodes[1]);
}

bool compared_by_retest(const PairResult& p, bool blocked, const std::vector<char>& intermittent) {
  return !blocked && p.cleared_by_retest && !p.retest_samples_s.empty() && p.retest_busbw_gbps > 0.0 &&
         std::isfinite(p.retest_busbw_gbps) && !on_intermittent_node(p, intermittent);
}

// A pair's best measurement in its run (first, retest, later retests) over `taken`, the busbw of the one
// compare takes: >= 1, and 1 where there is no other measurement or `taken` is not a busbw.
float best_measurement_ratio(const PairResult& p, double taken) {
  if (!(taken > 0.0) || !std::isfinite(taken)) return 1.0F;
  double best = taken;
  auto consider = [&](double v) {
    if (v > best && std::isfinite(v)) best = v;
  };
  consider(p.busbw_gbps);
  if (!p.retest_samples_s.empty()) consider(p.retest_busbw_gbps);
  for (double v : p.later_retest_busbw_gbps) consider(v);
  return static_cast<float>(best / taken);
}

// Per node index, whether the run's findings name the node as slow now and then (by its hostname).
std::vector<char> intermittent_nodes(const Run& run) {
  std::vector<char> out(run.nodes.size(), 0);
  for (const Finding& f : run.findings) {
    if (f.check != "pairs.intermittent_node" && f.check != "pairs.stalling_node") continue;
    for (std::size_t i = 0; i < run.nodes.size(); ++i) {
      const int index = run.nodes[i].index;
      if (!f.host.empty() && run.nodes[i].hostname == f.host && index >= 0 &&
          static_cast<std::size_t>(index) < out.size())
        out[static_cast<std::size_t>(index)] = 1;
    }
  }
  return out;
}

// One run's metrics as they are met: the registry ids, each metric's local index, and its sources.
class RunMetricCollector {
 public:
  RunMetricCollector(const Run& run, MetricRegistry& registry) : run_(run), registry_(registry) {
    // The first node with an index wins, as a linear search over the nodes finds it. Indices are
    // 0..nodes-1 in every run podperf writes; others (a hand-made run.json) go to a hash map.
    for (const NodeInfo& n : run.nodes) {
      const std::uint32_t label = registry.intern(n.label.empty() ? n.hostname : n.label);
      if (n.index >= 0 && n.index < static_cast<int>(run.nodes.size())) {
        const auto i = static_cast<std::size_t>(n.index);
        if (label_of_index_.empty()) label_of_index_.assign(run.nodes.size(), kNone);
        if (label_of_index_[i] == kNone) label_of_index_[i] = label;
      } else {
        other_labels_.try_emplace(n.index, label);
      }
    }
  }

  // The node's label id ("node<index>" for a node the run does not list).
  std::uint32_t node_label(int index) {
    const auto i = static_cast<std::size_t>(index);
    if (index >= 0 && i < label_of_index_.size() && label_of_index_[i] != kNone) return label_of_index_[i];
    const auto it = other_labels_.find(index);
    if (it != other_labels_.end()) return it->second;
    return registry_.intern(fmt::format("node{}", index));
  }
  std::uint32_t cached(std::string_view text, std::string& last_text, std::uint32_t& last_id) {
    if (last_id == kNone || text != last_text) {
      last_text = text;
      last_id = registry_.intern(text);
    }
    return last_id;
  }
  std::uint32_t op(const std::string& s) { return cached(s, op_text_, op_id_); }
  std::uint32_t dtype(const std::string& s) { return cached(s, dtype_text_, dtype_id_); }
  std::uint32_t size_text(std::uint64_t size) {
    auto it = size_ids_.find(size);
    if (it == size_ids_.end()) it = size_ids_.emplace(size, registry_.intern(format_size(size))).first;
    return it->second;
  }

  // The metric's local index in this run, adding it to the run's summary on first sight.
  std::uint32_t local(const MetricIdentity& identity, std::uint64_t size_bytes) {
    const std::uint32_t id = registry_.metric(identity, size_bytes);
    if (id >= local_of_.size()) local_of_.resize(std::max<std::size_t>(id + 1, 2 * local_of_.size()), kNone);
    if (local_of_[id] == kNone) {
      local_of_[id] = static_cast<std::uint32_t>(metrics_.size());
      metrics_.push_back(id);
    }
    return local_of_[id];
  }
  void add(const MetricIdentity& identity, std::uint64_t size_bytes, Source::Type type, std::uint32_t index,
           double value = 0.0) {
    sources_.push_back({local(identity, size_bytes), type, index, value});
  }

  // A failed measurement of the metric: registered (so both sides name it alike), without a value.
  void fail(const MetricIdentity& identity, std::uint64_t size_bytes, const std::string& status,
            const std::string& error) {
    failed_.push_back({registry_.metric(identity, size_bytes), status.empty() ? "error" : status, error});
  }

  void collect();
  RunMetricSummary summarize(std::size_t threads) const;

 private:
  static constexpr std::uint32_t kNone = 0xffffffffU;
  void collect_fs();

  const Run& run_;
  MetricRegistry& registry_;
  std::vector<std::uint32_t> label_of_index_;
  std::unordered_map<int, std::uint32_t> other_labels_;
  std::string op_text_, dtype_text_;
  std::uint32_t op_id_ = kNone, dtype_id_ = kNone;
  std::map<std::uint64_t, std::uint32_t> size_ids_;
  std::vector<std::uint32_t> local_of_;  // registry id -> local index
  std::vector<std::uint32_t> metrics_;   // local index -> registry id
  std::vector<Source> sources_;
  std::vector<std::uint32_t> from_retest_;  // local indices of the pair metrics taken from their retest
  std::vector<char> intermittent_;          // intermittent_nodes(run_), set by collect()
  std::vector<MetricFailure> failed_;
};

// The order in which metrics are met decides the order of the comparison: pairs, then topology
// classes, then collectives, then filesystem probes (per rank, then per node).
void RunMetricCollector::collect() {
  const Run& run = run_;
  sources_.reserve(run.pairs.size() * (run.topology_levels.empty() ? 1 : 2) + run.collectives.size());
  const bool blocked = has_blocks(run);
  intermittent_ = intermittent_nodes(run);
  const std::vector<char>& intermittent = intermittent_;
  for (std::size_t i = 0; i < run.pairs.size(); ++i) {
    const PairResult& p = run.pairs[i];
    std::uint32_t a = node_label(p.nodes[0]);
    std::uint32_t b = node_label(p.nodes[1]);
    if (registry_.text(b) < registry_.text(a)) std::swap(a, b);
    MetricIdentity id{MetricKind::kPair, 0, false, op(p.op), dtype(p.dtype), size_text(p.size_bytes), a, b};
    if (!status_ok(p.status)) {
      fail(id, p.size_bytes, p.status, p.error);
      continue;
    }
    const bool retest = compared_by_retest(p, blocked, intermittent);
    add(id, p.size_bytes, retest ? Source::kPairRetestSamples : Source::kPairSamples, static_cast<std::uint32_t>(i));
    if (retest) from_retest_.push_back(sources_.back().local);
  }
  // Runs with a topology: per class of path (pairs inside one leaf, pairs crossing each level) the
  // busbw of every ok pair in it, one value per pair, so a change to one layer of the fabric shows as
  // a change of its class even where each pair alone is within noise.
  if (!run.topology_levels.empty()) {
    std::vector<std::uint32_t> class_ids;
    for (int level = -1; level <= static_cast<int>(run.topology_levels.size()); ++level) {
      class_ids.push_back(registry_.intern(topology_class_name(run, level)));
    }
    for (const PairResult& p : run.pairs) {
      const double busbw = compared_by_retest(p, blocked, intermittent) ? p.retest_busbw_gbps : p.busbw_gbps;
      if (!status_ok(p.status) || busbw <= 0.0 || !std::isfinite(busbw)) continue;
      const int level = topology_split_level(run, p.nodes[0], p.nodes[1]);
      MetricIdentity id{MetricKind::kTopologyClass,
                        0,
                        false,
                        op(p.op),
                        dtype(p.dtype),
                        size_text(p.size_bytes),
                        class_ids[static_cast<std::size_t>(level + 1)],
                        0};
      add(id, p.size_bytes, Source::kValue, 0, busbw);
    }
  }
  for (std::size_t i = 0; i < run.collectives.size(); ++i) {
    const CollectiveResult& c = run.collectives[i];
    if (c.status == "skipped") continue;  // no such form on this backend: not measured, not failed
    MetricIdentity id{MetricKind::kCollective,   0, c.in_place, op(c.op), dtype(c.dtype), size_text(c.size_bytes),
                      registry_.intern(c.group), 0};
    if (!status_ok(c.status)) {
      fail(id, c.size_bytes, c.status, c.error);
      continue;
    }
    add(id, c.size_bytes, Source::kCollectiveSamples, static_cast<std::uint32_t>(i));
  }
  collect_fs();
}

// A filesystem probe's block as a source index (0 when the run has no blocks).
std::uint32_t block_of(const FsProbeResult& probe) {
  return probe.block > 0 ? static_cast<std::uint32_t>(probe.block) : 0U;
}

void RunMetricCollector::collect_fs() {
  for (const FsProbeResult& probe : run_.fs.probes) {
    const std::uint32_t probe_id = registry_.intern(probe.probe);
    // A failed rank (an I/O error, a checkpoint that did not verify) fails the probe's per-job
    // metrics, whatever the other ranks measured.
    const auto bad = std::find_if(probe.ranks.begin(), probe.ranks.end(),
                                  [](const FsRankResult& r) { return !status_ok(r.status); });
    for (std::uint8_t q : fs_quantities(probe.probe, false)) {
      const MetricIdentity id{MetricKind::kFsProbe, q, false, 0, 0, 0, probe_id, 0};
      if (bad != probe.ranks.end()) fail(id, 0, bad->status, bad->error);
      // A probe without a usable rank adds no metric.
      for (const FsRankResult& r : probe.ranks) {
        const double v = r.*kFsQuantities[q].field;
        if (status_ok(r.status) && v > 0.0 && std::isfinite(v)) add(id, 0, Source::kValue, block_of(probe), v);
      }
    }
    for (std::uint8_t q : fs_quantities(probe.probe, true)) {
      std::map<int, std::vector<double>> by_node;
      for (const FsRankResult& r : probe.ranks) {
        const double v = r.*kFsQuantities[q].field;
        if (status_ok(r.status) && v > 0.0 && std::isfinite(v)) by_node[r.node].push_back(v);
      }
      for (const auto& [node, values] : by_node) {
        const MetricIdentity id{MetricKind::kFsNode, q, false, 0, 0, 0, probe_id, node_label(node)};
        for (double v : values) add(id, 0, Source::kValue, block_of(probe), v);
      }
    }
  }
}

RunMetricSummary RunMetricCollector::summarize(std::size_t threads) const {
  const std::size_t count = metrics_.size();
  // Sources grouped by metric (counting sort: stable, so a metric's samples keep their order).
  std::vector<std::uint32_t> start(count + 1, 0);
  for (const Source& s : sources_) ++start[s.local + 1];
  for (std::size_t i = 0; i < count; ++i) start[i + 1] += start[i];
  std::vector<std::uint32_t> order(sources_.size());
  {
    std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < sources_.size(); ++i) order[next[sources_[i].local]++] = static_cast<std::uint32_t>(i);
  }
  RunMetricSummary out;
  out.metrics = metrics_;
  for (std::uint32_t local : from_retest_) out.from_retest.push_back(metrics_[local]);
  out.failed = failed_;
  out.run_status = run_.status;
  out.run_error = run_.error;
  out.values.assign(count, 0.0);
  out.samples.assign(count, 0);
  out.log_se.assign(count, std::nanf(""));
  out.best_ratio.assign(count, 1.0F);
  // A pair of a node the run names as slow now and then keeps its slow measurements (compared_by_retest):
  // its best measurement is not what compare tests either.
  auto on_named = [&](const PairResult& p) { return on_intermittent_node(p, intermittent_); };
  const bool blocked = has_blocks(run_);
  if (blocked) {
    out.blocks = run_.blocks.count;
    out.block_values.resize(count);
  }
  const auto per_block = static_cast<std::size_t>(std::max(1, run_.options.iters));
  if (threads == 0) threads = analysis_threads(sources_.size());
  in_chunks(count, threads, [&](std::size_t, std::size_t begin, std::size_t end) {
    std::vector<double> samples, scratch;
    std::map<std::uint32_t, std::vector<double>> value_blocks;  // kValue sources by block (fs --repeat)
    for (std::size_t m = begin; m < end; ++m) {
      samples.clear();
      value_blocks.clear();
      bool by_iterations = false;  // pair and collective samples: blocks and a standard error apply
      for (std::uint32_t k = start[m]; k < start[m + 1]; ++k) {
        const Source& s = sources_[order[k]];
        by_iterations = by_iterations || s.type != Source::kValue;
        if (s.type == Source::kValue && s.index > 0) value_blocks[s.index].push_back(s.value);
        if (s.type == Source::kPairSamples) {
          const PairResult& p = run_.pairs[s.index];
          append_busbw_samples(p.samples_s, p.busbw_gbps, p.median_s, samples);
          if (!blocked && !on_named(p)) out.best_ratio[m] = best_measurement_ratio(p, p.busbw_gbps);
        } else if (s.type == Source::kPairRetestSamples) {
          const PairResult& p = run_.pairs[s.index];
          append_busbw_samples(p.retest_samples_s, p.retest_busbw_gbps, median(p.retest_samples_s), samples);
          if (!blocked && !on_named(p)) out.best_ratio[m] = best_measurement_ratio(p, p.retest_busbw_gbps);
        } else if (s.type == Source::kCollectiveSamples) {
          const CollectiveResult& c = run_.collectives[s.index];
          append_busbw_samples(c.samples_s, c.busbw_gbps, c.median_s, samples);
        } else {
          samples.push_back(s.value);
        }
      }
      out.samples[m] = static_cast<std::uint32_t>(samples.size());
      // The blocks' medians first (samples are block after block): summarize_run_samples reorders.
      if (blocked && by_iterations && samples.size() > per_block) {
        for (std::size_t first = 0; first < samples.size(); first += per_block) {
          std::vector<double> block(
              samples.begin() + static_cast<std::ptrdiff_t>(first),
              samples.begin() + static_cast<std::ptrdiff_t>(std::min(samples.size(), first + per_block)));
          out.block_values[m].push_back(summarize_run_samples(block));
        }
      }
      // A filesystem probe's blocks: the median of its ranks (or its node's ranks) in each block.
      if (blocked && value_blocks.size() >= 2) {
        for (auto& [block, values] : value_blocks) out.block_values[m].push_back(summarize_run_samples(values));
      }
      out.values[m] = samples.empty() ? 0.0 : summarize_run_samples(samples);
      if (by_iterations) out.log_se[m] = static_cast<float>(log_median_standard_error(samples, scratch));
    }
  });
  return out;
}

}  // namespace
}  // namespace compare_metrics_detail

using compare_metrics_detail::kFsQuantities;
using compare_metrics_detail::RunMetricCollector;

std::size_t MetricIdentityHash::operator()(const MetricIdentity& m) const noexcept {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  auto mix = [&h](std::uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
  };
  mix((static_cast<std::uint64_t>(m.kind) << 16) | (static_cast<std::uint64_t>(m.quantity) << 8) |
      static_cast<std::uint64_t>(m.in_place));
  mix((static_cast<std::uint64_t>(m.op) << 32) | m.dtype);
  mix((static_cast<std::uint64_t>(m.size_text) << 32) | m.a);
  mix(m.b);
  return static_cast<std::size_t>(h);
}

std::uint32_t MetricRegistry::intern(std::string_view text) {
  auto it = string_ids_.find(std::string(text));
  if (it != string_ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(strings_.size());
  strings_.emplace_back(text);
  string_ids_.emplace(strings_.back(), id);
  return id;
}

void MetricRegistry::grow() {
  std::vector<std::uint32_t> slots(std::max<std::size_t>(1024, 2 * slots_.size()), kEmptySlot);
  const std::size_t mask = slots.size() - 1;
  for (std::uint32_t id = 0; id < metrics_.size(); ++id) {
    std::size_t at = MetricIdentityHash{}(metrics_[id].identity) & mask;
    while (slots[at] != kEmptySlot) at = (at + 1) & mask;
    slots[at] = id;
  }
  slots_ = std::move(slots);
}

std::uint32_t MetricRegistry::metric(const MetricIdentity& identity, std::uint64_t size_bytes) {
  if (2 * (metrics_.size() + 1) > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  std::size_t at = MetricIdentityHash{}(identity)&mask;
  while (slots_[at] != kEmptySlot) {
    if (metrics_[slots_[at]].identity == identity) return slots_[at];
    at = (at + 1) & mask;
  }
  const auto id = static_cast<std::uint32_t>(metrics_.size());
  slots_[at] = id;
  metrics_.push_back({identity, size_bytes});
  return id;
}

MetricKey MetricRegistry::key(std::uint32_t metric) const {
  const Entry& e = metrics_[metric];
  const MetricIdentity& m = e.identity;
  MetricKey key;
  switch (m.kind) {
    case MetricKind::kPair:
    case MetricKind::kTopologyClass:
    case MetricKind::kCollective:
      key.kind = m.kind == MetricKind::kPair         ? "pair"
                 : m.kind == MetricKind::kCollective ? "collective"
                                                     : "topology_class";
      key.quantity = "busbw_gbps";
      key.op = text(m.op);
      key.dtype = text(m.dtype);
      key.size_bytes = e.size_bytes;
      key.in_place = m.in_place;
      if (m.kind == MetricKind::kPair) {
        key.nodes = text(m.a) + "<->" + text(m.b);
      } else {
        key.group = text(m.a);
      }
      break;
    case MetricKind::kFsProbe:
    case MetricKind::kFsNode:
      key.kind = m.kind == MetricKind::kFsProbe ? "fs_probe" : "fs_node";
      key.quantity = kFsQuantities[m.quantity].quantity;
      key.probe = text(m.a);
      if (m.kind == MetricKind::kFsNode) key.node = text(m.b);
      break;
  }
  return key;
}

std::string MetricRegistry::name(std::uint32_t metric) const {
  const MetricIdentity& m = metrics_[metric].identity;
  switch (m.kind) {
    case MetricKind::kPair:
      return fmt::format("pair {}<->{} {} {} {} busbw", text(m.a), text(m.b), text(m.op), text(m.dtype),
                         text(m.size_text));
    case MetricKind::kTopologyClass:
      return fmt::format("pairs {} {} {} {} busbw (per pair)", text(m.a), text(m.op), text(m.dtype), text(m.size_text));
    case MetricKind::kCollective:
      return fmt::format("collective {} {} {} {} {} busbw", text(m.a), text(m.op), text(m.dtype), text(m.size_text),
                         m.in_place ? "in-place" : "out-of-place");
    case MetricKind::kFsProbe: return fmt::format("fs {} {} per rank", text(m.a), kFsQuantities[m.quantity].label);
    case MetricKind::kFsNode:
      return fmt::format("fs {} {} {} per rank", text(m.a), text(m.b), kFsQuantities[m.quantity].label);
  }
  return "";
}

const char* MetricRegistry::unit(std::uint32_t metric) const {
  const MetricIdentity& m = metrics_[metric].identity;
  if (m.kind == MetricKind::kFsProbe || m.kind == MetricKind::kFsNode) return kFsQuantities[m.quantity].unit;
  return "GB/s";
}

bool MetricRegistry::higher_is_better(std::uint32_t metric) const {
  const MetricIdentity& m = metrics_[metric].identity;
  if (m.kind == MetricKind::kFsProbe || m.kind == MetricKind::kFsNode)
    return kFsQuantities[m.quantity].higher_is_better;
  return true;
}

double summarize_run_samples(std::vector<double>& samples) {
  return sample_median(samples);
}

RunMetricSummary summarize_run_metrics(const Run& run, MetricRegistry& registry, std::size_t threads) {
  RunMetricCollector collector(run, registry);
  collector.collect();
  return collector.summarize(threads);
}

}  // namespace podperf

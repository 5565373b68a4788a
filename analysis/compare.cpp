// Before/after comparison of runs (podperf compare): collects every metric of every run, summarizes it
// per run, tests per-run medians (Welch on logs) with >= 2 runs per side or judges against the allowance
// with one, then the FDR-adjusted verdicts. Floor: analysis/; pure, local, deterministic.
#include "analysis/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "analysis/fs_probes.hpp"
#include "analysis/stats.hpp"
#include "analysis/text.hpp"
#include "analysis/topology_analysis.hpp"
#include "analysis/units.hpp"

namespace podperf {
namespace {

// ---- metrics of one run ----

struct MetricSamples {
  MetricKey key;
  std::string name;
  std::string unit;
  bool higher_is_better = true;
  std::vector<double> samples;
};

class MetricTable {
 public:
  // Adds samples to the metric `name`, creating it on first use (first entry's key and unit win).
  void add(const std::string& name, const MetricKey& key, const std::string& unit, bool higher_is_better,
           const std::vector<double>& samples) {
    auto it = index_.find(name);
    if (it == index_.end()) {
      it = index_.emplace(name, metrics_.size()).first;
      metrics_.push_back({key, name, unit, higher_is_better, {}});
    }
    auto& dst = metrics_[it->second].samples;
    dst.insert(dst.end(), samples.begin(), samples.end());
  }
  const std::vector<MetricSamples>& metrics() const { return metrics_; }
  const MetricSamples* find(const std::string& name) const {
    auto it = index_.find(name);
    return it == index_.end() ? nullptr : &metrics_[it->second];
  }

 private:
  std::vector<MetricSamples> metrics_;
  std::unordered_map<std::string, std::size_t> index_;
};

std::string compared_node_label(const Run& run, int index) {
  for (const NodeInfo& n : run.nodes) {
    if (n.index == index) return n.label.empty() ? n.hostname : n.label;
  }
  return fmt::format("node{}", index);
}

// Per-iteration busbw from per-iteration times: busbw_i = busbw(median) * median_s / t_i (busbw is
// bytes * factor / time, so the factor already in the run is reused, not re-derived).
std::vector<double> busbw_samples(const std::vector<double>& samples_s, double busbw_gbps, double median_s) {
  std::vector<double> out;
  if (busbw_gbps <= 0.0 || median_s <= 0.0) return out;
  for (double t : samples_s) {
    if (t > 0.0 && std::isfinite(t)) out.push_back(busbw_gbps * median_s / t);
  }
  return out;
}

struct FsQuantity {
  std::string quantity;
  std::string unit;
  std::string label;  // in the metric's name
  bool higher_is_better;
  double FsRankResult::*field;
};

std::vector<FsQuantity> fs_quantities(const std::string& probe, bool per_node) {
  const FsProbeTraits* traits = find_fs_probe(probe);
  const FsJudge judge = traits != nullptr ? traits->judge : FsJudge::kBandwidth;
  if (judge == FsJudge::kRate) return {{"ops_per_s", "ops/s", "ops/s", true, &FsRankResult::ops_per_s}};
  if (judge == FsJudge::kLatency) {
    std::vector<FsQuantity> q{{"ops_per_s", "ops/s", "IOPS", true, &FsRankResult::ops_per_s}};
    if (!per_node) q.push_back({"lat_p99_us", "us", "p99 latency", false, &FsRankResult::lat_p99_us});
    return q;
  }
  return {{"mb_per_s", "MB/s", "MB/s", true, &FsRankResult::mb_per_s}};
}

// The key of a busbw metric made of pairs (one pair, or a topology class): kind, op, type and size.
MetricKey pair_busbw_key(const char* kind, const PairResult& p) {
  MetricKey key;
  key.kind = kind;
  key.quantity = "busbw_gbps";
  key.op = p.op;
  key.dtype = p.dtype;
  key.size_bytes = p.size_bytes;
  return key;
}

MetricTable collect_metrics(const Run& run) {
  MetricTable table;
  for (const PairResult& p : run.pairs) {
    if (p.status != "ok") continue;
    std::string a = compared_node_label(run, p.nodes[0]);
    std::string b = compared_node_label(run, p.nodes[1]);
    if (b < a) std::swap(a, b);
    MetricKey key = pair_busbw_key("pair", p);
    key.nodes = a + "<->" + b;
    const std::string name = fmt::format("pair {} {} {} {} busbw", key.nodes, p.op, p.dtype, format_size(p.size_bytes));
    table.add(name, key, "GB/s", true, busbw_samples(p.samples_s, p.busbw_gbps, p.median_s));
  }
  // Runs with a topology: per class of path (pairs inside one leaf, pairs crossing each level) the
  // busbw of every ok pair in it, one value per pair, so a change to one layer of the fabric shows as
  // a change of its class even where each pair alone is within noise.
  if (!run.topology_levels.empty()) {
    std::vector<std::string> class_names;
    for (int level = -1; level <= static_cast<int>(run.topology_levels.size()); ++level) {
      class_names.push_back(topology_class_name(run, level));
    }
    for (const PairResult& p : run.pairs) {
      if (p.status != "ok" || p.busbw_gbps <= 0.0 || !std::isfinite(p.busbw_gbps)) continue;
      const int level = topology_split_level(run, p.nodes[0], p.nodes[1]);
      MetricKey key = pair_busbw_key("topology_class", p);
      key.group = class_names[static_cast<std::size_t>(level + 1)];
      const std::string name =
          fmt::format("pairs {} {} {} {} busbw (per pair)", key.group, p.op, p.dtype, format_size(p.size_bytes));
      table.add(name, key, "GB/s", true, {p.busbw_gbps});
    }
  }
  for (const CollectiveResult& c : run.collectives) {
    if (c.status != "ok") continue;
    MetricKey key;
    key.kind = "collective";
    key.quantity = "busbw_gbps";
    key.op = c.op;
    key.dtype = c.dtype;
    key.size_bytes = c.size_bytes;
    key.in_place = c.in_place;
    key.group = c.group;
    const std::string name = fmt::format("collective {} {} {} {} {} busbw", c.group, c.op, c.dtype,
                                         format_size(c.size_bytes), c.in_place ? "in-place" : "out-of-place");
    table.add(name, key, "GB/s", true, busbw_samples(c.samples_s, c.busbw_gbps, c.median_s));
  }
  for (const FsProbeResult& probe : run.fs.probes) {
    for (const FsQuantity& q : fs_quantities(probe.probe, false)) {
      MetricKey key;
      key.kind = "fs_probe";
      key.quantity = q.quantity;
      key.probe = probe.probe;
      std::vector<double> samples;
      for (const FsRankResult& r : probe.ranks) {
        const double v = r.*q.field;
        if (r.status == "ok" && v > 0.0 && std::isfinite(v)) samples.push_back(v);
      }
      if (!samples.empty()) {
        table.add(fmt::format("fs {} {} per rank", probe.probe, q.label), key, q.unit, q.higher_is_better, samples);
      }
    }
    for (const FsQuantity& q : fs_quantities(probe.probe, true)) {
      std::map<int, std::vector<double>> by_node;
      for (const FsRankResult& r : probe.ranks) {
        const double v = r.*q.field;
        if (r.status == "ok" && v > 0.0 && std::isfinite(v)) by_node[r.node].push_back(v);
      }
      for (const auto& [node, samples] : by_node) {
        MetricKey key;
        key.kind = "fs_node";
        key.quantity = q.quantity;
        key.probe = probe.probe;
        key.node = compared_node_label(run, node);
        table.add(fmt::format("fs {} {} {} per rank", probe.probe, key.node, q.label), key, q.unit, q.higher_is_better,
                  samples);
      }
    }
  }
  return table;
}

// ---- comparability ----

// Items of a not in b, in a's order.
std::vector<std::string> minus(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const std::set<std::string> bs(b.begin(), b.end());
  std::vector<std::string> out;
  for (const std::string& x : a) {
    if (!bs.contains(x) && std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  return out;
}

// Set difference note: before holds what only BEFORE has, after what only AFTER has.
void note_sets(std::vector<ComparabilityNote>& out, const std::string& what, const std::vector<std::string>& before,
               const std::vector<std::string>& after) {
  const auto b = minus(before, after);
  const auto a = minus(after, before);
  if (b.empty() && a.empty()) return;
  out.push_back({what, b.empty() ? "(none only here)" : "only here: " + text::join(b),
                 a.empty() ? "(none only here)" : "only here: " + text::join(a)});
}

void note_values(std::vector<ComparabilityNote>& out, const std::string& what, const std::string& before,
                 const std::string& after) {
  if (before != after) out.push_back({what, before.empty() ? "(empty)" : before, after.empty() ? "(empty)" : after});
}

// Distinct `observed` values of OK findings with this check id, in order of first appearance.
std::vector<std::string> finding_values(const Run& run, std::string_view check) {
  std::vector<std::string> out;
  for (const Finding& f : run.findings) {
    if (f.check == check && f.tag == Tag::kOk && std::find(out.begin(), out.end(), f.observed) == out.end()) {
      out.push_back(f.observed);
    }
  }
  return out;
}

// The NCCL_*/FI_*/... variables of signals.environment findings ("K=V, K=V"), every host together.
std::vector<std::string> environment_items(const Run& run) {
  std::vector<std::string> out;
  for (const Finding& f : run.findings) {
    if (f.check != "signals.environment" || f.observed.find('=') == std::string::npos) continue;
    std::size_t start = 0;
    while (start <= f.observed.size()) {
      std::size_t end = f.observed.find(", ", start);
      if (end == std::string::npos) end = f.observed.size();
      std::string item = f.observed.substr(start, end - start);
      if (item.find('=') != std::string::npos && std::find(out.begin(), out.end(), item) == out.end()) {
        out.push_back(item);
      }
      start = end + 2;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> sizes_text(const std::vector<std::uint64_t>& sizes) {
  std::vector<std::string> out;
  for (std::uint64_t s : sizes) out.push_back(format_size(s));
  return out;
}

std::vector<ComparabilityNote> comparability(const Run& before, const Run& after) {
  std::vector<ComparabilityNote> out;
  note_values(out, "command", before.command, after.command);
  note_values(out, "backend", before.backend, after.backend);
  note_values(out, "podperf version", before.podperf_version, after.podperf_version);
  if (before.status != "complete" || after.status != "complete") {
    out.push_back({"run status (an incomplete run lacks some metrics)", before.status, after.status});
  }
  std::vector<std::string> nodes_b, nodes_a, types_b, types_a;
  for (const NodeInfo& n : before.nodes) nodes_b.push_back(n.label);
  for (const NodeInfo& n : after.nodes) nodes_a.push_back(n.label);
  for (const NodeInfo& n : before.nodes) {
    if (!n.instance_type.empty()) types_b.push_back(n.instance_type);
  }
  for (const NodeInfo& n : after.nodes) {
    if (!n.instance_type.empty()) types_a.push_back(n.instance_type);
  }
  note_sets(out, "nodes", nodes_b, nodes_a);
  note_values(out, "node count", std::to_string(before.nodes.size()), std::to_string(after.nodes.size()));
  note_values(out, "ranks", std::to_string(before.ranks), std::to_string(after.ranks));
  note_sets(out, "instance types", types_b, types_a);
  note_values(out, "virtual nodes", std::to_string(before.options.virtual_nodes),
              std::to_string(after.options.virtual_nodes));
  note_sets(out, "sizes", sizes_text(before.options.sizes_bytes), sizes_text(after.options.sizes_bytes));
  note_values(out, "iterations", std::to_string(before.options.iters), std::to_string(after.options.iters));
  note_values(out, "warm-up iterations", std::to_string(before.options.warmup), std::to_string(after.options.warmup));
  note_values(out, "op", before.options.op, after.options.op);
  note_values(out, "dtype", before.options.dtype, after.options.dtype);
  note_values(out, "time combine (-a)", before.options.time_combine, after.options.time_combine);
  note_values(out, "concurrency", before.options.concurrency, after.options.concurrency);
  note_values(out, "group by", before.options.group_by, after.options.group_by);
  note_values(out, "check", before.options.check ? "on" : "off", after.options.check ? "on" : "off");
  struct Version {
    const char* check;
    const char* what;
  };
  for (const Version& v :
       {Version{"signals.nccl_version", "NCCL version"}, Version{"signals.nvidia_driver", "NVIDIA driver"},
        Version{"signals.cuda_driver_version", "CUDA driver"}, Version{"signals.kernel", "kernel"},
        Version{"signals.efa_versions", "EFA versions"}}) {
    const auto b = finding_values(before, v.check);
    const auto a = finding_values(after, v.check);
    if (!b.empty() && !a.empty()) note_values(out, v.what, text::join(b, "; "), text::join(a, "; "));
  }
  note_sets(out, "environment", environment_items(before), environment_items(after));
  note_values(out, "topology", before.topology_source, after.topology_source);
  note_sets(out, "topology levels", before.topology_levels, after.topology_levels);
  if (!before.fs.probes.empty() && !after.fs.probes.empty()) {
    note_values(out, "filesystem type", before.fs.fs_type, after.fs.fs_type);
    note_values(out, "filesystem path", before.fs.path, after.fs.path);
    note_values(out, "filesystem shared", before.fs.shared ? "shared" : "node-local",
                after.fs.shared ? "shared" : "node-local");
    for (const FsProbeResult& pb : before.fs.probes) {
      for (const FsProbeResult& pa : after.fs.probes) {
        if (pa.probe != pb.probe) continue;
        auto params = [](const FsProbeResult& p) {
          return fmt::format("block {}, file {}, {} per rank{}", format_size(p.block_size_bytes),
                             format_size(p.file_size_bytes), p.files_per_rank, p.direct ? ", O_DIRECT" : "");
        };
        note_values(out, "fs " + pb.probe + " parameters", params(pb), params(pa));
        break;
      }
    }
  }
  return out;
}

// One metric across the runs of each side: the per-run medians of the runs that have it.
struct MetricRuns {
  const MetricSamples* first = nullptr;  // key, name, unit
  std::vector<double> before_runs, after_runs;
  std::size_t n_before = 0, n_after = 0;
};

double geometric_mean(const std::vector<double>& v) {
  double sum = 0.0;
  std::size_t n = 0;
  for (double x : v) {
    if (x > 0.0 && std::isfinite(x)) {
      sum += std::log(x);
      ++n;
    }
  }
  return n == 0 ? 0.0 : std::exp(sum / static_cast<double>(n));
}

MetricComparison compare_metric(const MetricRuns& r, const CompareSettings& s) {
  MetricComparison m;
  m.key = r.first->key;
  m.name = r.first->name;
  m.unit = r.first->unit;
  m.higher_is_better = r.first->higher_is_better;
  m.n_before = r.n_before;
  m.n_after = r.n_after;
  m.runs_before = r.before_runs;
  m.runs_after = r.after_runs;
  m.before = r.before_runs.size() == 1 ? r.before_runs[0] : geometric_mean(r.before_runs);
  m.after = r.after_runs.size() == 1 ? r.after_runs[0] : geometric_mean(r.after_runs);
  m.change_percent = m.before != 0.0 ? 100.0 * (m.after / m.before - 1.0) : 0.0;
  const RunLevelChange w = welch_log_change(r.before_runs, r.after_runs, s.confidence, s.alpha, s.power);
  if (!w.valid) {
    // One run on a side: no spread between runs to test against; judged against the allowance.
    m.mde_percent = std::max(s.single_run_allowance_percent, s.min_change_percent);
    const bool better = m.higher_is_better ? m.change_percent > 0.0 : m.change_percent < 0.0;
    if (std::fabs(m.change_percent) <= s.single_run_allowance_percent) {
      m.verdict = "within_allowance";
    } else {
      m.verdict = better ? "faster_beyond_allowance" : "slower_beyond_allowance";
    }
    return m;
  }
  m.change_percent = w.change_percent;
  m.p_value = w.p_value;
  m.ci_low_percent = w.ci_low_percent;
  m.ci_high_percent = w.ci_high_percent;
  m.mde_percent = std::max(w.mde_percent, s.min_change_percent);
  return m;
}

// Benjamini-Hochberg adjusted p values of the tested metrics (p_value >= 0), then the verdicts:
// significant when the (adjusted) p < alpha and |change| >= min_change.
void assign_verdicts(std::vector<MetricComparison>& metrics, const CompareSettings& s) {
  std::vector<MetricComparison*> tested;
  std::vector<double> p;
  for (MetricComparison& m : metrics) {
    if (m.p_value < 0.0) continue;
    tested.push_back(&m);
    p.push_back(m.p_value);
  }
  const std::vector<double> adjusted = s.correction == "benjamini-hochberg" ? benjamini_hochberg(p) : p;
  for (std::size_t i = 0; i < tested.size(); ++i) tested[i]->p_adjusted = adjusted[i];
  for (MetricComparison* m : tested) {
    const bool significant = m->p_adjusted < s.alpha && std::fabs(m->change_percent) >= s.min_change_percent;
    if (!significant) {
      m->verdict = "no_change";
    } else {
      const bool better = m->higher_is_better ? m->change_percent > 0.0 : m->change_percent < 0.0;
      m->verdict = better ? "faster" : "slower";
    }
  }
}

}  // namespace

Comparison compare_runs(const std::vector<Run>& before, const std::vector<Run>& after,
                        const CompareSettings& settings) {
  Comparison c;
  c.settings = settings;
  c.runs_before = before.size();
  c.runs_after = after.size();
  if (before.empty() || after.empty()) return c;
  std::vector<std::string> ids_b, ids_a;
  for (const Run& r : before) ids_b.push_back(r.run_id);
  for (const Run& r : after) ids_a.push_back(r.run_id);
  c.before_run_id = text::join(ids_b, ", ");
  c.after_run_id = text::join(ids_a, ", ");
  c.method = before.size() >= 2 && after.size() >= 2 ? "run_level_welch" : "single_run_allowance";
  c.comparability = comparability(before.front(), after.front());
  std::vector<MetricTable> tb, ta;
  for (const Run& r : before) tb.push_back(collect_metrics(r));
  for (const Run& r : after) ta.push_back(collect_metrics(r));
  // Metric order: the first run of BEFORE, then metrics first seen in later BEFORE runs.
  std::vector<const MetricSamples*> order;
  std::set<std::string> seen;
  for (const MetricTable& t : tb) {
    for (const MetricSamples& m : t.metrics()) {
      if (!m.samples.empty() && seen.insert(m.name).second) order.push_back(&m);
    }
  }
  auto gather = [](const std::vector<MetricTable>& tables, const std::string& name, std::vector<double>& runs,
                   std::size_t& n) {
    for (const MetricTable& t : tables) {
      const MetricSamples* m = t.find(name);
      if (m == nullptr || m->samples.empty()) continue;
      std::vector<double> tmp = m->samples;
      runs.push_back(sample_median(tmp));
      n += m->samples.size();
    }
  };
  for (const MetricSamples* b : order) {
    MetricRuns r;
    r.first = b;
    gather(ta, b->name, r.after_runs, r.n_after);
    if (r.after_runs.empty()) {
      c.only_before.push_back(b->name);
      continue;
    }
    gather(tb, b->name, r.before_runs, r.n_before);
    c.metrics.push_back(compare_metric(r, settings));
  }
  assign_verdicts(c.metrics, settings);
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "faster")
      ++c.summary.faster;
    else if (m.verdict == "slower")
      ++c.summary.slower;
    else if (m.verdict == "no_change")
      ++c.summary.no_change;
    else
      ++c.summary.untested;
    if (m.verdict == "slower_beyond_allowance" || m.verdict == "faster_beyond_allowance") ++c.summary.beyond_allowance;
  }
  std::vector<double> mde;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "no_change") mde.push_back(m.mde_percent);
  }
  if (!mde.empty()) {
    c.summary.mde_median_percent = median(mde);
    c.summary.mde_max_percent = *std::max_element(mde.begin(), mde.end());
  }
  std::set<std::string> seen_after;
  for (const MetricTable& t : ta) {
    for (const MetricSamples& a : t.metrics()) {
      if (a.samples.empty() || !seen_after.insert(a.name).second) continue;
      if (!seen.contains(a.name)) c.only_after.push_back(a.name);
    }
  }
  c.summary.only_before = static_cast<int>(c.only_before.size());
  c.summary.only_after = static_cast<int>(c.only_after.size());
  return c;
}

Comparison compare_runs(const Run& before, const Run& after, const CompareSettings& settings) {
  return compare_runs(std::vector<Run>{before}, std::vector<Run>{after}, settings);
}

std::string replicate_mismatch(const std::vector<Run>& runs, const std::vector<std::string>& sources) {
  if (runs.size() < 2) return "";
  const Run& first = runs.front();
  auto labels = [](const Run& r) {
    std::vector<std::string> out;
    for (const NodeInfo& n : r.nodes) out.push_back(n.label.empty() ? n.hostname : n.label);
    std::sort(out.begin(), out.end());
    return out;
  };
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const Run& r = runs[i];
    std::string what;
    if (r.command != first.command)
      what = fmt::format("command {} vs {}", first.command, r.command);
    else if (r.backend != first.backend)
      what = fmt::format("backend {} vs {}", first.backend, r.backend);
    else if (labels(r) != labels(first))
      what = fmt::format("nodes {} vs {}", text::join(labels(first)), text::join(labels(r)));
    else if (r.options.sizes_bytes != first.options.sizes_bytes)
      what = fmt::format("sizes {} vs {}", text::join(sizes_text(first.options.sizes_bytes)),
                         text::join(sizes_text(r.options.sizes_bytes)));
    else if (r.options.op != first.options.op)
      what = fmt::format("op {} vs {}", first.options.op, r.options.op);
    else if (r.options.iters != first.options.iters)
      what = fmt::format("iterations {} vs {}", first.options.iters, r.options.iters);
    if (!what.empty()) {
      const std::string a = sources.size() > 0 ? sources[0] : "run 1";
      const std::string b = sources.size() > i ? sources[i] : fmt::format("run {}", i + 1);
      return fmt::format("{} and {} are not repeats of one setup ({}); give the runs of one setup per side", a, b,
                         what);
    }
  }
  return "";
}

double regression_percent(const MetricComparison& m) {
  return m.higher_is_better ? -m.change_percent : m.change_percent;
}

bool regressed_beyond(const Comparison& c, double fail_on_percent) {
  return std::any_of(c.metrics.begin(), c.metrics.end(), [&](const MetricComparison& m) {
    return (m.verdict == "slower" || m.verdict == "slower_beyond_allowance") && regression_percent(m) > fail_on_percent;
  });
}

}  // namespace podperf

#include "analysis/compare.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <unordered_map>
#include <utility>

#include "analysis/errors.hpp"
#include "analysis/fs_probes.hpp"
#include "analysis/stats.hpp"
#include "analysis/text.hpp"
#include "analysis/toml_check.hpp"
#include "analysis/topology_analysis.hpp"
#include "analysis/units.hpp"

namespace podperf {
namespace {

// ---- settings ----

double require_number(const toml::table& table, std::string_view key, double lo, double hi, bool whole,
                      const std::string& source) {
  const toml::node* node = table.get(key);
  if (node == nullptr) throw ConfigError(fmt::format("{}: missing key 'compare.{}'", source, key));
  if (whole ? !node->is_integer() : !(node->is_floating_point() || node->is_integer())) {
    throw ConfigError(fmt::format("{}: 'compare.{}' must be a {}", toml_where(source, *node), key,
                                  whole ? "whole number" : "number"));
  }
  const double value = *node->value<double>();
  if (!(value >= lo && value <= hi)) {
    throw ConfigError(fmt::format("{}: 'compare.{}' = {} is out of range (expected {} to {})",
                                  toml_where(source, *node), key, value, lo, hi));
  }
  return value;
}

// ---- statistics ----

// Median of a copy (nth_element); empty -> 0.
double median_of(std::vector<double>& v) {
  if (v.empty()) return 0.0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double hi = v[mid];
  if (v.size() % 2 == 1) return hi;
  const double lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lo + hi);
}

// Cumulative null distribution of U for sample sizes n and m without ties: cdf[u] = P(U <= u).
// Counts by the recurrence N(n, m, u) = N(n-1, m, u-m) + N(n, m-1, u) (Mann and Whitney 1947).
const std::vector<double>& exact_u_cdf(std::size_t n, std::size_t m) {
  thread_local std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> cache;
  auto it = cache.find({n, m});
  if (it != cache.end()) return it->second;
  // counts[i][j]: distribution for sizes i and j, vector indexed by u in [0, i*j].
  std::vector<std::vector<std::vector<double>>> counts(n + 1, std::vector<std::vector<double>>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) {
    for (std::size_t j = 0; j <= m; ++j) {
      std::vector<double>& c = counts[i][j];
      c.assign(i * j + 1, 0.0);
      if (i == 0 || j == 0) {
        c[0] = 1.0;
        continue;
      }
      // The largest value is from a (contributes j to U) or from b (contributes nothing).
      const std::vector<double>& from_a = counts[i - 1][j];
      const std::vector<double>& from_b = counts[i][j - 1];
      for (std::size_t u = 0; u < from_a.size(); ++u) c[u + j] += from_a[u];
      for (std::size_t u = 0; u < from_b.size(); ++u) c[u] += from_b[u];
    }
  }
  std::vector<double> cdf = counts[n][m];
  double total = 0.0;
  for (double c : cdf) total += c;
  double running = 0.0;
  for (double& c : cdf) {
    running += c;
    c = running / total;
  }
  return cache.emplace(std::make_pair(n, m), std::move(cdf)).first->second;
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ULL;
  }
  return h;
}

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

std::string node_label(const Run& run, int index) {
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
    std::string a = node_label(run, p.nodes[0]);
    std::string b = node_label(run, p.nodes[1]);
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
      const std::string name = fmt::format("pairs {} {} {} {} busbw (per pair)", key.group, p.op, p.dtype,
                                           format_size(p.size_bytes));
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
        key.node = node_label(run, node);
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

MetricComparison compare_metric(const MetricSamples& b, const MetricSamples& a, const CompareSettings& s) {
  MetricComparison m;
  m.key = b.key;
  m.name = b.name;
  m.unit = b.unit;
  m.higher_is_better = b.higher_is_better;
  m.n_before = b.samples.size();
  m.n_after = a.samples.size();
  std::vector<double> tmp = b.samples;
  m.before = median_of(tmp);
  tmp = a.samples;
  m.after = median_of(tmp);
  m.change_percent = m.before != 0.0 ? 100.0 * (m.after / m.before - 1.0) : 0.0;
  const auto min_n = static_cast<std::size_t>(std::max(1, s.min_samples));
  if (m.n_before <= 1 && m.n_after <= 1) {
    m.verdict = "single_value";
    return m;
  }
  if (m.n_before < min_n || m.n_after < min_n) {
    m.verdict = "not_enough_samples";
    return m;
  }
  const MannWhitneyResult u = mann_whitney_u(b.samples, a.samples);
  m.p_value = u.p_value;
  m.exact = u.exact;
  const PercentInterval ci =
      bootstrap_change_interval(b.samples, a.samples, s.confidence, s.bootstrap_resamples, fnv1a(m.name));
  m.ci_low_percent = ci.low_percent;
  m.ci_high_percent = ci.high_percent;
  return m;
}

// Benjamini-Hochberg adjusted p values of the tested metrics (p_value >= 0), then the verdicts:
// significant when the (adjusted) p < alpha and |change| >= min_change.
void assign_verdicts(std::vector<MetricComparison>& metrics, const CompareSettings& s) {
  std::vector<MetricComparison*> tested;
  for (MetricComparison& m : metrics) {
    if (m.p_value >= 0.0) tested.push_back(&m);
  }
  std::stable_sort(tested.begin(), tested.end(),
                   [](const MetricComparison* x, const MetricComparison* y) { return x->p_value < y->p_value; });
  const double count = static_cast<double>(tested.size());
  double running_min = 1.0;
  for (std::size_t i = tested.size(); i-- > 0;) {
    MetricComparison& m = *tested[i];
    if (s.correction == "benjamini-hochberg") {
      running_min = std::min(running_min, m.p_value * count / static_cast<double>(i + 1));
      m.p_adjusted = running_min;
    } else {
      m.p_adjusted = m.p_value;
    }
  }
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

// ---- text ----

std::string format_value(double v, const std::string& unit) {
  if (unit == "GB/s") return fmt::format("{:.2f} {}", v, unit);
  if (std::fabs(v) >= 1000.0) return fmt::format("{:.0f} {}", v, unit);
  return fmt::format("{:.4g} {}", v, unit);
}

std::string format_p(double p) {
  if (p < 0.0) return "-";
  if (p < 0.0001) return "<0.0001";
  return fmt::format("{:.4f}", p);
}

std::string table(const std::vector<const MetricComparison*>& rows, std::size_t cap, double confidence) {
  std::size_t width = 6;
  for (std::size_t i = 0; i < rows.size() && i < cap; ++i) width = std::max(width, rows[i]->name.size());
  std::string out = fmt::format("  {:<{}}  {:>14}  {:>14}  {:>8}  {:>20}  {:>8}  {}\n", "metric", width, "before",
                                "after", "change", fmt::format("{:.0f}% interval", confidence * 100.0), "p adj", "n");
  for (std::size_t i = 0; i < rows.size() && i < cap; ++i) {
    const MetricComparison& m = *rows[i];
    out += fmt::format("  {:<{}}  {:>14}  {:>14}  {:>+7.1f}%  {:>20}  {:>8}  {}/{}\n", m.name, width,
                       format_value(m.before, m.unit), format_value(m.after, m.unit), m.change_percent,
                       fmt::format("[{:+.1f}%, {:+.1f}%]", m.ci_low_percent, m.ci_high_percent), format_p(m.p_adjusted),
                       m.n_before, m.n_after);
  }
  if (rows.size() > cap) out += fmt::format("  ... and {} more (--json lists every metric)\n", rows.size() - cap);
  return out;
}

}  // namespace

CompareSettings parse_compare_settings(std::string_view toml_text, const std::string& source) {
  const toml::table root = toml_parse(toml_text, source);
  toml_reject_unknown(root, {"compare"}, "", source);
  const toml::node* node = root.get("compare");
  if (node == nullptr) throw ConfigError(fmt::format("{}: missing table [compare]", source));
  const toml::table* t = node->as_table();
  if (t == nullptr) throw ConfigError(fmt::format("{}: [compare] must be a table", toml_where(source, *node)));
  toml_reject_unknown(*t,
                      {"alpha", "min_change_percent", "min_samples", "confidence", "bootstrap_resamples", "correction"},
                      "compare.", source);
  CompareSettings s;
  s.source = source;
  s.alpha = require_number(*t, "alpha", 1e-6, 0.5, false, source);
  s.min_change_percent = require_number(*t, "min_change_percent", 0.0, 1000.0, false, source);
  s.min_samples = static_cast<int>(require_number(*t, "min_samples", 2.0, 1e6, true, source));
  s.confidence = require_number(*t, "confidence", 0.5, 0.9999, false, source);
  s.bootstrap_resamples = static_cast<int>(require_number(*t, "bootstrap_resamples", 100.0, 1e6, true, source));
  const toml::node* corr = t->get("correction");
  if (corr == nullptr) throw ConfigError(fmt::format("{}: missing key 'compare.correction'", source));
  const std::optional<std::string> corr_value = corr->value<std::string>();
  if (!corr_value || (*corr_value != "benjamini-hochberg" && *corr_value != "none")) {
    throw ConfigError(
        fmt::format("{}: 'compare.correction' must be \"benjamini-hochberg\" or \"none\"", toml_where(source, *corr)));
  }
  s.correction = *corr_value;
  return s;
}

CompareSettings load_compare_settings(const std::string& path) {
  std::string source;
  const std::string text = config_text(path, "compare.toml", "compare settings file", source);
  return parse_compare_settings(text, source);
}

MannWhitneyResult mann_whitney_u(std::span<const double> a, std::span<const double> b) {
  MannWhitneyResult r;
  const std::size_t n = a.size(), m = b.size();
  if (n == 0 || m == 0) return r;
  // Ranks of the pooled sample, ties sharing their average rank.
  std::vector<std::pair<double, bool>> pooled;  // value, from a
  pooled.reserve(n + m);
  for (double x : a) pooled.emplace_back(x, true);
  for (double x : b) pooled.emplace_back(x, false);
  std::sort(pooled.begin(), pooled.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  const std::size_t total = n + m;
  double rank_sum_a = 0.0, tie_term = 0.0;
  for (std::size_t i = 0; i < total;) {
    std::size_t j = i;
    while (j + 1 < total && pooled[j + 1].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i + 1);
    const double avg_rank = 0.5 * static_cast<double>(i + j) + 1.0;
    for (std::size_t k = i; k <= j; ++k) {
      if (pooled[k].second) rank_sum_a += avg_rank;
    }
    tie_term += t * t * t - t;
    i = j + 1;
  }
  const double nd = static_cast<double>(n), md = static_cast<double>(m), nm = nd * md;
  r.u = rank_sum_a - nd * (nd + 1.0) / 2.0;
  if (tie_term == 0.0 && n * m <= 400) {
    const std::vector<double>& cdf = exact_u_cdf(n, m);
    // U is an integer without ties; the null distribution is symmetric about nm/2.
    const auto lower = static_cast<std::size_t>(std::llround(std::min(r.u, nm - r.u)));
    r.p_value = std::min(1.0, 2.0 * cdf[lower]);
    r.exact = true;
    return r;
  }
  const double nt = nd + md;
  const double variance = nm / 12.0 * ((nt + 1.0) - tie_term / (nt * (nt - 1.0)));
  if (variance <= 0.0) return r;  // every value equal: no evidence of a difference
  const double diff = r.u - nm / 2.0;
  const double corrected = std::max(0.0, std::fabs(diff) - 0.5);
  r.z = std::copysign(corrected / std::sqrt(variance), diff);
  r.p_value = std::min(1.0, std::erfc(std::fabs(r.z) / std::sqrt(2.0)));
  return r;
}

PercentInterval bootstrap_change_interval(std::span<const double> before, std::span<const double> after,
                                          double confidence, int resamples, std::uint64_t seed) {
  PercentInterval out;
  if (before.empty() || after.empty() || resamples <= 0) return out;
  std::mt19937_64 rng(seed);
  std::vector<double> changes, rb(before.size()), ra(after.size());
  changes.reserve(static_cast<std::size_t>(resamples));
  // Index by modulo of the 64-bit draw: the bias (n / 2^64) is negligible and, unlike
  // std::uniform_int_distribution, the sequence is the same with every standard library.
  for (int k = 0; k < resamples; ++k) {
    for (double& x : rb) x = before[rng() % before.size()];
    for (double& x : ra) x = after[rng() % after.size()];
    const double mb = median_of(rb);
    if (mb == 0.0) continue;
    changes.push_back(100.0 * (median_of(ra) / mb - 1.0));
  }
  if (changes.empty()) return out;
  const double tail = (1.0 - confidence) / 2.0;
  out.low_percent = quantile(changes, tail);
  out.high_percent = quantile(changes, 1.0 - tail);
  return out;
}

Comparison compare_runs(const Run& before, const Run& after, const CompareSettings& settings) {
  Comparison c;
  c.before_run_id = before.run_id;
  c.after_run_id = after.run_id;
  c.settings = settings;
  c.comparability = comparability(before, after);
  const MetricTable tb = collect_metrics(before);
  const MetricTable ta = collect_metrics(after);
  for (const MetricSamples& b : tb.metrics()) {
    const MetricSamples* a = ta.find(b.name);
    if (a == nullptr || b.samples.empty() || a->samples.empty()) {
      c.only_before.push_back(b.name);
      continue;
    }
    c.metrics.push_back(compare_metric(b, *a, settings));
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
  }
  for (const MetricSamples& a : ta.metrics()) {
    const MetricSamples* b = tb.find(a.name);
    if (b == nullptr || b->samples.empty() || a.samples.empty()) c.only_after.push_back(a.name);
  }
  c.summary.only_before = static_cast<int>(c.only_before.size());
  c.summary.only_after = static_cast<int>(c.only_after.size());
  return c;
}

double regression_percent(const MetricComparison& m) {
  return m.higher_is_better ? -m.change_percent : m.change_percent;
}

bool regressed_beyond(const Comparison& c, double fail_on_percent) {
  return std::any_of(c.metrics.begin(), c.metrics.end(), [&](const MetricComparison& m) {
    return m.verdict == "slower" && regression_percent(m) > fail_on_percent;
  });
}

std::string format_metric_value(double v, const std::string& unit) {
  return format_value(v, unit);
}

std::string format_p_value(double p) {
  return format_p(p);
}

std::string comparison_text(const Comparison& c, double fail_on_percent) {
  const CompareSettings& s = c.settings;
  std::string out = fmt::format("podperf compare: BEFORE {} (run {}) -> AFTER {} (run {})\n", c.before_source,
                                c.before_run_id, c.after_source, c.after_run_id);
  const ComparisonSummary& sum = c.summary;
  out += fmt::format("Summary: {} slower, {} faster, {} no change within noise, {} not tested; {} metrics in both runs",
                     sum.slower, sum.faster, sum.no_change, sum.untested, c.metrics.size());
  if (sum.only_before + sum.only_after > 0) {
    out += fmt::format(" ({} only in BEFORE, {} only in AFTER)", sum.only_before, sum.only_after);
  }
  out += "\n";
  int beyond = 0;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "slower" && regression_percent(m) > fail_on_percent) ++beyond;
  }
  out += beyond > 0 ? fmt::format("REGRESSION: {} metric{} slower by more than {:g}% (--fail-on)\n", beyond,
                                  beyond == 1 ? "" : "s", fail_on_percent)
                    : fmt::format("No regression beyond {:g}% (--fail-on)\n", fail_on_percent);
  if (!c.comparability.empty()) {
    out += "WARNING: the runs are not comparable in every way (the common metrics are still compared):\n";
    for (const ComparabilityNote& n : c.comparability) {
      out += fmt::format("  {}: BEFORE {}; AFTER {}\n", n.what, n.before, n.after);
    }
  }
  auto by_change = [](const MetricComparison* x, const MetricComparison* y) {
    return std::fabs(x->change_percent) > std::fabs(y->change_percent);
  };
  std::vector<const MetricComparison*> slower, faster, untested;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "slower") slower.push_back(&m);
    if (m.verdict == "faster") faster.push_back(&m);
    if (m.verdict == "not_enough_samples" || m.verdict == "single_value") untested.push_back(&m);
  }
  std::stable_sort(slower.begin(), slower.end(), by_change);
  std::stable_sort(faster.begin(), faster.end(), by_change);
  std::stable_sort(untested.begin(), untested.end(), by_change);
  constexpr std::size_t kCap = 25;
  if (!slower.empty())
    out += fmt::format("\nSlower ({}), largest first:\n{}", slower.size(), table(slower, kCap, s.confidence));
  if (!faster.empty())
    out += fmt::format("\nFaster ({}), largest first:\n{}", faster.size(), table(faster, kCap, s.confidence));
  out += fmt::format("\nNo change within noise: {} metric{} (adjusted p >= {:g} or |change| < {:g}%)\n", sum.no_change,
                     sum.no_change == 1 ? "" : "s", s.alpha, s.min_change_percent);
  if (!untested.empty()) {
    out += fmt::format("Not tested: {} metric{} (fewer than {} samples in a run; change only), largest changes:\n",
                       untested.size(), untested.size() == 1 ? "" : "s", s.min_samples);
    for (std::size_t i = 0; i < untested.size() && i < 5; ++i) {
      const MetricComparison& m = *untested[i];
      out += fmt::format("  {}: {} -> {} ({:+.1f}%, n {}/{})\n", m.name, format_value(m.before, m.unit),
                         format_value(m.after, m.unit), m.change_percent, m.n_before, m.n_after);
    }
  }
  auto examples = [](const std::vector<std::string>& names) {
    std::vector<std::string> first(names.begin(),
                                   names.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, names.size())));
    return text::join(first, "; ") + (names.size() > 3 ? "; ..." : "");
  };
  if (!c.only_before.empty())
    out += fmt::format("Only in BEFORE: {} ({})\n", c.only_before.size(), examples(c.only_before));
  if (!c.only_after.empty())
    out += fmt::format("Only in AFTER: {} ({})\n", c.only_after.size(), examples(c.only_after));
  out += fmt::format(
      "\nMethod: two-sided Mann-Whitney U on per-iteration busbw and per-rank filesystem numbers, p adjusted for the "
      "{} metrics tested ({}); a metric is slower or faster only when p < {:g} and |change| >= {:g}% (a significant "
      "but smaller change of a stable system is noise). Change: ratio of medians; interval: {:.0f}% percentile "
      "bootstrap, {} resamples, fixed seed. Settings: {}\n",
      sum.slower + sum.faster + sum.no_change, s.correction == "none" ? "no correction" : "Benjamini-Hochberg", s.alpha,
      s.min_change_percent, s.confidence * 100.0, s.bootstrap_resamples, s.source);
  return out;
}

nlohmann::json comparison_json(const Comparison& c) {
  using nlohmann::json;
  json metrics = json::array();
  for (const MetricComparison& m : c.metrics) {
    const MetricKey& k = m.key;
    json key = {{"kind", k.kind}, {"quantity", k.quantity}};
    if (!k.op.empty()) key["op"] = k.op;
    if (!k.dtype.empty()) key["dtype"] = k.dtype;
    if (k.kind == "pair" || k.kind == "collective" || k.kind == "topology_class") key["size_bytes"] = k.size_bytes;
    if (k.kind == "collective") key["in_place"] = k.in_place;
    if (!k.nodes.empty()) key["nodes"] = k.nodes;
    if (!k.group.empty()) key["group"] = k.group;
    if (!k.probe.empty()) key["probe"] = k.probe;
    if (!k.node.empty()) key["node"] = k.node;
    const bool tested = m.p_value >= 0.0;
    metrics.push_back({{"key", key},
                       {"name", m.name},
                       {"unit", m.unit},
                       {"higher_is_better", m.higher_is_better},
                       {"before", m.before},
                       {"after", m.after},
                       {"change_percent", m.change_percent},
                       {"ci_low_percent", tested ? json(m.ci_low_percent) : json(nullptr)},
                       {"ci_high_percent", tested ? json(m.ci_high_percent) : json(nullptr)},
                       {"p_value", tested ? json(m.p_value) : json(nullptr)},
                       {"p_adjusted", tested ? json(m.p_adjusted) : json(nullptr)},
                       {"exact", m.exact},
                       {"n_before", m.n_before},
                       {"n_after", m.n_after},
                       {"verdict", m.verdict}});
  }
  json notes = json::array();
  for (const ComparabilityNote& n : c.comparability) {
    notes.push_back({{"what", n.what}, {"before", n.before}, {"after", n.after}});
  }
  const ComparisonSummary& s = c.summary;
  return {{"before", {{"source", c.before_source}, {"run_id", c.before_run_id}}},
          {"after", {{"source", c.after_source}, {"run_id", c.after_run_id}}},
          {"settings",
           {{"alpha", c.settings.alpha},
            {"min_change_percent", c.settings.min_change_percent},
            {"min_samples", c.settings.min_samples},
            {"confidence", c.settings.confidence},
            {"bootstrap_resamples", c.settings.bootstrap_resamples},
            {"correction", c.settings.correction},
            {"source", c.settings.source}}},
          {"summary",
           {{"faster", s.faster},
            {"slower", s.slower},
            {"no_change", s.no_change},
            {"untested", s.untested},
            {"only_before", s.only_before},
            {"only_after", s.only_after}}},
          {"comparability", notes},
          {"metrics", metrics},
          {"only_before", c.only_before},
          {"only_after", c.only_after}};
}

}  // namespace podperf

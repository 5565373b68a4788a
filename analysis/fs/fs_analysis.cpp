// Filesystem probe analysis: each probe's aggregates and per-node numbers, and the nodes' judgment
// against a robust baseline (see fs_analysis.hpp); the findings come from analysis/fs/fs_findings.
// Floor analysis/, pure, local.
#include "analysis/fs/fs_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "analysis/base/errors.hpp"
#include "analysis/config/fs_probes.hpp"
#include "analysis/fs/fs_findings.hpp"
#include "analysis/stats/baseline.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf {
namespace {

bool measured(const FsRankResult& r) {
  return fs_rank_measured(r);
}

int status_severity(const std::string& status) {
  if (status == "error") return 2;
  if (status == "wrong") return 1;
  return 0;
}

double per_second(double amount, double seconds) {
  return seconds > 0.0 ? amount / seconds : 0.0;
}

// Nearest-rank percentile of sorted values, q in (0, 1]: the smallest value with at least q of the
// values at or below it.
double nearest_rank(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double rank = std::ceil(q * static_cast<double>(sorted.size()) - 1e-9);
  const auto index = static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(sorted.size()))) - 1;
  return sorted[index];
}

struct Percentiles {
  double p50 = 0.0, p90 = 0.0, p99 = 0.0, p999 = 0.0;
};

Percentiles percentiles(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {nearest_rank(values, 0.50), nearest_rank(values, 0.90), nearest_rank(values, 0.99),
          nearest_rank(values, 0.999)};
}

std::string label_of(const std::vector<NodeInfo>& nodes, int node) {
  const NodeInfo* n = fs_node_info(nodes, node);
  return n != nullptr && !n->label.empty() ? n->label : fmt::format("node {}", node);
}

// True for the probes judged on ops/s (their catalog row says rate); the others on MB/s.
bool judged_on_rate(const FsProbeResult& p) {
  const FsProbeTraits* t = find_fs_probe(p.probe);
  return t != nullptr && t->judge == FsJudge::kRate;
}

}  // namespace

const char* fs_metric_unit(const FsProbeResult& p) {
  return judged_on_rate(p) ? "ops/s" : "MB/s";
}

double fs_node_metric(const FsProbeResult& p, const FsNodeResult& n) {
  return judged_on_rate(p) ? n.ops_per_s : n.mb_per_s;
}

double fs_probe_metric(const FsProbeResult& p) {
  return judged_on_rate(p) ? p.ops_per_s : p.mb_per_s;
}

double fs_expected_mb_s(const FsRun& fs, const std::string& probe) {
  if (fs_probe_reads(probe)) return fs.expected_read_mb_s;
  if (fs_probe_writes(probe)) return fs.expected_write_mb_s;
  return 0.0;
}

namespace {

// summarize_fs_probe, step 1: the worst of the ranks' statuses (a rank reporting checksum mismatches
// is wrong whatever it says) and the first rank error.
void summarize_status(FsProbeResult& p) {
  p.status = "ok";
  p.error.clear();
  for (const FsRankResult& r : p.ranks) {
    const std::string status = status_ok(r.status) && r.checksum_mismatches > 0 ? "wrong" : r.status;
    if (status_severity(status) > status_severity(p.status)) p.status = status;
    if (p.error.empty() && !r.error.empty()) p.error = r.error;
  }
}

void set_percentiles(const Percentiles& q, double& p50, double& p90, double& p99, double& p999) {
  p50 = q.p50;
  p90 = q.p90;
  p99 = q.p99;
  p999 = q.p999;
}

// summarize_fs_probe, step 2: each rank's own rates and latency percentiles, and the IOR aggregate
// over the measured ranks (bytes, ops, duration from the first start to the last end or the commit,
// first_done_s, rates, cached_fraction_max, all-rank latency percentiles).
void summarize_aggregate(FsProbeResult& p) {
  p.bytes = 0;
  p.ops = 0;
  p.cached_fraction_max = -1.0;
  double first_start = std::numeric_limits<double>::infinity();
  double first_end = std::numeric_limits<double>::infinity();
  double last_end = -std::numeric_limits<double>::infinity();
  std::vector<double> all_latency_us;
  bool any_latency = false;
  for (FsRankResult& r : p.ranks) {
    const double seconds = r.end_s - r.start_s;
    r.mb_per_s = per_second(static_cast<double>(r.bytes), seconds) / 1e6;
    r.ops_per_s = per_second(static_cast<double>(r.ops), seconds);
    if (!measured(r)) continue;
    p.bytes += r.bytes;
    p.ops += r.ops;
    first_start = std::min(first_start, r.start_s);
    first_end = std::min(first_end, r.end_s);
    last_end = std::max(last_end, r.end_s);
    p.cached_fraction_max = std::max(p.cached_fraction_max, r.cached_fraction);
    if (!r.latency_us.empty()) {
      any_latency = true;
      set_percentiles(percentiles(r.latency_us), r.lat_p50_us, r.lat_p90_us, r.lat_p99_us, r.lat_p999_us);
      all_latency_us.insert(all_latency_us.end(), r.latency_us.begin(), r.latency_us.end());
    }
  }
  if (std::isfinite(first_start)) {
    // ckpt-save: the checkpoint exists once rank 0 renamed the metadata into place (commit_s).
    p.duration_s = std::max(0.0, std::max(last_end, p.commit_s) - first_start);
    p.first_done_s = std::max(0.0, first_end - first_start);
  } else {
    p.duration_s = 0.0;
    p.first_done_s = 0.0;
  }
  p.mb_per_s = per_second(static_cast<double>(p.bytes), p.duration_s) / 1e6;
  p.ops_per_s = per_second(static_cast<double>(p.ops), p.duration_s);
  // Samples are not in run.json: a run read back keeps the percentiles it was written with.
  if (any_latency) {
    set_percentiles(percentiles(std::move(all_latency_us)), p.lat_p50_us, p.lat_p90_us, p.lat_p99_us, p.lat_p999_us);
  }
}

// summarize_fs_probe, step 3: one entry per node, ascending; a node's rates come from its measured
// ranks; ratio and flag cleared.
void summarize_nodes(FsProbeResult& p, const std::vector<NodeInfo>& nodes) {
  std::map<int, FsNodeResult> by_node;
  for (const FsRankResult& r : p.ranks) {
    FsNodeResult& n = by_node[r.node];
    if (n.ranks == 0) {
      n.node = r.node;
      n.label = label_of(nodes, r.node);
      n.start_s = std::numeric_limits<double>::infinity();
      n.end_s = -std::numeric_limits<double>::infinity();
    }
    ++n.ranks;
    if (!measured(r)) continue;
    n.bytes += r.bytes;
    n.ops += r.ops;
    n.start_s = std::min(n.start_s, r.start_s);
    n.end_s = std::max(n.end_s, r.end_s);
  }
  p.nodes.clear();
  for (auto& [node, n] : by_node) {
    if (!std::isfinite(n.start_s)) n.start_s = n.end_s = 0.0;  // every rank failed
    const double seconds = n.end_s - n.start_s;
    n.mb_per_s = per_second(static_cast<double>(n.bytes), seconds) / 1e6;
    n.ops_per_s = per_second(static_cast<double>(n.ops), seconds);
    n.ratio = 0.0;
    n.flagged = false;
    p.nodes.push_back(n);
  }
}

// The nodes of a summarized probe that can be judged: every rank of the node finished (a node with a
// failed rank has an incomplete number, and the failure is reported as such) and time passed.
std::vector<FsNodeResult*> judged_nodes(FsProbeResult& p) {
  std::vector<FsNodeResult*> judged;
  for (FsNodeResult& n : p.nodes) {
    const bool complete = std::none_of(p.ranks.begin(), p.ranks.end(),
                                       [&n](const FsRankResult& r) { return r.node == n.node && !measured(r); });
    if (complete && n.end_s > n.start_s) judged.push_back(&n);
  }
  return judged;
}

// judge_fs, step 1 for one probe: summarize it, then its baseline, each judged node's ratio and flag,
// and slowest_node. A node is flagged only when the probe resolves its difference: its time exceeds
// the median node's by more than spread_factor x the probe's time noise (the larger of
// t.resolution_seconds and the nodes' robust spread of times, that spread counted at most as
// max_spread_fraction of the median time). A node the metric would flag but the probe does not
// resolve goes to `unresolved` ("meta-stat: node3 +12 ms ..."). Returns how many nodes were judged.
std::size_t judge_probe(FsProbeResult& p, const std::vector<NodeInfo>& nodes, const FsThresholds& t,
                        std::vector<std::string>& unresolved) {
  summarize_fs_probe(p, nodes);
  p.baseline = 0.0;
  p.slowest_node.clear();
  const std::vector<FsNodeResult*> judged = judged_nodes(p);
  if (judged.empty()) return 0;
  std::vector<double> values;
  for (const FsNodeResult* n : judged) values.push_back(fs_node_metric(p, *n));
  const Baseline b = robust_baseline(values, t.threshold, t.baseline_max_passes, t.baseline_min_kept_fraction);
  p.baseline = b.value;
  // As for pairs: the healthy nodes' spread guards small deviations, capped so a noisy filesystem
  // cannot hide a node at a fraction of the others. No per-node noise rule: one measurement per node.
  const double spread = std::min(b.spread, t.max_spread_fraction * b.value);
  // What the probe resolves: a node's extra time beyond the timer's (and scheduler's) resolution and
  // the nodes' own spread of times, whatever the probe's length (a node 25 times slower in a probe of
  // 0.26 s is no noise; 12 ms more in a probe of 4 ms is).
  std::vector<double> elapsed;
  for (const FsNodeResult* n : judged) elapsed.push_back(n->end_s - n->start_s);
  const double median_elapsed_s = median(elapsed);
  const double time_noise_s =
      std::max(t.resolution_seconds, std::min(robust_sigma(elapsed), t.max_spread_fraction * median_elapsed_s));
  const double resolvable_s = t.spread_factor * time_noise_s;
  const auto resolved = [&](const FsNodeResult& n) { return (n.end_s - n.start_s) - median_elapsed_s > resolvable_s; };
  const FsNodeResult* slowest = nullptr;
  for (FsNodeResult* n : judged) {
    const double value = fs_node_metric(p, *n);
    n->ratio = b.value > 0.0 ? value / b.value : 0.0;
    const double gap = b.value - value;
    const bool slow =
        judged.size() >= kFsMinJudgedNodes && value < b.value * (1.0 - t.threshold) && gap > t.spread_factor * spread;
    n->flagged = slow && resolved(*n);
    if (slow && !n->flagged) {
      unresolved.push_back(fmt::format(
          "{}: {} {:+.0f} ms of the median node's {:.3f} s (resolves {:.0f} ms)", fs_probe_label(p.probe, p.block),
          n->label, 1e3 * ((n->end_s - n->start_s) - median_elapsed_s), median_elapsed_s, 1e3 * resolvable_s));
    }
    if (slowest == nullptr || value < fs_node_metric(p, *slowest)) slowest = n;
  }
  if (judged.size() >= 2) p.slowest_node = slowest->label;
  return judged.size();
}

}  // namespace

void summarize_fs_probe(FsProbeResult& p, const std::vector<NodeInfo>& nodes) {
  summarize_status(p);
  summarize_aggregate(p);
  summarize_nodes(p, nodes);
}

void judge_fs(Run& run, const FsThresholds& t) {
  FsRun& fs = run.fs;
  fs.slow_nodes.clear();
  run.findings.erase(
      std::remove_if(run.findings.begin(), run.findings.end(), [](const Finding& f) { return f.source == "fs"; }),
      run.findings.end());
  if (fs.probes.empty()) return;

  std::size_t most_judged = 0;
  std::vector<std::string> unresolved;  // the nodes the metric would flag but the probe does not resolve
  for (FsProbeResult& p : fs.probes) most_judged = std::max(most_judged, judge_probe(p, run.nodes, t, unresolved));
  fs.slow_nodes = fs_slow_nodes(run);
  std::vector<Finding> found = fs_findings(run, t, most_judged, unresolved);
  run.findings.insert(run.findings.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
}

int fs_exit_code(const Run& run) {
  int code = kExitOk;
  for (const FsProbeResult& p : run.fs.probes) {
    if (p.status == "error") return kExitRuntime;
    if (p.status == "wrong") code = kExitFlagged;
    for (const FsNodeResult& n : p.nodes) {
      if (n.flagged) code = kExitFlagged;
    }
  }
  return code;
}

}  // namespace podperf

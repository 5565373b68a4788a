#include "analysis/fs_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>

#include "analysis/baseline.hpp"
#include "analysis/errors.hpp"

namespace podperf {
namespace {

constexpr std::size_t kMinJudgedNodes = 3;  // with fewer, "the others" are not a baseline

// A rank whose probe failed moved an unknown share of its data: it counts towards the status only.
bool measured(const FsRankResult& r) {
  return r.status != "error";
}

int severity(const std::string& status) {
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

const NodeInfo* node_info(const std::vector<NodeInfo>& nodes, int node) {
  if (node >= 0 && static_cast<std::size_t>(node) < nodes.size() &&
      nodes[static_cast<std::size_t>(node)].index == node) {
    return &nodes[static_cast<std::size_t>(node)];
  }
  for (const NodeInfo& n : nodes) {
    if (n.index == node) return &n;
  }
  return nullptr;
}

std::string label_of(const std::vector<NodeInfo>& nodes, int node) {
  const NodeInfo* n = node_info(nodes, node);
  return n != nullptr && !n->label.empty() ? n->label : fmt::format("node {}", node);
}

std::string host_of(const std::vector<NodeInfo>& nodes, int node) {
  const NodeInfo* n = node_info(nodes, node);
  return n != nullptr ? n->hostname : "";
}

bool is_read_probe(const std::string& probe) {
  return probe == "seq-read" || probe == "rand-read" || probe == "ckpt-load";
}
bool is_write_probe(const std::string& probe) {
  return probe == "seq-write" || probe == "ckpt-save";
}

// Host findings that explain a slow filesystem node first: I/O wait, a full root or data mount, Lustre
// OSTs, anything else about filesystems; then the host's other concerns in their order.
constexpr std::array<std::string_view, 4> kFsPriority{"signals.iowait", "signals.root_fs", "signals.mounts",
                                                      "signals.lustre_ost"};

std::size_t fs_rank_of(const Finding& f) {
  for (std::size_t i = 0; i < kFsPriority.size(); ++i) {
    if (f.check == kFsPriority[i]) return i;
  }
  if (f.check.find("fs") != std::string::npos) return kFsPriority.size();
  return kFsPriority.size() + 1;
}

std::vector<std::string> fs_causes_for(const Run& run, const std::string& host) {
  std::vector<const Finding*> concerns;
  if (host.empty()) return {};
  for (const Finding& f : run.findings) {
    if (f.tag == Tag::kConcern && f.host == host && f.source != "fs") concerns.push_back(&f);
  }
  std::stable_sort(concerns.begin(), concerns.end(),
                   [](const Finding* a, const Finding* b) { return fs_rank_of(*a) < fs_rank_of(*b); });
  std::vector<std::string> out;
  for (const Finding* f : concerns) {
    out.push_back(
        fmt::format("{}: {}{}", f->check, f->observed, f->next_step.empty() ? "" : " (next: " + f->next_step + ")"));
  }
  return out;
}

std::string probe_dir_or_path(const FsRun& fs) {
  return fs.path.empty() ? std::string("DIR") : fs.path;
}

// The read-only diagnosis for a slow node with no host concern, by filesystem type.
std::string fs_next_step(const FsRun& fs, const std::string& label, const std::string& good) {
  const std::string compare = good.empty() ? "" : fmt::format(" and on a healthy node ({})", good);
  if (fs.fs_type == "lustre") {
    return fmt::format(
        "no host concern found on {}; on it{}: `lfs check servers`, `lfs df -h {}` (a full or degraded OST), "
        "`lctl get_param osc.*.max_rpcs_in_flight llite.*.max_read_ahead_mb`, and `iostat -x 1` / "
        "`sar -n DEV 1` during a rerun of podperf fs --path {}",
        label, compare, probe_dir_or_path(fs), probe_dir_or_path(fs));
  }
  return fmt::format(
      "no host concern found on {}; on it{}: `findmnt -T {}` (mount options), `iostat -x 1` and "
      "`cat /proc/pressure/io` during a rerun of podperf fs --path {}",
      label, compare, probe_dir_or_path(fs), probe_dir_or_path(fs));
}

Finding fs_finding(Tag tag, std::string check, std::string host) {
  Finding f;
  f.tag = tag;
  f.source = "fs";
  f.check = std::move(check);
  f.host = std::move(host);
  return f;
}

}  // namespace

bool fs_probe_is_meta(const std::string& probe) {
  return probe.rfind("meta", 0) == 0;
}

const char* fs_metric_unit(const FsProbeResult& p) {
  return fs_probe_is_meta(p.probe) ? "ops/s" : "MB/s";
}

double fs_node_metric(const FsProbeResult& p, const FsNodeResult& n) {
  return fs_probe_is_meta(p.probe) ? n.ops_per_s : n.mb_per_s;
}

double fs_probe_metric(const FsProbeResult& p) {
  return fs_probe_is_meta(p.probe) ? p.ops_per_s : p.mb_per_s;
}

double fs_expected_mb_s(const FsRun& fs, const std::string& probe) {
  if (is_read_probe(probe)) return fs.expected_read_mb_s;
  if (is_write_probe(probe)) return fs.expected_write_mb_s;
  return 0.0;
}

void summarize_fs_probe(FsProbeResult& p, const std::vector<NodeInfo>& nodes) {
  // Status: the worst of the ranks (a rank reporting checksum mismatches is wrong whatever it says).
  p.status = "ok";
  p.error.clear();
  for (const FsRankResult& r : p.ranks) {
    const std::string status = r.status == "ok" && r.checksum_mismatches > 0 ? "wrong" : r.status;
    if (severity(status) > severity(p.status)) p.status = status;
    if (p.error.empty() && !r.error.empty()) p.error = r.error;
  }

  // Each rank's own rates, and the IOR aggregate over the measured ranks.
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
      const Percentiles q = percentiles(r.latency_us);
      r.lat_p50_us = q.p50;
      r.lat_p90_us = q.p90;
      r.lat_p99_us = q.p99;
      r.lat_p999_us = q.p999;
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
    const Percentiles q = percentiles(std::move(all_latency_us));
    p.lat_p50_us = q.p50;
    p.lat_p90_us = q.p90;
    p.lat_p99_us = q.p99;
    p.lat_p999_us = q.p999;
  }

  // One entry per node, ascending; a node's rates come from its measured ranks.
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

void analyze_fs(Run& run, const FsThresholds& t) {
  FsRun& fs = run.fs;
  fs.slow_nodes.clear();
  run.findings.erase(
      std::remove_if(run.findings.begin(), run.findings.end(), [](const Finding& f) { return f.source == "fs"; }),
      run.findings.end());
  if (fs.probes.empty()) return;

  std::size_t most_judged = 0;
  std::vector<std::string> short_probes;  // "meta-stat 0.004 s": the median node's time
  for (FsProbeResult& p : fs.probes) {
    summarize_fs_probe(p, run.nodes);
    p.baseline = 0.0;
    p.slowest_node.clear();
    // Judge only nodes whose every rank finished: a node with a failed rank has an incomplete number,
    // and the failure is reported as such.
    std::vector<FsNodeResult*> judged;
    for (FsNodeResult& n : p.nodes) {
      const bool complete = std::none_of(p.ranks.begin(), p.ranks.end(),
                                         [&n](const FsRankResult& r) { return r.node == n.node && !measured(r); });
      if (complete && n.end_s > n.start_s) judged.push_back(&n);
    }
    most_judged = std::max(most_judged, judged.size());
    if (judged.empty()) continue;
    std::vector<double> values;
    for (const FsNodeResult* n : judged) values.push_back(fs_node_metric(p, *n));
    const Baseline b = robust_baseline(values, t.threshold, t.baseline_max_passes, t.baseline_min_kept_fraction);
    p.baseline = b.value;
    // As for pairs: the healthy nodes' spread guards small deviations, capped so a noisy filesystem
    // cannot hide a node at a fraction of the others. No per-node noise rule: one measurement per node.
    const double spread = std::min(b.spread, t.max_spread_fraction * b.value);
    // Long enough to judge: the typical node's own time, not the probe's (a slow node stretches the
    // probe while the others' times stay at milliseconds, where differences are timer noise).
    std::vector<double> elapsed;
    for (const FsNodeResult* n : judged) elapsed.push_back(n->end_s - n->start_s);
    std::nth_element(elapsed.begin(), elapsed.begin() + static_cast<std::ptrdiff_t>(elapsed.size() / 2), elapsed.end());
    const bool long_enough = elapsed[elapsed.size() / 2] >= t.min_judged_seconds;
    if (!long_enough) short_probes.push_back(fmt::format("{} {:.3f} s", p.probe, elapsed[elapsed.size() / 2]));
    const FsNodeResult* slowest = nullptr;
    for (FsNodeResult* n : judged) {
      const double value = fs_node_metric(p, *n);
      n->ratio = b.value > 0.0 ? value / b.value : 0.0;
      const double gap = b.value - value;
      n->flagged = judged.size() >= kMinJudgedNodes && long_enough &&
                   value < b.value * (1.0 - t.threshold) && gap > t.spread_factor * spread;
      if (slowest == nullptr || value < fs_node_metric(p, *slowest)) slowest = n;
    }
    if (judged.size() >= 2) p.slowest_node = slowest->label;
  }

  // Slow nodes: flagged in any probe, with their hosts' concerns.
  std::map<int, FsSlowNode> slow;
  for (const FsProbeResult& p : fs.probes) {
    for (const FsNodeResult& n : p.nodes) {
      if (!n.flagged) continue;
      FsSlowNode& s = slow[n.node];
      if (s.probes.empty()) {
        s.node = n.node;
        s.label = n.label;
        s.worst_ratio = n.ratio;
      }
      s.probes.push_back(p.probe);
      s.worst_ratio = std::min(s.worst_ratio, n.ratio);
      const std::string unit = fs_metric_unit(p);
      s.evidence += fmt::format(
          "{}{}: {:.1f} {}, {:.0f}% of the nodes' baseline {:.1f} {} (done at {:.2f} s; "
          "all nodes by {:.2f} s)",
          s.evidence.empty() ? "" : "; ", p.probe, fs_node_metric(p, n), unit, n.ratio * 100.0, p.baseline, unit,
          n.end_s, p.duration_s);
    }
  }
  std::string good;
  for (const NodeInfo& node : run.nodes) {
    if (!slow.contains(node.index)) {
      good = node.label;
      break;
    }
  }
  for (auto& [node, s] : slow) {
    s.likely_causes = fs_causes_for(run, host_of(run.nodes, node));
    s.next_step = s.likely_causes.empty() ? fs_next_step(fs, s.label, good)
                                          : "act on the first likely cause, then rerun podperf fs";
    fs.slow_nodes.push_back(std::move(s));
  }

  // Findings about the filesystem as a whole and about what the numbers mean.
  std::vector<Finding> found;
  for (const FsProbeResult& p : fs.probes) {
    const bool read = is_read_probe(p.probe);
    const double expected = fs_expected_mb_s(fs, p.probe);
    if (expected > 0.0 && p.status != "error" && p.mb_per_s >= t.saturation_fraction * expected) {
      Finding f = fs_finding(Tag::kConcern, "fs.saturation", "");
      f.observed =
          fmt::format("{} aggregate {:.0f} MB/s is {:.0f}% of the expected {} {:.0f} MB/s ({})", p.probe, p.mb_per_s,
                      100.0 * p.mb_per_s / expected, read ? "read" : "write", expected, fs.expected_source);
      f.expected = fmt::format("below {:.0f}% of the expected throughput", t.saturation_fraction * 100.0);
      f.meaning = p.mb_per_s > expected
                      ? "the filesystem itself is the limit (above 100%: burst credits or its server cache helped)"
                      : "the filesystem itself is the limit, not the nodes";
      f.effect = "more nodes will not go faster; per-node numbers of this probe fall as nodes are added";
      f.next_step = fmt::format(
          "raise the filesystem's throughput capacity or storage (FSx: a higher per-unit throughput or more "
          "TiB); stripe large files across OSTs (`lfs setstripe -c -1 -S 4M {}` on the directory; check with "
          "`lfs getstripe`)",
          probe_dir_or_path(fs));
      found.push_back(std::move(f));
    }
    if (read && p.cached_fraction_max > t.cache_warn_fraction) {
      const FsRankResult* worst = nullptr;
      for (const FsRankResult& r : p.ranks) {
        if (measured(r) && (worst == nullptr || r.cached_fraction > worst->cached_fraction)) worst = &r;
      }
      Finding f = fs_finding(Tag::kConcern, "fs.cache", host_of(run.nodes, worst->node));
      f.observed = fmt::format("{}: {:.0f}% of the file rank {} read was in its host's page cache before reading",
                               p.probe, p.cached_fraction_max * 100.0, worst->rank);
      f.expected = fmt::format("at most {:.0f}% cached (reads measure the filesystem, not memory)",
                               t.cache_warn_fraction * 100.0);
      f.meaning = "the read number may come from this host's page cache";
      f.effect = fmt::format("{} MB/s overstates what the filesystem delivers", p.probe);
      f.next_step = "rerun with --direct (O_DIRECT), or across nodes so each rank reads what another node wrote";
      found.push_back(std::move(f));
    }
    if (p.status == "wrong") {
      std::uint64_t mismatches = 0;
      std::string host;
      for (const FsRankResult& r : p.ranks) {
        mismatches += r.checksum_mismatches;
        if (host.empty() && (r.status == "wrong" || r.checksum_mismatches > 0)) host = host_of(run.nodes, r.node);
      }
      Finding f = fs_finding(Tag::kConcern, "fs.checksum", host);
      f.observed = fmt::format("{}: {} shard(s) did not verify{}", p.probe, mismatches,
                               p.error.empty() ? "" : " (" + p.error + ")");
      f.expected = "every shard reads back what was written";
      f.meaning = "data read back differs from what was written: silent corruption on the path or the filesystem";
      f.effect = "checkpoints restored from this filesystem may be corrupt";
      f.next_step = fmt::format(
          "rerun podperf fs --path {} to see whether it repeats on the same host; check `dmesg` on that host for "
          "I/O or Lustre errors (`lfs check servers` on Lustre)",
          probe_dir_or_path(fs));
      found.push_back(std::move(f));
    }
    if (p.status == "error") {
      std::string host;
      int failed = 0;
      for (const FsRankResult& r : p.ranks) {
        if (r.status != "error") continue;
        ++failed;
        if (host.empty()) host = host_of(run.nodes, r.node);
      }
      Finding f = fs_finding(Tag::kConcern, "fs.error", host);
      f.observed = fmt::format("{}: {} of {} rank(s) failed: {}", p.probe, failed, p.ranks.size(), p.error);
      f.expected = "every rank completes the probe";
      f.meaning = "the probe could not run on some ranks; their share is missing from the aggregate";
      f.effect = "the aggregate and per-node numbers of this probe are incomplete";
      f.next_step = fmt::format("read the error; check space and permissions with `df -h {}` and `ls -ld {}`",
                                probe_dir_or_path(fs), probe_dir_or_path(fs));
      found.push_back(std::move(f));
    }
  }
  if (fs.expected_read_mb_s <= 0.0 && fs.expected_write_mb_s <= 0.0) {
    Finding f = fs_finding(Tag::kInfo, "fs.expected", "");
    f.observed = "no expected throughput given for this filesystem";
    f.expected = "the filesystem's capacity, to judge saturation";
    f.meaning = "aggregates are reported but not compared with what the filesystem should deliver";
    f.effect = "podperf cannot say whether the filesystem itself is the limit";
    f.next_step =
        "give it: --fsx-deployment TYPE --fsx-capacity-tib N (FSx for Lustre, configs/filesystems.toml), or "
        "--expected-mb-s MB_S";
    found.push_back(std::move(f));
  }
  if (!short_probes.empty() && most_judged >= kMinJudgedNodes) {
    Finding f = fs_finding(Tag::kInfo, "fs.short_probe", "");
    f.observed = fmt::format("{}", fmt::join(short_probes, ", "));
    f.expected = fmt::format("at least {} s per node (median) to compare nodes", t.min_judged_seconds);
    f.meaning = "these probes ended too soon for their node-to-node differences to mean anything: no node is "
                "judged in them (their aggregate numbers stand)";
    f.effect = "a node slow only in these probes would go unnoticed";
    f.next_step = "give the probes more work: --file-size and --rand-ops (data), --meta-files (metadata), "
                  "--ckpt-shard-size (checkpoints)";
    found.push_back(std::move(f));
  }
  if (most_judged < kMinJudgedNodes) {
    Finding f = fs_finding(Tag::kInfo, "fs.single_node", "");
    f.observed = fmt::format("{} node(s) measured in the filesystem probes", most_judged);
    f.expected = fmt::format("at least {} nodes to compare each node with the others", kMinJudgedNodes);
    f.meaning = "no outlier judgment possible: no node is flagged as slow";
    f.effect = "a slow node would go unnoticed";
    f.next_step = "run podperf fs across 3 or more nodes (srun -N 3 or more, or mpirun with a host list)";
    found.push_back(std::move(f));
  }
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

// The slow filesystem nodes' causes and next steps, and the "fs" findings (see fs_findings.hpp).
// Floor analysis/, pure, local.
#include "analysis/fs/fs_findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "analysis/config/fs_probes.hpp"
#include "analysis/fs/fs_analysis.hpp"

namespace podperf {
namespace {

constexpr std::size_t kMinJudgedNodes = kFsMinJudgedNodes;

bool rank_measured(const FsRankResult& r) {
  return fs_rank_measured(r);
}

std::string host_of(const std::vector<NodeInfo>& nodes, int node) {
  const NodeInfo* n = fs_node_info(nodes, node);
  return n != nullptr ? n->hostname : "";
}

// Host findings that explain a slow filesystem node first (their fs_cause_rank: I/O wait, a full root
// or data mount, Lustre OSTs), then the host's other concerns in their order.
std::vector<std::string> fs_causes_for(const Run& run, const std::string& host) {
  std::vector<const Finding*> concerns;
  if (host.empty()) return {};
  for (const Finding& f : run.findings) {
    if (f.tag == Tag::kConcern && f.host == host && f.source != "fs") concerns.push_back(&f);
  }
  std::stable_sort(concerns.begin(), concerns.end(),
                   [](const Finding* a, const Finding* b) { return a->fs_cause_rank < b->fs_cause_rank; });
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

// fs.saturation: the aggregate at t.saturation_fraction or more of the expected throughput.
void add_saturation_finding(const FsRun& fs, const FsProbeResult& p, const FsThresholds& t,
                            std::vector<Finding>& found) {
  const double expected = fs_expected_mb_s(fs, p.probe);
  if (!(expected > 0.0 && p.status != "error" && p.mb_per_s >= t.saturation_fraction * expected)) return;
  Finding f = fs_finding(Tag::kConcern, "fs.saturation", "");
  f.observed = fmt::format("{} aggregate {:.0f} MB/s is {:.0f}% of the expected {} {:.0f} MB/s ({})",
                           fs_probe_label(p.probe, p.block), p.mb_per_s, 100.0 * p.mb_per_s / expected,
                           fs_probe_reads(p.probe) ? "read" : "write", expected, fs.expected_source);
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

// fs.cache: a read probe whose most cached rank had more than t.cache_warn_fraction in its host's cache.
void add_cache_finding(const Run& run, const FsProbeResult& p, const FsThresholds& t, std::vector<Finding>& found) {
  if (!(fs_probe_reads(p.probe) && p.cached_fraction_max > t.cache_warn_fraction)) return;
  const FsRankResult* worst = nullptr;
  for (const FsRankResult& r : p.ranks) {
    if (rank_measured(r) && (worst == nullptr || r.cached_fraction > worst->cached_fraction)) worst = &r;
  }
  Finding f = fs_finding(Tag::kConcern, "fs.cache", host_of(run.nodes, worst->node));
  f.observed = fmt::format("{}: {:.0f}% of the file rank {} read was in its host's page cache before reading",
                           fs_probe_label(p.probe, p.block), p.cached_fraction_max * 100.0, worst->rank);
  f.expected =
      fmt::format("at most {:.0f}% cached (reads measure the filesystem, not memory)", t.cache_warn_fraction * 100.0);
  f.meaning = "the read number may come from this host's page cache";
  f.effect = fmt::format("{} MB/s overstates what the filesystem delivers", fs_probe_label(p.probe, p.block));
  f.next_step = "rerun with --direct (O_DIRECT), or across nodes so each rank reads what another node wrote";
  found.push_back(std::move(f));
}

// fs.checksum: a probe whose data did not verify (status wrong).
void add_checksum_finding(const Run& run, const FsProbeResult& p, std::vector<Finding>& found) {
  if (p.status != "wrong") return;
  std::uint64_t mismatches = 0;
  std::string host;
  for (const FsRankResult& r : p.ranks) {
    mismatches += r.checksum_mismatches;
    if (host.empty() && (r.status == "wrong" || r.checksum_mismatches > 0)) host = host_of(run.nodes, r.node);
  }
  Finding f = fs_finding(Tag::kConcern, "fs.checksum", host);
  f.observed = fmt::format("{}: {} shard(s) did not verify{}", fs_probe_label(p.probe, p.block), mismatches,
                           p.error.empty() ? "" : " (" + p.error + ")");
  f.expected = "every shard reads back what was written";
  f.meaning = "data read back differs from what was written: silent corruption on the path or the filesystem";
  f.effect = "checkpoints restored from this filesystem may be corrupt";
  f.next_step = fmt::format(
      "rerun podperf fs --path {} to see whether it repeats on the same host; check `dmesg` on that host for "
      "I/O or Lustre errors (`lfs check servers` on Lustre)",
      probe_dir_or_path(run.fs));
  found.push_back(std::move(f));
}

// fs.error: a probe some ranks could not run.
void add_error_finding(const Run& run, const FsProbeResult& p, std::vector<Finding>& found) {
  if (p.status != "error") return;
  std::string host;
  int failed = 0;
  for (const FsRankResult& r : p.ranks) {
    if (r.status != "error") continue;
    ++failed;
    if (host.empty()) host = host_of(run.nodes, r.node);
  }
  Finding f = fs_finding(Tag::kConcern, "fs.error", host);
  f.observed =
      fmt::format("{}: {} of {} rank(s) failed: {}", fs_probe_label(p.probe, p.block), failed, p.ranks.size(), p.error);
  f.expected = "every rank completes the probe";
  f.meaning = "the probe could not run on some ranks; their share is missing from the aggregate";
  f.effect = "the aggregate and per-node numbers of this probe are incomplete";
  f.next_step = fmt::format("read the error; check space and permissions with `df -h {}` and `ls -ld {}`",
                            probe_dir_or_path(run.fs), probe_dir_or_path(run.fs));
  found.push_back(std::move(f));
}

// The INFO findings about the stage as a whole: fs.expected (no expected throughput given),
// fs.short_probe (nodes a probe does not resolve), fs.single_node (too few nodes to judge).
void add_stage_findings(const FsRun& fs, const FsThresholds& t, std::size_t most_judged,
                        const std::vector<std::string>& short_probes, std::vector<Finding>& found) {
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
    f.observed = fmt::format("{}", fmt::join(short_probes, "; "));
    f.expected = fmt::format(
        "a node is judged when its extra time exceeds {} x the probe's time noise (the larger of the {} s "
        "resolution and the nodes' spread of times)",
        t.spread_factor, t.resolution_seconds);
    f.meaning =
        "cannot tell: these nodes ran below the others in these probes, but by less time than the probe resolves "
        "(timer, scheduling and node-to-node noise); no node is flagged for it (the aggregate numbers stand)";
    f.effect = "a node only slightly slow in these probes would go unnoticed";
    f.next_step =
        "give the probes more work, so the difference grows beyond the noise: --file-size and --rand-ops (data), "
        "--meta-files (metadata), --ckpt-shard-size (checkpoints)";
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
}

}  // namespace

const NodeInfo* fs_node_info(const std::vector<NodeInfo>& nodes, int node) {
  if (node >= 0 && static_cast<std::size_t>(node) < nodes.size() &&
      nodes[static_cast<std::size_t>(node)].index == node) {
    return &nodes[static_cast<std::size_t>(node)];
  }
  for (const NodeInfo& n : nodes) {
    if (n.index == node) return &n;
  }
  return nullptr;
}

std::vector<FsSlowNode> fs_slow_nodes(const Run& run) {
  std::map<int, FsSlowNode> slow;
  for (const FsProbeResult& p : run.fs.probes) {
    for (const FsNodeResult& n : p.nodes) {
      if (!n.flagged) continue;
      FsSlowNode& s = slow[n.node];
      if (s.probes.empty()) {
        s.node = n.node;
        s.label = n.label;
        s.worst_ratio = n.ratio;
      }
      if (std::find(s.probes.begin(), s.probes.end(), p.probe) == s.probes.end()) s.probes.push_back(p.probe);
      s.worst_ratio = std::min(s.worst_ratio, n.ratio);
      const std::string unit = fs_metric_unit(p);
      s.evidence += fmt::format(
          "{}{}: {:.1f} {}, {:.0f}% of the nodes' baseline {:.1f} {} (done at {:.2f} s; "
          "all nodes by {:.2f} s)",
          s.evidence.empty() ? "" : "; ", fs_probe_label(p.probe, p.block), fs_node_metric(p, n), unit, n.ratio * 100.0,
          p.baseline, unit, n.end_s, p.duration_s);
    }
  }
  std::string good;
  for (const NodeInfo& node : run.nodes) {
    if (!slow.contains(node.index)) {
      good = node.label;
      break;
    }
  }
  std::vector<FsSlowNode> out;
  for (auto& [node, s] : slow) {
    s.likely_causes = fs_causes_for(run, host_of(run.nodes, node));
    s.next_step = s.likely_causes.empty() ? fs_next_step(run.fs, s.label, good)
                                          : "act on the first likely cause, then rerun podperf fs";
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<Finding> fs_findings(const Run& run, const FsThresholds& t, std::size_t most_judged,
                                 const std::vector<std::string>& short_probes) {
  std::vector<Finding> found;
  for (const FsProbeResult& p : run.fs.probes) {
    add_saturation_finding(run.fs, p, t, found);
    add_cache_finding(run, p, t, found);
    add_checksum_finding(run, p, found);
    add_error_finding(run, p, found);
  }
  add_stage_findings(run.fs, t, most_judged, short_probes, found);
  return found;
}

}  // namespace podperf

#include "analysis/report/fs_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "analysis/base/units.hpp"
#include "analysis/config/fs_probes.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "analysis/report/format_append.hpp"

namespace podperf {
namespace {

// 1.5 GiB, 320 MiB, 12 KiB: free space and needs, for people.
std::string human_bytes(std::uint64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (b >= 1024.0 * 1024 * 1024 * 1024) return fmt::format("{:.1f} TiB", b / (1024.0 * 1024 * 1024 * 1024));
  if (b >= 1024.0 * 1024 * 1024) return fmt::format("{:.1f} GiB", b / (1024.0 * 1024 * 1024));
  if (b >= 1024.0 * 1024) return fmt::format("{:.1f} MiB", b / (1024.0 * 1024));
  if (b >= 1024.0) return fmt::format("{:.1f} KiB", b / 1024.0);
  return fmt::format("{} B", bytes);
}

// What each rank moves: "1G", or "4x256M" for shards, "1000x4K" for metadata files.
std::string per_rank(const FsProbeResult& p) {
  if (p.files_per_rank > 1 || fs_probe_is_meta(p.probe)) {
    return fmt::format("{}x{}", p.files_per_rank, format_size(p.file_size_bytes));
  }
  return format_size(p.file_size_bytes);
}

std::string rate(const FsProbeResult& p) {
  return fs_probe_is_meta(p.probe) ? fmt::format("{:.0f} ops/s", p.ops_per_s) : fmt::format("{:.1f} MB/s", p.mb_per_s);
}

std::string slowest(const FsProbeResult& p) {
  if (p.slowest_node.empty()) return "-";
  for (const FsNodeResult& n : p.nodes) {
    if (n.label == p.slowest_node) return fmt::format("{} ({:.0f}%)", n.label, n.ratio * 100.0);
  }
  return p.slowest_node;
}

// Where, what and against what the probes ran: path, type, probe directory, free space, expectations.
void append_fs_setup(std::string& out, const FsRun& fs) {
  append(out, "\nFilesystem {} ({}, {})\n", fs.path.empty() ? "?" : fs.path,
         fs.fs_type.empty() ? "type unknown" : fs.fs_type,
         fs.shared ? "shared by every node" : "node-local: each node measured its own");
  if (!fs.probe_dir.empty()) {
    append(out, "probe directory {} ({})\n", fs.probe_dir, fs.kept ? "kept: --keep" : "removed after the probes");
  }
  if (fs.free_bytes > 0 || fs.needed_bytes > 0) {
    append(out, "free at start {}; the probes write at most {} at once\n", human_bytes(fs.free_bytes),
           human_bytes(fs.needed_bytes));
  }
  if (fs.expected_read_mb_s > 0.0 || fs.expected_write_mb_s > 0.0) {
    append(out, "expected throughput: read {:.0f} MB/s, write {:.0f} MB/s ({})\n", fs.expected_read_mb_s,
           fs.expected_write_mb_s, fs.expected_source.empty() ? "given" : fs.expected_source);
  } else {
    append(out,
           "expected throughput: not given (--fsx-deployment TYPE --fsx-capacity-tib N, or --expected-mb-s): "
           "saturation not judged\n");
  }
  out += "aggregate = all bytes / (last done - first start), IOR style; first done = when the first rank finished\n\n";
}

// One row per probe.
void append_fs_probe_table(std::string& out, const FsRun& fs) {
  std::size_t width = 12, probe_width = 12;
  for (const FsProbeResult& p : fs.probes) {
    width = std::max(width, slowest(p).size());
    probe_width = std::max(probe_width, fs_probe_label(p.probe, p.block).size());
  }
  append(out, "{:<{}} {:>8} {:>6} {:>9} {:>16} {:>10} {:>10}  {:<{}} {:>7}  {}\n", "probe", probe_width, "io",
         "block", "per rank", "aggregate", "first done", "last done", "slowest node", width, "flagged", "status");
  for (const FsProbeResult& p : fs.probes) {
    const auto flagged =
        std::count_if(p.nodes.begin(), p.nodes.end(), [](const FsNodeResult& n) { return n.flagged; });
    append(out, "{:<{}} {:>8} {:>6} {:>9} {:>16} {:>8.2f} s {:>8.2f} s  {:<{}} {:>7}  {}\n",
           fs_probe_label(p.probe, p.block), probe_width,
           fs_probe_is_meta(p.probe) ? "-"
           : p.direct                ? "direct"
                                     : "buffered",
           p.block_size_bytes > 0 ? format_size(p.block_size_bytes) : "-", per_rank(p), rate(p), p.first_done_s,
           p.duration_s, slowest(p), width, flagged, p.status);
  }
}

// Per probe: read latency, the page-cache warning, the share of the expected throughput.
void append_fs_probe_notes(std::string& out, const Run& run) {
  const FsRun& fs = run.fs;
  for (const FsProbeResult& p : fs.probes) {
    if (fs_probe_has_latency(p.probe) && p.lat_p50_us > 0.0) {
      append(out,
             "{} latency per read call (all ranks): p50 {:.0f} us, p90 {:.0f} us, p99 {:.0f} us, p99.9 {:.0f} us{}\n",
             fs_probe_label(p.probe, p.block), p.lat_p50_us, p.lat_p90_us, p.lat_p99_us, p.lat_p999_us,
             p.ops_per_s > 0.0 ? fmt::format("; {:.0f} reads/s", p.ops_per_s) : "");
    }
  }
  for (const FsProbeResult& p : fs.probes) {
    for (const Finding& f : run.findings) {
      if (f.source != "fs" || f.observed.rfind(fs_probe_label(p.probe, p.block) + ":", 0) != 0) continue;
      if (f.check == "fs.cache") {
        append(out, "cache ({}): {}; the MB/s may come from that page cache: use --direct or run across nodes\n",
               f.host.empty() ? "?" : f.host, f.observed);
      }
    }
  }
  for (const FsProbeResult& p : fs.probes) {
    const double expected = fs_expected_mb_s(fs, p.probe);
    if (expected > 0.0 && p.status != "error") {
      const bool saturated = std::any_of(run.findings.begin(), run.findings.end(), [&p](const Finding& f) {
        return f.check == "fs.saturation" && f.observed.rfind(fs_probe_label(p.probe, p.block) + " ", 0) == 0;
      });
      append(out, "{}: {:.0f}% of the expected {:.0f} MB/s{}\n", fs_probe_label(p.probe, p.block),
             100.0 * p.mb_per_s / expected, expected,
             saturated ? " — SATURATED: the filesystem is the limit, more nodes will not go faster" : "");
    }
  }
}

// The slow nodes with their likely causes, or why none were judged.
void append_fs_slow_nodes(std::string& out, const Run& run) {
  const FsRun& fs = run.fs;
  if (fs.slow_nodes.empty()) {
    const bool judged = std::none_of(run.findings.begin(), run.findings.end(),
                                     [](const Finding& f) { return f.check == "fs.single_node"; });
    append(out, "\nSlow filesystem nodes: {}\n",
           judged ? "none" : "not judged (fewer than 3 nodes: no outlier judgment possible)");
    return;
  }
  append(out, "\nSlow filesystem nodes ({}):\n", fs.slow_nodes.size());
  for (const FsSlowNode& s : fs.slow_nodes) {
    append(out, "  {} (node {}), worst {:.0f}% of the others: {}\n", s.label, s.node, s.worst_ratio * 100.0,
           s.evidence);
    for (std::size_t i = 0; i < s.likely_causes.size(); ++i) {
      append(out, "    likely cause {}: {}\n", i + 1, s.likely_causes[i]);
    }
    if (!s.next_step.empty()) append(out, "    next: {}\n", s.next_step);
  }
}

// The probes that failed, and each rank's own message where it differs.
void append_fs_failures(std::string& out, const FsRun& fs) {
  bool any_error = false;
  for (const FsProbeResult& p : fs.probes) {
    if (status_ok(p.status)) continue;
    if (!any_error) out += "Probe failures:\n";
    any_error = true;
    append(out, "  {} {}: {}\n", p.probe, p.status, p.error.empty() ? "(no message)" : p.error);
    for (const FsRankResult& r : p.ranks) {
      if (!status_ok(r.status) && !r.error.empty() && r.error != p.error) {
        append(out, "    rank {}: {}\n", r.rank, r.error);
      }
    }
  }
}

}  // namespace

std::string render_fs_section(const Run& run) {
  if (run.fs.probes.empty()) return "";
  std::string out;
  append_fs_setup(out, run.fs);
  append_fs_probe_table(out, run.fs);
  append_fs_probe_notes(out, run);
  append_fs_slow_nodes(out, run);
  append_fs_failures(out, run.fs);
  return out;
}

}  // namespace podperf

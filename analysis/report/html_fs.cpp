// The filesystem section of the HTML report: the probes, per-node bars per probe with the slow node
// marked, and the slow nodes with their causes. Floor: the printers' wing (analysis/report/); pure, local.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/base/text.hpp"
#include "analysis/base/units.hpp"
#include "analysis/config/fs_probes.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "analysis/report/common.hpp"
#include "analysis/report/html_sections.hpp"

namespace podperf::html {
namespace {

using svg::escape;

// ---- Filesystem ----

std::string fs_rate(const FsProbeResult& p) {
  return fs_probe_is_meta(p.probe) ? fmt::format("{:.0f} ops/s", p.ops_per_s) : fmt::format("{:.1f} MB/s", p.mb_per_s);
}

}  // namespace

void render_fs(const Run& run, std::string& out) {
  const FsRun& fs = run.fs;
  if (fs.probes.empty()) return;
  out += "<section id=\"fs\">\n<h2>Filesystem</h2>\n<dl class=\"meta\">";
  append(out, "<dt>path</dt><dd>{}</dd><dt>type</dt><dd>{}</dd><dt>shared</dt><dd>{}</dd>", escape(fs.path),
         escape(fs.fs_type.empty() ? "unknown" : fs.fs_type),
         fs.shared ? "yes: one filesystem seen by every node" : "no: each node measured its own");
  append(out, "<dt>probe directory</dt><dd>{} ({})</dd>", escape(fs.probe_dir), fs.kept ? "kept" : "removed");
  append(out, "<dt>free at start</dt><dd>{}</dd><dt>written at most at once</dt><dd>{}</dd>",
         format_capacity(fs.free_bytes), format_capacity(fs.needed_bytes));
  if (fs.expected_read_mb_s > 0.0 || fs.expected_write_mb_s > 0.0) {
    append(out, "<dt>expected</dt><dd>read {:.0f} MB/s, write {:.0f} MB/s ({})</dd>", fs.expected_read_mb_s,
           fs.expected_write_mb_s, escape(fs.expected_source));
  } else {
    out += "<dt>expected</dt><dd>not given: saturation not judged</dd>";
  }
  out += "</dl>\n";
  out +=
      "<table><tr><th>probe</th><th>io</th><th>block</th><th>file per rank</th><th>aggregate</th><th>first done</th>"
      "<th>last done</th><th>node baseline</th><th>slowest node</th><th>flagged nodes</th><th>status</th></tr>\n";
  for (const FsProbeResult& p : fs.probes) {
    const auto flagged = std::count_if(p.nodes.begin(), p.nodes.end(), [](const FsNodeResult& n) { return n.flagged; });
    append(out, "<tr>{}{}{}{}{}{}{}{}{}{}{}</tr>\n", cell(fs_probe_label(p.probe, p.block)),
           cell(fs_probe_is_meta(p.probe) ? "-"
                : p.direct                ? "direct"
                                          : "buffered"),
           num_cell(p.block_size_bytes > 0 ? format_size(p.block_size_bytes) : "-"),
           num_cell(p.files_per_rank > 1 ? fmt::format("{}x{}", p.files_per_rank, format_size(p.file_size_bytes))
                                         : format_size(p.file_size_bytes)),
           num_cell(fs_rate(p)), num_cell(fmt::format("{:.2f} s", p.first_done_s)),
           num_cell(fmt::format("{:.2f} s", p.duration_s)),
           num_cell(fmt::format("{:.1f} {}", p.baseline, fs_metric_unit(p))),
           cell(p.slowest_node.empty() ? "-" : p.slowest_node), num_cell(fmt::format("{}", flagged)),
           cell(p.status + (p.error.empty() ? "" : ": " + p.error)));
  }
  out += "</table>\n";
  for (const FsProbeResult& p : fs.probes) {
    if (p.nodes.empty()) continue;
    svg::BarChart c;
    c.id = "fs-bars-" + p.probe + (p.block > 0 ? "-" + std::to_string(p.block) : "");
    c.caption = fmt::format("{}: per node {}", fs_probe_label(p.probe, p.block), fs_metric_unit(p));
    c.unit = fs_metric_unit(p);
    c.reference = p.baseline;
    c.reference_label = fmt::format("baseline of the nodes {:.1f} {}", p.baseline, fs_metric_unit(p));
    for (const FsNodeResult& n : p.nodes) {
      svg::Bar b;
      b.label = n.label;
      b.value = fs_node_metric(p, n);
      b.value_text = fmt::format("{:.1f} {}", b.value, fs_metric_unit(p));
      b.marked = n.flagged;
      b.tooltip =
          fmt::format("{} {}: {:.1f} MB/s, {:.0f} ops/s, {:.0f}% of baseline; {} ranks, {} bytes, {:.3f}-{:.3f} s{}",
                      n.label, p.probe, n.mb_per_s, n.ops_per_s, n.ratio * 100.0, n.ranks, n.bytes, n.start_s, n.end_s,
                      n.flagged ? "; FLAGGED slow" : "");
      c.bars.push_back(std::move(b));
    }
    out += svg::bar_chart(c);
  }
  if (fs.slow_nodes.empty()) {
    out += "<p>Slow filesystem nodes: none.</p>\n";
  } else {
    out +=
        "<h3>Slow filesystem nodes</h3>\n<table><tr><th>node</th><th>probes</th><th>worst ratio</th><th>evidence</th>"
        "<th>likely causes</th><th>next step</th></tr>\n";
    for (const FsSlowNode& s : fs.slow_nodes) {
      append(out, "<tr>{}{}{}{}<td>{}</td>{}</tr>\n", cell(fmt::format("{} (node {})", s.label, s.node)),
             cell(text::join(s.probes, ", ")), num_cell(fmt::format("{:.0f}%", s.worst_ratio * 100.0)),
             cell(s.evidence), list(s.likely_causes), cell(s.next_step));
    }
    out += "</table>\n";
  }
  out += "</section>\n";
}

}  // namespace podperf::html

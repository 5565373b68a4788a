#include "analysis/report/html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "analysis/fs_analysis.hpp"
#include "analysis/report/common.hpp"
#include "analysis/report/svg.hpp"
#include "analysis/text.hpp"
#include "analysis/topology_analysis.hpp"
#include "analysis/units.hpp"

namespace podperf {
namespace {

using svg::escape;

template <typename... Args>
void append(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

constexpr const char* kStyle = R"(body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1280px; }
h1 { font-size: 22px; margin-bottom: 4px; }
h2 { font-size: 18px; border-bottom: 1px solid #ccc; padding-bottom: 4px; margin-top: 32px; }
h3 { font-size: 15px; }
.sub { color: #555; margin-top: 0; }
.verdict { padding: 12px 16px; border-radius: 6px; border: 2px solid; }
.verdict h2 { border: none; margin: 0 0 6px 0; }
.verdict.pass { background: #e8f5e9; border-color: #2e7d32; }
.verdict.warn { background: #fff8e1; border-color: #f9a825; }
.verdict.fail { background: #ffebee; border-color: #c62828; }
table { border-collapse: collapse; margin: 8px 0 16px 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.concern td:first-child, .tag-CONCERN { color: #c62828; font-weight: bold; }
.tag-OK { color: #2e7d32; }
.tag-INFO { color: #555; }
.note { color: #555; font-size: 13px; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; font-size: 13px; }
dl.meta dt { font-weight: bold; }
dl.meta dd { margin: 0; }
code { font-size: 12px; }
svg.chart { display: block; margin: 8px 0; }
)";

std::string cell(const std::string& text) {
  return "<td>" + escape(text) + "</td>";
}
std::string num_cell(const std::string& text) {
  return "<td class=\"num\">" + escape(text) + "</td>";
}

// An HTML list of escaped items ("" when empty).
std::string list(const std::vector<std::string>& items, const char* tag = "ol") {
  if (items.empty()) return "";
  std::string out = fmt::format("<{}>", tag);
  for (const std::string& s : items) out += "<li>" + escape(s) + "</li>";
  return out + fmt::format("</{}>", tag);
}

void render_header(const Run& run, std::string& out) {
  append(out, "<h1>podperf {} &mdash; run {}</h1>\n", escape(run.command), escape(run.run_id));
  const bool any_virtual =
      std::any_of(run.nodes.begin(), run.nodes.end(), [](const NodeInfo& n) { return n.is_virtual; });
  append(out, "<p class=\"sub\">{} backend, {} ranks on {} nodes{}; started {}, finished {}; status {}</p>\n",
         escape(run.backend), run.ranks, run.nodes.size(),
         any_virtual ? " (VIRTUAL nodes: ranks of one host split for a local demo; not a fabric test)" : "",
         escape(run.started_at.empty() ? "?" : run.started_at), escape(run.finished_at.empty() ? "?" : run.finished_at),
         escape(run.status));
  if (run.simulated) {
    append(out,
           "<p class=\"banner\" id=\"simulated\" style=\"background:#fff3cd;border:2px solid #b8860b;padding:0.5em;"
           "font-weight:bold\">{}</p>\n",
           escape(simulated_note(run)));
  }
}

void render_verdict(const Run& run, std::string& out) {
  const ReportVerdict v = report_verdict(run);
  append(out, "<section id=\"verdict\" class=\"verdict {}\">\n<h2>Verdict: {}</h2>\n<p>{}</p>\n", v.css_class,
         escape(v.status), escape(v.source));
  out += list(v.reasons, "ul");
  out += "</section>\n";
  if (run.verdict.status.empty()) return;
  if (!run.verdict.nodes.empty()) {
    out += "<h3>Nodes</h3>\n<table><tr><th>node</th><th>hostname</th><th>status</th><th>reasons</th></tr>\n";
    for (const NodeVerdict& n : run.verdict.nodes) {
      append(out, "<tr>{}{}<td class=\"tag-{}\">{}</td><td>{}</td></tr>\n", cell(n.node), cell(n.hostname),
             n.status == "PASS" ? "OK" : "CONCERN", escape(n.status), list(n.reasons, "ul"));
    }
    out += "</table>\n";
  }
  if (!run.verdict.checks.empty()) {
    out += "<h3>Checks</h3>\n<table><tr><th>status</th><th>check</th><th>node</th><th>detail</th></tr>\n";
    for (const VerdictCheck& c : run.verdict.checks) {
      append(out, "<tr><td class=\"tag-{}\">{}</td>{}{}{}</tr>\n", c.status == "PASS" ? "OK" : "CONCERN",
             escape(c.status), cell(c.check), cell(c.node.empty() ? "(run)" : c.node), cell(c.detail));
    }
    out += "</table>\n";
  }
}

// ---- Pairs: the matrix at the judged size, stragglers and links ----

// Beyond these, the matrix (n^2 cells) and one line per pair would make the file too large to open:
// the heatmap is left out, and the busbw chart draws only flagged pairs and the baseline.
constexpr std::size_t kMaxHeatmapNodes = 256;
constexpr std::size_t kMaxChartPairs = 2000;

// How many distinct node pairs measured `op` (packed and sorted: 8 bytes a pair, no tree).
std::size_t distinct_pairs(const Run& run, const std::string& op) {
  std::vector<std::uint64_t> keys;
  for (const PairResult& p : run.pairs) {
    if (p.op == op) {
      keys.push_back(static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.nodes[0])) << 32 |
                     static_cast<std::uint32_t>(p.nodes[1]));
    }
  }
  std::sort(keys.begin(), keys.end());
  return static_cast<std::size_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
}

void render_pair_matrix(const Run& run, std::string& out) {
  if (run.pairs.empty() || run.judged_size_bytes == 0) return;
  if (run.nodes.size() > kMaxHeatmapNodes) {
    append(out,
           "<section id=\"pairs\">\n<h2>Pair matrix</h2>\n<p>{} nodes: the matrix is left out of the report (more "
           "than {}); every pair is in report.csv and run.json.</p>\n</section>\n",
           run.nodes.size(), kMaxHeatmapNodes);
    return;
  }
  const std::vector<int> order = matrix_node_order(run);
  std::map<std::pair<int, int>, const PairResult*> by_nodes;
  for (const PairResult& p : run.pairs) {
    if (p.size_bytes != run.judged_size_bytes) continue;
    by_nodes[{p.nodes[0], p.nodes[1]}] = &p;
    by_nodes[{p.nodes[1], p.nodes[0]}] = &p;
  }
  std::set<int> stragglers;
  for (const Straggler& s : run.stragglers) stragglers.insert(s.node);

  svg::Heatmap h;
  h.id = "pair-heatmap";
  h.caption = fmt::format("pair busbw at {}", format_size(run.judged_size_bytes));
  h.group_starts = matrix_group_starts(run, order);
  for (int node : order) {
    h.labels.push_back(fmt::format("{} {}", node, node_label(run, node)));
    h.highlighted.push_back(stragglers.count(node) > 0);
  }
  for (int r : order) {
    std::vector<svg::HeatmapCell> row;
    for (int c : order) {
      svg::HeatmapCell cl;
      if (r == c) {
        cl.kind = svg::HeatmapCell::Kind::kDiagonal;
        row.push_back(cl);
        continue;
      }
      auto it = by_nodes.find({r, c});
      if (it == by_nodes.end()) {
        cl.tooltip = fmt::format("{} <-> {}: not measured", node_label(run, r), node_label(run, c));
        row.push_back(cl);
        continue;
      }
      const PairResult& p = *it->second;
      cl.flagged = p.flagged;
      if (p.status != "ok") {
        cl.kind = svg::HeatmapCell::Kind::kFailed;
        cl.text = "x";
        cl.tooltip = fmt::format("{} <-> {} at {}: {}{}", node_label(run, r), node_label(run, c),
                                 format_size(p.size_bytes), p.status, p.error.empty() ? "" : ": " + p.error);
      } else {
        cl.kind = p.baseline_gbps > 0.0 ? svg::HeatmapCell::Kind::kValue : svg::HeatmapCell::Kind::kUnjudged;
        cl.ratio = p.ratio;
        cl.text = fmt::format("{:.1f}", p.busbw_gbps);
        cl.tooltip = fmt::format(
            "{} <-> {} at {}: busbw {:.3f} GB/s, {:.0f}% of baseline {:.3f} GB/s; median {}, p99 {}, cv {:.3f}; "
            "noise {:.3f} GB/s{}{}{}",
            node_label(run, r), node_label(run, c), format_size(p.size_bytes), p.busbw_gbps, p.ratio * 100.0,
            p.baseline_gbps, format_seconds(p.median_s), format_seconds(p.p99_s), p.cv, p.noise_gbps,
            p.retest_samples_s.empty() ? "" : fmt::format("; retest {:.3f} GB/s", p.retest_busbw_gbps),
            p.flagged ? "; FLAGGED" : "", p.cleared_by_retest ? "; cleared by retest" : "");
        if (!h.group_starts.empty()) cl.tooltip += "; " + topology_class_name(run, topology_split_level(run, r, c));
      }
      row.push_back(cl);
    }
    h.cells.push_back(std::move(row));
  }
  append(out, "<section id=\"pairs\">\n<h2>Pair matrix: busbw (GB/s) at {}</h2>\n", format_size(run.judged_size_bytes));
  out += h.group_starts.empty() && run.topology_levels.empty()
             ? "<p class=\"note\">Colour: busbw against the run's robust baseline (green at 100%, red at 50% or less); "
               "heavy border: flagged; black: failed. Stragglers (red labels) and the nodes of slow links come first, "
               "then the node map's order. Hover a cell for its numbers.</p>\n"
             : "<p class=\"note\">Colour: busbw against the run's robust baseline (green at 100%, red at 50% or less); "
               "heavy border: flagged; black: failed; red labels: stragglers. Nodes in topology order (lines between "
               "leaves; nodes the topology does not name last). Hover a cell for its numbers.</p>\n";
  out += svg::heatmap(h);
  for (const SizeBaseline& b : run.baselines) {
    if (b.size_bytes != run.judged_size_bytes) continue;
    append(out,
           "<p>Baseline at {}: {:.3f} GB/s (robust mean of {} of {} pairs, spread {:.3f} GB/s); threshold {:.0f}% "
           "below.</p>\n",
           format_size(b.size_bytes), b.baseline_gbps, b.pairs_kept, b.pairs_total, b.spread_gbps,
           run.options.threshold * 100.0);
  }
  out += "</section>\n";
}

void render_stragglers(const Run& run, std::string& out) {
  if (run.pairs.empty()) return;
  out += "<section id=\"stragglers\">\n<h2>Straggler nodes and slow links</h2>\n";
  if (run.stragglers.empty()) {
    out += "<p>Straggler nodes: none.</p>\n";
  } else {
    out +=
        "<table><tr><th>node</th><th>flagged pairs</th><th>median ratio</th><th>evidence</th><th>likely causes</th>"
        "<th>next step</th></tr>\n";
    for (const Straggler& s : run.stragglers) {
      append(out, "<tr>{}{}{}{}<td>{}</td>{}</tr>\n", cell(fmt::format("{} (node {})", s.hostname, s.node)),
             num_cell(fmt::format("{} of {}", s.flagged_pairs, s.total_pairs)),
             num_cell(fmt::format("{:.0f}%", s.median_ratio * 100.0)), cell(s.evidence), list(s.likely_causes),
             cell(s.next_step));
    }
    out += "</table>\n";
  }
  if (run.links.empty()) {
    out += "<p>Slow links between healthy nodes: none.</p>\n";
  } else {
    out += "<table><tr><th>link</th><th>ratio</th><th>evidence</th><th>likely causes</th></tr>\n";
    for (const LinkFinding& l : run.links) {
      append(out, "<tr>{}{}{}<td>{}</td></tr>\n", cell(l.hostnames[0] + " <-> " + l.hostnames[1]),
             num_cell(fmt::format("{:.0f}%", l.ratio * 100.0)), cell(l.evidence), list(l.likely_causes));
    }
    out += "</table>\n";
  }
  out += "</section>\n";
}

// ---- Topology: pairs that cross a level against pairs inside one ----

void render_topology(const Run& run, std::string& out) {
  const TopologyComparison cmp = compare_topology(run, 1);
  if (cmp.classes.empty()) return;
  append(out, "<section id=\"topology\">\n<h2>Topology: pairs by the outermost level they cross, at {}</h2>\n",
         format_size(cmp.size_bytes));
  append(out, "<p class=\"note\">Levels (outermost first): {}; from {}. Ratio against the {} median{}.</p>\n",
         escape(text::join(run.topology_levels, ", ")),
         escape(run.topology_source.empty() ? "the run" : run.topology_source),
         escape(cmp.reference.empty() ? "(no reference)" : cmp.reference),
         cmp.straggler_pairs_left_out == 0
             ? ""
             : fmt::format("; {} pairs of straggler nodes left out", cmp.straggler_pairs_left_out));
  out += "<table><tr><th>pairs</th><th>count</th><th>median busbw (GB/s)</th><th>ratio</th></tr>\n";
  for (const TopologyClass& c : cmp.classes) {
    append(out, "<tr>{}{}{}{}</tr>\n", cell(c.name), num_cell(fmt::format("{}", c.pairs)),
           num_cell(fmt::format("{:.3f}", c.median_busbw_gbps)),
           num_cell(c.ratio > 0.0 ? fmt::format("{:.0f}%", c.ratio * 100.0) : "-"));
  }
  out += "</table>\n</section>\n";
}

// ---- busbw against message size ----

// The run's robust baseline per size (pairs), and the SKU's where the hook gives one.
void add_baseline_series(const Run& run, const std::string& op, const std::vector<std::uint64_t>& sizes,
                         std::vector<svg::Series>& series) {
  svg::Series own;
  own.name = "robust baseline (this run's pairs)";
  own.colour = "#000000";
  own.dashed = true;
  for (const SizeBaseline& b : run.baselines) {
    own.points.push_back({static_cast<double>(b.size_bytes), b.baseline_gbps,
                          fmt::format("baseline at {}: {:.3f} GB/s (robust mean of {} of {} pairs)",
                                      format_size(b.size_bytes), b.baseline_gbps, b.pairs_kept, b.pairs_total)});
  }
  if (!own.points.empty()) series.push_back(std::move(own));
  if (sizes.empty()) return;
  const auto [lo, hi] = std::minmax_element(sizes.begin(), sizes.end());
  svg::Series sku;
  sku.name = "published " + run.verdict.sku + " 2-node busbw";
  sku.colour = "#6a1b9a";
  sku.dashed = true;
  for (const SkuBusbwPoint& p : sku_baseline_in_range(run, op, *lo, *hi)) {
    sku.points.push_back({static_cast<double>(p.size_bytes), p.busbw_gbps,
                          fmt::format("published {} 2-node {} busbw at {}: {:.1f} GB/s", run.verdict.sku, op,
                                      format_size(p.size_bytes), p.busbw_gbps)});
  }
  if (!sku.points.empty()) series.push_back(std::move(sku));
}

// Why no published SKU line is on the charts (empty when one is).
std::string sku_line_note(const Run& run, bool drawn) {
  if (drawn || run.pairs.empty()) return "";
  if (run.verdict.sku.empty()) {
    return "No published SKU baseline drawn: the run was not judged against an instance type "
           "(<code>podperf accept</code> records its SKU's published figures).";
  }
  if (run.verdict.sku_busbw.empty() && run.backend != "nccl") {
    return fmt::format(
        "No published SKU baseline drawn: {}'s figures are NCCL between GPUs, and this run used the {} "
        "backend.",
        escape(run.verdict.sku), escape(run.backend));
  }
  if (run.verdict.sku_busbw.empty()) {
    return fmt::format("No published SKU baseline drawn: {} publishes no 2-node busbw figure.",
                       escape(run.verdict.sku));
  }
  std::vector<std::string> sizes;
  for (const SkuBusbwPoint& p : run.verdict.sku_busbw) sizes.push_back(format_size(p.size_bytes));
  return fmt::format(
      "No published SKU baseline drawn: {} publishes figures at {}, outside the sizes this run measured.",
      escape(run.verdict.sku), fmt::join(sizes, ", "));
}

void render_busbw_charts(const Run& run, std::string& out) {
  std::vector<std::string> ops;  // in first-seen order
  const auto note_op = [&ops](const std::string& op) {
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
  };
  for (const PairResult& p : run.pairs) note_op(p.op);
  for (const CollectiveResult& r : run.collectives) note_op(r.op);
  if (ops.empty()) return;
  out += "<section id=\"busbw\">\n<h2>Bus bandwidth against message size</h2>\n";
  bool any_sku = false;
  for (const std::string& op : ops) {
    svg::LineChart chart;
    chart.id = "busbw-chart-" + op;
    chart.caption = op + " busbw";
    chart.y_label = "busbw (GB/s)";
    std::vector<std::uint64_t> sizes;
    // Pairs: one thin line per pair, red when flagged at any size.
    // Which pairs are drawn is decided first (all up to kMaxChartPairs, else those flagged at some
    // size), so that millions of pairs (4096 nodes) are not all indexed: that took seconds and GiB.
    std::set<std::pair<int, int>> seen, flagged_pairs;
    for (const PairResult& p : run.pairs) {
      if (p.op != op) continue;
      if (seen.size() <= kMaxChartPairs) seen.insert({p.nodes[0], p.nodes[1]});
      if (p.flagged) flagged_pairs.insert({p.nodes[0], p.nodes[1]});
    }
    const bool all_pairs = seen.size() <= kMaxChartPairs;
    std::map<std::pair<int, int>, std::vector<const PairResult*>> by_pair;
    for (const PairResult& p : run.pairs) {
      if (p.op == op && (all_pairs || flagged_pairs.contains({p.nodes[0], p.nodes[1]}))) {
        by_pair[{p.nodes[0], p.nodes[1]}].push_back(&p);
      }
    }
    bool legend_ok = false, legend_flagged = false;
    if (!all_pairs) {
      append(out, "<p class=\"note\">{} pairs: only the flagged ones are drawn.</p>\n", distinct_pairs(run, op));
    }
    for (const auto& [nodes, results] : by_pair) {
      const bool flagged = std::any_of(results.begin(), results.end(), [](const PairResult* p) { return p->flagged; });
      if (!flagged && !all_pairs) continue;
      svg::Series s;
      s.name = flagged ? "flagged pair" : "pair";
      s.colour = flagged ? "#d62728" : "#4c78a8";
      s.stroke_width = flagged ? 2.0 : 1.0;
      s.opacity = flagged ? 1.0 : 0.45;
      s.in_legend = flagged ? !legend_flagged : !legend_ok;
      (flagged ? legend_flagged : legend_ok) = true;
      for (const PairResult* p : results) {
        if (p->status != "ok") continue;
        sizes.push_back(p->size_bytes);
        s.points.push_back(
            {static_cast<double>(p->size_bytes), p->busbw_gbps,
             fmt::format("{} <-> {} at {}: busbw {:.3f} GB/s ({:.0f}% of baseline), median {}{}",
                         node_label(run, nodes.first), node_label(run, nodes.second), format_size(p->size_bytes),
                         p->busbw_gbps, p->ratio * 100.0, format_seconds(p->median_s), p->flagged ? ", FLAGGED" : "")});
      }
      chart.series.push_back(std::move(s));
    }
    // Collectives: one line per group, type and placement.
    std::vector<std::string> keys;
    std::map<std::string, svg::Series> by_key;
    for (const CollectiveResult& r : run.collectives) {
      if (r.op != op || r.status != "ok") continue;
      const std::string key = fmt::format("{} {} {}", r.group, r.dtype, r.in_place ? "in-place" : "out-of-place");
      if (!by_key.count(key)) keys.push_back(key);
      svg::Series& s = by_key[key];
      s.name = key;
      sizes.push_back(r.size_bytes);
      s.points.push_back(
          {static_cast<double>(r.size_bytes), r.busbw_gbps,
           fmt::format("{} {} at {}: busbw {:.3f} GB/s, algbw {:.3f} GB/s, median {}, cv {:.3f}", op, key,
                       format_size(r.size_bytes), r.busbw_gbps, r.algbw_gbps, format_seconds(r.median_s), r.cv)});
    }
    for (std::size_t i = 0; i < keys.size(); ++i) {
      svg::Series s = std::move(by_key[keys[i]]);
      s.colour = svg::palette()[i % svg::palette().size()];
      s.dashed = keys[i].find("in-place") == 0 || keys[i].find(" in-place") != std::string::npos;
      s.in_legend = keys.size() <= 16;
      chart.series.push_back(std::move(s));
    }
    if (!run.pairs.empty()) add_baseline_series(run, op, sizes, chart.series);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    if (!sizes.empty()) any_sku = any_sku || !sku_baseline_in_range(run, op, sizes.front(), sizes.back()).empty();
    out += svg::line_chart(chart);
  }
  const std::string note = sku_line_note(run, any_sku);
  if (!note.empty() || !run.baselines.empty()) {
    append(out, "<p class=\"note\">{}{}{}</p>\n", note, note.empty() || run.baselines.empty() ? "" : " ",
           run.baselines.empty() ? "" : "The dashed black line is this run's own robust baseline of its pairs.");
  }
  out += "</section>\n";
}

// ---- Filesystem ----

std::string fs_rate(const FsProbeResult& p) {
  return fs_probe_is_meta(p.probe) ? fmt::format("{:.0f} ops/s", p.ops_per_s) : fmt::format("{:.1f} MB/s", p.mb_per_s);
}

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
    append(out, "<tr>{}{}{}{}{}{}{}{}{}{}{}</tr>\n", cell(p.probe),
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
    c.id = "fs-bars-" + p.probe;
    c.caption = fmt::format("{}: per node {}", p.probe, fs_metric_unit(p));
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

// ---- Findings and metadata ----

int tag_rank(Tag t) {
  return t == Tag::kConcern ? 0 : t == Tag::kInfo ? 1 : 2;
}

void render_findings_table(const Run& run, std::string& out) {
  out += "<section id=\"findings\">\n<h2>Findings</h2>\n";
  if (run.findings.empty()) {
    out += "<p>No findings recorded.</p>\n</section>\n";
    return;
  }
  std::vector<const Finding*> sorted;
  for (const Finding& f : run.findings) sorted.push_back(&f);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Finding* a, const Finding* b) { return tag_rank(a->tag) < tag_rank(b->tag); });
  out +=
      "<table><tr><th>tag</th><th>check</th><th>host</th><th>observed</th><th>expected</th><th>meaning and effect</th>"
      "<th>next step</th></tr>\n";
  for (const Finding* f : sorted) {
    std::string meaning = f->meaning;
    if (!f->effect.empty()) meaning += (meaning.empty() ? "" : " ") + f->effect;
    append(out, "<tr class=\"{}\"><td class=\"tag-{}\">{}</td>{}{}{}{}{}{}</tr>\n",
           f->tag == Tag::kConcern ? "concern" : "", tag_name(f->tag), tag_name(f->tag), cell(f->check),
           cell(f->host.empty() ? "(run)" : f->host), cell(f->observed), cell(f->expected), cell(meaning),
           cell(f->next_step));
  }
  out += "</table>\n</section>\n";
}

void render_metadata(const Run& run, std::string& out) {
  out += "<section id=\"metadata\">\n<h2>Run metadata</h2>\n<dl class=\"meta\">";
  const auto item = [&out](const std::string& key, const std::string& value) {
    append(out, "<dt>{}</dt><dd>{}</dd>", escape(key), escape(value));
  };
  item("run id", run.run_id);
  item("command", run.command);
  item("command line", text::join(run.argv, " "));
  item("podperf version", run.podperf_version);
  item("schema version", fmt::format("{}", run.schema_version));
  item("started", run.started_at);
  item("finished", run.finished_at);
  item("status", run.status + (run.error.empty() ? "" : ": " + run.error));
  item("launcher", run.launcher.kind + (run.launcher.job_id.empty() ? "" : " job " + run.launcher.job_id) +
                       (run.launcher.step_id.empty() ? "" : " step " + run.launcher.step_id));
  item("backend", run.backend);
  item("ranks", fmt::format("{}", run.ranks));
  if (!run.pairs.empty() || !run.collectives.empty()) {
    item("op, type", run.options.op + ", " + run.options.dtype);
    std::vector<std::string> sizes;
    for (std::uint64_t s : run.options.sizes_bytes) sizes.push_back(format_size(s));
    item("sizes", text::join(sizes, " "));
    item("iterations", fmt::format("{} timed, {} warm-up; check {}; per-iteration time: {}", run.options.iters,
                                   run.options.warmup, run.options.check ? "on" : "off", run.options.time_combine));
  }
  if (!run.pairs.empty()) {
    item("rounds", fmt::format("{} of {} ({})", run.rounds_completed, run.rounds_planned, run.options.concurrency));
    if (!schedule_note(run).empty()) item("schedule", schedule_note(run));
    item("threshold",
         fmt::format("{:.0f}% below baseline; retest {}", run.options.threshold * 100.0, run.options.retest));
  }
  if (!run.options.thresholds_source.empty()) item("thresholds", run.options.thresholds_source);
  if (!run.nccl_log.empty()) item("NCCL log", run.nccl_log);
  for (const std::string& u : run.unfinished) item("unfinished", u);
  out += "</dl>\n";
  out +=
      "<table><tr><th>node</th><th>label</th><th>hostname</th><th>instance type</th><th>instance id</th><th>ranks</th>"
      "</tr>\n";
  for (const NodeInfo& n : run.nodes) {
    std::vector<std::string> ranks;
    for (int r : n.ranks) ranks.push_back(fmt::format("{}", r));
    append(out, "<tr>{}{}{}{}{}{}</tr>\n", num_cell(fmt::format("{}", n.index)), cell(n.label), cell(n.hostname),
           cell(n.instance_type), cell(n.instance_id), cell(text::join(ranks, " ")));
  }
  out += "</table>\n</section>\n";
}

}  // namespace

std::string html_page_head(std::string_view title, std::string_view extra_style) {
  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Self-contained by policy too: the browser may load nothing (no network, scripts or fonts).
  out +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "img-src data:\">\n";
  append(out, "<title>{}</title>\n", escape(title));
  out += "<style>\n";
  out += kStyle;
  out += extra_style;
  out += "</style>\n</head>\n<body>\n";
  return out;
}

std::string render_html(const Run& run) {
  std::string out = html_page_head(fmt::format("podperf {} {}", run.command, run.run_id));
  render_header(run, out);
  render_verdict(run, out);
  render_pair_matrix(run, out);
  render_stragglers(run, out);
  render_topology(run, out);
  render_busbw_charts(run, out);
  render_fs(run, out);
  render_findings_table(run, out);
  render_metadata(run, out);
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace podperf

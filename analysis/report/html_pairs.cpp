// The pairs sections of the HTML report: the pair matrix as a heatmap, stragglers and slow links, and
// pairs by the topology level they cross. Floor: the printers' wing (analysis/report/); pure, local.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/base/text.hpp"
#include "analysis/base/units.hpp"
#include "analysis/report/common.hpp"
#include "analysis/report/html_sections.hpp"
#include "analysis/topology/topology_analysis.hpp"

namespace podperf::html {
namespace {

using svg::escape;

// ---- Pairs: the matrix at the judged size, stragglers and links ----

// Beyond this, the matrix (n^2 cells) would make the file too large to open: the heatmap is left out.
constexpr std::size_t kMaxHeatmapNodes = 256;

}  // namespace

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
    if (!at_judged_size(run, p)) continue;
    by_nodes[{p.nodes[0], p.nodes[1]}] = &p;
    by_nodes[{p.nodes[1], p.nodes[0]}] = &p;
  }
  std::set<int> stragglers;
  for (const Straggler& s : run.stragglers) stragglers.insert(s.node);

  svg::Heatmap h;
  h.id = "pair-heatmap";
  std::map<int, std::string> class_names;  // topology_class_name per split level, once each
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
      if (!status_ok(p.status)) {
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
        if (!h.group_starts.empty()) {
          const int level = topology_split_level(run, r, c);
          auto name = class_names.find(level);
          if (name == class_names.end()) name = class_names.emplace(level, topology_class_name(run, level)).first;
          cl.tooltip += "; " + name->second;
        }
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
    if (!at_judged_size(run, b)) continue;
    append(out,
           "<p>Baseline at {}: {:.3f} GB/s (robust mean of {} of {} pairs, spread {:.3f} GB/s); threshold {:.0f}% "
           "below.</p>\n",
           format_size(b.size_bytes), b.baseline_gbps, b.pairs_kept, b.pairs_total, b.spread_gbps,
           run.thresholds.pairs.threshold * 100.0);
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

}  // namespace podperf::html

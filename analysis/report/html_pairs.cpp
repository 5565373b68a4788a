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

// Beyond this, the matrix (n^2 cells) would make the file too large to open: the pairs are shown
// aggregated by group instead.
constexpr std::size_t kMaxHeatmapNodes = 256;
constexpr std::size_t kMaxGroups = 256;

std::string pair_tooltip(const Run& run, int r, int c, const PairResult& p, std::map<int, std::string>& class_names,
                         bool with_topology) {
  if (!status_ok(p.status)) {
    return fmt::format("{} <-> {} at {}: {}{}", node_label(run, r), node_label(run, c), format_size(p.size_bytes),
                       p.status, p.error.empty() ? "" : ": " + p.error);
  }
  std::string t = fmt::format(
      "{} <-> {} at {}: busbw {:.3f} GB/s, {:.0f}% of its class level {:.3f} GB/s; median {}, p99 {}, cv {:.3f}; "
      "noise {:.3f} GB/s{}{}{}{}",
      node_label(run, r), node_label(run, c), format_size(p.size_bytes), p.busbw_gbps, p.ratio * 100.0, p.baseline_gbps,
      format_seconds(p.median_s), format_seconds(p.p99_s), p.cv, p.noise_gbps,
      p.retest_samples_s.empty() ? "" : fmt::format("; retest {:.3f} GB/s", p.retest_busbw_gbps),
      p.later_retest_busbw_gbps.empty() ? "" : fmt::format(", then {:.3f}", fmt::join(p.later_retest_busbw_gbps, ", ")),
      p.flagged ? "; FLAGGED" : "", p.cleared_by_retest ? "; cleared by retest" : "");
  if (with_topology) {
    const int level = topology_split_level(run, r, c);
    auto name = class_names.find(level);
    if (name == class_names.end()) name = class_names.emplace(level, topology_class_name(run, level)).first;
    t += "; " + name->second;
  }
  return t;
}

// Above kMaxHeatmapNodes: the pairs aggregated by group (the innermost topology level with at most
// kMaxGroups groups; without a topology, runs of consecutive nodes): each cell the median ratio of the
// pairs between two groups, with their count and how many are flagged.
void render_aggregated_matrix(const Run& run, std::string& out) {
  const std::size_t n = run.nodes.size();
  std::vector<int> group(n, -1);
  std::vector<std::string> names;
  std::string by;
  const std::size_t levels = run.topology_levels.size();
  for (std::size_t l = levels; l-- > 0;) {
    std::map<std::string, int> ids;
    std::vector<int> g(n, -1);
    std::vector<std::string> level_names;
    for (std::size_t i = 0; i < n; ++i) {
      const std::vector<std::string>& path = run.nodes[i].topology;
      if (path.size() <= l) continue;
      std::string key;
      for (std::size_t k = 0; k <= l; ++k) key += path[k] + '/';
      const auto [it, added] = ids.emplace(key, static_cast<int>(level_names.size()));
      if (added) level_names.push_back(path[l]);
      g[i] = it->second;
    }
    if (level_names.size() <= kMaxGroups && level_names.size() > 1) {
      group = std::move(g);
      names = std::move(level_names);
      by = fmt::format("topology level {}", topology_level_label(run, l));
      break;
    }
  }
  if (names.empty()) {
    const std::size_t size = (n + 63) / 64;
    for (std::size_t i = 0; i < n; ++i) group[i] = static_cast<int>(i / size);
    for (std::size_t b = 0; b * size < n; ++b) {
      names.push_back(fmt::format("nodes {}-{}", b * size, std::min(n, (b + 1) * size) - 1));
    }
    by = fmt::format("runs of {} consecutive nodes (no topology was given)", size);
  }
  // Nodes the topology does not place: a group of their own.
  if (std::any_of(group.begin(), group.end(), [](int g) { return g < 0; })) {
    for (int& g : group) {
      if (g < 0) g = static_cast<int>(names.size());
    }
    names.push_back("not placed");
  }
  const std::size_t groups = names.size();
  std::vector<std::vector<std::vector<double>>> ratios(groups, std::vector<std::vector<double>>(groups));
  std::vector<std::vector<int>> flagged(groups, std::vector<int>(groups, 0)), failed = flagged;
  for (const PairResult& p : run.pairs) {
    if (!at_judged_size(run, p)) continue;
    if (p.nodes[0] < 0 || p.nodes[1] < 0 || static_cast<std::size_t>(p.nodes[0]) >= n ||
        static_cast<std::size_t>(p.nodes[1]) >= n) {
      continue;
    }
    auto a = static_cast<std::size_t>(group[static_cast<std::size_t>(p.nodes[0])]);
    auto b = static_cast<std::size_t>(group[static_cast<std::size_t>(p.nodes[1])]);
    if (a > b) std::swap(a, b);
    if (!status_ok(p.status)) {
      ++failed[a][b];
      continue;
    }
    ratios[a][b].push_back(p.ratio);
    flagged[a][b] += p.flagged ? 1 : 0;
  }
  std::vector<std::size_t> members(groups, 0);
  for (int g : group) ++members[static_cast<std::size_t>(g)];
  std::set<int> straggler_groups;
  for (const Straggler& st : run.stragglers) {
    if (st.node >= 0 && static_cast<std::size_t>(st.node) < n)
      straggler_groups.insert(group[static_cast<std::size_t>(st.node)]);
  }
  svg::Heatmap h;
  h.id = "pair-heatmap";
  h.caption = fmt::format("pairs at {} by group: the median ratio to the pairs' class level",
                          format_size(run.judged_size_bytes));
  for (std::size_t g = 0; g < groups; ++g) {
    h.labels.push_back(fmt::format("{} ({})", names[g], members[g]));
    h.highlighted.push_back(straggler_groups.contains(static_cast<int>(g)));
  }
  for (std::size_t r = 0; r < groups; ++r) {
    std::vector<svg::HeatmapCell> row;
    for (std::size_t c = 0; c < groups; ++c) {
      const std::size_t a = std::min(r, c), b = std::max(r, c);
      svg::HeatmapCell cl;
      std::vector<double>& v = ratios[a][b];
      if (v.empty() && failed[a][b] == 0) {
        cl.tooltip = fmt::format("{} <-> {}: no pair measured", names[r], names[c]);
        row.push_back(cl);
        continue;
      }
      std::sort(v.begin(), v.end());
      const double med = v.empty() ? 0.0 : v[v.size() / 2];
      cl.kind = failed[a][b] > 0 && v.empty() ? svg::HeatmapCell::Kind::kFailed : svg::HeatmapCell::Kind::kValue;
      cl.ratio = med;
      cl.flagged = flagged[a][b] > 0 || failed[a][b] > 0;
      cl.text = fmt::format("{:.0f}", med * 100.0);
      cl.tooltip =
          fmt::format("{} <-> {}: {} pairs, median {:.1f}% of their class level (lowest {:.1f}%); {} flagged{}",
                      names[r], names[c], v.size(), med * 100.0, v.empty() ? 0.0 : v.front() * 100.0, flagged[a][b],
                      failed[a][b] > 0 ? fmt::format(", {} failed", failed[a][b]) : "");
      row.push_back(cl);
    }
    h.cells.push_back(std::move(row));
  }
  append(out, "<section id=\"pairs\">\n<h2>Pair matrix at {}, by group</h2>\n", format_size(run.judged_size_bytes));
  append(
      out,
      "<p class=\"note\">{} nodes: each cell is the pairs between two groups ({}), coloured by their median ratio to "
      "the level of their class; heavy border: some flagged; red labels: groups holding a straggler. Every pair "
      "is in run.json and report.csv. Hover a cell for its numbers.</p>\n",
      n, escape(by));
  out += "<div class=\"scroll\">" + svg::heatmap(h) + "</div>\n</section>\n";
}

}  // namespace

void render_pair_matrix(const Run& run, std::string& out) {
  if (run.pairs.empty() || run.judged_size_bytes == 0) return;
  if (run.nodes.size() > kMaxHeatmapNodes) {
    render_aggregated_matrix(run, out);
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
  for (const Straggler& st : run.stragglers) stragglers.insert(st.node);

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
      cl.tooltip = pair_tooltip(run, r, c, p, class_names, !h.group_starts.empty());
      if (!status_ok(p.status)) {
        cl.kind = svg::HeatmapCell::Kind::kFailed;
        cl.text = "x";
      } else {
        cl.kind = p.baseline_gbps > 0.0 ? svg::HeatmapCell::Kind::kValue : svg::HeatmapCell::Kind::kUnjudged;
        cl.ratio = p.ratio;
        cl.text = fmt::format("{:.1f}", p.busbw_gbps);
      }
      row.push_back(cl);
    }
    h.cells.push_back(std::move(row));
  }
  append(out, "<section id=\"pairs\">\n<h2>Pair matrix: busbw (GB/s) at {}</h2>\n", format_size(run.judged_size_bytes));
  out += h.group_starts.empty() && run.topology_levels.empty()
             ? "<p class=\"note\">Colour: busbw against the level of the pair's class (two healthy nodes on its path); "
               "heavy border: flagged; black: failed. Stragglers (red labels) and the nodes of slow links come first, "
               "then the node map's order. Hover a cell for its numbers.</p>\n"
             : "<p class=\"note\">Colour: busbw against the level of the pair's class (two healthy nodes on its path); "
               "heavy border: flagged; black: failed; red labels: stragglers. Nodes in topology order (lines between "
               "leaves; nodes the topology does not name last). Hover a cell for its numbers.</p>\n";
  out += "<div class=\"scroll\">" + svg::heatmap(h) + "</div>\n";
  out += "</section>\n";
}

// How the judged size was judged, as applied: the plain mean, the level, the cuts and why, the classes,
// the reference.
void render_pair_judgement(const Run& run, std::string& out) {
  const PairJudgement& j = run.pair_judgement;
  if (j.size_bytes == 0) return;
  const double threshold = run.thresholds.pairs.threshold;
  append(out, "<section id=\"judgement\">\n<h2>How the pairs were judged at {}</h2>\n<table>\n",
         format_size(j.size_bytes));
  const auto row = [&](const std::string& what, const std::string& value) {
    append(out, "<tr><th>{}</th>{}</tr>\n", svg::escape(what), cell(value));
  };
  row("pairs", fmt::format("{} pairs of {} ({} measurements with the retests), {} nodes judged", j.pairs, j.op,
                           j.measurements, j.judged_nodes));
  row("plain mean", fmt::format("{:.3f} GB/s; {} of {} pairs more than {:.0f}% below it", j.mean_gbps,
                                j.pairs_below_mean, j.pairs, threshold * 100.0));
  row("baseline", fmt::format("{:.3f} GB/s: a pair of two nodes at the population's level (the median node){}",
                              j.level_gbps, j.classes.size() > 1 ? ", in the largest class" : ""));
  row("node cut", fmt::format("{:.1f}%: {}", j.node_cut * 100.0, j.node_cut_reason));
  row("pair cut", fmt::format("{:.1f}%: {}", j.pair_cut * 100.0, j.pair_cut_reason));
  row("link cut", fmt::format("{:.1f}% below what a pair's class and nodes predict", j.link_cut * 100.0));
  row("pair noise", fmt::format("{:.1f}% on {:.0f} degrees of freedom", j.pair_noise * 100.0, j.noise_df));
  row("reference", j.reference);
  out += "</table>\n";
  if (j.classes.size() > 1) {
    append(out,
           "<p>Classes of pairs{}:</p>\n<table><tr><th>class</th><th>pairs</th><th>level (GB/s)</th>"
           "<th>ratio</th></tr>\n",
           j.structure == "blocks" ? " (blocks found in the pair matrix; no topology was given)" : "");
    for (const PairClassLevel& c : j.classes) {
      append(out, "<tr>{}{}{}{}</tr>\n", cell(c.name), num_cell(fmt::format("{}", c.pairs)),
             num_cell(fmt::format("{:.3f}", c.level_gbps)), num_cell(fmt::format("{:.0f}%", c.ratio * 100.0)));
    }
    out += "</table>\n";
  }
  out += "</section>\n";
}

// Every node's capacity estimate with its interval, sorted: a chart that reads at 1024 nodes, and the
// full table (the nodes not healthy first).
void render_node_estimates(const Run& run, std::string& out) {
  if (run.node_estimates.empty()) return;
  std::vector<const NodeEstimate*> sorted;
  for (const NodeEstimate& e : run.node_estimates) {
    if (e.ratio > 0.0) sorted.push_back(&e);
  }
  if (sorted.empty()) return;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const NodeEstimate* a, const NodeEstimate* b) { return a->ratio < b->ratio; });
  svg::IntervalChart chart;
  chart.id = "node-estimates";
  chart.caption =
      fmt::format("Node capacity at {}, against the median node, sorted (interval: {:g}% family-wise)",
                  format_size(run.pair_judgement.size_bytes), (1.0 - run.thresholds.pairs.node_family_alpha) * 100.0);
  chart.x_label = fmt::format("{} nodes, slowest first (red: named)", sorted.size());
  for (const NodeEstimate* e : sorted) {
    svg::IntervalPoint p;
    p.value = e->ratio;
    p.low = e->low;
    p.high = e->high;
    p.marked = e->verdict == "straggler" || e->verdict == "intermittent" || e->verdict == "ambiguous";
    p.tooltip = fmt::format("{}: {:.1f}% ({:.1f}-{:.1f}%), {} pairs, {} measurements, {}", e->label, e->ratio * 100.0,
                            e->low * 100.0, e->high * 100.0, e->pairs, e->measurements, e->verdict);
    chart.points.push_back(std::move(p));
  }
  chart.lines.emplace_back(1.0, "the median node", "#2ca02c");
  chart.lines.emplace_back(1.0 - run.pair_judgement.node_cut,
                           fmt::format("node cut {:.1f}%", run.pair_judgement.node_cut * 100.0), "#c00");
  out += "<section id=\"node-estimates\">\n<h2>Node capacity estimates</h2>\n";
  out +=
      "<p class=\"note\">Each node's capacity from all its pairs and retests (a pair runs at its slower node's "
      "speed, times its class), against the median node, with its interval. A node is named when its estimate is "
      "beyond the node cut and its whole interval below 100%.</p>\n";
  out += svg::interval_chart(chart);
  std::size_t unusual = 0;
  for (const NodeEstimate* e : sorted) unusual += e->verdict != "healthy" ? 1 : 0;
  append(out, "<details{}><summary>Every node's estimate ({} nodes; {} not healthy)</summary>\n",
         unusual > 0 && sorted.size() <= 64 ? " open" : "", sorted.size(), unusual);
  out +=
      "<table><tr><th>node</th><th>kind</th><th>capacity</th><th>interval</th><th>pairs</th>"
      "<th>measurements (low)</th><th>verdict</th></tr>\n";
  for (const NodeEstimate* e : sorted) {
    append(out, "<tr{}>{}{}{}{}{}{}{}</tr>\n", e->verdict == "healthy" ? "" : " class=\"marked\"", cell(e->label),
           cell(e->kind), num_cell(fmt::format("{:.1f}%", e->ratio * 100.0)),
           num_cell(fmt::format("{:.1f}-{:.1f}%", e->low * 100.0, e->high * 100.0)),
           num_cell(fmt::format("{}", e->pairs)),
           num_cell(fmt::format("{} ({})", e->measurements, e->low_measurements)), cell(e->verdict));
  }
  out += "</table>\n</details>\n</section>\n";
}

void render_stragglers(const Run& run, std::string& out) {
  if (run.pairs.empty()) return;
  out += "<section id=\"stragglers\">\n<h2>Straggler nodes and slow links</h2>\n";
  if (run.stragglers.empty()) {
    out += "<p>Straggler nodes: none.</p>\n";
  } else {
    out +=
        "<table><tr><th>node (slowest first)</th><th>capacity</th><th>interval</th><th>flagged pairs</th>"
        "<th>evidence</th><th>likely causes</th><th>next step</th></tr>\n";
    for (const Straggler& s : run.stragglers) {
      append(out, "<tr>{}{}{}{}{}<td>{}</td>{}</tr>\n", cell(fmt::format("{} (node {})", s.hostname, s.node)),
             num_cell(fmt::format("{:.1f}%", s.median_ratio * 100.0)),
             num_cell(fmt::format("{:.1f}-{:.1f}%", s.ratio_low * 100.0, s.ratio_high * 100.0)),
             num_cell(fmt::format("{} of {}", s.flagged_pairs, s.total_pairs)), cell(s.evidence), list(s.likely_causes),
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

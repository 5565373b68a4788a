#include "analysis/report/run_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

#include "analysis/base/units.hpp"
#include "analysis/report/common.hpp"
#include "analysis/report/findings_text.hpp"
#include "analysis/report/format_append.hpp"
#include "analysis/report/fs_text.hpp"
#include "analysis/topology/topology_analysis.hpp"

namespace podperf {
namespace {

constexpr std::size_t kMaxMatrixNodes = 24;
constexpr std::size_t kMaxListed = 20;  // stragglers, links, failed pairs listed before "and N more"

std::string node_label_of(const Run& run, int node) {
  if (node < 0 || static_cast<std::size_t>(node) >= run.nodes.size()) return "?";
  return run.nodes[static_cast<std::size_t>(node)].label;
}

// The pair matrix at the judged size: every column as wide as its widest cell, the row headers as wide
// as the widest, so the columns line up whatever the labels and values.
void render_matrix(const Run& run, std::string& out) {
  std::map<std::pair<int, int>, const PairResult*> cell;
  for (const PairResult& p : run.pairs) {
    if (!at_judged_size(run, p)) continue;
    cell[{p.nodes[0], p.nodes[1]}] = &p;
    cell[{p.nodes[1], p.nodes[0]}] = &p;
  }
  const bool by_topology =
      std::any_of(run.nodes.begin(), run.nodes.end(), [](const NodeInfo& node) { return !node.topology.empty(); });
  append(out, "Pair busbw (GB/s) at {}, '!' flagged, 'x' failed{}:\n", format_size(run.judged_size_bytes),
         by_topology ? ", nodes in topology order" : "");
  const std::vector<int> order = topology_node_order(run);
  std::vector<std::vector<std::string>> text(order.size(), std::vector<std::string>(order.size()));
  std::size_t width = 1;
  for (std::size_t r = 0; r < order.size(); ++r) {
    for (std::size_t c = 0; c < order.size(); ++c) {
      std::string& t = text[r][c];
      if (r == c) {
        t = "- ";
      } else if (auto it = cell.find({order[r], order[c]}); it == cell.end()) {
        t = ". ";
      } else {
        const PairResult& p = *it->second;
        t = !status_ok(p.status) ? "x " : fmt::format("{:.3f}{}", p.busbw_gbps, p.flagged ? "!" : " ");
      }
      width = std::max(width, t.size());
    }
  }
  std::size_t header = 0;
  for (int node : order) header = std::max(header, fmt::format("{} {}", node, node_label_of(run, node)).size());
  append(out, "{:>{}}", "", header);
  for (int c : order) append(out, " {:>{}}", fmt::format("{} ", c), width);
  out += "\n";
  for (std::size_t r = 0; r < order.size(); ++r) {
    append(out, "{:>{}}", fmt::format("{} {}", order[r], node_label_of(run, order[r])), header);
    for (std::size_t c = 0; c < order.size(); ++c) append(out, " {:>{}}", text[r][c], width);
    out += "\n";
  }
}

// How the judged size was judged, as applied (run.pair_judgement): the plain mean and the pairs below
// it, the level, the cuts and why, the classes, the reference.
void render_judgement(const Run& run, std::string& out) {
  const PairJudgement& j = run.pair_judgement;
  if (j.size_bytes == 0) return;
  const double threshold = run.thresholds.pairs.threshold;
  append(out, "\nJudged at {} ({}): {} pairs, {} measurements (first and retests), {} nodes judged\n",
         format_size(j.size_bytes), j.op, j.pairs, j.measurements, j.judged_nodes);
  append(out, "  plain mean {:.3f} GB/s; {} of {} pairs more than {:.0f}% below it\n", j.mean_gbps, j.pairs_below_mean,
         j.pairs, threshold * 100.0);
  append(out, "  baseline {:.3f} GB/s: a pair of two nodes at the population's level (the median node){}\n",
         j.level_gbps, j.classes.size() > 1 ? ", in its largest class" : "");
  append(out, "  node cut {:.1f}%: {}\n", j.node_cut * 100.0, j.node_cut_reason);
  append(out, "  pair cut {:.1f}%: {}; link cut {:.1f}% against what a pair's nodes predict\n", j.pair_cut * 100.0,
         j.pair_cut_reason, j.link_cut * 100.0);
  append(out, "  reference: {}\n", j.reference);
  if (j.classes.size() > 1) {
    append(out, "Classes of pairs{}:\n",
           j.structure == "blocks" ? " (blocks found in the pair matrix; no topology was given)" : "");
    std::size_t width = 10;
    for (const PairClassLevel& c : j.classes) width = std::max(width, c.name.size());
    for (const PairClassLevel& c : j.classes) {
      append(out, "  {:<{}} {:>7} pairs  level {:9.3f} GB/s  {:4.0f}%\n", c.name, width, c.pairs, c.level_gbps,
             c.ratio * 100.0);
    }
  }
}

// One line on every node's verdict: how many of each.
void render_node_counts(const Run& run, std::string& out) {
  if (run.node_estimates.empty()) return;
  std::map<std::string, std::size_t> count;
  for (const NodeEstimate& e : run.node_estimates) ++count[e.verdict];
  std::vector<std::string> parts;
  for (const char* v : {"straggler", "intermittent", "ambiguous", "undecided", "healthy", "fast", "not judged"}) {
    if (count[v] > 0) parts.push_back(fmt::format("{} {}", count[v], v));
  }
  append(out, "Nodes: {} (every node's estimate and interval: report.html, report.md)\n", fmt::join(parts, ", "));
}

void render_failed_pairs(const Run& run, std::string& out) {
  std::vector<const PairResult*> failed;
  for (const PairResult& p : run.pairs) {
    if (!status_ok(p.status)) failed.push_back(&p);
  }
  if (failed.empty()) return;
  append(out, "Failed pairs ({}):\n", failed.size());
  for (std::size_t i = 0; i < failed.size() && i < kMaxListed; ++i) {
    const PairResult& p = *failed[i];
    append(out, "  {} <-> {} {} {}: {}{}\n", node_label_of(run, p.nodes[0]), node_label_of(run, p.nodes[1]),
           format_size(p.size_bytes), p.status, p.wrong > 0 ? fmt::format("{} wrong elements ", p.wrong) : "", p.error);
  }
  if (failed.size() > kMaxListed) append(out, "  ... and {} more in report.md\n", failed.size() - kMaxListed);
}

// The flagged pairs at the judged size, counted: the stragglers' (folded under them), the links', the rest.
void render_flag_counts(const Run& run, std::string& out) {
  std::vector<bool> named(run.nodes.size(), false);
  for (const NodeEstimate& e : run.node_estimates) {
    if (e.verdict != "healthy" && e.verdict != "fast" && e.verdict != "undecided" &&
        static_cast<std::size_t>(e.node) < named.size()) {
      named[static_cast<std::size_t>(e.node)] = true;
    }
  }
  std::size_t flagged = 0, nodes = 0, cleared = 0;
  for (const PairResult& p : run.pairs) {
    if (!at_judged_size(run, p) || !status_ok(p.status)) continue;
    cleared += p.cleared_by_retest ? 1 : 0;
    if (!p.flagged) continue;
    ++flagged;
    const bool explained = std::any_of(p.nodes.begin(), p.nodes.end(), [&](int n) {
      return n >= 0 && static_cast<std::size_t>(n) < named.size() && named[static_cast<std::size_t>(n)];
    });
    nodes += explained ? 1 : 0;
  }
  const std::size_t links = std::min(run.links.size(), flagged - nodes);
  append(out,
         "Flagged pairs at {}: {} (pair cut {:.1f}%): {} of named nodes (folded under them), {} link{}, {} "
         "unexplained{}\n",
         format_size(run.judged_size_bytes), flagged, run.pair_judgement.pair_cut * 100.0, nodes, links,
         links == 1 ? "" : "s", flagged - nodes - links,
         cleared > 0 ? fmt::format("; {} more cleared by their retests", cleared) : "");
}

void render_stragglers(const Run& run, std::string& out) {
  if (run.stragglers.empty()) {
    append(out, "Straggler nodes: none\n");
    return;
  }
  append(out, "Straggler nodes ({}), slowest first:\n", run.stragglers.size());
  std::size_t width = 4;
  for (const Straggler& s : run.stragglers) width = std::max(width, s.hostname.size());
  for (std::size_t i = 0; i < run.stragglers.size() && i < kMaxListed; ++i) {
    const Straggler& s = run.stragglers[i];
    append(out, "  {:<{}} {:5.1f}% ({:.1f}-{:.1f}%), {} of {} pairs flagged{}\n", s.hostname, width,
           s.median_ratio * 100.0, s.ratio_low * 100.0, s.ratio_high * 100.0, s.flagged_pairs, s.total_pairs,
           s.likely_causes.empty() ? "" : "; likely cause: " + s.likely_causes.front());
  }
  if (run.stragglers.size() > kMaxListed) {
    append(out, "  ... and {} more in report.md\n", run.stragglers.size() - kMaxListed);
  }
  const Straggler& worst = run.stragglers.front();
  if (!worst.next_step.empty()) append(out, "  next ({}): {}\n", worst.hostname, worst.next_step);
}

void render_links(const Run& run, std::string& out) {
  if (run.links.empty()) return;
  append(out, "Slow links between healthy nodes ({}):\n", run.links.size());
  for (std::size_t i = 0; i < run.links.size() && i < kMaxListed; ++i) {
    const LinkFinding& l = run.links[i];
    append(out, "  {}{}\n", l.evidence, l.likely_causes.empty() ? "" : "; likely cause: " + l.likely_causes.front());
  }
  if (run.links.size() > kMaxListed) append(out, "  ... and {} more in report.md\n", run.links.size() - kMaxListed);
}

// Pairs by the outermost topology level they cross (runs with a topology and no classes of the judge).
void render_topology_classes(const Run& run, std::string& out) {
  if (run.pair_judgement.classes.size() > 1) return;  // the judge's classes say it
  const TopologyComparison cmp = compare_topology(run, 1);
  if (cmp.classes.empty()) return;
  append(out, "\nTopology ({}; ratio against the {} median{}):\n", fmt::join(run.topology_levels, " > "),
         cmp.reference.empty() ? "(no reference)" : cmp.reference,
         cmp.straggler_pairs_left_out == 0
             ? ""
             : fmt::format("; {} pairs of stragglers left out", cmp.straggler_pairs_left_out));
  std::size_t width = 10;
  for (const TopologyClass& c : cmp.classes) width = std::max(width, c.name.size());
  for (const TopologyClass& c : cmp.classes) {
    append(out, "  {:<{}} {:>5} pairs  median {:9.3f} GB/s  {}\n", c.name, width, c.pairs, c.median_busbw_gbps,
           c.ratio > 0.0 ? fmt::format("{:.0f}%", c.ratio * 100.0) : "-");
  }
}

void render_pairs_outcome(const Run& run, std::string& out) {
  out += "\n";
  render_node_counts(run, out);
  render_stragglers(run, out);
  render_links(run, out);
  render_failed_pairs(run, out);
  if (run.judged_size_bytes > 0) render_flag_counts(run, out);
}

}  // namespace

std::string render_summary(const Run& run, const std::string& results_dir) {
  std::string out;

  bool any_virtual = std::any_of(run.nodes.begin(), run.nodes.end(), [](const NodeInfo& n) { return n.is_virtual; });
  append(out, "\npodperf {} — run {} — {} backend, {} ranks on {} nodes{}\n", run.command, run.run_id, run.backend,
         run.ranks, run.nodes.size(),
         any_virtual ? " (VIRTUAL nodes: ranks of one host split for a local demo; not a fabric test)" : "");
  if (run.simulated) append(out, "{}\n", simulated_note(run));
  // A run with filesystem probes and no pairs (podperf fs) has no pair rounds, matrix or stragglers.
  const bool pairs_section = !run.pairs.empty() || run.fs.probes.empty();
  if (pairs_section) {
    append(out, "launcher: {}{}; op {}; {} of {} rounds; status {}\n", run.launcher.kind,
           run.launcher.job_id.empty() ? "" : fmt::format(" job {}", run.launcher.job_id), run.options.op,
           run.rounds_completed, run.rounds_planned, run.status);
  } else {
    append(out, "launcher: {}{}; status {}\n", run.launcher.kind,
           run.launcher.job_id.empty() ? "" : fmt::format(" job {}", run.launcher.job_id), run.status);
  }
  if (!schedule_note(run).empty()) append(out, "{}\n", schedule_note(run));
  if (!run.error.empty()) append(out, "error: {}\n", run.error);
  for (const std::string& u : run.unfinished) append(out, "  unfinished: {}\n", u);
  if (pairs_section) out += "\n";  // the filesystem section opens with its own blank line

  if (run.judged_size_bytes > 0) {
    if (run.nodes.size() <= kMaxMatrixNodes) {
      render_matrix(run, out);
    } else {
      append(out, "({} nodes: the pair matrix is in report.html, aggregated by group above 256 nodes)\n",
             run.nodes.size());
    }
    render_judgement(run, out);
  }

  if (pairs_section) render_pairs_outcome(run, out);
  if (pairs_section) render_topology_classes(run, out);
  if (!run.fs.probes.empty()) out += render_fs_section(run);
  const std::string findings = render_findings(run, "  ");
  if (!run.findings.empty()) append(out, "Findings:\n{}", findings);
  if (!results_dir.empty()) {
    append(out, "\nResults: {}/run.json, events.jsonl\n", results_dir);
    append(out, "Reports: {0}/report.html, {0}/report.md (every node's estimate, every flagged pair)\n", results_dir);
  }
  return out;
}

}  // namespace podperf

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

constexpr std::size_t kMaxListedPairs = 20;

std::string node_label_of(const Run& run, int node) {
  if (node < 0 || static_cast<std::size_t>(node) >= run.nodes.size()) return "?";
  return run.nodes[static_cast<std::size_t>(node)].label;
}

void render_matrix(const Run& run, std::string& out) {
  std::map<std::pair<int, int>, const PairResult*> cell;
  for (const PairResult& p : run.pairs) {
    if (!at_judged_size(run, p)) continue;
    cell[{p.nodes[0], p.nodes[1]}] = &p;
    cell[{p.nodes[1], p.nodes[0]}] = &p;
  }
  std::size_t width = 8;
  for (const NodeInfo& node : run.nodes) width = std::max(width, node.label.size() + 1);
  const bool by_topology =
      std::any_of(run.nodes.begin(), run.nodes.end(), [](const NodeInfo& node) { return !node.topology.empty(); });
  fmt::format_to(std::back_inserter(out), "Pair busbw (GB/s) at {}, '!' flagged, 'x' failed{}:\n",
                 format_size(run.judged_size_bytes), by_topology ? ", nodes in topology order" : "");
  fmt::format_to(std::back_inserter(out), "{:>{}}", "", width);
  // Nodes in topology order when the run has one (nodes of one leaf together), else by index.
  const std::vector<int> order = topology_node_order(run);
  for (int c : order) fmt::format_to(std::back_inserter(out), " {:>9}", c);
  out += "\n";
  for (int ri : order) {
    const auto r = static_cast<std::size_t>(ri);
    fmt::format_to(std::back_inserter(out), "{:>{}}", fmt::format("{} {}", r, run.nodes[r].label), width);
    for (int ci : order) {
      const auto c = static_cast<std::size_t>(ci);
      auto it = cell.find({static_cast<int>(r), static_cast<int>(c)});
      std::string text = r == c ? "-" : ".";
      if (it != cell.end()) {
        const PairResult& p = *it->second;
        text = !status_ok(p.status) ? "x" : fmt::format("{:.3f}{}", p.busbw_gbps, p.flagged ? "!" : " ");
      }
      fmt::format_to(std::back_inserter(out), " {:>9}", text);
    }
    out += "\n";
  }
}

// Flagged pairs, retest, stragglers and slow links at the judged size.
void render_pairs_outcome(const Run& run, std::string& out);

// Pairs by the outermost topology level they cross (runs with a topology).
void render_topology_classes(const Run& run, std::string& out) {
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
      append(out, "({} nodes: pair matrix omitted from the terminal; see run.json)\n", run.nodes.size());
    }
    for (const SizeBaseline& b : run.baselines) {
      if (at_judged_size(run, b)) {
        append(out, "baseline at {}: {:.3f} GB/s (robust mean of {} of {} pairs)\n", format_size(b.size_bytes),
               b.baseline_gbps, b.pairs_kept, b.pairs_total);
      }
    }
  }

  if (pairs_section) render_pairs_outcome(run, out);
  if (pairs_section) render_topology_classes(run, out);
  if (!run.fs.probes.empty()) out += render_fs_section(run);
  const std::string findings = render_findings(run, "  ");
  if (!run.findings.empty()) append(out, "Findings:\n{}", findings);
  if (!results_dir.empty()) append(out, "\nResults: {}/run.json, events.jsonl\n", results_dir);
  return out;
}

namespace {

void render_pairs_outcome(const Run& run, std::string& out) {
  std::vector<const PairResult*> flagged;
  for (const PairResult& p : run.pairs) {
    if (p.flagged && (at_judged_size(run, p) || !status_ok(p.status))) flagged.push_back(&p);
  }
  std::sort(flagged.begin(), flagged.end(),
            [](const PairResult* a, const PairResult* b) { return a->ratio < b->ratio; });
  if (flagged.empty()) {
    append(out, "\nFlagged pairs: none (threshold {:.0f}% below baseline)\n", run.thresholds.pairs.threshold * 100.0);
  } else {
    append(out, "\nFlagged pairs ({}; threshold {:.0f}% below baseline):\n", flagged.size(),
           run.thresholds.pairs.threshold * 100.0);
    for (std::size_t i = 0; i < flagged.size() && i < kMaxListedPairs; ++i) {
      const PairResult& p = *flagged[i];
      if (!status_ok(p.status)) {
        append(out, "  {} <-> {} {} {}: {}{}\n", node_label_of(run, p.nodes[0]), node_label_of(run, p.nodes[1]),
               format_size(p.size_bytes), p.status, p.wrong > 0 ? fmt::format("{} wrong elements ", p.wrong) : "",
               p.error);
      } else {
        append(out, "  {} <-> {} {}: {:.3f} GB/s, {:.0f}% of baseline {:.3f} (noise ±{:.3f}){}\n",
               node_label_of(run, p.nodes[0]), node_label_of(run, p.nodes[1]), format_size(p.size_bytes), p.busbw_gbps,
               p.ratio * 100.0, p.baseline_gbps, p.noise_gbps,
               p.retest_samples_s.empty() ? "" : fmt::format("; retest {:.3f} GB/s confirms", p.retest_busbw_gbps));
        // What NCCL's log says about the two hosts (the Socket TCP fallback, no GDRDMA, ...).
        for (int node : p.nodes) {
          const std::string host = node >= 0 && static_cast<std::size_t>(node) < run.nodes.size()
                                       ? run.nodes[static_cast<std::size_t>(node)].hostname
                                       : "";
          for (const Finding* f : concerns_for(run, host)) {
            if (!f->host.empty()) append(out, "      NCCL on {}: {}\n", host, f->observed);
          }
        }
      }
    }
    if (flagged.size() > kMaxListedPairs)
      append(out, "  ... and {} more in run.json\n", flagged.size() - kMaxListedPairs);
  }

  const auto cleared =
      std::count_if(run.pairs.begin(), run.pairs.end(), [](const PairResult& p) { return p.cleared_by_retest; });
  if (cleared > 0) {
    append(out, "Cleared by retest: {} pair(s) below the baseline at first, within it when measured again\n", cleared);
  }
  if (run.stragglers.empty()) {
    append(out, "Straggler nodes: none\n");
  } else {
    append(out, "Straggler nodes ({}):\n", run.stragglers.size());
    for (const Straggler& s : run.stragglers) {
      append(out, "  {} (node {}): {}\n", s.hostname, s.node, s.evidence);
      for (std::size_t i = 0; i < s.likely_causes.size(); ++i) {
        append(out, "    likely cause {}: {}\n", i + 1, s.likely_causes[i]);
      }
      if (!s.next_step.empty()) append(out, "    next: {}\n", s.next_step);
    }
  }
  if (!run.links.empty()) {
    append(out, "Slow links between healthy nodes ({}):\n", run.links.size());
    for (const LinkFinding& l : run.links) {
      append(out, "  {}\n", l.evidence);
      for (const std::string& c : l.likely_causes) append(out, "    likely cause: {}\n", c);
    }
  }
  // Flagged pairs that name nothing at this cluster size (the family margin): say so, or the list
  // above reads as unexplained.
  for (const Finding& f : run.findings) {
    if (f.check != "pairs.chance_flags") continue;
    append(out, "Not named as slow links: {}\n  why: {}\n  next: {}\n", f.observed, f.expected, f.next_step);
  }
}

}  // namespace
}  // namespace podperf

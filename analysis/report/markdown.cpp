#include "analysis/report/markdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

#include "analysis/base/units.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "analysis/report/common.hpp"
#include "analysis/report/format_append.hpp"
#include "analysis/topology/topology_analysis.hpp"

namespace podperf {
namespace {

constexpr std::size_t kTopFindings = 10;

std::string md(const std::string& text) {
  return escape_markdown(text);
}

std::string causes(const std::vector<std::string>& likely_causes) {
  std::string out;
  for (std::size_t i = 0; i < likely_causes.size(); ++i) {
    out += fmt::format("{}{}. {}", i == 0 ? "" : "; ", i + 1, md(likely_causes[i]));
  }
  return out.empty() ? "-" : out;
}

void render_key_numbers(const Run& run, std::string& out) {
  std::vector<std::string> lines;
  const PairJudgement& j = run.pair_judgement;
  if (j.size_bytes > 0) {
    lines.push_back(fmt::format("judged at {} ({}): {} pairs, {} measurements, {} nodes", format_size(j.size_bytes),
                                j.op, j.pairs, j.measurements, j.judged_nodes));
    lines.push_back(fmt::format("plain mean {:.3f} GB/s; {} of {} pairs more than {:.0f}% below it", j.mean_gbps,
                                j.pairs_below_mean, j.pairs, run.thresholds.pairs.threshold * 100.0));
    lines.push_back(
        fmt::format("baseline **{:.3f} GB/s**: a pair of two nodes at the population's level (the median "
                    "node)",
                    j.level_gbps));
    lines.push_back(fmt::format("node cut {:.1f}%: {}", j.node_cut * 100.0, j.node_cut_reason));
    lines.push_back(fmt::format("pair cut {:.1f}%: {}; link cut {:.1f}%", j.pair_cut * 100.0, j.pair_cut_reason,
                                j.link_cut * 100.0));
    lines.push_back("reference: " + j.reference);
    for (const PairClassLevel& c : j.classes) {
      if (j.classes.size() < 2) break;
      lines.push_back(fmt::format("class {}: {} pairs, level {:.3f} GB/s ({:.0f}%)", c.name, c.pairs, c.level_gbps,
                                  c.ratio * 100.0));
    }
  }
  for (const SizeBaseline& b : run.baselines) {
    if (at_judged_size(run, b)) continue;
    lines.push_back(fmt::format("pair busbw baseline at {}: {:.3f} GB/s (robust mean of {} of {} pairs)",
                                format_size(b.size_bytes), b.baseline_gbps, b.pairs_kept, b.pairs_total));
  }
  if (!run.pairs.empty()) {
    const auto flagged = std::count_if(run.pairs.begin(), run.pairs.end(),
                                       [&run](const PairResult& p) { return p.flagged && at_judged_size(run, p); });
    const auto at_judged = std::count_if(run.pairs.begin(), run.pairs.end(),
                                         [&run](const PairResult& p) { return at_judged_size(run, p); });
    lines.push_back(
        fmt::format("flagged pairs at {}: {} of {}", format_size(run.judged_size_bytes), flagged, at_judged));
  }
  // Each collective series at its largest measured size (what baselines are compared with).
  std::vector<std::string> keys;
  std::map<std::string, const CollectiveResult*> largest;
  for (const CollectiveResult& r : run.collectives) {
    if (!status_ok(r.status)) continue;
    const std::string key =
        fmt::format("{} {} {} {}", r.op, r.dtype, r.group, r.in_place ? "in-place" : "out-of-place");
    auto it = largest.find(key);
    if (it == largest.end()) keys.push_back(key);
    if (it == largest.end() || it->second->size_bytes < r.size_bytes) largest[key] = &r;
  }
  for (const std::string& key : keys) {
    const CollectiveResult& r = *largest[key];
    lines.push_back(fmt::format("{} at {}: busbw **{:.3f} GB/s**, algbw {:.3f} GB/s, median {}", md(key),
                                format_size(r.size_bytes), r.busbw_gbps, r.algbw_gbps, format_seconds(r.median_s)));
  }
  for (const FsProbeResult& p : run.fs.probes) {
    const bool meta = fs_probe_is_meta(p.probe);
    lines.push_back(
        fmt::format("fs {}: aggregate **{}**, first done {:.2f} s, last done {:.2f} s, slowest node {}{}", md(p.probe),
                    meta ? fmt::format("{:.0f} ops/s", p.ops_per_s) : fmt::format("{:.1f} MB/s", p.mb_per_s),
                    p.first_done_s, p.duration_s, md(p.slowest_node.empty() ? "-" : p.slowest_node),
                    status_ok(p.status) ? "" : fmt::format(" ({})", md(p.status))));
  }
  if (lines.empty()) return;
  out += "\n### Key numbers\n\n";
  for (const std::string& l : lines) append(out, "- {}\n", l);
}

int markdown_tag_rank(Tag t) {
  return t == Tag::kConcern ? 0 : t == Tag::kInfo ? 1 : 2;
}

}  // namespace

std::string escape_markdown(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '\n':
      case '\r': out += ' '; break;
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '|':
        out += '\\';
        out += c;
        break;
      case '#':
        if (i == 0) out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

std::string render_markdown(const Run& run) {
  std::string out;
  const Headline v = headline_of(run);
  append(out, "## podperf {} {}: {}\n\n", md(run.command), md(run.run_id), md(v.status));
  append(out, "{} backend, {} ranks on {} nodes; {} to {}; status {}{}\n\n", md(run.backend), run.ranks,
         run.nodes.size(), md(run.started_at.empty() ? "?" : run.started_at),
         md(run.finished_at.empty() ? "?" : run.finished_at), md(run.status),
         run.error.empty() ? "" : ": " + md(run.error));
  if (run.simulated) append(out, "> **{}**\n\n", md(simulated_note(run)));
  if (!schedule_note(run).empty()) append(out, "{}\n\n", md(schedule_note(run)));
  append(out, "**Verdict: {}**, {}\n", md(v.status), md(v.source));
  if (!v.reasons.empty()) out += "\n";
  for (const std::string& r : v.reasons) append(out, "- {}\n", md(r));

  if (!run.pairs.empty()) {
    if (run.stragglers.empty()) {
      out += "\n### Stragglers\n\nnone\n";
    } else {
      out +=
          "\n### Stragglers (slowest first)\n\n| node | capacity | interval | flagged pairs | evidence | likely causes "
          "| "
          "next step |\n";
      out += "|---|---|---|---|---|---|---|\n";
      for (const Straggler& s : run.stragglers) {
        append(out, "| {} (node {}) | {:.1f}% | {:.1f}-{:.1f}% | {} of {} | {} | {} | {} |\n", md(s.hostname), s.node,
               s.median_ratio * 100.0, s.ratio_low * 100.0, s.ratio_high * 100.0, s.flagged_pairs, s.total_pairs,
               md(s.evidence), causes(s.likely_causes), md(s.next_step.empty() ? "-" : s.next_step));
      }
    }
    if (!run.links.empty()) {
      out +=
          "\n### Slow links between healthy nodes\n\n| link | ratio | evidence | likely causes |\n|---|---|---|---|\n";
      for (const LinkFinding& l : run.links) {
        append(out, "| {} <-> {} | {:.0f}% | {} | {} |\n", md(l.hostnames[0]), md(l.hostnames[1]), l.ratio * 100.0,
               md(l.evidence), causes(l.likely_causes));
      }
    }
  }
  // Every node's estimate that is not plain healthy (the full list: report.html).
  std::vector<const NodeEstimate*> unusual;
  for (const NodeEstimate& e : run.node_estimates) {
    if (e.verdict != "healthy" && e.verdict != "straggler") unusual.push_back(&e);
  }
  if (!unusual.empty()) {
    out += "\n### Other nodes not plainly healthy\n\n| node | capacity | interval | measurements (low) | verdict |\n";
    out += "|---|---|---|---|---|\n";
    for (const NodeEstimate* e : unusual) {
      append(out, "| {} | {:.1f}% | {:.1f}-{:.1f}% | {} ({}) | {} |\n", md(e->label), e->ratio * 100.0, e->low * 100.0,
             e->high * 100.0, e->measurements, e->low_measurements, md(e->verdict));
    }
  }
  const TopologyComparison topology = compare_topology(run, 1);
  if (!topology.classes.empty()) {
    append(out,
           "\n### Topology at {} (ratio against the {} median)\n\n| pairs | count | median busbw (GB/s) | ratio |\n",
           format_size(topology.size_bytes), md(topology.reference.empty() ? "(no reference)" : topology.reference));
    out += "|---|---|---|---|\n";
    for (const TopologyClass& c : topology.classes) {
      append(out, "| {} | {} | {:.3f} | {} |\n", md(c.name), c.pairs, c.median_busbw_gbps,
             c.ratio > 0.0 ? fmt::format("{:.0f}%", c.ratio * 100.0) : "-");
    }
  }
  if (!run.fs.slow_nodes.empty()) {
    out += "\n### Slow filesystem nodes\n\n| node | probes | worst ratio | evidence | likely causes | next step |\n";
    out += "|---|---|---|---|---|---|\n";
    for (const FsSlowNode& s : run.fs.slow_nodes) {
      std::string probes;
      for (const std::string& p : s.probes) probes += (probes.empty() ? "" : ", ") + md(p);
      append(out, "| {} (node {}) | {} | {:.0f}% | {} | {} | {} |\n", md(s.label), s.node, probes,
             s.worst_ratio * 100.0, md(s.evidence), causes(s.likely_causes),
             md(s.next_step.empty() ? "-" : s.next_step));
    }
  }

  render_key_numbers(run, out);

  std::vector<const Finding*> sorted;
  for (const Finding& f : run.findings) sorted.push_back(&f);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Finding* a, const Finding* b) {
    return markdown_tag_rank(a->tag) < markdown_tag_rank(b->tag);
  });
  const auto concerns =
      std::count_if(sorted.begin(), sorted.end(), [](const Finding* f) { return f->tag == Tag::kConcern; });
  if (!sorted.empty()) {
    append(out, "\n### Top findings ({} CONCERN of {})\n\n", concerns, sorted.size());
    std::size_t shown = 0;
    for (const Finding* f : sorted) {
      if (f->tag == Tag::kOk || shown == kTopFindings) break;
      append(out, "- **{}** {}{}: {}{}\n", tag_name(f->tag), md(f->check), f->host.empty() ? "" : " on " + md(f->host),
             md(f->observed), f->next_step.empty() ? "" : "; next: " + md(f->next_step));
      ++shown;
    }
    if (shown < sorted.size()) append(out, "- ... {} more in run.json and report.html\n", sorted.size() - shown);
  }
  append(out, "\nFull report: report.html; data: run.json (podperf {}, schema {})\n",
         md(run.podperf_version.empty() ? "?" : run.podperf_version), run.schema_version);
  return out;
}

}  // namespace podperf

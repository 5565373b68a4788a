// The findings and metadata sections of the HTML report. Floor: the printers' wing (analysis/report/);
// pure, local.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/base/text.hpp"
#include "analysis/base/units.hpp"
#include "analysis/report/common.hpp"
#include "analysis/report/html_sections.hpp"

namespace podperf::html {
namespace {

using svg::escape;

// ---- Findings and metadata ----

int tag_rank(Tag t) {
  return t == Tag::kConcern ? 0 : t == Tag::kInfo ? 1 : 2;
}

}  // namespace

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
  // Meaning and effect are columns of their own: run together they read as one sentence that is neither.
  out +=
      "<table><tr><th>tag</th><th>check</th><th>host</th><th>observed</th><th>expected</th><th>meaning</th>"
      "<th>effect</th><th>next step</th></tr>\n";
  for (const Finding* f : sorted) {
    append(out, "<tr class=\"{}\"><td class=\"tag-{}\">{}</td>{}{}{}{}{}{}{}</tr>\n",
           f->tag == Tag::kConcern ? "concern" : "", tag_name(f->tag), tag_name(f->tag), cell(f->check),
           cell(f->host.empty() ? "(run)" : f->host), cell(f->observed), cell(f->expected), cell(f->meaning),
           cell(f->effect), cell(f->next_step));
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
         fmt::format("{:.0f}% below baseline; retest {}", run.thresholds.pairs.threshold * 100.0, run.options.retest));
  }
  if (!run.thresholds.source.empty()) item("thresholds", run.thresholds.source);
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

}  // namespace podperf::html

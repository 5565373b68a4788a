#include "analysis/report/html.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/report/common.hpp"
#include "analysis/report/html_sections.hpp"
#include "analysis/report/svg.hpp"

namespace podperf {
namespace {

using html::append;
using html::cell;
using html::list;
using svg::escape;

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
div.scroll { overflow-x: auto; max-width: 100%; }
tr.marked td:first-child { color: #c62828; font-weight: bold; }
)";

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
  const Headline v = headline_of(run);
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
  html::render_stragglers(run, out);
  html::render_pair_judgement(run, out);
  html::render_node_estimates(run, out);
  html::render_pair_matrix(run, out);
  html::render_topology(run, out);
  html::render_busbw_charts(run, out);
  html::render_fs(run, out);
  html::render_findings_table(run, out);
  html::render_metadata(run, out);
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace podperf

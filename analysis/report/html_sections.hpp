#pragma once
// What the sections of the HTML report share (analysis/report/html*.cpp only): table cells and lists
// of escaped text, and one function per section, each appending its HTML to `out` (nothing when the
// run has no such data). Floor: the printers' wing (analysis/report/); pure, local; throws nothing.
// Layout only: every number is the Run's.
#include <fmt/format.h>

#include <iterator>
#include <string>
#include <vector>

#include "analysis/model/run.hpp"
#include "analysis/report/format_append.hpp"
#include "analysis/report/svg.hpp"

namespace podperf::html {

using podperf::append;  // analysis/report/format_append.hpp

// <td>text</td>, escaped.
inline std::string cell(const std::string& text) {
  return "<td>" + svg::escape(text) + "</td>";
}
// A right-aligned numeric cell, escaped.
inline std::string num_cell(const std::string& text) {
  return "<td class=\"num\">" + svg::escape(text) + "</td>";
}
// An HTML list of escaped items ("" when empty).
inline std::string list(const std::vector<std::string>& items, const char* tag = "ol") {
  if (items.empty()) return "";
  std::string out = fmt::format("<{}>", tag);
  for (const std::string& s : items) out += "<li>" + svg::escape(s) + "</li>";
  return out + fmt::format("</{}>", tag);
}

// html_pairs.cpp: the pair matrix at the judged size (a heatmap with its legend; beyond 256 nodes the
// pairs aggregated by topology group), how the pairs were judged (the cuts applied and why, the classes,
// the reference), every node's capacity estimate with its interval (a chart and the table), the
// stragglers and slow links, and the pairs by the topology level they cross.
void render_pair_matrix(const Run& run, std::string& out);
void render_pair_judgement(const Run& run, std::string& out);
void render_node_estimates(const Run& run, std::string& out);
void render_stragglers(const Run& run, std::string& out);
void render_topology(const Run& run, std::string& out);

// html_busbw.cpp: busbw against message size per op, with the run's baseline and the SKU's figures.
void render_busbw_charts(const Run& run, std::string& out);

// html_fs.cpp: the filesystem probes, per-node bars per probe, the slow nodes.
void render_fs(const Run& run, std::string& out);

// html_findings.cpp: the findings table (CONCERNs first) and the run's metadata and nodes.
void render_findings_table(const Run& run, std::string& out);
void render_metadata(const Run& run, std::string& out);

}  // namespace podperf::html

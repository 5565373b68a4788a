#pragma once
// The HTML report of a run: one self-contained file (no network, scripts or fonts; charts are inline
// SVG with <title> tooltips) with the verdict, the pair matrix as a heatmap (id "pair-heatmap"), busbw
// against message size per op (ids "busbw-chart-<op>") with the run's baseline, per-node filesystem
// bars per probe (ids "fs-bars-<probe>") with the slow node marked, stragglers, slow links and
// findings with their causes and next steps, and the run's metadata. A projection of the Run: it
// computes layout (positions, colours, order) only. Deterministic: the same Run gives the same bytes.
// Floor: the printers' wing (analysis/report/); pure, local. The page's frame (head, header, verdict)
// is html.cpp; each section is a file of its own (html_pairs, html_busbw, html_fs, html_findings).
#include <string>
#include <string_view>

#include "analysis/model/run.hpp"

namespace podperf {

std::string render_html(const Run& run);

// The start of a self-contained page, through <body>: doctype, a Content-Security-Policy that lets the
// browser load nothing (no network, scripts or fonts; inline styles only), the escaped <title>, and the
// report's stylesheet followed by `extra_style` (CSS rules). Shared with podperf compare --html.
std::string html_page_head(std::string_view title, std::string_view extra_style = "");

}  // namespace podperf

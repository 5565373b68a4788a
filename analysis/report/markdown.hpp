#pragma once
// The Markdown summary of a run, fit to paste into a ticket: the verdict, stragglers, slow links and
// slow filesystem nodes with their likely causes, the top findings and the key numbers (baseline at
// the judged size, each op's busbw at its largest size, each filesystem probe's aggregate). A
// projection of the Run: no numbers are computed. Text from the Run is escaped for Markdown.
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

std::string render_markdown(const Run& run);

// Escapes text for Markdown (CommonMark/GitHub): backslash before \ ` * _ [ ] | and # at the
// start; & < > as entities; line breaks become spaces (so table cells stay on one line).
std::string escape_markdown(const std::string& text);

}  // namespace podperf

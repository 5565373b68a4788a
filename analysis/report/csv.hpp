#pragma once
// CSV of a run: one row per measurement, RFC 4180 (comma-separated, CRLF line ends, fields with
// comma, quote, CR or LF quoted, quotes doubled), a header row first. Rows, by `kind`:
//   pair        one per run.pairs entry (one pair of nodes at one size)
//   collective  one per run.collectives entry (one group, op, type, placement and size)
//   fs_node     one per node of each filesystem probe (its ranks together; ratio and flag)
//   fs_rank     one per rank of each filesystem probe (what that rank moved, its latency)
// Columns that do not apply to a kind are empty. Numbers are the Run's own, printed in their
// shortest exact form (no rounding); the writer computes none.
#include <iosfwd>
#include <string>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

std::string render_csv(const Run& run);
// The same bytes written to `out` a piece at a time (never the whole table in memory).
void write_csv(const Run& run, std::ostream& out);

// The header's column names, in order. A run from the modelled fabric (--backend sim) adds one more
// at the end, "simulated", true on every row.
const std::vector<std::string>& csv_columns();

// One field quoted as RFC 4180 requires (unchanged when it needs no quotes).
std::string csv_field(const std::string& text);

}  // namespace podperf

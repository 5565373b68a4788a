#pragma once
// `podperf triage PATH...`: a failed or slow training job's own logs (files or directories, recursive;
// plain or .gz) in, the root cause out (analysis/logs/triage.hpp): terminal summary, --json or --md on
// stdout. Offline floor, local file reads only, no MPI. docs/triage.md documents tags and the schema.
#include <iosfwd>
#include <string>
#include <vector>

namespace podperf {

struct TriageOptions {
  std::vector<std::string> paths;  // PATH...: log files or directories (read recursively, sorted)
  bool json = false;               // --json: the JSON document (docs/triage.md) instead of the summary
  bool md = false;                 // --md: Markdown for a ticket
};

// Reads every file, prints the triage. Returns 0 (no FAIL finding), 1 (a FAIL finding: verdict FAIL or
// INCONCLUSIVE), 2 (a path missing or unreadable, a directory without files, no text file at all, or
// --json with --md; one line on `err` naming it).
int run_triage_command(const TriageOptions& o, std::ostream& out, std::ostream& err);

}  // namespace podperf

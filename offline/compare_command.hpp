#pragma once
// podperf compare BEFORE AFTER, or --before RUN... --after RUN...: offline before/after comparison of
// run.json files (or results directories), any number per side. No MPI: it never calls MPI_Init.
#include <iosfwd>
#include <string>
#include <vector>

namespace podperf {

struct CompareOptions {
  std::string before;                    // positional BEFORE: run.json, or a results directory holding one
  std::string after;                     // positional AFTER
  std::vector<std::string> before_runs;  // --before RUN...: repeats of the earlier setup
  std::vector<std::string> after_runs;   // --after RUN...
  double allowance_percent = -1.0;       // < 0: single_run_allowance_percent from the settings file
  double fail_on_percent = 0.0;          // exit 1 when a metric is slower by more than this (0: any slower verdict)
  double max_mde_percent = -1.0;         // exit 4 when some level could not have seen a change of this (< 0: off)
  double min_change_percent = -1.0;      // < 0: from the settings file
  double alpha = -1.0;                   // < 0: from the settings file
  bool json = false;                     // print the Comparison as JSON instead of text
  std::string config;                    // settings file replacing configs/compare.toml
  std::string html;                      // also write the comparison as a self-contained HTML page here ("": none)
  std::string topology;                  // a topology file applied to both runs (pair busbw per topology class)
  std::string topology_format = "auto";
};

// Runs the comparison, prints it to `out`, errors to `err`; with `html`, also writes the HTML page.
// Returns Comparison::outcome's exit code: 0 (no regression beyond --fail-on, or INCONCLUSIVE without
// --max-mde), 1 (regression), 4 (--max-mde PCT and some level could not have seen a change of PCT); or 2
// (unreadable or corrupt input, bad settings: one line naming the file) or 3 (the HTML page cannot be
// written: one line naming the file).
int run_compare_command(const CompareOptions& o, std::ostream& out, std::ostream& err);

// The run.json a BEFORE/AFTER argument names: PATH itself, or PATH/run.json for a directory.
// Throws InputError when a directory has no run.json.
std::string resolve_run_json(const std::string& path);

}  // namespace podperf

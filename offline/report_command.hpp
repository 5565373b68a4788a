#pragma once
// `podperf report RUN [--format NAME] [--out FILE]`: renders a finished run's run.json (or rebuilds it
// from events.jsonl) in one of the formats of the wing's table (analysis/report/formats.hpp: html, md,
// csv, junit) and writes the file. Offline: no MPI (never calls MPI_Init), links analysis/ only.
#include <iosfwd>
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

struct ReportOptions {
  std::string run;              // a run.json, or a results directory that holds one
  std::string format = "html";  // a name in report_formats() (html | md | csv | junit)
  std::string out;              // "" = report.<ext> beside run.json; "-" = `out` stream
  std::string topology{};       // a topology file: replaces the run's topology, re-judged (built-in thresholds)
  std::string topology_format = "auto";
};

// Reads the run, renders and writes the report. Returns 0 (kExitOk) when written; 2 (kExitUsage)
// with one line on `err` naming the file (and the byte position, for bad JSON) when the run cannot
// be read; 3 (kExitRuntime) when the report cannot be written. Says where the report went on `err`
// unless it went to `out`. The run's own outcome does not change the exit code.
int run_report_command(const ReportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace podperf

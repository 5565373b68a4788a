#pragma once
// `podperf report RUN [--format html|md|csv] [--out FILE]`: renders a finished run's run.json as a
// self-contained HTML report, a Markdown summary or a CSV of every measurement. Offline: no MPI
// (never calls MPI_Init), links analysis/ only. Also write_reports, which every measuring command
// calls at the end of a run to leave report.html and report.md beside run.json.
#include <iosfwd>
#include <string>

#include "analysis/run.hpp"

namespace podperf {

struct ReportOptions {
  std::string run;              // a run.json, or a results directory that holds one
  std::string format = "html";  // html | md | csv
  std::string out;              // "" = report.<ext> beside run.json; "-" = `out` stream
  std::string topology{};       // a topology file: replaces the run's topology, re-judged (built-in thresholds)
  std::string topology_format = "auto";
};

// The report of `run` in `format` (html, md or csv). Throws UsageError for another format.
std::string render_report(const Run& run, const std::string& format);

// "report.html", "report.md", "report.csv".
std::string report_file_name(const std::string& format);

// Reads the run, renders and writes the report. Returns 0 (kExitOk) when written; 2 (kExitUsage)
// with one line on `err` naming the file (and the byte position, for bad JSON) when the run cannot
// be read; 3 (kExitRuntime) when the report cannot be written. Says where the report went on `err`
// unless it went to `out`. The run's own outcome does not change the exit code.
int run_report_command(const ReportOptions& options, std::ostream& out, std::ostream& err);

// Writes report.html and report.md into `results_dir` (beside run.json), each through a temporary
// file and a rename. A failure is a warning on stderr, never an exception: the run is already saved.
void write_reports(const Run& run, const std::string& results_dir) noexcept;

}  // namespace podperf

#pragma once
// The one table of report formats: each row names a format (podperf report --format NAME), the file it
// is written to beside run.json, what --help says of it, how it renders a Run, and whether it is
// written after every run. The table drives podperf report (accepted names, the error for another, the
// default file), write_reports (the files every measuring command leaves beside run.json) and the
// CLI's list and check of formats. A new format is one file (its renderer in analysis/report/) and one
// row here. Floor: the printers' wing (analysis/report/); local. render_report throws UsageError for a
// name not in the table; write_reports never throws.
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

struct ReportFormat {
  std::string_view name;       // --format NAME
  std::string_view file_name;  // written beside run.json: "report.html"
  std::string_view help;       // said after the name in --help ("" for none)
  std::string (*render)(const Run& run);
  bool after_every_run;  // write_reports writes it at the end of every measuring command
  // The same bytes as render, written to a stream a piece at a time (formats of one row per pair, so
  // that podperf report never holds the whole text); nullptr: render only.
  void (*write)(const Run& run, std::ostream& out);
  // It prints run.verdict (junit): podperf report judges a run podperf accept never judged before
  // rendering it (the printer never judges).
  bool prints_verdict = false;
};

// Every format, in the order --help lists them.
std::span<const ReportFormat> report_formats();

// The row named `name`; nullptr when there is none.
const ReportFormat* find_report_format(std::string_view name);

// The names in table order ({"html", "md", "csv", "junit"}): what --format accepts.
std::vector<std::string> report_format_names();

// The --format help: the names with their notes, "html, md, csv, or junit (the acceptance verdict ...)".
std::string report_formats_help();

// The report of `run` in `format`. Throws UsageError ("--format pdf: expected html, md, csv or junit")
// for a name not in the table.
std::string render_report(const Run& run, const std::string& format);
// The same bytes written to `out`, a piece at a time where the format can (csv). Throws as render_report.
void write_report(const Run& run, const std::string& format, std::ostream& out);

// The file name of `format` ("report.html", "report.md", "report.csv", "junit.xml"). Throws UsageError
// as render_report does for a name not in the table.
std::string report_file_name(const std::string& format);

// Writes every after-every-run format (report.html and report.md) into `results_dir` (beside run.json),
// each through a temporary file and a rename. A failure is a warning on stderr, never an exception: the
// run is already saved.
void write_reports(const Run& run, const std::string& results_dir) noexcept;

}  // namespace podperf

// The table of report formats and what reads it (render_report, report_file_name, write_reports, the
// CLI's names and help). Floor: the printers' wing (analysis/report/); local; see formats.hpp for what
// throws.
#include "analysis/report/formats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <ostream>

#include "analysis/base/errors.hpp"
#include "analysis/base/file_write.hpp"
#include "analysis/report/csv.hpp"
#include "analysis/report/html.hpp"
#include "analysis/report/junit.hpp"
#include "analysis/report/markdown.hpp"

namespace podperf {
namespace {

// The verdict's checks as JUnit XML (run.verdict; an unjudged run's is empty: podperf report judges it first).
std::string render_junit_of_run(const Run& run) {
  return render_junit(run);
}

// One row per format: {name, file name, help note, render, written after every run}.
constexpr std::array kFormats{
    ReportFormat{"html", "report.html", "", render_html, true, nullptr},
    ReportFormat{"md", "report.md", "", render_markdown, true, nullptr},
    ReportFormat{"csv", "report.csv", "", render_csv, false, write_csv},
    ReportFormat{"junit", "junit.xml",
                 "the acceptance verdict as JUnit XML; a run podperf accept never judged is judged with the quick "
                 "profile",
                 render_junit_of_run, false, nullptr, true},
};

// "html, md, csv or junit".
std::string expected_names() {
  std::string out;
  for (std::size_t i = 0; i < kFormats.size(); ++i) {
    if (i > 0) out += i + 1 == kFormats.size() ? " or " : ", ";
    out += kFormats[i].name;
  }
  return out;
}

const ReportFormat& require_format(const std::string& format) {
  const ReportFormat* row = find_report_format(format);
  if (row == nullptr) throw UsageError(fmt::format("--format {}: expected {}", format, expected_names()));
  return *row;
}

}  // namespace

std::span<const ReportFormat> report_formats() {
  return kFormats;
}

const ReportFormat* find_report_format(std::string_view name) {
  const auto it = std::find_if(kFormats.begin(), kFormats.end(), [&](const ReportFormat& f) { return f.name == name; });
  return it == kFormats.end() ? nullptr : &*it;
}

std::vector<std::string> report_format_names() {
  std::vector<std::string> names;
  for (const ReportFormat& f : kFormats) names.emplace_back(f.name);
  return names;
}

std::string report_formats_help() {
  std::string out;
  for (std::size_t i = 0; i < kFormats.size(); ++i) {
    if (i > 0) out += i + 1 == kFormats.size() ? ", or " : ", ";
    out += kFormats[i].name;
    if (!kFormats[i].help.empty()) out += fmt::format(" ({})", kFormats[i].help);
  }
  return out;
}

std::string render_report(const Run& run, const std::string& format) {
  return require_format(format).render(run);
}

void write_report(const Run& run, const std::string& format, std::ostream& out) {
  const ReportFormat& row = require_format(format);
  if (row.write != nullptr) {
    row.write(run, out);
  } else {
    out << row.render(run);
  }
}

std::string report_file_name(const std::string& format) {
  return std::string(require_format(format).file_name);
}

void write_reports(const Run& run, const std::string& results_dir) noexcept {
  for (const ReportFormat& f : kFormats) {
    if (!f.after_every_run) continue;
    try {
      write_file_atomically((std::filesystem::path(results_dir) / f.file_name).string(), f.render(run));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "podperf: warning: %.*s report not written: %s\n", static_cast<int>(f.name.size()),
                   f.name.data(), e.what());
    }
  }
}

}  // namespace podperf

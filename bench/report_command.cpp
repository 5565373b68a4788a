#include "bench/report_command.hpp"

#include <fmt/format.h>

#include <optional>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "analysis/errors.hpp"
#include "analysis/junit.hpp"
#include "analysis/profile.hpp"
#include "analysis/sku.hpp"
#include "analysis/verdict.hpp"
#include "analysis/report_csv.hpp"
#include "analysis/report_html.hpp"
#include "analysis/report_markdown.hpp"
#include "analysis/run_json.hpp"

namespace podperf {
namespace {

namespace fs = std::filesystem;

// Writes `text` to `path` via `path`.tmp and a rename. Throws RuntimeFailure naming the file.
void write_file(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
    if (!file) throw RuntimeFailure(fmt::format("{}: cannot open for writing", tmp.string()));
    file << text;
    file.flush();
    if (!file) throw RuntimeFailure(fmt::format("{}: write failed", tmp.string()));
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw RuntimeFailure(fmt::format("{}: cannot rename into place", path.string()));
  }
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text) {
  write_file(path, text);
}

std::string report_file_name(const std::string& format) {
  if (format == "junit") return "junit.xml";
  return format == "md" ? "report.md" : format == "csv" ? "report.csv" : "report.html";
}

std::string render_report(const Run& run, const std::string& format) {
  if (format == "html") return render_html(run);
  if (format == "md") return render_markdown(run);
  if (format == "csv") return render_csv(run);
  if (format == "junit") {
    // The verdict's checks; a run podperf accept never judged is judged here with the quick profile
    // and the SKU of its instance type (as `podperf accept --from RUN` would), in memory only.
    if (run.verdict.status.empty()) {
      Run judged = run;
      const std::optional<Sku> sku = choose_sku(judged, std::nullopt);
      judged.verdict = judge(judged, load_profile("quick"), sku ? &*sku : nullptr);
      return render_junit(judged);
    }
    return render_junit(run);
  }
  throw UsageError(fmt::format("--format {}: expected html, md, csv or junit", format));
}

int run_report_command(const ReportOptions& options, std::ostream& out, std::ostream& err) {
  try {
    fs::path run_json = options.run;
    std::error_code ec;
    if (fs::is_directory(run_json, ec)) run_json /= "run.json";
    const Run run = read_run_json(run_json.string());
    const std::string text = render_report(run, options.format);
    if (options.out == "-") {
      out << text;
      out.flush();
      return kExitOk;
    }
    const fs::path target =
        options.out.empty() ? run_json.parent_path() / report_file_name(options.format) : fs::path(options.out);
    write_file(target, text);
    err << "podperf: wrote " << target.string() << "\n";
    return kExitOk;
  } catch (const UsageError& e) {
    err << "podperf: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    err << "podperf: error: " << e.what() << "\n";
    return kExitRuntime;
  }
}

void write_reports(const Run& run, const std::string& results_dir) noexcept {
  for (const char* format : {"html", "md"}) {
    try {
      write_file(fs::path(results_dir) / report_file_name(format), render_report(run, format));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "podperf: warning: %s report not written: %s\n", format, e.what());
    }
  }
}

}  // namespace podperf

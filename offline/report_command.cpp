#include "offline/report_command.hpp"

#include <fmt/format.h>

#include <optional>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>

#include "analysis/correlate.hpp"
#include "analysis/errors.hpp"
#include "analysis/file_write.hpp"
#include "offline/offline_command.hpp"
#include "analysis/fs_analysis.hpp"
#include "analysis/pair_flags.hpp"
#include "analysis/run_events.hpp"
#include "analysis/thresholds.hpp"
#include "analysis/topology.hpp"
#include "analysis/topology_analysis.hpp"
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

// events.jsonl -> Run, analyzed as the command that wrote it would have (pairs and filesystem
// judgments with the built-in thresholds, correlation). Says on `err` that it was rebuilt.
Run rebuild_from_events(const std::string& path, std::ostream& err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open", path));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  RebuiltRun rebuilt = run_from_events(text, path);
  Run& run = rebuilt.run;
  const Thresholds t = load_thresholds("");
  if (!run.pairs.empty()) analyze_pairs(run, t.pairs);
  if (!run.fs.probes.empty()) analyze_fs(run, t.fs);
  analyze_topology(run, t.topology);
  correlate(run);
  err << fmt::format("podperf: report rebuilt from {} ({} events{}{}); judged with the built-in thresholds\n", path,
                     rebuilt.events, rebuilt.ended ? "" : ", no end event", rebuilt.cut ? ", last line cut" : "");
  return run;
}

}  // namespace

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
  return run_offline_command("podperf", err, [&] {
    fs::path run_json = options.run;
    std::error_code ec;
    if (fs::is_directory(run_json, ec)) {
      // A run that crashed has events.jsonl but no run.json: rebuild it from the events.
      run_json = fs::exists(run_json / "run.json", ec) || !fs::exists(run_json / "events.jsonl", ec)
                     ? run_json / "run.json"
                     : run_json / "events.jsonl";
    }
    Run run = run_json.filename() == "events.jsonl" ? rebuild_from_events(run_json.string(), err)
                                                    : read_run_json(run_json.string());
    if (!options.topology.empty()) {
      apply_topology(run, load_topology(options.topology, options.topology_format));
      analyze_topology(run, load_thresholds("").topology);
    }
    const std::string text = render_report(run, options.format);
    if (options.out == "-") {
      out << text;
      out.flush();
      return kExitOk;
    }
    const fs::path target =
        options.out.empty() ? run_json.parent_path() / report_file_name(options.format) : fs::path(options.out);
    write_file_atomically(target.string(), text);
    err << "podperf: wrote " << target.string() << "\n";
    return kExitOk;
  });
}

void write_reports(const Run& run, const std::string& results_dir) noexcept {
  for (const char* format : {"html", "md"}) {
    try {
      write_file_atomically((fs::path(results_dir) / report_file_name(format)).string(), render_report(run, format));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "podperf: warning: %s report not written: %s\n", format, e.what());
    }
  }
}

}  // namespace podperf

// podperf triage (contract in triage_command.hpp): paths expanded, each file read as a JSON dump (RAS,
// flight recorder) when it is one, else streamed through the log reader, into one accumulator; the
// result printed; errors through run_offline_command.
#include "offline/triage_command.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <system_error>

#include "analysis/base/errors.hpp"
#include "analysis/logs/json_dumps.hpp"
#include "analysis/logs/log_reader.hpp"
#include "analysis/logs/triage.hpp"
#include "analysis/report/triage_report.hpp"
#include "offline/offline_command.hpp"

namespace podperf {
namespace {

namespace fs = std::filesystem;

// A podperf results directory (it holds run.json) is read for the NCCL logs podperf captured there
// (nccl.<host>.<pid>) only: its reports quote findings and must not be read as a job's log.
bool skipped_in_results_dir(const fs::path& file) {
  std::error_code ec;
  return fs::exists(file.parent_path() / "run.json", ec) && file.filename().string().rfind("nccl.", 0) != 0;
}

// The regular files of `path` (itself, or every file below it, sorted); throws InputError.
std::vector<std::string> files_of(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw InputError(path + ": no such file or directory");
  if (fs::is_regular_file(st)) return {path};
  if (!fs::is_directory(st)) throw InputError(path + ": not a regular file or directory");
  std::vector<std::string> files;
  fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw InputError(path + ": cannot read directory: " + ec.message());
  for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
    if (ec) throw InputError(path + ": cannot read directory: " + ec.message());
    std::error_code fe;
    if (it->is_regular_file(fe) && !skipped_in_results_dir(it->path())) files.push_back(it->path().string());
  }
  if (files.empty()) throw InputError(path + ": directory holds no files to read");
  std::sort(files.begin(), files.end());
  return files;
}

int triage(const TriageOptions& o, std::ostream& out) {
  if (o.json && o.md) throw UsageError("--json and --md exclude each other");
  if (o.paths.empty()) throw UsageError("give at least one log file or directory");
  std::vector<std::string> files;
  for (const std::string& p : o.paths) {
    std::vector<std::string> f = files_of(p);
    files.insert(files.end(), f.begin(), f.end());
  }
  logs::TriageAccumulator acc;
  std::size_t order = 0;
  std::size_t text_files = 0;
  for (const std::string& f : files) {
    logs::ReadStats dump;
    if (const logs::DumpKind k = logs::read_json_dump_file(f, order, acc, dump); k != logs::DumpKind::not_a_dump) {
      if (k != logs::DumpKind::pickle) ++text_files;
      acc.add_file(dump);
      continue;
    }
    const logs::ReadStats stats = logs::read_log_file(f, order, [&acc](const logs::LogEvent& ev) { acc.add(ev); });
    if (!stats.error.empty() && stats.lines == 0) throw InputError(f + ": " + stats.error);
    if (!stats.binary) ++text_files;
    acc.add_file(stats);
  }
  if (text_files == 0) {
    throw InputError("no text log among the input (" + std::to_string(files.size()) +
                     " binary file(s) skipped, the first " + files.front() + ")");
  }
  const logs::TriageResult r = acc.finish();
  if (o.json) {
    out << triage_json(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else if (o.md) {
    out << triage_markdown(r);
  } else {
    out << triage_text(r);
  }
  // FAIL (the logs show the job failed) and INCONCLUSIVE (they cannot show it ran) are not a pass.
  return r.verdict == "FAIL" || r.verdict == "INCONCLUSIVE" ? kExitFlagged : kExitOk;
}

}  // namespace

int run_triage_command(const TriageOptions& o, std::ostream& out, std::ostream& err) {
  return run_offline_command("podperf triage", err, [&] { return triage(o, out); });
}

}  // namespace podperf

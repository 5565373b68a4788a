#include "offline/report_command.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <ostream>

#include "analysis/accept/acceptance.hpp"
#include "analysis/base/errors.hpp"
#include "analysis/base/file_write.hpp"
#include "analysis/config/thresholds.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "analysis/io/run_events.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/judge_run.hpp"
#include "analysis/pairs/correlate.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/report/formats.hpp"
#include "analysis/topology/topology.hpp"
#include "analysis/topology/topology_analysis.hpp"
#include "offline/offline_command.hpp"

namespace podperf {
namespace {

namespace fs = std::filesystem;

// events.jsonl -> Run, analyzed as the command that wrote it would have (pairs and filesystem
// judgments with the thresholds its start event recorded, correlation). Says on `err` that it was rebuilt.
Run rebuild_from_events(const std::string& path, std::ostream& err) {
  RebuiltRun rebuilt = run_from_events_file(path);  // line by line, never the whole file
  Run& run = rebuilt.run;
  JudgeInputs inputs;
  inputs.results_dir = fs::path(path).parent_path().string();
  judge_run(run, inputs);
  err << fmt::format("podperf: report rebuilt from {} ({} events{}{}); judged with the run's thresholds ({})\n", path,
                     rebuilt.events, rebuilt.ended ? "" : ", no end event", rebuilt.cut ? ", last line cut" : "",
                     run.thresholds.source);
  return std::move(rebuilt.run);  // moved: a copy would double the memory of a run of millions of pairs
}

}  // namespace

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
      // The topology makes the pairs' classes: the whole run is judged again with it.
      apply_topology(run, load_topology(options.topology, options.topology_format));
      JudgeInputs inputs;
      inputs.results_dir = run_json.parent_path().string();
      judge_run(run, inputs);
    }
    // Written as rendered (csv a piece at a time), never the whole text of a run of millions of pairs
    // beside the run in memory. An unknown format is refused before anything is written.
    const std::string file_name = report_file_name(options.format);
    // A format that prints the verdict (junit) of a run podperf accept never judged: judged here, as
    // `podperf accept --from RUN` would (the quick profile, the nodes' instance type), in memory only.
    if (find_report_format(options.format)->prints_verdict && run.verdict.status.empty()) {
      judge_acceptance(run, prepare_acceptance(AcceptanceOptions{}));
      err << fmt::format(
          "podperf: {} was not judged by podperf accept: judged with profile {}, as podperf accept "
          "--from would\n",
          run_json.string(), run.verdict.profile);
    }
    if (options.out == "-") {
      write_report(run, options.format, out);
      out.flush();
      return kExitOk;
    }
    const fs::path target = options.out.empty() ? run_json.parent_path() / file_name : fs::path(options.out);
    write_file_atomically(target.string(), [&](std::ostream& file) { write_report(run, options.format, file); });
    err << "podperf: wrote " << target.string() << "\n";
    return kExitOk;
  });
}

}  // namespace podperf

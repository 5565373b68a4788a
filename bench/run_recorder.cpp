#include "bench/run_recorder.hpp"

#include <cstdio>

#include "analysis/io/run_json.hpp"
#include "analysis/io/run_metadata.hpp"
#include "analysis/report/formats.hpp"

namespace podperf {

RunRecorder::RunRecorder(Run run, ResultsDir& dir) : run_(std::move(run)), dir_(dir) {
  nlohmann::json event = run_;
  event["event"] = "start";
  dir_.append_event(event);
}

void RunRecorder::set_findings(std::vector<Finding> findings, std::string nccl_log_note,
                               std::vector<NodeMetric> metrics) {
  std::lock_guard lock(mutex_);
  run_.node_metrics = std::move(metrics);
  run_.findings = std::move(findings);
  run_.nccl_log = std::move(nccl_log_note);
}

void RunRecorder::set_fs(FsRun setup) {
  std::lock_guard lock(mutex_);
  run_.fs = std::move(setup);
  dir_.append_event({{"event", "fs_setup"}, {"fs", run_.fs}});
}

void RunRecorder::set_verdict_hook(VerdictHook hook) {
  std::lock_guard lock(mutex_);
  verdict_hook_ = std::move(hook);
}

void RunRecorder::begin_fs_probe(std::string probe) {
  std::lock_guard lock(mutex_);
  fs_running_ = std::move(probe);
}

void RunRecorder::add_fs_probe(FsProbeResult result) {
  std::lock_guard lock(mutex_);
  dir_.append_event({{"event", "fs_probe"}, {"probe", result}});
  for (FsRankResult& r : result.ranks) r.latency_us = {};  // aggregated already; not kept in run.json
  run_.fs.probes.push_back(std::move(result));
  fs_running_.clear();
}

void RunRecorder::fs_failed(const std::string& error, const std::vector<std::string>& not_run) {
  std::lock_guard lock(mutex_);
  run_.status = "aborted";
  run_.error = error;
  for (const std::string& p : not_run) run_.unfinished.push_back("fs probe " + p + " (not run after the failure)");
}

nlohmann::json RunRecorder::end_event(const Run& run) const {
  return {{"event", "end"}, {"status", run.status}};
}

std::pair<std::string, int> RunRecorder::finish() {
  std::lock_guard lock(mutex_);
  run_.finished_at = iso8601_now();
  analyze(run_);
  if (verdict_hook_.judge) verdict_hook_.judge(run_);
  dir_.write_run(run_);
  nlohmann::json end = end_event(run_);
  end["finished_at"] = run_.finished_at;  // a run rebuilt from events.jsonl alone knows when it ended
  dir_.append_event(end);
  write_reports(run_, dir_.path());  // report.html, report.md; a failure is only a warning
  std::string report = render(run_, dir_.path());
  int code = exit_code(run_);
  if (verdict_hook_.report) report += verdict_hook_.report(run_, dir_.path());
  if (verdict_hook_.exit_code) code = verdict_hook_.exit_code(run_, code);
  return {report, code};
}

void RunRecorder::abort(const std::string& status, const std::string& error) noexcept {
  std::unique_lock lock(mutex_, std::defer_lock);
  if (!lock.try_lock_for(std::chrono::seconds(5))) {
    std::fprintf(stderr, "podperf: results lock busy; writing run.json anyway\n");
  }
  try {
    run_.status = status;
    run_.error = error;
    run_.finished_at = iso8601_now();
    keep_partial(run_, status, error);
    if (!fs_running_.empty()) run_.unfinished.push_back("fs probe " + fs_running_);
    analyze(run_);
    if (verdict_hook_.judge) verdict_hook_.judge(run_);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "podperf: could not analyze the partial results: %s\n", e.what());
  }
  try {
    dir_.write_run(run_, /*durable=*/false);
    dir_.append_event({{"event", "end"},
                       {"status", status},
                       {"error", error},
                       {"unfinished", run_.unfinished},
                       {"finished_at", run_.finished_at}},
                      /*durable=*/false);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "podperf: could not write the partial results: %s\n", e.what());
  }
  // The report reaches the terminal even when the results directory cannot take it.
  try {
    std::string report = render(run_, dir_.path());
    if (verdict_hook_.report) report += verdict_hook_.report(run_, dir_.path());
    std::fprintf(stderr, "%s", report.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "podperf: could not print the report: %s\n", e.what());
  }
  std::fflush(nullptr);
  write_reports(run_, dir_.path());  // after run.json and the terminal; a failure is only a warning
}

}  // namespace podperf

#pragma once
// Rank 0's Run while a command measures. Shared with the watchdog and signal threads, hence the
// lock; an abnormal end only tries the lock for a while, so a stuck writer cannot keep the process
// from ending. Writes events.jsonl as results arrive and run.json at the end, also on a timeout, a
// signal or a failure. Commands derive from it and say how to analyze, render and keep partial data.
#include <chrono>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "analysis/model/run.hpp"
#include "bench/results_dir.hpp"

namespace podperf {

// podperf accept: what the recorder does with the run after the command's own analysis. Every
// member is optional (empty: the command's own behaviour).
struct VerdictHook {
  // Fills run.verdict (pure), before run.json is written; also on an abnormal end.
  std::function<void(Run&)> judge;
  // After run.json is written: text appended to the report (the verdict, the drain list) and side
  // outputs (JUnit). Must not throw.
  std::function<std::string(const Run&, const std::string& results_dir)> report;
  // The exit code of a normal end, from the run (its verdict) and the command's own exit code.
  std::function<int(const Run&, int command_exit)> exit_code;
};

class RunRecorder {
 public:
  // Writes the start event (the run's metadata and plan).
  RunRecorder(Run run, ResultsDir& dir);
  virtual ~RunRecorder() = default;
  RunRecorder(const RunRecorder&) = delete;
  RunRecorder& operator=(const RunRecorder&) = delete;

  // Findings gathered after the measurements (NCCL's log, host signals) and where NCCL's log went.
  void set_findings(std::vector<Finding> findings, std::string nccl_log_note, std::vector<NodeMetric> metrics = {});

  // The filesystem stage: its setup, the probe now running (an abnormal end names it unfinished),
  // each probe's results as they arrive (one events.jsonl line each), and a failure that ended the
  // stage early (status aborted, the probes not run named unfinished).
  void set_fs(FsRun setup);

  // podperf accept: judge the run after analyzing it (see VerdictHook). Set before finish().
  void set_verdict_hook(VerdictHook hook);
  void begin_fs_probe(std::string probe);
  void add_fs_probe(FsProbeResult result);
  void fs_failed(const std::string& error, const std::vector<std::string>& not_run);

  // Normal end: analysis, run.json (durable), end event. Returns the report text and exit code.
  std::pair<std::string, int> finish();

  // Abnormal end (watchdog, signal, failure): keeps everything measured (keep_partial), writes
  // run.json and an end event without waiting for the disk (the launcher's SIGKILL may follow within
  // a second) and prints the report to stderr. Never throws.
  void abort(const std::string& status, const std::string& error) noexcept;

 protected:
  // Under the lock:
  virtual void analyze(Run& /*run*/) {}
  [[nodiscard]] virtual nlohmann::json end_event(const Run& run) const;
  [[nodiscard]] virtual std::string render(const Run& run, const std::string& results_dir) const = 0;
  [[nodiscard]] virtual int exit_code(const Run& run) const = 0;
  // Moves into the run what the current step has that is not recorded yet, names what did not finish.
  virtual void keep_partial(Run& /*run*/, const std::string& /*status*/, const std::string& /*error*/) {}

  std::timed_mutex mutex_;
  Run run_;
  std::string fs_running_;  // the filesystem probe in progress
  VerdictHook verdict_hook_;
  ResultsDir& dir_;
};

}  // namespace podperf

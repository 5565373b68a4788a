#pragma once
// What every measuring command does first and last inside the MPI job: agree on the node map, the
// plan and the results directory (a usage error on any rank ends every rank with exit 2 before any
// measurement), and the top-level error handling around the MPI session.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "analysis/model/run.hpp"
#include "bench/mpi.hpp"
#include "bench/nccl_capture.hpp"
#include "bench/node_map.hpp"
#include "bench/options.hpp"
#include "bench/results_dir.hpp"
#include "bench/run_recorder.hpp"
#include "bench/watchdog.hpp"
#include "signals/snapshot.hpp"

namespace podperf {

struct JobStart {
  NodeMap map;
  std::unique_ptr<ResultsDir> dir;  // rank 0 only
  std::string run_id;
};

// Collective over `world`. The run id is agreed first; `make_plan` runs on every rank after the node
// map is known, gets the run directory (OUT/RUN_ID, not yet created), and may throw UsageError.
// Returns nullopt after printing the error (rank 0) when any step failed with a usage error on
// rank 0 or on every rank.
std::optional<JobStart> start_job(const Comm& world, const CommonOptions& o,
                                  const std::function<void(const NodeMap&, const std::string& run_dir)>& make_plan);

// A usage error found after start_job (e.g. the filesystem stage's checks): closes the results
// directory and removes it when nothing was written to it. Rank 0 only.
void discard_unused_results_dir(std::unique_ptr<ResultsDir>& dir);

// Run metadata common to every command (version, id, command, argv, start time, launcher, ranks,
// nodes, the common options).
Run base_run(const Cli& cli, const CommonOptions& o, const std::string& run_id, int world_size, const NodeMap& map);

// Collective: rank 0's value on every rank.
int bcast_int(const Comm& world, int value);

// While alive, `on_exit` runs if the process calls exit() (Open MPI exits a rank that loses a peer in
// the middle of a transfer, bypassing podperf's handlers), so rank 0 still writes what it measured.
// One guard at a time.
class ExitGuard {
 public:
  explicit ExitGuard(std::function<void()> on_exit);
  ~ExitGuard();
  ExitGuard(const ExitGuard&) = delete;
  ExitGuard& operator=(const ExitGuard&) = delete;
};

// What every rank must undo when the run ends abnormally (the watchdog, SIGTERM/SIGINT, the MPI
// library exiting the process, a failure that aborts the job): the filesystem probes remove their
// directory. Runs at most once, on its own thread for at most a few seconds (a hung filesystem cannot
// keep the process alive); also at exit() while set. One at a time; set an empty function to clear.
void set_abort_cleanup(std::function<void()> cleanup);
void run_abort_cleanup() noexcept;

// The watchdog of a measuring run: on a deadline, rank 0's `recorder` ends the run with status
// timeout (other ranks, recorder null, say which rank and `rank_label` gave up); on SIGTERM/SIGINT
// with status aborted. Either way the process exits 3.
std::unique_ptr<Watchdog> make_run_watchdog(const Comm& world, RunRecorder* recorder, const std::string& rank_label);

// Rank 0 (recorder not null): keeps what was measured if Open MPI itself exits the process. Null
// elsewhere.
std::unique_ptr<ExitGuard> make_exit_guard(RunRecorder* recorder);

// Collective, after the measurements: NCCL's log findings, the end-of-run host snapshots against
// `signals_before` (rules, deltas, drift, node metrics) and `extra` findings, handed to rank 0's
// `recorder` (null on other ranks).
void record_findings(const Comm& world, RunRecorder* recorder, const NcclLogCapture& nccl_log,
                     std::string_view backend_name, const std::vector<HostSnapshot>& signals_before,
                     const std::string& signals_root, std::vector<Finding> extra);

// Collective: rank 0 finishes the run (run.json, the report on stdout) after dropping its exit
// guard; every rank returns rank 0's exit code.
int conclude_run(const Comm& world, RunRecorder* recorder, std::unique_ptr<ExitGuard>& exit_guard);

// Starts MPI, runs `body` on the world, and turns exceptions into exit codes: UsageError -> 2; any
// other failure on one rank ends the whole job (MPI_Abort), rank 0's signal thread keeping the
// results measured so far.
int run_mpi_command(int* argc, char*** argv, const std::function<int(const Comm&)>& body);

}  // namespace podperf

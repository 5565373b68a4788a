#include "bench/job.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <mutex>
#include <thread>
#include <utility>

#include "analysis/base/errors.hpp"
#include "analysis/config/thresholds.hpp"
#include "analysis/io/run_metadata.hpp"
#include "bench/node_signals.hpp"

namespace podperf {

std::optional<JobStart> start_job(const Comm& world, const CommonOptions& o,
                                  const std::function<void(const NodeMap&, const std::string& run_dir)>& make_plan) {
  const bool root = world.rank() == 0;
  JobStart job;
  job.run_id = broadcast_string(world, o.run_id.empty() ? make_run_id(detect_launcher()) : o.run_id, 0);
  const std::filesystem::path run_dir = std::filesystem::path(o.out) / job.run_id;
  std::error_code ec;
  const bool existed = std::filesystem::exists(run_dir, ec);
  std::string usage_error;
  try {
    job.map = gather_node_map(world, o.virtual_nodes);
    make_plan(job.map, run_dir.string());
  } catch (const UsageError& e) {
    usage_error = e.what();
    // The plan may have created the run directory (for NCCL's log): leave nothing behind.
    if (!existed) std::filesystem::remove(run_dir, ec);  // only removes an empty directory
  }
  if (root && usage_error.empty()) {
    try {
      job.dir = std::make_unique<ResultsDir>(o.out, job.run_id);
    } catch (const UsageError& e) {
      usage_error = e.what();
    }
  }
  usage_error = broadcast_string(world, usage_error, 0);
  if (!usage_error.empty()) {
    if (root) std::fprintf(stderr, "podperf: error: %s\n", usage_error.c_str());
    return std::nullopt;
  }
  return job;
}

void discard_unused_results_dir(std::unique_ptr<ResultsDir>& dir) {
  if (!dir) return;
  const std::filesystem::path path = dir->path();
  dir.reset();
  std::error_code ec;
  const std::filesystem::path events = path / "events.jsonl";
  if (std::filesystem::exists(events, ec) && std::filesystem::file_size(events, ec) == 0) {
    std::filesystem::remove(events, ec);
  }
  std::filesystem::remove(path, ec);  // only when empty
}

Run base_run(const Cli& cli, const CommonOptions& o, const std::string& run_id, int world_size, const NodeMap& map) {
  Run run;
  run.podperf_version = PODPERF_VERSION;
  run.run_id = run_id;
  run.command = cli.command;
  run.argv = cli.argv;
  run.started_at = iso8601_now();
  run.launcher = detect_launcher();
  run.backend = "host";
  run.ranks = world_size;
  run.options.iters = o.iters;
  run.options.warmup = o.warmup;
  run.options.check = o.check != 0;
  run.options.timeout_s = o.timeout_s;
  run.options.virtual_nodes = o.virtual_nodes;
  run.nodes = map.nodes;
  // The built-in thresholds until the command records its own (pairs and fs with --config, --threshold):
  // every run.json carries the thresholds an offline judge would use on it.
  record_thresholds(run, load_thresholds(""));
  return run;
}

int bcast_int(const Comm& world, int value) {
  PODPERF_CHECK_MPI(MPI_Bcast(&value, 1, MPI_INT, 0, world.raw()));
  return value;
}

namespace {
std::mutex& exit_guard_mutex() {
  static std::mutex m;
  return m;
}
std::function<void()>& exit_guard_action() {
  static std::function<void()> action;
  return action;
}
void run_exit_guard() {
  std::function<void()> action;
  {
    std::lock_guard lock(exit_guard_mutex());
    action = std::exchange(exit_guard_action(), nullptr);
  }
  if (action) action();
}
}  // namespace

ExitGuard::ExitGuard(std::function<void()> on_exit) {
  static const bool registered = std::atexit(run_exit_guard) == 0;
  (void)registered;
  std::lock_guard lock(exit_guard_mutex());
  exit_guard_action() = std::move(on_exit);
}

ExitGuard::~ExitGuard() {
  std::lock_guard lock(exit_guard_mutex());
  exit_guard_action() = nullptr;
}

namespace {
std::mutex& abort_cleanup_mutex() {
  static std::mutex m;
  return m;
}
std::shared_ptr<std::function<void()>>& abort_cleanup_action() {
  static std::shared_ptr<std::function<void()>> action;
  return action;
}
constexpr auto kAbortCleanupLimit = std::chrono::seconds(5);
}  // namespace

void set_abort_cleanup(std::function<void()> cleanup) {
  static const bool registered = std::atexit(run_abort_cleanup) == 0;
  (void)registered;
  std::lock_guard lock(abort_cleanup_mutex());
  abort_cleanup_action() = cleanup ? std::make_shared<std::function<void()>>(std::move(cleanup)) : nullptr;
}

void run_abort_cleanup() noexcept {
  std::shared_ptr<std::function<void()>> action;
  {
    std::lock_guard lock(abort_cleanup_mutex());
    action = std::exchange(abort_cleanup_action(), nullptr);
  }
  if (!action) return;
  try {
    auto done = std::make_shared<std::promise<void>>();
    std::future<void> finished = done->get_future();
    std::thread([action, done] {
      try {
        (*action)();
      } catch (...) {
      }
      done->set_value();
    }).detach();
    if (finished.wait_for(kAbortCleanupLimit) != std::future_status::ready) {
      std::fprintf(stderr, "podperf: cleanup did not finish within %lld s; leaving it\n",
                   static_cast<long long>(kAbortCleanupLimit.count()));
    }
  } catch (...) {
  }
}

std::unique_ptr<Watchdog> make_run_watchdog(const Comm& world, RunRecorder* recorder, const std::string& rank_label) {
  const int rank = world.rank();
  return std::make_unique<Watchdog>(
      [recorder, rank, rank_label](const std::string& what, double seconds) {
        if (recorder != nullptr) {
          const std::string error = fmt::format("{} did not finish within {} s (--timeout)", what, seconds);
          std::fprintf(stderr, "podperf: error: %s; ending the run\n", error.c_str());
          recorder->abort("timeout", error);
        } else {
          std::fprintf(stderr, "podperf: rank %d (%s): %s did not finish within %.0f s; ending\n", rank,
                       rank_label.c_str(), what.c_str(), seconds);
        }
        run_abort_cleanup();
        std::fflush(nullptr);
        _exit(kExitRuntime);
      },
      [recorder](const std::string& signal_name) {
        if (recorder != nullptr) {
          recorder->abort("aborted", fmt::format("received {} (the job was cancelled, or the launcher ended it "
                                                 "because a rank died)",
                                                 signal_name));
        }
        run_abort_cleanup();
        std::fflush(nullptr);
        _exit(kExitRuntime);
      });
}

std::unique_ptr<ExitGuard> make_exit_guard(RunRecorder* recorder) {
  if (recorder == nullptr) return nullptr;
  return std::make_unique<ExitGuard>([recorder] {
    recorder->abort("aborted", "the MPI library ended the process (a peer failed during a transfer; see its message)");
  });
}

void record_findings(const Comm& world, RunRecorder* recorder, const NcclLogCapture& nccl_log,
                     std::string_view backend_name, const std::vector<HostSnapshot>& signals_before,
                     const std::string& signals_root, std::vector<Finding> extra) {
  std::vector<Finding> findings = collect_nccl_findings(world, nccl_log);
  const std::vector<HostSnapshot> signals_after = gather_host_snapshots(world, signals_root);
  if (recorder == nullptr) return;
  for (Finding& f : extra) findings.push_back(std::move(f));
  for (Finding& f : host_signal_findings(signals_before, signals_after)) findings.push_back(std::move(f));
  recorder->set_findings(std::move(findings), nccl_log_note(nccl_log, backend_name),
                         host_signal_metrics(signals_before, signals_after));
}

int conclude_run(const Comm& world, RunRecorder* recorder, std::unique_ptr<ExitGuard>& exit_guard) {
  int exit_code = kExitOk;
  if (recorder != nullptr) {
    auto [report, code] = recorder->finish();
    exit_guard.reset();
    std::fputs(report.c_str(), stdout);
    std::fflush(stdout);
    exit_code = code;
  }
  return bcast_int(world, exit_code);
}

int run_mpi_command(int* argc, char*** argv, const std::function<int(const Comm&)>& body) {
  std::unique_ptr<MpiSession> session;
  try {
    session = std::make_unique<MpiSession>(argc, argv);
    return body(Comm::world());
  } catch (const UsageError& e) {
    // Usage errors arise identically on every rank: one line, from rank 0.
    int rank = 0;
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::fprintf(stderr, "podperf: error: %s\n", e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    // A failure on this rank that the others cannot know about: end the whole job. Rank 0's signal
    // thread writes the results measured so far when the launcher stops it.
    std::fprintf(stderr, "podperf: error: %s\n", e.what());
    std::fflush(stderr);
    run_abort_cleanup();
    MPI_Abort(MPI_COMM_WORLD, kExitRuntime);
    return kExitRuntime;
  }
}

}  // namespace podperf

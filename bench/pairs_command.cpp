// podperf pairs|run|accept on the MPI backends (see pairs_command.hpp): the job's start, rank 0's
// recorder, one step of pairs at once, the schedule (rank 0 drives, the others follow its broadcasts),
// the filesystem stage and the findings. Floor: bench; collective over the world; UsageError for bad
// options, MPI and I/O errors end the job (rank 0 keeps what was measured).
#include "bench/pairs_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "analysis/base/errors.hpp"
#include "analysis/base/file_write.hpp"
#include "analysis/base/units.hpp"
#include "analysis/config/thresholds.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/io/run_metadata.hpp"
#include "analysis/pairs/correlate.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/report/node_rows.hpp"
#include "analysis/report/prometheus.hpp"
#include "analysis/report/run_text.hpp"
#include "bench/adaptive_scope.hpp"
#include "bench/backend_select.hpp"
#include "bench/efa_rounds.hpp"
#include "bench/fs/fs_plan.hpp"
#include "bench/fs/fs_stage.hpp"
#include "bench/job.hpp"
#include "bench/mpi.hpp"
#include "bench/nccl_capture.hpp"
#include "bench/node_map.hpp"
#include "bench/node_signals.hpp"
#include "bench/pair_payload.hpp"
#include "bench/pairs_run.hpp"
#include "bench/progress.hpp"
#include "bench/results_dir.hpp"
#include "bench/run_recorder.hpp"
#include "bench/runner.hpp"
#include "bench/schedule_driver.hpp"
#include "bench/sim_pairs.hpp"
#include "bench/watchdog.hpp"
#include "sweep/pair_schedule.hpp"

namespace podperf {
namespace {

constexpr int kResultTag = 4242;
constexpr double kNonRootGraceS = 10.0;  // non-root watchdogs wait this long after rank 0's deadline

// Measures every size of one pair on its group. A failure ends the pair's measurements and becomes
// data (the error text travels to rank 0).
PairMeasurement measure_pair(Group& group, const Plan& plan, const std::vector<std::uint64_t>& sizes,
                             const PairsOptions& o) {
  PairMeasurement m;
  try {
    for (std::uint64_t size : sizes) {
      const Case c{plan.op, plan.dtype, size, false, 0};
      m.cases.push_back(run_case(group, c, o.warmup, o.iters, o.check != 0, static_cast<TimeCombine>(o.combine)));
    }
  } catch (const std::exception& e) {
    m.error = e.what();
  }
  return m;
}

// The lowest world rank of a pair: it sends the pair's results.
int pair_leader(const NodeMap& map, const NodePair& p) {
  return std::min(map.nodes[static_cast<std::size_t>(p[0])].ranks.front(),
                  map.nodes[static_cast<std::size_t>(p[1])].ranks.front());
}

using RunStep = std::function<void(const Round&, int, const std::vector<std::uint64_t>&, bool)>;

// What run_pairs prepares before anything is measured (every rank unless noted).
struct PairsJob {
  Plan plan;
  std::unique_ptr<Backend> backend;
  NcclLogCapture nccl_log;
  bool with_fs = false;
  FsPlan fs_plan;
  FsSetup fs_setup;
  std::optional<Topology> topology;  // rank 0: --topology, read before anything is measured
  PairReference reference;           // rank 0: --baseline-from, read before anything is measured
  // The schedule's options; the topology-aware search's scope and groups on rank 0 only (it alone
  // plans the steps and broadcasts them, so no other rank needs the topology).
  ScheduleOptions so;
  std::optional<JobStart> start;
};

// Collective: the job's start (run id, node map, plan, backend, topology on rank 0), then the
// filesystem stage's directory and space checks (a bad --fs-path ends the run before anything is
// measured). Returns kExitUsage after printing a usage error (rank 0), else kExitOk.
int start_pairs_job(const Cli& cli, const Comm& world, PairsJob& job) {
  const PairsOptions& o = cli.pairs;
  const bool root = world.rank() == 0;
  job.with_fs = (cli.command == "run" || cli.command == "accept") && !o.fs.path.empty();
  job.so = schedule_options(o);
  job.so.retest_numbered_by_step = true;
  job.start = start_job(world, o, [&](const NodeMap& m, const std::string& run_dir) {
    job.plan = make_plan(o, m);
    if (job.with_fs) job.fs_plan = make_fs_plan(o.fs, o.config);
    if (backend_may_be_nccl(o.backend)) job.nccl_log = prepare_nccl_log(run_dir);
    job.backend = make_backend(o, world);
    // Last: only rank 0 reads the file, so a bad one must not make it skip a collective call above
    // that the other ranks make (start_job then agrees on the error on every rank).
    if (root && !o.topology.empty()) job.topology = load_topology(o.topology, o.topology_format);
    if (root && !o.baseline_from.empty()) job.reference = load_pair_reference(o.baseline_from, job.plan);
    if (root) {
      Run placed;
      placed.nodes = m.nodes;
      if (job.topology) apply_topology(placed, *job.topology);
      resolve_adaptive_scope(o, placed.topology_levels, placed.nodes, job.so);
    }
  });
  if (!job.start) return kExitUsage;
  if (!job.with_fs) return kExitOk;
  try {
    job.fs_setup = prepare_fs_stage(world, job.start->map, job.fs_plan, o.fs, job.start->run_id);
  } catch (const UsageError& e) {
    if (root) {
      std::fprintf(stderr, "podperf: error: %s\n", e.what());
      discard_unused_results_dir(job.start->dir);
    }
    return kExitUsage;
  }
  return kExitOk;
}

// Rank 0: the run's recorder (the Run, placed on the topology, the filesystem stage's info, the
// verdict hook), and the run's opening lines on stderr.
std::unique_ptr<PairsRecorder> make_pairs_recorder(const Cli& cli, const Comm& world, const PairsJob& job,
                                                   const VerdictHook* verdict_hook) {
  const PairsOptions& o = cli.pairs;
  const NodeMap& map = job.start->map;
  ResultsDir& dir = *job.start->dir;
  Run run = make_run(cli, job.plan, map, job.start->run_id, world.size(), job.backend->name());
  if (job.topology) place_nodes(run, *job.topology);
  run.pair_reference = job.reference;
  auto recorder = std::make_unique<PairsRecorder>(std::move(run), dir, map);
  if (job.with_fs) recorder->set_fs(job.fs_setup.info);
  if (verdict_hook != nullptr) recorder->set_verdict_hook(*verdict_hook);
  if (o.schedule == "adaptive") {
    std::fprintf(stderr,
                 "podperf: schedule adaptive (seed %llu, scope %s): the rounds below replace the full schedule\n",
                 static_cast<unsigned long long>(o.seed), describe_adaptive_scope(job.so).c_str());
  }
  std::fprintf(stderr,
               "podperf: %s on %zu %snodes (%d ranks), %zu sizes %s..%s, %d rounds (%zu steps, concurrency %s)%s; "
               "results in %s\n",
               cli.command.c_str(), map.nodes.size(), o.virtual_nodes > 0 ? "VIRTUAL " : "", world.size(),
               job.plan.sizes.size(), o.min_bytes.c_str(), o.max_bytes.c_str(), job.plan.rounds, job.plan.steps.size(),
               o.concurrency.c_str(), repeat_text(o).c_str(), dir.path().c_str());
  return recorder;
}

// One step on the MPI backends, collective over the world: the given pairs at once, at `sizes`
// (`retest`: re-measures suspects). Each pair's leader sends its results to rank 0, which receives
// them into the recorder's slots. The watchdog is armed for the step (disarmed by the caller).
class MpiStep {
 public:
  MpiStep(const Comm& world, const NodeMap& map, const Plan& plan, const PairsOptions& o, Backend& backend,
          PairsRecorder* recorder, Watchdog& watchdog, EfaRoundWatch& efa_rounds)
      : world_(world),
        map_(map),
        plan_(plan),
        o_(o),
        backend_(backend),
        recorder_(recorder),
        watchdog_(watchdog),
        efa_rounds_(efa_rounds),
        my_node_(map.node_of_rank[static_cast<std::size_t>(world.rank())]) {}

  void operator()(const Round& step, int round, const std::vector<std::uint64_t>& sizes, bool retest) const {
    const bool root = world_.rank() == 0;
    int my_pair = -1;
    for (std::size_t p = 0; p < step.size(); ++p) {
      if (step[p][0] == my_node_ || step[p][1] == my_node_) my_pair = static_cast<int>(p);
    }
    // Rank 0 speaks for the round (its report names the unfinished pairs); other ranks for their pair.
    const std::string label = retest ? fmt::format("retest round {}", round) : fmt::format("round {}", round);
    const std::string mine =
        my_pair >= 0 ? fmt::format("{} (pair {})", label, describe_pair(map_, step[static_cast<std::size_t>(my_pair)]))
                     : label;
    watchdog_.arm(root ? o_.timeout_s : o_.timeout_s + kNonRootGraceS, root ? label : mine);
    efa_rounds_.begin();
    std::vector<MPI_Request> receives;
    if (root) receives = post_receives(step, round, sizes, retest);
    // Collective over the world: every rank takes part in creating the round's pair groups.
    std::unique_ptr<Group> group;
    std::string group_error;
    try {
      group = backend_.split(world_, my_pair, world_.rank(), sizes.back(), plan_.dtype);
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception& e) {
      group_error = e.what();
    }
    MPI_Request send_request = MPI_REQUEST_NULL;
    std::vector<double> payload;
    if (my_pair >= 0) {
      PairMeasurement measured;
      if (group) {
        measured = measure_pair(*group, plan_, sizes, o_);
      } else {
        measured.error = group_error;
      }
      payload = encode_payload(measured, sizes.size(), o_.iters);
      if (world_.rank() == pair_leader(map_, step[static_cast<std::size_t>(my_pair)])) {
        PODPERF_CHECK_MPI(MPI_Isend(payload.data(), static_cast<int>(payload.size()), MPI_DOUBLE, 0, kResultTag,
                                    MPI_COMM_WORLD, &send_request));
      }
    }
    if (root) {
      PODPERF_CHECK_MPI(MPI_Waitall(static_cast<int>(receives.size()), receives.data(), MPI_STATUSES_IGNORE));
    }
    PODPERF_CHECK_MPI(MPI_Wait(&send_request, MPI_STATUS_IGNORE));
    efa_rounds_.end(mine);
  }

 private:
  // Rank 0: one slot per pair in the recorder, and a receive posted into each from the pair's leader.
  std::vector<MPI_Request> post_receives(const Round& step, int round, const std::vector<std::uint64_t>& sizes,
                                         bool retest) const {
    std::vector<Slot> slots;
    for (const NodePair& p : step) {
      Slot slot;
      slot.ctx = PairContext{round, p, plan_.op, plan_.dtype, sizes, o_.iters, pair_ranks(map_, p)};
      slot.payload = empty_payload(sizes.size(), o_.iters);
      slots.push_back(std::move(slot));
    }
    std::vector<MPI_Request> receives;
    for (Slot& slot : recorder_->begin_step(round, std::move(slots), retest)) {
      receives.emplace_back();
      PODPERF_CHECK_MPI(MPI_Irecv(slot.payload.data(), static_cast<int>(slot.payload.size()), MPI_DOUBLE,
                                  pair_leader(map_, slot.ctx.nodes), kResultTag, MPI_COMM_WORLD, &receives.back()));
    }
    return receives;
  }

  const Comm& world_;
  const NodeMap& map_;
  const Plan& plan_;
  const PairsOptions& o_;
  Backend& backend_;
  PairsRecorder* recorder_;
  Watchdog& watchdog_;
  EfaRoundWatch& efa_rounds_;
  int my_node_;
};

// Collective: rank 0's broadcast of one step, [kind, round, a0, b0, a1, b1, ...] (kind 1: new pairs at
// every size, 2: retests at the judged size, 0: the end); `step` is resized on the other ranks.
void broadcast_step(const Comm& world, std::vector<int>& step) {
  const int count = bcast_int(world, static_cast<int>(step.size()));
  step.resize(static_cast<std::size_t>(count));
  PODPERF_CHECK_MPI(MPI_Bcast(step.data(), count, MPI_INT, 0, world.raw()));
}

// Every rank but 0: runs the steps rank 0 broadcasts until the end.
void follow_schedule(const Comm& world, const Plan& plan, const RunStep& run_step, Watchdog& watchdog) {
  const std::vector<std::uint64_t> judged{plan.sizes.back()};
  for (;;) {
    std::vector<int> step;
    broadcast_step(world, step);
    if (step.empty() || step[0] == 0) return;
    Round pairs;
    for (std::size_t i = 2; i + 1 < step.size(); i += 2) pairs.push_back(NodePair{step[i], step[i + 1]});
    run_step(pairs, step[1], step[0] == 1 ? plan.sizes : judged, step[0] == 2);
    watchdog.disarm();
  }
}

// The schedule on the MPI backends (--schedule all or adaptive), collective: rank 0 drives it (it
// alone has the results the retests and the search decide on) and broadcasts each step before it
// runs, so every rank runs the same steps. Returns rank 0's adaptive findings (empty elsewhere and
// for --schedule all).
std::vector<Finding> drive_mpi_schedule(const Comm& world, const NodeMap& map, const Plan& plan,
                                        const ScheduleOptions& so, PairsRecorder* recorder, Progress& progress,
                                        const RunStep& run_step, Watchdog& watchdog) {
  if (recorder == nullptr) {
    follow_schedule(world, plan, run_step, watchdog);
    return {};
  }
  ScheduleHooks hooks;
  hooks.step = [&](const Round& pairs, int round, const std::vector<std::uint64_t>& sizes, bool retest,
                   bool round_complete) {
    std::vector<int> flat{retest ? 2 : 1, round};
    for (const NodePair& p : pairs) flat.insert(flat.end(), {p[0], p[1]});
    broadcast_step(world, flat);
    run_step(pairs, round, sizes, retest);
    std::vector<PairResult> results = recorder->end_step(round_complete);
    watchdog.disarm();
    return results;
  };
  hooks.suspects = [&] { return recorder->suspects(); };
  hooks.begin_block = [&](int block, int /*blocks*/) { recorder->begin_block(block); };
  publish_progress(hooks, progress, plan.sizes.back());
  const ScheduleOutcome outcome = drive_schedule(static_cast<int>(map.nodes.size()), plan.steps, plan.round_of_step,
                                                 plan.sizes, plan.thresholds.pairs, so, hooks);
  finish_progress(progress, outcome);
  std::vector<int> end{0};
  broadcast_step(world, end);
  return recorder->finish_schedule(outcome);
}

// Collective: the measurements (the schedule, then the filesystem probes) and the run's findings
// (EFA counters per round, the adaptive search's, the host signals and the NCCL log).
void run_pairs_stages(const Comm& world, const PairsOptions& o, PairsJob& job, PairsRecorder* recorder,
                      Progress& progress, const std::vector<HostSnapshot>& signals_before, EfaRoundWatch& efa_rounds,
                      Watchdog& watchdog) {
  const NodeMap& map = job.start->map;
  const MpiStep step(world, map, job.plan, o, *job.backend, recorder, watchdog, efa_rounds);
  std::vector<Finding> adaptive_findings =
      drive_mpi_schedule(world, map, job.plan, job.so, recorder, progress, std::cref(step), watchdog);
  std::vector<Finding> efa_findings = efa_rounds.gather_findings(world);
  for (Finding& f : adaptive_findings) efa_findings.push_back(std::move(f));
  if (job.with_fs) {
    if (world.rank() == 0) {
      std::fprintf(stderr, "podperf: filesystem probes %s in %s\n",
                   fmt::format("{}", fmt::join(job.fs_plan.probe_names(), ",")).c_str(), job.fs_setup.dir.c_str());
    }
    run_fs_probes(world, map, job.fs_plan, job.fs_setup, recorder, watchdog, o.timeout_s);
    finish_fs_stage(world, job.fs_setup);
  }
  record_findings(world, recorder, job.nccl_log, job.backend->name(), signals_before, o.signals_root,
                  std::move(efa_findings));
}

// The hook of --prometheus FILE: after run.json, the textfile (analysis/report/prometheus); one that
// cannot be written is said and makes the exit code 3.
VerdictHook prometheus_textfile_hook(const std::string& path) {
  auto failed = std::make_shared<bool>(false);
  VerdictHook hook;
  hook.report = [path, failed](const Run& run, const std::string&) {
    try {
      write_file_atomically(path, render_prometheus(run, summarize_nodes(run)));
      return fmt::format("Prometheus textfile: {}\n", path);
    } catch (const std::exception& e) {
      *failed = true;
      return fmt::format("podperf: error: {}\n", e.what());
    }
  };
  hook.exit_code = [failed](const Run&, int command_exit) { return *failed ? kExitRuntime : command_exit; };
  return hook;
}

int run_pairs(const Cli& cli, const Comm& world, const VerdictHook* verdict_hook) {
  const PairsOptions& o = cli.pairs;
  if (o.backend == "sim") {
    if (!o.fs.path.empty()) throw UsageError("--backend sim models the network only; drop --fs-path");
    return run_sim_pairs(cli, world, verdict_hook);
  }
  if (o.schedule == "adaptive" && !o.pairs.empty()) {
    throw UsageError("--pairs and --schedule adaptive exclude each other (adaptive chooses its own pairs)");
  }
  check_repeat_schedule(o);
  const bool root = world.rank() == 0;
  PairsJob job;
  if (start_pairs_job(cli, world, job) != kExitOk) return kExitUsage;
  const NodeMap& map = job.start->map;
  std::unique_ptr<PairsRecorder> recorder;
  if (root) recorder = make_pairs_recorder(cli, world, job, verdict_hook);

  const std::string& my_label =
      map.nodes[static_cast<std::size_t>(map.node_of_rank[static_cast<std::size_t>(world.rank())])].label;
  const std::unique_ptr<Watchdog> watchdog = make_run_watchdog(world, recorder.get(), my_label);
  Progress progress = schedule_progress(job.so, static_cast<int>(map.nodes.size()), job.plan.steps.size());
  // Host signals at the start (read-only; one snapshot per host), compared with the end.
  const std::vector<HostSnapshot> signals_before = gather_host_snapshots(world, o.signals_root);
  EfaRoundWatch efa_rounds(world, o.signals_root);
  // A failure here (an MPI error after a peer died, an I/O error) ends the job: rank 0 first keeps
  // what was measured, also when Open MPI itself exits the process.
  std::unique_ptr<ExitGuard> exit_guard = make_exit_guard(recorder.get());
  try {
    run_pairs_stages(world, o, job, recorder.get(), progress, signals_before, efa_rounds, *watchdog);
  } catch (const std::exception& e) {
    if (root) recorder->abort("aborted", e.what());
    throw;
  }
  return conclude_run(world, recorder.get(), exit_guard);
}

}  // namespace

int run_pairs_command(int* argc, char*** argv, const Cli& cli, const VerdictHook* verdict_hook) {
  // --prometheus (pairs, run; accept writes its own): the textfile after run.json, on rank 0.
  VerdictHook prometheus_hook;
  if (verdict_hook == nullptr && !cli.pairs.prometheus.empty()) {
    prometheus_hook = prometheus_textfile_hook(cli.pairs.prometheus);
    verdict_hook = &prometheus_hook;
  }
  return run_mpi_command(argc, argv,
                         [&cli, verdict_hook](const Comm& world) { return run_pairs(cli, world, verdict_hook); });
}

}  // namespace podperf

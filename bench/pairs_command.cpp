#include "bench/pairs_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <climits>
#include <cstdio>
#include <memory>
#include <optional>
#include <mutex>
#include <set>
#include <thread>

#include "analysis/correlate.hpp"
#include "analysis/errors.hpp"
#include "analysis/fs_analysis.hpp"
#include "analysis/pair_flags.hpp"
#include "analysis/run_json.hpp"
#include "analysis/summary_text.hpp"
#include "analysis/thresholds.hpp"
#include "analysis/units.hpp"
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
#include "bench/pair_steps.hpp"
#include "bench/pairs_run.hpp"
#include "bench/sim_pairs.hpp"
#include "bench/progress.hpp"
#include "bench/results_dir.hpp"
#include "analysis/run_metadata.hpp"
#include "bench/run_recorder.hpp"
#include "bench/runner.hpp"
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

// --schedule adaptive on the MPI backends: rank 0 runs the search (it alone has the results) and
// broadcasts each step before it runs, [kind, round, a0, b0, a1, b1, ...] (kind 1: new pairs at every
// size, 2: retests at the judged size, 0: the end), so every rank runs the same steps. Returns rank
// 0's search finding (empty elsewhere).
std::vector<Finding> run_adaptive(const Comm& world, const NodeMap& map, const Plan& plan, const ScheduleOptions& so,
                                  PairsRecorder* recorder, Progress& progress, const RunStep& run_step,
                                  Watchdog& watchdog) {
  const std::vector<std::uint64_t> judged{plan.sizes.back()};
  auto broadcast = [&](std::vector<int>& step) {
    const int count = bcast_int(world, static_cast<int>(step.size()));
    step.resize(static_cast<std::size_t>(count));
    PODPERF_CHECK_MPI(MPI_Bcast(step.data(), count, MPI_INT, 0, world.raw()));
  };
  if (recorder == nullptr) {
    for (;;) {
      std::vector<int> step;
      broadcast(step);
      if (step.empty() || step[0] == 0) return {};
      Round pairs;
      for (std::size_t i = 2; i + 1 < step.size(); i += 2) pairs.push_back(NodePair{step[i], step[i + 1]});
      run_step(pairs, step[1], step[0] == 1 ? plan.sizes : judged, step[0] == 2);
      watchdog.disarm();
    }
  }
  int steps_done = 0;
  const StepFn step = [&](const Round& pairs, int round, const std::vector<std::uint64_t>& sizes, bool retest,
                          bool round_complete) {
    std::vector<int> flat{retest ? 2 : 1, round};
    for (const NodePair& p : pairs) flat.insert(flat.end(), {p[0], p[1]});
    broadcast(flat);
    run_step(pairs, round, sizes, retest);
    std::vector<PairResult> results = recorder->end_step(round_complete);
    watchdog.disarm();
    return results;
  };
  const ScheduleOutcome outcome = drive_schedule(
      static_cast<int>(map.nodes.size()), {}, {}, plan.sizes, plan.thresholds.pairs, so, step,
      [&] { return recorder->suspects(); }, [&](const std::string& what) { progress.step_done(++steps_done, what); });
  std::vector<int> end{0};
  broadcast(end);
  recorder->set_rounds(outcome.rounds, outcome.rounds_planned);
  const int full_rounds = static_cast<int>(circle_schedule(static_cast<int>(map.nodes.size())).size());
  std::fprintf(stderr, "podperf: adaptive search: %d rounds instead of %d for every pair\n", outcome.rounds,
               full_rounds);
  recorder->set_slow_groups(outcome.search.slow_groups);
  std::vector<Finding> findings{adaptive_search_finding(outcome, map.nodes, full_rounds)};
  for (Finding& f : slow_group_findings(outcome.search)) findings.push_back(std::move(f));
  return findings;
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
  const bool root = world.rank() == 0;

  Plan plan;
  std::unique_ptr<Backend> backend;
  NcclLogCapture nccl_log;
  const bool with_fs = (cli.command == "run" || cli.command == "accept") && !o.fs.path.empty();
  FsPlan fs_plan;
  std::optional<Topology> topology;  // rank 0: --topology, read before anything is measured
  // The schedule's options; the topology-aware search's scope and groups on rank 0 only (it alone
  // plans the adaptive steps and broadcasts them, so no other rank needs the topology).
  ScheduleOptions so;
  so.schedule = o.schedule;
  so.retest = o.retest;
  so.seed = o.seed;
  so.sequential = o.concurrency == "sequential";
  std::optional<JobStart> job = start_job(world, o, [&](const NodeMap& m, const std::string& run_dir) {
    plan = make_plan(o, m);
    if (with_fs) fs_plan = make_fs_plan(o.fs, o.config);
    if (backend_may_be_nccl(o.backend)) nccl_log = prepare_nccl_log(run_dir);
    backend = make_backend(o.backend, world);
    // Last: only rank 0 reads the file, so a bad one must not make it skip a collective call above
    // that the other ranks make (start_job then agrees on the error on every rank).
    if (root && !o.topology.empty()) topology = load_topology(o.topology, o.topology_format);
    if (root) {
      Run placed;
      placed.nodes = m.nodes;
      if (topology) apply_topology(placed, *topology);
      resolve_adaptive_scope(o, placed.topology_levels, placed.nodes, so);
    }
  });
  if (!job) return kExitUsage;
  const NodeMap& map = job->map;
  const std::string& run_id = job->run_id;
  // The filesystem stage's directory and space checks come first: a bad --fs-path ends the run
  // before anything is measured.
  FsSetup fs_setup;
  if (with_fs) {
    try {
      fs_setup = prepare_fs_stage(world, map, fs_plan, o.fs, run_id);
    } catch (const UsageError& e) {
      if (root) {
        std::fprintf(stderr, "podperf: error: %s\n", e.what());
        discard_unused_results_dir(job->dir);
      }
      return kExitUsage;
    }
  }
  ResultsDir* dir = job->dir.get();

  const bool adaptive_schedule = o.schedule == "adaptive";
  std::unique_ptr<PairsRecorder> recorder;
  if (root) {
    Run run = make_run(cli, plan, map, run_id, world.size(), backend->name());
    if (topology) place_nodes(run, *topology);
    recorder = std::make_unique<PairsRecorder>(std::move(run), *dir, map, plan.thresholds);
    if (with_fs) recorder->set_fs(fs_setup.info);
    if (verdict_hook != nullptr) recorder->set_verdict_hook(*verdict_hook);
    bool virtual_nodes = o.virtual_nodes > 0;
    if (adaptive_schedule) {
      std::fprintf(stderr,
                   "podperf: schedule adaptive (seed %llu, scope %s): the rounds below replace the full schedule\n",
                   static_cast<unsigned long long>(o.seed), describe_adaptive_scope(so).c_str());
    }
    std::fprintf(stderr,
                 "podperf: %s on %zu %snodes (%d ranks), %zu sizes %s..%s, %d rounds (%zu steps, concurrency %s); "
                 "results in %s\n",
                 cli.command.c_str(), map.nodes.size(), virtual_nodes ? "VIRTUAL " : "", world.size(),
                 plan.sizes.size(), o.min_bytes.c_str(), o.max_bytes.c_str(), plan.rounds, plan.steps.size(),
                 o.concurrency.c_str(), dir->path().c_str());
  }

  const int my_node = map.node_of_rank[static_cast<std::size_t>(world.rank())];
  const std::string my_label = map.nodes[static_cast<std::size_t>(my_node)].label;
  const std::unique_ptr<Watchdog> watchdog = make_run_watchdog(world, recorder.get(), my_label);

  AdaptiveParams budget_params;
  budget_params.scope = so.scope;
  Progress progress(adaptive_schedule ? adaptive_round_budget(static_cast<int>(map.nodes.size()), budget_params)
                                      : static_cast<int>(plan.steps.size()),
                    o.concurrency == "sequential" && !adaptive_schedule ? "pair" : "round");
  // Host signals at the start (read-only; one snapshot per host), compared with the end.
  const std::vector<HostSnapshot> signals_before = gather_host_snapshots(world, o.signals_root);
  EfaRoundWatch efa_rounds(world, o.signals_root);
  // A failure here (an MPI error after a peer died, an I/O error) ends the job: rank 0 first keeps
  // what was measured, also when Open MPI itself exits the process.
  std::unique_ptr<ExitGuard> exit_guard = make_exit_guard(recorder.get());
  try {
    // One step: the given pairs at once, at `sizes`; `retest` re-measures suspects.
    auto run_step = [&](const Round& step, int round, const std::vector<std::uint64_t>& sizes, bool retest) {
      int my_pair = -1;
      for (std::size_t p = 0; p < step.size(); ++p) {
        if (step[p][0] == my_node || step[p][1] == my_node) my_pair = static_cast<int>(p);
      }
      // Rank 0 speaks for the round (its report names the unfinished pairs); other ranks for their pair.
      const std::string label = retest ? fmt::format("retest round {}", round) : fmt::format("round {}", round);
      const std::string what =
          my_pair >= 0 && !root
              ? fmt::format("{} (pair {})", label, describe_pair(map, step[static_cast<std::size_t>(my_pair)]))
              : label;
      watchdog->arm(root ? o.timeout_s : o.timeout_s + kNonRootGraceS, what);
      efa_rounds.begin();
      std::vector<MPI_Request> receives;
      if (root) {
        std::vector<Slot> slots;
        for (const NodePair& p : step) {
          Slot slot;
          slot.ctx = PairContext{round, p, plan.op, plan.dtype, sizes, o.iters, pair_ranks(map, p)};
          slot.payload = empty_payload(sizes.size(), o.iters);
          slots.push_back(std::move(slot));
        }
        for (Slot& slot : recorder->begin_step(round, std::move(slots), retest)) {
          receives.emplace_back();
          PODPERF_CHECK_MPI(MPI_Irecv(slot.payload.data(), static_cast<int>(slot.payload.size()), MPI_DOUBLE,
                                      pair_leader(map, slot.ctx.nodes), kResultTag, MPI_COMM_WORLD, &receives.back()));
        }
      }

      // Collective over the world: every rank takes part in creating the round's pair groups.
      std::unique_ptr<Group> group;
      std::string group_error;
      try {
        group = backend->split(world, my_pair, world.rank(), sizes.back(), plan.dtype);
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
          measured = measure_pair(*group, plan, sizes, o);
        } else {
          measured.error = group_error;
        }
        payload = encode_payload(measured, sizes.size(), o.iters);
        if (world.rank() == pair_leader(map, step[static_cast<std::size_t>(my_pair)])) {
          PODPERF_CHECK_MPI(MPI_Isend(payload.data(), static_cast<int>(payload.size()), MPI_DOUBLE, 0, kResultTag,
                                      MPI_COMM_WORLD, &send_request));
        }
      }
      if (root) {
        PODPERF_CHECK_MPI(MPI_Waitall(static_cast<int>(receives.size()), receives.data(), MPI_STATUSES_IGNORE));
      }
      PODPERF_CHECK_MPI(MPI_Wait(&send_request, MPI_STATUS_IGNORE));
      efa_rounds.end(
          my_pair >= 0 ? fmt::format("{} (pair {})", label, describe_pair(map, step[static_cast<std::size_t>(my_pair)]))
                       : label);
    };

    std::vector<Finding> adaptive_findings;
    const bool adaptive = o.schedule == "adaptive";
    if (adaptive) adaptive_findings = run_adaptive(world, map, plan, so, recorder.get(), progress, run_step, *watchdog);
    for (std::size_t s = 0; s < plan.steps.size() && !adaptive; ++s) {
      const Round& step = plan.steps[s];
      const int round = plan.round_of_step[s];
      run_step(step, round, plan.sizes, false);
      if (root) {
        const bool round_complete = s + 1 == plan.steps.size() || plan.round_of_step[s + 1] != round;
        recorder->end_step(round_complete);
        progress.step_done(static_cast<int>(s) + 1,
                           fmt::format("{} pair{} in round {}", step.size(), step.size() == 1 ? "" : "s", round));
      }
      watchdog->disarm();
    }

    // Retest: pairs flagged at the judged size run again (ClusterKit and Google's scanner retest
    // suspects); a pair stays flagged only when the retest confirms it. The list comes from rank 0's
    // analysis and is broadcast, so every rank runs the same plan.
    for (int pass = 1; pass <= o.retest && !adaptive; ++pass) {
      std::vector<int> flat;
      if (root) {
        for (const NodePair& p : recorder->suspects()) flat.insert(flat.end(), {p[0], p[1]});
      }
      int count = bcast_int(world, static_cast<int>(flat.size()));
      if (count == 0) break;
      flat.resize(static_cast<std::size_t>(count));
      PODPERF_CHECK_MPI(MPI_Bcast(flat.data(), count, MPI_INT, 0, world.raw()));
      std::vector<NodePair> suspects;
      for (std::size_t i = 0; i + 1 < flat.size(); i += 2) suspects.push_back(NodePair{flat[i], flat[i + 1]});
      std::vector<Round> rounds = pack_rounds(suspects);
      if (o.concurrency == "sequential") rounds = sequential(rounds);
      if (root) {
        std::fprintf(stderr, "podperf: retest %d: %zu flagged pair%s at %s, %zu step%s\n", pass, suspects.size(),
                     suspects.size() == 1 ? "" : "s", format_size(plan.sizes.back()).c_str(), rounds.size(),
                     rounds.size() == 1 ? "" : "s");
      }
      for (std::size_t r = 0; r < rounds.size(); ++r) {
        run_step(rounds[r], static_cast<int>(r) + 1, {plan.sizes.back()}, true);
        if (root) recorder->end_step(false);
        watchdog->disarm();
      }
    }
    std::vector<Finding> efa_findings = efa_rounds.gather_findings(world);
    for (Finding& f : adaptive_findings) efa_findings.push_back(std::move(f));
    if (with_fs) {
      if (root) {
        std::fprintf(stderr, "podperf: filesystem probes %s in %s\n",
                     fmt::format("{}", fmt::join(fs_plan.probe_names(), ",")).c_str(), fs_setup.dir.c_str());
      }
      run_fs_probes(world, map, fs_plan, fs_setup, recorder.get(), *watchdog, o.timeout_s);
      finish_fs_stage(world, fs_setup);
    }
    record_findings(world, recorder.get(), nccl_log, backend->name(), signals_before, o.signals_root,
                    std::move(efa_findings));
  } catch (const std::exception& e) {
    if (root) recorder->abort("aborted", e.what());
    throw;
  }

  return conclude_run(world, recorder.get(), exit_guard);
}

}  // namespace

int run_pairs_command(int* argc, char*** argv, const Cli& cli, const VerdictHook* verdict_hook) {
  return run_mpi_command(argc, argv,
                         [&cli, verdict_hook](const Comm& world) { return run_pairs(cli, world, verdict_hook); });
}

}  // namespace podperf

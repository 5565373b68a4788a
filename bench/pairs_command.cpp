#include "bench/pairs_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <memory>
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
#include "analysis/topology.hpp"
#include "analysis/topology_analysis.hpp"
#include "analysis/units.hpp"
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
#include "bench/progress.hpp"
#include "bench/results_dir.hpp"
#include "bench/run_metadata.hpp"
#include "bench/run_recorder.hpp"
#include "bench/runner.hpp"
#include "bench/watchdog.hpp"
#include "sweep/pair_schedule.hpp"
#include "sweep/sizes.hpp"

namespace podperf {
namespace {

constexpr int kResultTag = 4242;
constexpr double kNonRootGraceS = 10.0;  // non-root watchdogs wait this long after rank 0's deadline

// The plan: identical on every rank.
struct Plan {
  const Op* op = nullptr;
  DType dtype = DType::kFloat;
  std::vector<std::uint64_t> sizes;
  std::vector<Round> steps;        // what runs at once
  std::vector<int> round_of_step;  // 1-based schedule round of each step
  int rounds = 0;
  Thresholds thresholds;
};

Plan make_plan(const PairsOptions& o, const NodeMap& map) {
  Plan plan;
  plan.thresholds = load_thresholds(o.config);
  if (o.threshold) plan.thresholds.pairs.threshold = *o.threshold;
  plan.op = &find_op(o.op);
  plan.dtype = find_dtype(o.dtype).type;
  const std::size_t type_bytes = dtype_info(plan.dtype).bytes;
  plan.sizes = size_sweep(parse_size(o.min_bytes, "-b/--minbytes"), parse_size(o.max_bytes, "-e/--maxbytes"),
                          o.step_factor, parse_size(o.step_bytes, "-i/--stepbytes"), type_bytes);
  if (plan.sizes.back() / type_bytes > static_cast<std::uint64_t>(INT_MAX)) {
    throw UsageError(
        fmt::format("-e/--maxbytes {}: more than {} elements per message is not supported by the host "
                    "backend",
                    plan.sizes.back(), INT_MAX));
  }
  const int n = static_cast<int>(map.nodes.size());
  if (n < 2) {
    const NodeInfo& only = map.nodes.front();
    throw UsageError(
        fmt::format("pairs needs at least 2 nodes; this job has 1 ({} with {} ranks). Launch across "
                    "nodes, or pass --virtual-nodes K for a local demo",
                    only.hostname, only.ranks.size()));
  }
  std::vector<Round> rounds;
  if (!o.pairs.empty()) {
    std::vector<std::string> labels;
    for (const NodeInfo& node : map.nodes) labels.push_back(node.label);
    rounds = pack_rounds(parse_pair_list(o.pairs, labels));
  } else {
    rounds = circle_schedule(n);
  }
  plan.rounds = static_cast<int>(rounds.size());
  if (o.concurrency == "sequential") {
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      for (const NodePair& p : rounds[r]) {
        plan.steps.push_back(Round{p});
        plan.round_of_step.push_back(static_cast<int>(r) + 1);
      }
    }
  } else {
    plan.steps = rounds;
    for (std::size_t r = 0; r < rounds.size(); ++r) plan.round_of_step.push_back(static_cast<int>(r) + 1);
  }
  return plan;
}

std::string describe_pair(const NodeMap& map, const NodePair& p) {
  const NodeInfo& a = map.nodes[static_cast<std::size_t>(p[0])];
  const NodeInfo& b = map.nodes[static_cast<std::size_t>(p[1])];
  return fmt::format("{} <-> {} (nodes {}:{}, ranks {} and {})", a.label, b.label, p[0], p[1], fmt::join(a.ranks, ","),
                     fmt::join(b.ranks, ","));
}

// One pair of the current step, as rank 0 sees it: where its results land and how to read them.
struct Slot {
  PairContext ctx;
  std::vector<double> payload;
  bool recorded = false;
};

// Rank 0's record of a pairs run: the current step's receive buffers, retests, and what an abnormal
// end keeps (pairs of the current step whose results had landed) and names (those that had not).
class Recorder final : public RunRecorder {
 public:
  Recorder(Run run, ResultsDir& dir, const NodeMap& map, const Thresholds& t)
      : RunRecorder(std::move(run), dir),
        map_(map),
        thresholds_(t.pairs),
        fs_thresholds_(t.fs),
        topology_thresholds_(t.topology) {}

  // The step's receive buffers; rank 0's main thread posts receives into them.
  std::vector<Slot>& begin_step(int round, std::vector<Slot> slots, bool retest) {
    std::lock_guard lock(mutex_);
    step_round_ = round;
    retest_ = retest;
    slots_ = std::move(slots);
    return slots_;
  }

  // Every message of the step has been received: the results become part of the run, and one
  // events.jsonl line is written.
  void end_step(bool round_complete) {
    std::lock_guard lock(mutex_);
    std::vector<PairResult> results;
    for (Slot& slot : slots_) {
      for (PairResult& r : decode_payload(slot.payload, slot.ctx)) results.push_back(std::move(r));
      slot.recorded = true;
    }
    dir_.append_event({{"event", retest_ ? "retest" : "round"}, {"round", step_round_}, {"pairs", results}});
    if (retest_) {
      for (const PairResult& r : results) attach_retest(run_, r);
    } else {
      for (PairResult& r : results) run_.pairs.push_back(std::move(r));
    }
    slots_.clear();
    if (round_complete && !retest_) run_.rounds_completed = step_round_;
  }

  // Pairs flagged at the judged size, measured (not failed), not yet retested: the retest list.
  std::vector<NodePair> suspects() {
    std::lock_guard lock(mutex_);
    Run analyzed = run_;
    analyze_pairs(analyzed, thresholds_);
    std::vector<NodePair> out;
    for (const PairResult& p : analyzed.pairs) {
      if (p.flagged && p.status == "ok" && p.size_bytes == analyzed.judged_size_bytes && p.retest_samples_s.empty()) {
        out.push_back(p.nodes);
      }
    }
    return out;
  }

 private:
  void analyze(Run& run) override {
    analyze_pairs(run, thresholds_);
    if (!run.fs.probes.empty()) analyze_fs(run, fs_thresholds_);
    analyze_topology(run, topology_thresholds_);
    correlate(run);
  }
  nlohmann::json end_event(const Run& run) const override {
    return {{"event", "end"}, {"status", run.status}, {"stragglers", run.stragglers}};
  }
  std::string render(const Run& run, const std::string& results_dir) const override {
    return render_summary(run, results_dir);
  }
  // The worst of the stages: 3 (a stage failed) over 1 (something flagged) over 0.
  int exit_code(const Run& run) const override {
    const int pairs = pairs_exit_code(run);
    if (run.fs.probes.empty()) return pairs;
    const int fs = fs_exit_code(run);
    if (pairs == kExitRuntime || fs == kExitRuntime) return kExitRuntime;
    return std::max(pairs, fs);
  }

  void keep_partial(Run& run, const std::string& status, const std::string& error) override {
    for (const Slot& slot : slots_) {
      if (slot.recorded) continue;
      if (payload_arrived(slot.payload)) {
        for (PairResult& r : decode_payload(slot.payload, slot.ctx)) {
          if (retest_) {
            attach_retest(run, r);
          } else {
            run.pairs.push_back(std::move(r));
          }
        }
        continue;
      }
      const std::string pair = describe_pair(map_, slot.ctx.nodes);
      run.unfinished.push_back(fmt::format("{}round {}: {}", retest_ ? "retest " : "", step_round_, pair));
      if (retest_) continue;  // the pair's first measurement stands
      for (std::uint64_t size : slot.ctx.sizes) {
        PairResult r;
        r.round = step_round_;
        r.nodes = slot.ctx.nodes;
        r.op = std::string(slot.ctx.op->name);
        const CaseCounts counts = case_counts(*slot.ctx.op, size, dtype_info(slot.ctx.dtype).bytes, slot.ctx.ranks);
        r.dtype = std::string(dtype_info(slot.ctx.dtype).name);
        r.size_bytes = counts.size_bytes;
        r.count = counts.chunk;
        r.ranks = slot.ctx.ranks;
        r.status = status;
        r.error = fmt::format("pair {} did not report its results: {}", pair, error);
        run.pairs.push_back(std::move(r));
      }
    }
    slots_.clear();
  }

  const NodeMap& map_;
  PairThresholds thresholds_;
  FsThresholds fs_thresholds_;
  TopologyThresholds topology_thresholds_;
  int step_round_ = 0;
  bool retest_ = false;
  std::vector<Slot> slots_;
};

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

int pair_ranks(const NodeMap& map, const NodePair& p) {
  return static_cast<int>(map.nodes[static_cast<std::size_t>(p[0])].ranks.size() +
                          map.nodes[static_cast<std::size_t>(p[1])].ranks.size());
}

Run make_run(const Cli& cli, const Plan& plan, const NodeMap& map, const std::string& run_id, int world_size,
             std::string_view backend_name) {
  Run run = base_run(cli, cli.pairs, run_id, world_size, map);
  run.options.op = std::string(plan.op->name);
  run.options.dtype = std::string(dtype_info(plan.dtype).name);
  run.options.time_combine = std::string(combine_name(static_cast<TimeCombine>(cli.pairs.combine)));
  run.options.sizes_bytes = plan.sizes;
  run.options.concurrency = cli.pairs.concurrency;
  run.options.retest = cli.pairs.retest;
  run.options.threshold = plan.thresholds.pairs.threshold;
  run.options.thresholds_source = plan.thresholds.source;
  run.rounds_planned = plan.rounds;
  run.rounds_full_schedule = static_cast<int>(circle_schedule(static_cast<int>(map.nodes.size())).size());
  run.backend = std::string(backend_name);
  return run;
}

int run_pairs(const Cli& cli, const Comm& world, const VerdictHook* verdict_hook) {
  const PairsOptions& o = cli.pairs;
  const bool root = world.rank() == 0;

  Plan plan;
  std::unique_ptr<Backend> backend;
  NcclLogCapture nccl_log;
  const bool with_fs = (cli.command == "run" || cli.command == "accept") && !o.fs.path.empty();
  FsPlan fs_plan;
  std::optional<Topology> topology;  // rank 0: --topology, read before anything is measured
  std::optional<JobStart> job = start_job(world, o, [&](const NodeMap& m, const std::string& run_dir) {
    plan = make_plan(o, m);
    if (root && !o.topology.empty()) topology = load_topology(o.topology, o.topology_format);
    if (with_fs) fs_plan = make_fs_plan(o.fs, o.config);
    if (backend_may_be_nccl(o.backend)) nccl_log = prepare_nccl_log(run_dir);
    backend = make_backend(o.backend, world);
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

  std::unique_ptr<Recorder> recorder;
  if (root) {
    Run run = make_run(cli, plan, map, run_id, world.size(), backend->name());
    if (topology) {
      apply_topology(run, *topology);
      const auto placed =
          std::count_if(run.nodes.begin(), run.nodes.end(), [](const NodeInfo& n) { return !n.topology.empty(); });
      std::fprintf(stderr, "podperf: topology from %s (%s): levels %s; %zu of %zu nodes placed\n",
                   topology->source.c_str(), topology->format.c_str(),
                   fmt::format("{}", fmt::join(topology->levels, " > ")).c_str(), static_cast<std::size_t>(placed),
                   run.nodes.size());
    }
    recorder = std::make_unique<Recorder>(std::move(run), *dir, map, plan.thresholds);
    if (with_fs) recorder->set_fs(fs_setup.info);
    if (verdict_hook != nullptr) recorder->set_verdict_hook(*verdict_hook);
    bool virtual_nodes = o.virtual_nodes > 0;
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

  Progress progress(static_cast<int>(plan.steps.size()), o.concurrency == "sequential" ? "pair" : "round");
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

    for (std::size_t s = 0; s < plan.steps.size(); ++s) {
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
    for (int pass = 1; pass <= o.retest; ++pass) {
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

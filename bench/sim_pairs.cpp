// podperf pairs --backend sim (see sim_pairs.hpp): the modelled fabric's node map and slots, the run in
// memory (simulate_pairs) and the command. Floor: bench; local (one process); UsageError for bad options.
#include "bench/sim_pairs.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>

#include "analysis/base/errors.hpp"
#include "analysis/io/run_metadata.hpp"
#include "analysis/judge_run.hpp"
#include "analysis/model/attach_retest.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "bench/adaptive_scope.hpp"
#include "bench/job.hpp"
#include "bench/progress.hpp"
#include "bench/runner.hpp"
#include "bench/schedule_driver.hpp"

namespace podperf {

NodeMap sim_node_map(const SimFabric& fabric) {
  NodeMap map;
  int first_rank = 0;
  for (int i = 0; i < fabric.nodes(); ++i) {
    const int rpn = fabric.ranks_per_node(i);
    NodeInfo node;
    node.index = i;
    node.hostname = sim_node_label(i);
    node.label = node.hostname;
    node.instance_type = "simulated";
    for (int r = 0; r < rpn; ++r) {
      node.ranks.push_back(first_rank + r);
      map.node_of_rank.push_back(i);
    }
    first_rank += rpn;
    node.topology = fabric.topology(i);
    map.nodes.push_back(std::move(node));
  }
  return map;
}

Slot sim_slot(SimFabric& fabric, const Plan& plan, const NodeMap& map, const NodePair& pair, int round,
              const std::vector<std::uint64_t>& sizes, int iters) {
  Slot slot;
  slot.ctx = PairContext{round, pair, plan.op, plan.dtype, sizes, iters, pair_ranks(map, pair)};
  PairMeasurement m;
  for (std::uint64_t size : sizes) {
    const CaseCounts counts = case_counts(*plan.op, size, dtype_info(plan.dtype).bytes, slot.ctx.ranks);
    double factor = bus_factor(*plan.op, slot.ctx.ranks);
    if (factor <= 0.0) factor = 1.0;
    CaseMeasurement c;
    c.samples_s = fabric.measure(pair[0], pair[1], static_cast<double>(counts.size_bytes) * factor, iters);
    m.cases.push_back(std::move(c));
  }
  slot.payload = encode_payload(m, sizes.size(), iters);
  return slot;
}

SimRunResult simulate_pairs(SimFabric& fabric, const Plan& plan, const NodeMap& map, const ScheduleOptions& so,
                            int iters) {
  SimRunResult out;
  out.run.command = "pairs";
  record_thresholds(out.run, plan.thresholds);
  out.run.nodes = map.nodes;
  out.run.options.retest = so.retest;
  out.run.options.sizes_bytes = plan.sizes;
  out.run.options.iters = iters;
  out.run.options.seed = so.seed;
  out.run.simulated = true;
  out.run.backend = "sim";
  out.run.sim_model = fabric.model().source;
  // The model's topology, as the command's run has it (the judge's classes and groups come from it).
  if (!fabric.model().levels.empty()) {
    out.run.topology_levels = fabric.model().levels;
    out.run.topology_source = fabric.model().source;
  }
  const StepFn step = [&](const Round& pairs, int round, const std::vector<std::uint64_t>& sizes, bool retest,
                          bool /*round_complete*/) {
    std::vector<PairResult> results;
    for (const NodePair& p : pairs) {
      const Slot slot = sim_slot(fabric, plan, map, p, round, sizes, iters);
      for (PairResult& r : decode_payload(slot.payload, slot.ctx)) results.push_back(std::move(r));
    }
    for (const PairResult& r : results) {
      if (retest) {
        attach_retest(out.run, r);
      } else {
        out.run.pairs.push_back(r);
      }
    }
    return results;
  };
  const SuspectsFn suspects = [&] { return retest_candidates(out.run); };
  out.outcome = drive_schedule(fabric.nodes(), plan.steps, plan.round_of_step, plan.sizes, plan.thresholds.pairs, so,
                               {step, suspects, nullptr, nullptr, nullptr});
  out.run.rounds_completed = out.outcome.rounds;
  out.run.rounds_planned = out.outcome.rounds_planned;
  judge_run(out.run, judge_inputs(out.outcome.search.slow_groups));
  return out;
}

namespace {

// The checks of run_sim_pairs' options (UsageError).
void check_sim_options(const PairsOptions& o, const Comm& world) {
  if (world.size() > 1) {
    throw UsageError(
        fmt::format("--backend sim models the fabric in one process, but this job has {} ranks; run podperf without "
                    "mpirun/srun",
                    world.size()));
  }
  if (o.virtual_nodes > 0) throw UsageError("--backend sim takes --sim-nodes, not --virtual-nodes");
  if (!o.pairs.empty() && o.schedule == "adaptive") {
    throw UsageError("--pairs and --schedule adaptive exclude each other (adaptive chooses its own pairs)");
  }
  check_repeat_schedule(o);
}

// The simulated run's record before anything is measured: simulated, its model and the model's
// topology (a --topology file replaces the model's layout).
Run make_sim_run(const Cli& cli, const Plan& plan, const NodeMap& map, const SimFabric& fabric,
                 const std::string& run_id) {
  const PairsOptions& o = cli.pairs;
  std::optional<Topology> topology;
  if (!o.topology.empty()) topology = load_topology(o.topology, o.topology_format);
  Run run = make_run(cli, plan, map, run_id, static_cast<int>(map.node_of_rank.size()), "sim");
  run.simulated = true;
  run.sim_model = fabric.model().source;
  if (!fabric.model().levels.empty()) {
    run.topology_levels = fabric.model().levels;
    run.topology_source = fabric.model().source;
  }
  if (topology) place_nodes(run, *topology);
  if (!o.baseline_from.empty()) run.pair_reference = load_pair_reference(o.baseline_from, plan);
  return run;
}

// The run's opening lines on stderr: what is simulated, the adaptive scope, the injected faults.
void log_sim_start(const Cli& cli, const Plan& plan, const NodeMap& map, const SimFabric& fabric,
                   const ScheduleOptions& so, const ResultsDir& dir) {
  const PairsOptions& o = cli.pairs;
  std::fprintf(stderr,
               "podperf: %s on %zu SIMULATED nodes (model %s: %s; not a measurement of any network), schedule %s, "
               "seed %llu, %zu sizes %s..%s%s; results in %s\n",
               cli.command.c_str(), map.nodes.size(), o.sim_model.c_str(), fabric.model().source.c_str(),
               o.schedule.c_str(), static_cast<unsigned long long>(o.seed), plan.sizes.size(), o.min_bytes.c_str(),
               o.max_bytes.c_str(), repeat_text(o).c_str(), dir.path().c_str());
  if (o.schedule == "adaptive") {
    std::fprintf(stderr, "podperf: adaptive search scope: %s\n", describe_adaptive_scope(so).c_str());
  }
  for (const std::string& fault : fabric.describe_faults())
    std::fprintf(stderr, "podperf: sim: injected %s\n", fault.c_str());
}

// The schedule on the modelled fabric, each step recorded as rank 0 records a real one; then the
// adaptive wrap-up and the run's findings.
void drive_sim_schedule(SimFabric& fabric, const Plan& plan, const NodeMap& map, const ScheduleOptions& so,
                        const PairsOptions& o, PairsRecorder& recorder, Watchdog& watchdog) {
  Progress progress = schedule_progress(so, o.sim_nodes, plan.steps.size());
  const StepFn step = [&](const Round& pairs, int round, const std::vector<std::uint64_t>& sizes, bool retest,
                          bool round_complete) {
    watchdog.arm(o.timeout_s, retest ? fmt::format("retest round {}", round) : fmt::format("round {}", round));
    std::vector<Slot> slots;
    for (const NodePair& p : pairs) slots.push_back(sim_slot(fabric, plan, map, p, round, sizes, o.iters));
    recorder.begin_step(round, std::move(slots), retest);
    std::vector<PairResult> results = recorder.end_step(round_complete);
    watchdog.disarm();
    return results;
  };
  ScheduleHooks hooks{step, [&] { return recorder.suspects(); }, nullptr, nullptr,
                      [&](int block, int /*blocks*/) { recorder.begin_block(block); }};
  publish_progress(hooks, progress, plan.sizes.back());
  const ScheduleOutcome outcome =
      drive_schedule(o.sim_nodes, plan.steps, plan.round_of_step, plan.sizes, plan.thresholds.pairs, so, hooks);
  finish_progress(progress, outcome);
  recorder.set_findings(recorder.finish_schedule(outcome), "simulated fabric (--backend sim): no NCCL log");
}

}  // namespace

int run_sim_pairs(const Cli& cli, const Comm& world, const VerdictHook* verdict_hook) {
  const PairsOptions& o = cli.pairs;
  check_sim_options(o, world);
  SimFabric fabric(load_sim_model(o.sim_model), o.sim_nodes, o.seed);
  const NodeMap map = sim_node_map(fabric);
  const Plan plan = make_plan(o, map);
  const std::string run_id = o.run_id.empty() ? make_run_id(detect_launcher()) : o.run_id;
  Run run = make_sim_run(cli, plan, map, fabric, run_id);
  ScheduleOptions so = schedule_options(o);
  resolve_adaptive_scope(o, run.topology_levels, run.nodes, so);  // before the results directory exists
  std::unique_ptr<ResultsDir> dir = std::make_unique<ResultsDir>(o.out, run_id);
  auto recorder = std::make_unique<PairsRecorder>(std::move(run), *dir, map);
  if (verdict_hook != nullptr) recorder->set_verdict_hook(*verdict_hook);
  log_sim_start(cli, plan, map, fabric, so, *dir);

  const std::unique_ptr<Watchdog> watchdog = make_run_watchdog(world, recorder.get(), "sim");
  std::unique_ptr<ExitGuard> exit_guard = make_exit_guard(recorder.get());
  try {
    drive_sim_schedule(fabric, plan, map, so, o, *recorder, *watchdog);
  } catch (const std::exception& e) {
    recorder->abort("aborted", e.what());
    throw;
  }
  return conclude_run(world, recorder.get(), exit_guard);
}

}  // namespace podperf

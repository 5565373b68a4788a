#pragma once
// podperf pairs|run --backend sim: the same plan, recorder, analysis and reports as the real
// backends, measured on a modelled fabric (sim/) of --sim-nodes virtual nodes in this one process.
// Every output says it is simulated (run.simulated, run.backend "sim", run.sim_model).
#include <cstdint>
#include <vector>

#include "bench/options.hpp"
#include "bench/mpi.hpp"
#include "bench/node_map.hpp"
#include "bench/schedule_driver.hpp"
#include "bench/pairs_run.hpp"
#include "bench/run_recorder.hpp"
#include "sim/sim_fabric.hpp"

namespace podperf {

// N simulated nodes "sim0000".., ranks_per_node ranks each, with the model's topology.
NodeMap sim_node_map(const SimFabric& fabric);

// One simulated pair at `sizes`: the slot rank 0 would have received from the pair's leader.
Slot sim_slot(SimFabric& fabric, const Plan& plan, const NodeMap& map, const NodePair& pair, int round,
              const std::vector<std::uint64_t>& sizes, int iters);

// In memory, no files (unit tests, tests/perf/adaptive_search): the steps of run_sim_pairs, then the
// run's analysis (judge_pairs), so run.stragglers and run.links are what a run.json would say.
struct SimRunResult {
  Run run;
  ScheduleOutcome outcome;
};
SimRunResult simulate_pairs(SimFabric& fabric, const Plan& plan, const NodeMap& map, const ScheduleOptions& so,
                            int iters);

// The pairs command on the modelled fabric (`world` must be one process). Returns the exit code.
int run_sim_pairs(const Cli& cli, const Comm& world, const VerdictHook* verdict_hook);

}  // namespace podperf

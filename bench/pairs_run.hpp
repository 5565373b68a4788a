#pragma once
// What every pairs run shares, whatever measures it (MPI backends in pairs_command.cpp, the modelled
// fabric in sim_pairs.cpp): the plan, the Run's metadata, and rank 0's recorder of the run.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"
#include "analysis/model/run_blocks.hpp"
#include "analysis/topology/topology.hpp"
#include "bench/collectives.hpp"
#include "bench/dtype.hpp"
#include "bench/node_map.hpp"
#include "bench/options.hpp"
#include "bench/pair_payload.hpp"
#include "bench/progress.hpp"
#include "bench/results_dir.hpp"
#include "bench/run_recorder.hpp"
#include "bench/schedule_driver.hpp"
#include "sweep/adaptive_search.hpp"
#include "sweep/pair_schedule.hpp"

namespace podperf {

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

// UsageError for bad sizes, ops, pair lists or fewer than 2 nodes.
Plan make_plan(const PairsOptions& o, const NodeMap& map);

// --baseline-from PATH (a run.json or its results directory): the reference run, judged again when its
// run.json predates node estimates, as the judge takes it (analysis/pairs/pair_reference.hpp).
// UsageError when it cannot be read or was judged at another size or op than the plan's largest.
PairReference load_pair_reference(const std::string& path, const Plan& plan);

// --topology: places the run's nodes (rank 0, before anything is measured) and says on stderr how many
// of them the file named.
void place_nodes(Run& run, const Topology& topology);

// "h1 <-> h4 (nodes 0:3, ranks 0,1 and 6,7)"
std::string describe_pair(const NodeMap& map, const NodePair& p);

// Ranks in a pair's communicator.
int pair_ranks(const NodeMap& map, const NodePair& p);

Run make_run(const Cli& cli, const Plan& plan, const NodeMap& map, const std::string& run_id, int world_size,
             std::string_view backend_name);

// The schedule's options from the command line (--schedule, --retest, --seed, --concurrency, --repeat); the
// topology-aware scope is resolve_adaptive_scope's (bench/adaptive_scope.hpp).
ScheduleOptions schedule_options(const PairsOptions& o);

// --repeat K with --schedule adaptive (which chooses each round from the last): UsageError.
void check_repeat_schedule(const PairsOptions& o);
// ", in 3 blocks (every step once per block, shuffled by seed 7)" for --repeat 3; "" without.
std::string repeat_text(const PairsOptions& o);

// The run's progress lines: per step of the plan (a pair each when sequential) in every block, or per
// round of the adaptive search's budget for `nodes` nodes.
Progress schedule_progress(const ScheduleOptions& so, int nodes, std::size_t plan_steps);

// The retest list: the pair judge's pairs_to_retest (flagged pairs at the judged size with fewer
// retests than --retest asks, then pairs of undecided nodes with healthy partners), judged with the
// thresholds the run records, without copying the run.
std::vector<NodePair> retest_candidates(const Run& run);

// One pair of the current step, as rank 0 sees it: where its results land and how to read them.
struct Slot {
  PairContext ctx;
  std::vector<double> payload;
  bool recorded = false;
};

// Rank 0's record of a pairs run: the current step's receive buffers, retests, and what an abnormal
// end keeps (pairs of the current step whose results had landed) and names (those that had not).
class PairsRecorder final : public RunRecorder {
 public:
  PairsRecorder(Run run, ResultsDir& dir, const NodeMap& map);

  // --repeat: the steps that follow belong to block `block` (1-based): their results join the pairs'
  // results of the earlier blocks (analysis/model/run_blocks), and their events say the block.
  void begin_block(int block);

  // The step's receive buffers; rank 0's main thread posts receives into them.
  std::vector<Slot>& begin_step(int round, std::vector<Slot> slots, bool retest);

  // Every message of the step has been received: the results become part of the run, and one
  // events.jsonl line is written. Returns the step's results.
  std::vector<PairResult> end_step(bool round_complete);

  // Pairs flagged at the judged size, measured (not failed), not yet retested: the retest list.
  std::vector<NodePair> suspects();

  // The adaptive schedule: rounds measured, and its plan (known only when the search ends).
  void set_rounds(int completed, int planned);

  // The adaptive schedule's end, whatever measured it: the rounds it used, the slow groups it confirmed
  // (their links are theirs: analysis/judge_run), a line on stderr, and its findings (the search's own
  // account, one topology.slow_uplink per slow group) for run.json. Nothing for --schedule all.
  std::vector<Finding> finish_schedule(const ScheduleOutcome& outcome);

 private:
  void analyze(Run& run) override;
  nlohmann::json end_event(const Run& run) const override;
  std::string render(const Run& run, const std::string& results_dir) const override;
  int exit_code(const Run& run) const override;
  void keep_partial(Run& run, const std::string& status, const std::string& error) override;

  const NodeMap& map_;
  int step_round_ = 0;
  bool retest_ = false;
  int block_ = 1;
  int rounds_done_ = 0;  // rounds completed, every block's counted
  PairBlockIndex pairs_index_;
  std::vector<Slot> slots_;
  std::vector<SlowGroup> slow_groups_;
};

}  // namespace podperf

#pragma once
// The one schedule driver of a pairs run, whatever measures the steps (the measuring step is passed
// in): --schedule all (the plan's circle rounds, then retests of the flagged pairs) or adaptive
// (sweep/adaptive_flat, sweep/adaptive_layered: a few random matchings, suspects retested against good
// nodes, link checks, then the same retest of whatever the analysis still flags). The MPI backends
// (bench/pairs_command.cpp: rank 0 drives, the other ranks follow its broadcasts), the modelled fabric
// (bench/sim_pairs.cpp) and the adaptive benchmark (tests/perf) use it. Floor: bench; local (the
// callbacks may be collective); throws what the callbacks throw.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"
#include "bench/progress.hpp"
#include "sweep/adaptive_search.hpp"
#include "sweep/pair_schedule.hpp"

namespace podperf {

// Measures `pairs` (disjoint) at `sizes` and records them: new pairs of round `round` (retest false,
// `round_complete` when the round's last step), or retests of pairs measured before (retest true).
// Returns one PairResult per pair and size.
using StepFn = std::function<std::vector<PairResult>(
    const Round& pairs, int round, const std::vector<std::uint64_t>& sizes, bool retest, bool round_complete)>;
// Pairs the analysis flags at the judged size and that were not retested yet.
using SuspectsFn = std::function<std::vector<NodePair>()>;
// What a finished step was: one of the plan's steps, a retest of flagged pairs, or a round of the
// adaptive search.
enum class StepKind { kRound, kRetest, kSearch };
// After each step: what it was, and a line about it (progress).
using StepDoneFn = std::function<void(StepKind kind, const std::string& what)>;
// Before each retest pass: its number (1-based), the flagged pairs and the steps they take.
using RetestPassFn = std::function<void(int pass, std::size_t pairs, std::size_t steps)>;
// --schedule all with --repeat K >= 2: before each block's steps, its number (1-based) and K.
using BlockFn = std::function<void(int block, int blocks)>;

// What drives a schedule: `step` and `suspects` are required, `done`, `retest_pass` and `begin_block`
// optional.
struct ScheduleHooks {
  StepFn step;
  SuspectsFn suspects;
  StepDoneFn done;
  RetestPassFn retest_pass;
  BlockFn begin_block;
};

struct ScheduleOptions {
  std::string schedule = "all";  // all | adaptive
  int retest = 1;                // passes re-measuring flagged pairs
  std::uint64_t seed = 0;        // also the blocks' shuffles
  // --repeat K (--schedule all only): the plan's steps run in K blocks, each every step once in the
  // order sweep/block_order gives for (steps, K, seed); the retests follow the last block.
  int blocks = 1;
  bool sequential = false;  // one pair per step (--concurrency sequential)
  // --schedule all, retests: steps numbered one by one (the MPI backends' events) rather than by the
  // packed round they split from (the modelled fabric's).
  bool retest_numbered_by_step = false;
  // adaptive with a topology (bench/adaptive_scope.hpp resolves them): flat ignores `groups`.
  AdaptiveParams::Scope scope = AdaptiveParams::Scope::kFlat;
  int level = -1;
  SearchGroups groups;
};

struct ScheduleOutcome {
  int rounds = 0;          // rounds measured (each block's count), retest rounds of the adaptive schedule included
  int rounds_planned = 0;  // all: the plan's rounds times the blocks; adaptive: the rounds it used (known at the end)
  bool adaptive = false;
  AdaptiveResult search;  // adaptive only
};

// `steps`/`round_of_step`: the plan (all; adaptive ignores them). `sizes`: every size; the last is the
// judged one.
ScheduleOutcome drive_schedule(int nodes, const std::vector<Round>& steps, const std::vector<int>& round_of_step,
                               const std::vector<std::uint64_t>& sizes, const PairThresholds& thresholds,
                               const ScheduleOptions& o, const ScheduleHooks& hooks);

// Progress lines for a schedule on `progress` (rank 0): every step counted, the plan's and the adaptive
// search's as each says what it was, a retest step as "retest P, step K/N: M flagged pairs A:B, ...";
// before each retest pass the total grows by its steps, said on one line (`judged_bytes`: the size the
// retests measure). Sets hooks.done and hooks.retest_pass.
void publish_progress(ScheduleHooks& hooks, Progress& progress, std::uint64_t judged_bytes);
// After drive_schedule: an adaptive search that decided before its round budget says so (the counter
// stopped below the total it started with).
void finish_progress(Progress& progress, const ScheduleOutcome& outcome);

// The adaptive search's own account for run.json's findings (INFO, check pairs.adaptive_search): rounds
// against the full schedule, suspects, what it confirmed and cleared.
Finding adaptive_search_finding(const ScheduleOutcome& outcome, const std::vector<NodeInfo>& nodes, int full_rounds);

}  // namespace podperf

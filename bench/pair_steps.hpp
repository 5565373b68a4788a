#pragma once
// Drives a pairs schedule through a step function, whatever measures the steps: --schedule all (the
// plan's circle rounds, then retests of the flagged pairs) or adaptive (sweep/adaptive_search: a few
// random matchings, suspects retested against good nodes, link checks, then the same retest of
// whatever the analysis still flags). The modelled fabric (bench/sim_pairs.cpp) and the adaptive
// benchmark (tests/perf) use it.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analysis/run.hpp"
#include "analysis/thresholds.hpp"
#include "sweep/adaptive_search.hpp"
#include "sweep/pair_schedule.hpp"

namespace podperf {

// Measures `pairs` (disjoint) at `sizes` and records them: new pairs of round `round` (retest false,
// `round_complete` when the round's last step), or retests of pairs measured before (retest true).
// Returns one PairResult per pair and size.
using StepFn = std::function<std::vector<PairResult>(const Round& pairs, int round,
                                                     const std::vector<std::uint64_t>& sizes, bool retest,
                                                     bool round_complete)>;
// Pairs the analysis flags at the judged size and that were not retested yet.
using SuspectsFn = std::function<std::vector<NodePair>()>;
// After each step: steps done, and a line about it (progress).
using StepDoneFn = std::function<void(const std::string& what)>;

struct ScheduleOptions {
  std::string schedule = "all";  // all | adaptive
  int retest = 1;                // passes re-measuring flagged pairs
  std::uint64_t seed = 0;
  bool sequential = false;       // one pair per step (--concurrency sequential)
  // adaptive with a topology (bench/adaptive_scope.hpp resolves them): flat ignores `groups`.
  AdaptiveParams::Scope scope = AdaptiveParams::Scope::kFlat;
  int level = -1;
  SearchGroups groups;
};

struct ScheduleOutcome {
  int rounds = 0;          // rounds measured, retest rounds of the adaptive schedule included
  int rounds_planned = 0;  // all: the plan's rounds; adaptive: the rounds it used (known at the end)
  bool adaptive = false;
  AdaptiveResult search;   // adaptive only
};

// `steps`/`round_of_step`: the plan (all). `sizes`: every size; the last is the judged one.
ScheduleOutcome drive_schedule(int nodes, const std::vector<Round>& steps, const std::vector<int>& round_of_step,
                               const std::vector<std::uint64_t>& sizes, const PairThresholds& thresholds,
                               const ScheduleOptions& o, const StepFn& step, const SuspectsFn& suspects,
                               const StepDoneFn& done);

// The adaptive search's own account for run.json's findings (INFO, check pairs.adaptive_search): rounds
// against the full schedule, suspects, what it confirmed and cleared.
Finding adaptive_search_finding(const ScheduleOutcome& outcome, const std::vector<NodeInfo>& nodes, int full_rounds);

}  // namespace podperf

#pragma once
// The one analysis chain every run goes through, whatever produced it: rank 0 at the end of a pairs
// run (bench/pairs_run), the modelled fabric in memory (bench/sim_pairs), and podperf report rebuilding
// a run from events.jsonl. In order: the pairs (baselines, flags, stragglers, links), the links a slow
// group confirmed by the adaptive search explains, the filesystem probes, the topology comparison,
// and the correlation of the slow results with the host signals (the pairs judged ok handed from the
// first to the last, so the pairs are read once). Floor: analysis (pure, local, no MPI). Throws
// nothing of its own.
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"

namespace podperf {

// What the run's own data does not hold: the slow groups (uplinks) the topology-aware adaptive search
// confirmed, each as its members (node indices, ascending).
struct JudgeInputs {
  std::vector<std::vector<int>> slow_groups;
  std::string results_dir;  // where the run's files are: the --baseline-from of the confirmations it suggests
};

// Judges `run` in place: judge_pairs (when it has pairs), explain_slow_groups, judge_fs (when it
// has probes), judge_topology, correlate.
// With the thresholds the run records (run.thresholds: record_thresholds), the one copy every judge,
// rebuild and printer reads.
void judge_run(Run& run, const JudgeInputs& inputs = {});

// After judge_pairs: the links leaving a slow group (one node inside it) are the group's, not links
// of their own, so they leave run.links; a pairs.intermittent_node finding goes too unless its node
// keeps intermittent_min_links links of its own. The pairs stay flagged (the exit code still says
// something is slow). `slow_groups`: each group's members, ascending.
void explain_slow_groups(Run& run, const std::vector<std::vector<int>>& slow_groups, int intermittent_min_links);

}  // namespace podperf

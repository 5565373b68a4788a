#pragma once
// The pair judge: writes into a Run what its pairs say. Pure: works on a Run's pairs and nodes.
//  - At every size but the judged one (the largest measured), the robust baseline of the ok pairs
//    (analysis/stats/baseline.hpp) and the pairs flagged by the low-pair rule against it (and beyond
//    noise_factor times the pair's own iteration noise): reported, never decisive (small sizes are
//    latency-bound and noisy).
//  - At the judged size, the node model (node_model.hpp, from pair_input.hpp) and its decisions
//    (pair_verdicts.hpp): every node's capacity estimate with its interval (run.node_estimates),
//    the stragglers (slowest first), the links, each pair's class level (baseline_gbps), ratio and flag,
//    and how it was judged (run.pair_judgement: the plain mean, the level, the cuts applied and why, the
//    classes, the absolute reference line).
//  - Findings (pair_findings.hpp): ambiguous and undecided nodes, intermittent nodes, slow crossings
//    and groups (each class gap once), faster classes, nodes of different kinds, no relative reference,
//    flagged pairs left unnamed; stalling nodes and nodes recovered in a retest (pair_stalls.hpp,
//    retest_recovered.hpp).
// Floor: analysis/pairs; pure; throws nothing.
#include <cstddef>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"
#include "analysis/pairs/judged_pairs.hpp"
#include "analysis/pairs/rerun_command.hpp"

namespace podperf {

// What the judge knows beyond the run's own data: the slow groups the topology-aware adaptive search
// confirmed (each its members, ascending: their uplinks are reported by the search, not again here) and
// where the run's results are (the --baseline-from of the confirmations it suggests; empty: results/RUN_ID).
struct PairJudgeContext {
  std::vector<std::vector<int>> slow_groups;
  std::string results_dir;
};

// Fills, in `run`: every pair's baseline_gbps, ratio, noise_gbps, flagged and cleared_by_retest;
// run.baselines; run.judged_size_bytes; run.stragglers; run.links; run.node_estimates;
// run.pair_judgement; the pairs.* findings (replacing those of an earlier pass). `threads` is accepted
// for the callers' sake (the judge runs on one). `judged`: when given, receives the pairs judged ok at
// the judged size for correlate().
void judge_pairs(Run& run, const PairThresholds& thresholds, std::size_t threads = 0, JudgedPairs* judged = nullptr,
                 const PairJudgeContext& context = {});

// The pairs worth measuring again after a pass (the retest planning, bench/pairs_run.cpp): at the
// judged size, the flagged pairs measured (not failed) with fewer retests than `max_retests`, then the
// pairs of undecided and ambiguous nodes with their healthy partners (more evidence decides them). Reads
// the run; judges it without changing it.
std::vector<std::array<int, 2>> pairs_to_retest(const Run& run, int max_retests);

// Exit code a finished run deserves: 1 when any pair failed (status not ok) at any size, or a straggler,
// link, pairs.slow_crossing, pairs.ambiguous or pairs.stalling_node finding exists; else 0. Flags at
// smaller sizes and flagged pairs left unnamed (pairs.chance_flags) are reported but do not change it.
int pairs_exit_code(const Run& run);

}  // namespace podperf

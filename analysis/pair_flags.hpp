#pragma once
// Flags slow pairs and names straggler nodes and slow links. Pure: works on a Run's pairs.
#include <cstddef>

#include "analysis/judged_pairs.hpp"
#include "analysis/run.hpp"
#include "analysis/thresholds.hpp"

namespace podperf {

// Fills, in `run`: every pair's baseline_gbps, ratio, noise_gbps and flagged; run.baselines;
// run.judged_size_bytes; run.stragglers; run.links. Reads run.pairs and run.nodes only.
//  - per op and size, baseline = robust_baseline of the ok pairs' median busbw;
//  - a pair is flagged when busbw < baseline * (1 - threshold), the gap exceeds noise_factor * its
//    own robust sigma, and the gap exceeds spread_factor * the robust sigma of the healthy pairs (so
//    that among hundreds of pairs, ordinary pair-to-pair spread is not flagged; that spread counts
//    at most as max_spread_fraction of the baseline); a pair whose
//    status is not ok is flagged too;
//  - at the judged size (largest measured), a node whose flagged share of pairs is above
//    straggler_fraction is a straggler; a flagged pair between two non-stragglers is a link finding.
//  - pairs with status timeout/aborted (not finished) are flagged but judge no node;
//  - a retested pair stays flagged only when its retest busbw is flagged by the same rules (against
//    the same baseline); otherwise cleared_by_retest.
// `threads`: 0 picks one per hardware thread (at most 8) from 200,000 pairs on, else one; the
// result is the same for any number.
// `judged`: when given, receives the pairs judged ok at the judged size for correlate() (which then
// need not read the pairs again).
void analyze_pairs(Run& run, const PairThresholds& thresholds, std::size_t threads = 0,
                   JudgedPairs* judged = nullptr);

// Records a retest measurement (a PairResult at one size) on the run's matching pair (same nodes,
// op and size): its samples and busbw. Returns false when no such pair exists.
bool attach_retest(Run& run, const PairResult& retest);

// Exit code a finished run deserves: 1 when any pair failed (status not ok) at any size, or is flagged
// at the judged size, or a straggler or link finding exists; else 0. Flags at smaller sizes are
// reported but do not change the exit code (latency-bound sizes are noisy).
int pairs_exit_code(const Run& run);

}  // namespace podperf

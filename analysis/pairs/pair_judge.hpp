#pragma once
// Flags slow pairs and names straggler nodes and slow links. Pure: works on a Run's pairs.
#include <cstddef>
#include <string>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"
#include "analysis/pairs/judged_pairs.hpp"

namespace podperf {

// Fills, in `run`: every pair's baseline_gbps, ratio, noise_gbps and flagged; run.baselines;
// run.judged_size_bytes; run.stragglers; run.links. Reads run.pairs and run.nodes only.
//  - per op and size, baseline = robust_baseline of the ok pairs' median busbw;
//  - a pair is flagged when busbw < baseline * (1 - threshold), the gap exceeds noise_factor * its
//    own robust sigma, and the gap exceeds spread_factor * the robust sigma of the healthy pairs (so
//    that among hundreds of pairs, ordinary pair-to-pair spread is not flagged; that spread counts
//    at most as max_spread_fraction of the baseline); a pair whose
//    status is not ok is flagged too;
//  - the baseline is anchored on a fast group when the pairs split into a fast group and a slow
//    majority (anchored_baseline, [pairs] anchor_gap_fraction): a slow majority cannot capture it; at
//    the judged size an anchor of fewer than anchor_min_pairs pairs must be reproduced by their
//    retests, else it names nothing (analysis/pairs/anchor_check.hpp);
//  - at the judged size (largest measured), the inference (analysis/pairs/pair_inference.hpp) names the
//    stragglers: nodes with no fast pair, slow with min_cleared_partners partners cleared by a fast
//    pair; undecided nodes get pairs.ambiguous findings, a slow crossing between two node sets a
//    pairs.slow_crossing finding (its pairs are no links); a flagged pair between two cleared nodes is a link finding
//    when it failed, was confirmed by a retest, or lies beyond the family margin (gap > z * spread,
//    z = normal quantile at 1 - link_family_alpha / pairs judged); the others are counted in an INFO
//    finding pairs.chance_flags (a non-straggler in intermittent_min_links links: pairs.intermittent_node);
//  - pairs with status timeout/aborted (not finished) are flagged but judge no node;
//  - a retested pair stays flagged only when its retest busbw is flagged by the same rules (against
//    the same baseline); otherwise cleared_by_retest.
// `threads`: 0 picks one per hardware thread (at most 8) from 200,000 pairs on, else one; the
// result is the same for any number.
// `judged`: when given, receives the pairs judged ok at the judged size for correlate() (which then
// need not read the pairs again).
void judge_pairs(Run& run, const PairThresholds& thresholds, std::size_t threads = 0, JudgedPairs* judged = nullptr);

// The start of a command that measures this run's pairs again the same way: "podperf pairs", or for a
// modelled fabric (run.simulated) "podperf pairs --backend sim --sim-model NAME --sim-nodes N --seed S"
// with the run's model, nodes and seed. Next steps append their options to it.
std::string pairs_rerun_command(const Run& run);

// Exit code a finished run deserves: 1 when any pair failed (status not ok) at any size, or a straggler,
// link, pairs.slow_crossing or pairs.ambiguous finding exists; else 0. Flags at smaller sizes (latency-bound sizes are
// noisy) and flagged pairs left unnamed by the family margin (pairs.chance_flags) are reported but do not change it.
int pairs_exit_code(const Run& run);

}  // namespace podperf

#pragma once
// The baseline of the judged size that a slow majority of unequal slow nodes cannot capture: the
// fastest consistent group of nodes. A pair runs at the speed of its slower node, so a node's best
// pair (its ceiling) is its own speed once it has one partner as fast. Unequal slow nodes (10-40%
// slower each) spread their pairs over 60-90% of the healthy figure, and when they are half the
// nodes or more the majority's baseline settles among them (analysis/stats/baseline.hpp), and its spread,
// taken over slow nodes' pairs too, hides them: two unequal slow hosts of four were missed silently.
// Their ceilings still stand apart: every slow node's is its own speed, below the healthy nodes'.
//
// When the best pair stands more than `threshold` above the majority's baseline, the fast group is
// the nodes whose ceilings reach within `threshold` of it, judged by the robust baseline of the pairs
// among them, which must be consistent (it drops at most [pairs] fastest_group_max_link_fraction of
// them as slow links). The group is the healthy level, and the other nodes slower ones (the inference
// then says which), when its level is beyond `threshold` above the majority's, every other node's
// ceiling is beyond `threshold` below it, and that gap exceeds the node-speed model's own noise times
// the Student t quantile at [pairs] fastest_group_confidence on the noise's degrees of freedom
// (spread_factor if larger; 4 nodes give about 3 degrees, t = 10.2). The noise: each pair belongs to
// its slower node, and the pooled standard deviation of the logarithms of each node's pairs about
// their mean (a retest is one more observation of its pair), at least the group's relative spread.
// A gap beyond spread_factor noises but not the quantile is suggestive: its pairs and the slower
// nodes' pairs with it are measured again by the retest (fastest_group_pairs_to_retest), so the run
// itself gathers what decides. Otherwise (a continuum: noise; every node reaching the top) the given
// baseline stands. A group of fewer than [pairs] anchor_min_pairs pairs must be reproduced by its
// retest like any few-pair anchor (analysis/pairs/anchor_check.hpp). Floor: analysis; pure; throws nothing.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"
#include "analysis/stats/baseline.hpp"

namespace podperf {

// The ok pairs at op/size, in the order of `pairs`: appends their indices to `index` and their busbw
// to `values` (the input of the functions below).
void ok_pairs_at(const std::vector<PairResult>& pairs, const std::string& op, std::uint64_t size,
                 std::vector<std::size_t>& index, std::vector<double>& values);

// `values[k]` is the busbw of `pairs[index[k]]` (one op and size; a retest may stand in for the first
// measurement). `majority`: the baseline of the same values so far (robust, then anchored); returned
// unchanged when it is already anchored or no fast group stands apart. Otherwise the group's baseline:
// value its robust mean, spread the model's noise (relative, times the value), kept its pairs kept,
// total every value, anchored.
Baseline fastest_group_baseline(const std::vector<PairResult>& pairs, const std::vector<std::size_t>& index,
                                const std::vector<double>& values, const Baseline& majority, const PairThresholds& t);

// The baseline a size's pairs are judged by: robust_baseline, then anchored_baseline, then
// fastest_group_baseline (above).
Baseline judged_size_baseline(const std::vector<PairResult>& pairs, const std::vector<std::size_t>& index,
                              const std::vector<double>& values, const PairThresholds& t);

// After judge_pairs: at the judged size, when a fast group is suggestive (above), its pairs and the
// slower nodes' pairs with it that have not been measured again, for the retest planning
// (bench/pairs_run.cpp retest_candidates), in the order of run.pairs.
std::vector<std::array<int, 2>> fastest_group_pairs_to_retest(const Run& analyzed, const PairThresholds& t);

}  // namespace podperf

#pragma once
// Joins the slow results with the findings of the hosts involved: for every straggler and slow
// link, the CONCERN findings of its host(s), ranked as likely causes; a straggler with no concern
// gets the next diagnostic step instead. Pure.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "analysis/model/run.hpp"
#include "analysis/pairs/judged_pairs.hpp"

namespace podperf {

// Fills Straggler::likely_causes / next_step and LinkFinding::likely_causes from run.findings, and,
// with at least `min_nodes` hosts, adds a finding for each host signal in run.node_metrics whose
// Spearman rank correlation with the hosts' median pair busbw (at the judged size) reaches
// |rho| >= 0.7: INFO when it is the expected direction (more errors, lower busbw), noted as such.
// `threads`: for the sweep over the pairs, as judge_pairs (0: one per hardware thread, at most 8,
// from 200,000 pairs on); the result is the same for any number.
// `judged`: what judge_pairs(run, ..., &judged) left (the pairs judged ok and their ratios) when
// nothing changed the pairs since; the hosts' medians then come from it instead of a sweep over
// every pair, with the same result. Null or not filled: the sweep.
void correlate(Run& run, std::size_t min_nodes = 6, std::size_t threads = 0, const JudgedPairs* judged = nullptr);

// The median busbw ratio of every host over its pairs at the judged size that finished ok (the upper
// median: element size/2 in ascending order); hosts without such pairs are absent. Nodes out of
// range count for the host "". `threads` as for correlate.
std::map<std::string, double> host_busbw_ratio(const Run& run, std::size_t threads = 0,
                                               const JudgedPairs* judged = nullptr);

// Spearman rank correlation of two equal-length samples (average ranks for ties); 0 when either is
// constant or shorter than 3.
double spearman(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace podperf

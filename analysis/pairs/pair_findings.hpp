#pragma once
// The pair test's findings at the judged size, from its decisions (pair_verdicts.hpp), each said once
// however many nodes or groups the run has:
//  - pairs.slow_crossing (CONCERN): a class of pairs (crossing a topology level, or between blocks
//    found in the matrix) slower than the pairs inside by more than the threshold and the noise, one
//    finding per class whatever the number of groups; a group whose pairs leaving it (its uplink) or
//    inside it are slower, one finding per group (not the adaptive search's own slow groups);
//  - pairs.faster_class (INFO): a group whose pairs inside run faster (an NVLink domain, one switch):
//    a class of its own, never the level the others are judged by;
//  - pairs.ambiguous (CONCERN): no healthy majority (half the nodes or more below the others, not far
//    enough to name them): slow nodes, or a faster class; relative judgement cannot tell;
//  - pairs.undecided (INFO): nodes below the threshold but within the noise, with the retest that decides;
//  - pairs.intermittent_node (CONCERN): a node whose measurements are bimodal;
//  - pairs.mixed_nodes (INFO): nodes of different kinds (ranks per node, instance type), judged apart;
//  - pairs.no_reference (INFO): fewer than 3 nodes of one kind: no relative judgement, and what would judge;
//  - pairs.below_published (CONCERN): the population's level below the instance type's published figure;
//  - pairs.chance_flags (INFO): flagged pairs between healthy nodes inside the link cut.
// The stragglers' next step (a confirmation against a known-good node, judged against this run with
// --baseline-from) is set here too. Floor: analysis/pairs; pure; throws nothing.
#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/pairs/pair_verdicts.hpp"

namespace podperf {

// Replaces the findings above of an earlier pass with those of `v`.
void add_pair_findings(Run& run, const PairVerdicts& v, const PairThresholds& t, const PairJudgeContext& context);

// The checks add_pair_findings writes (and replaces).
bool is_pair_judge_check(const std::string& check);

}  // namespace podperf

#pragma once
// Joins a retest to the pair it measures again. Used by every producer of a Run that retests pairs:
// the pairs run (bench/pairs_run), the modelled fabric (bench/sim_pairs) and the events reader that
// rebuilds a run (analysis/io/run_events). Pure, local; throws nothing.
#include "analysis/model/run.hpp"

namespace podperf {

// Records a retest measurement (a PairResult at one size) on the run's matching pair (same nodes,
// op and size): the first retest's samples and busbw, then each later retest's busbw beside them (a
// retest adds evidence; it never replaces an earlier measurement). A failed retest records nothing.
// Returns false when no such pair exists.
bool attach_retest(Run& run, const PairResult& retest);

}  // namespace podperf

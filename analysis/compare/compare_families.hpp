#pragma once
// The families of a comparison's tests (podperf compare): one per metric kind, as faults move: pairs
// (every pair metric, with the common shifts and the nodes of compare_pair_levels), topology classes,
// collectives, filesystem. Each family gets an equal share of alpha (so a healthy comparison exits 1 at
// most at alpha whatever kinds its runs measured), its p values are adjusted together
// (Benjamini-Hochberg, or none), and every hypothesis gets its verdict and its true sensitivity: the
// change its test finds with the stated power at the alpha one lone change among the family's
// hypotheses must reach (the family's alpha over their number: Benjamini-Hochberg's first step), by
// the noncentral t, never below what --min-change lets count. Per family and level, what it could have
// seen (the worst of its hypotheses, and how many runs per side would see the target).
// Floor: analysis/compare; pure, deterministic.
#include "analysis/compare/types.hpp"

namespace podperf {

// The family of a metric kind.
const char* family_of(MetricKind kind);

// Adjusts, judges and states the sensitivity of every metric and pair level of `c`; fills c.families.
void judge_families(Comparison& c, const CompareSettings& settings);

// Per family and level, the median and worst mde_percent, and the runs per side that would see
// `target_percent` in the worst (c.sensitivity). After explain_pairs.
void describe_sensitivity(Comparison& c, const CompareSettings& settings, double target_percent);

// The smallest |change| in percent a test of standard error `se_log` (log scale) with `df` degrees of
// freedom finds with `power` at `alpha`, and no smaller than a change that --min-change
// (`min_change_percent`) lets count with that power. Infinite when se_log is not positive.
double detectable_change_percent(double se_log, double df, double alpha, double power, double min_change_percent);

}  // namespace podperf

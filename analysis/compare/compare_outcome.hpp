#pragma once
// The verdict of a comparison (podperf compare), decided once and stored in Comparison::outcome: the
// printers and the command only read it.
//   REGRESSION: something AFTER is worse beyond --fail-on: a slower metric (the pairs a node or the
//     common shift explains counted in that node or shift), a slower node, a slower common shift, a
//     straggler, slow link or slow crossing the AFTER runs' own verdicts name and no BEFORE run does,
//     or a measurement that failed in AFTER and in no BEFORE run (whatever --fail-on says).
//   INCONCLUSIVE: no regression found, but some level of some family (Comparison::sensitivity) could
//     not have seen a change of the target (--fail-on, or twice --min-change when --fail-on is 0): its
//     worst hypothesis's minimum detectable effect is above it, or it could not be tested at all.
//   No regression: neither, so the comparison could have seen one.
// Exit code: 1 on REGRESSION; 4 with --max-mde PCT when some level could not have seen a change of PCT;
// else 0. Floor: analysis/compare; pure.
#include "analysis/compare/types.hpp"

namespace podperf {

// The target a comparison must be able to see (--fail-on, or twice min_change_percent).
double outcome_target_percent(const CompareSettings& settings);

// The items of a REGRESSION at `fail_on_percent`, in the order they are printed (the runs' own new
// stragglers, links and crossings; nodes; common shifts; metrics; failures), and how many metrics are
// slower beyond it.
std::vector<RegressionItem> regressions_at(const Comparison& c, double fail_on_percent, int& slower_beyond);

// The sides with one run when the comparison found any change ("BEFORE", "AFTER", "BEFORE and AFTER"),
// else "": one job cannot tell a transient of that job from a lasting change.
std::string single_run_sides(const Comparison& c);

// Decides c.outcome from c's verdicts, levels, run verdicts, failures and sensitivity (which must have
// been described at outcome_target_percent(settings)).
void decide_outcome(Comparison& c, const CompareSettings& settings);

}  // namespace podperf

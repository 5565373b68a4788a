#pragma once
// The sentences a comparison's printers share (text, JSON's verdict line, HTML): the outcome's first
// line, each REGRESSION item, each level that could not see the target, the sensitivity of each level,
// the consistency of each side and the runs' own verdicts. Floor: the printers' wing
// (analysis/report/); pure, local; throws nothing. Words only: every number is the Comparison's.
#include <string>
#include <vector>

#include "analysis/compare/types.hpp"

namespace podperf {

// The first line of every output: "REGRESSION: ...", "INCONCLUSIVE: ..." or "No regression beyond 5%
// (--fail-on): ...".
std::string outcome_line(const Comparison& c);
// The word of the outcome: REGRESSION, INCONCLUSIVE, NO REGRESSION.
std::string outcome_word(const Comparison& c);
// One REGRESSION item in words ("node sim0005 12.3% slower ...", "new straggler: sim0005, 15% slow in 1
// of 1 AFTER runs ...", "3 metrics slower by more than 10% (--fail-on)").
std::string regression_words(const Comparison& c, const RegressionItem& item);
// Why a level could not see the target ("pairs, links: a change of 12.6% at worst (pair a<->b ...); 9
// runs per side would see 4%"; "pairs, all pairs: untestable: one run a side cannot ...").
std::string blind_words(const Comparison& c, const LevelSensitivity& l);
// What one run on a side cannot tell, when it found a change ("" when outcome.single_run_sides is "").
std::string single_run_words(const CompareOutcome& o);
// What a level could see ("pairs, nodes (64 tested): 1.1% typical, 1.6% at worst (node sim0012 ...)").
std::string sensitivity_words(const Comparison& c, const LevelSensitivity& l);
// The family's alpha in words ("pairs: 2,081 tests at FDR 0.05; one lone change must reach 2.4e-05").
std::string family_words(const FamilySummary& f);
// The consistency verdict ("AFTER less consistent: run r3 is 40.0% below the other two (...)"), or how
// far each side's runs agree; "" when not tested.
std::string consistency_words(const ConsistencyVerdict& v);
// One of the runs' own verdicts ("new straggler: sim0005, 15% slow in 1 of 1 AFTER runs; no BEFORE run
// named it").
std::string run_verdict_words(const RunVerdictChange& v);
// Why something could not be tested, for people.
std::string untestable_words(const std::string& why);
// A metric's test in words ("moderated t, 812 df", "against the spread of all pairs' changes, 44 df").
std::string test_words(const MetricComparison& m);

}  // namespace podperf

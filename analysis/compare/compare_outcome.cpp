// The verdict of a comparison, decided once (see compare_outcome.hpp). Floor: analysis/compare; pure.
#include "analysis/compare/compare_outcome.hpp"

#include <algorithm>

#include "analysis/compare/compare.hpp"
#include "analysis/compare/compare_pair_levels.hpp"

namespace podperf {

double outcome_target_percent(const CompareSettings& s) {
  return s.fail_on_percent > 0.0 ? s.fail_on_percent : 2.0 * s.min_change_percent;
}

std::vector<RegressionItem> regressions_at(const Comparison& c, double fail_on_percent, int& slower_beyond) {
  std::vector<RegressionItem> out;
  // The runs' own verdicts: named by AFTER and by no BEFORE run, and confirmed by the comparison's own
  // tests (a size the runs do not give counts).
  for (const RunVerdictChange& v : c.run_verdicts) {
    if (v.status != "new" || !v.confirmed || (v.slow_percent > 0.0 && v.slow_percent <= fail_on_percent)) continue;
    RegressionItem item;
    item.kind = "new " + v.kind;
    item.name = v.name;
    item.regression_percent = v.slow_percent;
    item.count = static_cast<std::size_t>(v.after_named);
    item.runs = std::to_string(v.after_named) + " of " + std::to_string(v.after_runs) + " AFTER runs";
    out.push_back(std::move(item));
  }
  for (const std::string level : {"node", "all pairs"}) {
    for (const PairLevelTest& t : c.pair_levels) {
      if (t.level != level || t.verdict != "slower" || -t.change_percent <= fail_on_percent) continue;
      RegressionItem item;
      item.kind = level;
      item.name = pair_level_name(t);
      item.regression_percent = -t.change_percent;
      item.count = t.explains;
      out.push_back(std::move(item));
    }
  }
  double worst = 0.0;
  slower_beyond = 0;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict != "slower" || regression_percent(m) <= fail_on_percent) continue;
    ++slower_beyond;
    worst = std::max(worst, regression_percent(m));
  }
  if (slower_beyond > 0) {
    RegressionItem item;
    item.kind = "metrics";
    item.count = static_cast<std::size_t>(slower_beyond);
    item.regression_percent = worst;
    out.push_back(std::move(item));
  }
  if (c.summary.failures_new > 0) {
    RegressionItem item;
    item.kind = "failures";
    item.count = static_cast<std::size_t>(c.summary.failures_new);
    out.push_back(std::move(item));
  }
  return out;
}

std::string single_run_sides(const Comparison& c) {
  const auto changed = [](const std::string& verdict) { return verdict == "slower" || verdict == "faster"; };
  const bool any_change =
      std::any_of(c.metrics.begin(), c.metrics.end(), [&](const MetricComparison& m) { return changed(m.verdict); }) ||
      std::any_of(c.pair_levels.begin(), c.pair_levels.end(),
                  [&](const PairLevelTest& t) { return changed(t.verdict); }) ||
      std::any_of(c.run_verdicts.begin(), c.run_verdicts.end(),
                  [](const RunVerdictChange& v) { return v.status == "new" || v.status == "gone"; });
  if (!any_change) return "";
  if (c.runs_before == 1 && c.runs_after == 1) return "BEFORE and AFTER";
  if (c.runs_after == 1) return "AFTER";
  if (c.runs_before == 1) return "BEFORE";
  return "";
}

void decide_outcome(Comparison& c, const CompareSettings& s) {
  CompareOutcome& o = c.outcome;
  o = CompareOutcome{};
  o.fail_on_percent = s.fail_on_percent;
  o.target_percent = outcome_target_percent(s);
  o.max_mde_percent = s.max_mde_percent;
  o.regressions = regressions_at(c, s.fail_on_percent, o.slower_beyond);
  for (std::size_t i = 0; i < c.sensitivity.size(); ++i) {
    if (!c.sensitivity[i].sees_target) o.blind.push_back(i);
  }
  for (std::size_t i = 0; i < c.run_verdicts.size(); ++i) {
    const RunVerdictChange& v = c.run_verdicts[i];
    const double slow = v.slow_percent > 0.0 ? v.slow_percent : o.target_percent;
    if (v.status == "new" && !v.confirmed && v.compare_mde_percent > slow) o.unconfirmed.push_back(i);
  }
  o.verdict = !o.regressions.empty()                       ? "regression"
              : !o.blind.empty() || !o.unconfirmed.empty() ? "inconclusive"
                                                           : "no_regression";
  const bool too_blind = s.max_mde_percent >= 0.0 &&
                         std::any_of(c.sensitivity.begin(), c.sensitivity.end(), [&](const LevelSensitivity& l) {
                           return l.tested == 0 || l.untestable > 0 || l.mde_worst_percent > s.max_mde_percent;
                         });
  o.exit_code = o.verdict == "regression" ? 1 : too_blind ? 4 : 0;
  o.single_run_sides = single_run_sides(c);
}

}  // namespace podperf

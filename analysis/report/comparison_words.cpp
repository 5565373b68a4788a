// The sentences a comparison's printers share (see comparison_words.hpp). Floor: the printers' wing
// (analysis/report/); pure, local; throws nothing. Layout only: every number is the Comparison's.
#include "analysis/report/comparison_words.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string_view>

#include "analysis/base/text.hpp"

namespace podperf {
namespace comparison_words_detail {

const char* plural(std::size_t n) {
  return n == 1 ? "" : "s";
}

std::string others(std::size_t runs) {
  if (runs == 2) return "the other one";
  if (runs == 3) return "the other two";
  return fmt::format("the other {}", runs - 1);
}

std::string target_words(const CompareOutcome& o) {
  return o.fail_on_percent > 0.0 ? "--fail-on" : "twice --min-change";
}

}  // namespace comparison_words_detail

using namespace comparison_words_detail;

std::string untestable_words(const std::string& why) {
  if (why == "one_run_a_side") {
    return "one run a side: nothing measures how much whole runs differ from launch to launch (give 3 or more runs "
           "per side)";
  }
  if (why == "zero_variance")
    return "zero variance: every run of each side gave the same value, no spread to test against";
  if (why == "too_few_pairs") return "fewer than 6 pairs measured in both runs: too few to measure their spread";
  if (why == "too_few_nodes") return "fewer than 8 nodes: a node's change cannot be told from the spread of the nodes";
  if (why == "intermittent_both_sides") {
    return "a node of the pair is slow now and then in runs of both sides (their own pairs.intermittent_node, "
           "recovered_in_retest or stalling_node): its pairs move with its flaps, not with the change; the runs' "
           "own verdicts compare it";
  }
  return why.empty() ? "not tested" : why;
}

std::string test_words(const MetricComparison& m) {
  const std::string_view test = m.test;
  if (test == "moderated_t") {
    return fmt::format("{} t, {:.0f} df", m.variance_outlier ? "its own spread (far above its kind's)" : "moderated",
                       m.df);
  }
  if (test == "pair_spread") return fmt::format("against the spread of all pairs' changes, {:.0f} df", m.df);
  return untestable_words(m.untestable_why);
}

std::string regression_words(const Comparison& c, const RegressionItem& item) {
  if (item.kind == "metrics") {
    return fmt::format("{} metric{} slower by more than {:g}% (--fail-on)", item.count, plural(item.count),
                       c.outcome.fail_on_percent);
  }
  if (item.kind == "node") {
    return fmt::format("{} {:.1f}% slower than the other nodes (the median of its pairs beyond the common shift){}",
                       item.name, item.regression_percent,
                       item.count > 0
                           ? fmt::format("; {} changed pair metric{} roll up into it", item.count, plural(item.count))
                           : "");
  }
  if (item.kind == "all pairs") {
    return fmt::format(
        "{} {:.1f}% slower together (the common shift of every pair){}", item.name, item.regression_percent,
        item.count > 0 ? fmt::format("; {} changed pair metric{} roll up into it", item.count, plural(item.count))
                       : "");
  }
  if (item.kind == "failures") {
    return fmt::format(
        "{} failure{} in AFTER that no BEFORE run had (failed measurements, runs that did not complete; a regression "
        "whatever --fail-on says)",
        item.count, plural(item.count));
  }
  // new straggler | new slow link | new slow crossing
  return fmt::format("{}: {}, {}in {} (the runs' own verdict; no BEFORE run named it)", item.kind, item.name,
                     item.regression_percent > 0.0 ? fmt::format("{:.0f}% slow ", item.regression_percent) : "",
                     item.runs);
}

std::string single_run_words(const CompareOutcome& o) {
  if (o.single_run_sides.empty()) return "";
  const bool both = o.single_run_sides == "BEFORE and AFTER";
  return fmt::format(
      "one run {}: a change found here may be a transient of {} (a pair or node slow only during it) as well "
      "as a lasting change; compare 3 or more runs per side (--before RUN... --after RUN...) to tell them apart",
      both ? "a side" : "on the " + o.single_run_sides + " side", both ? "either job" : "that one job");
}

std::string blind_words(const Comparison& c, const LevelSensitivity& l) {
  const double target = c.outcome.target_percent;
  if (l.tested == 0 || (l.untestable > 0 && l.mde_worst_percent <= target)) {
    return fmt::format("{}, {}: {} untestable ({})", l.family, l.level, l.untestable,
                       untestable_words(l.untestable_why));
  }
  std::string out =
      fmt::format("{}, {}: a change of {:.1f}% at worst ({})", l.family, l.level, l.mde_worst_percent, l.worst);
  if (l.untestable > 0)
    out += fmt::format(", and {} untestable ({})", l.untestable, untestable_words(l.untestable_why));
  if (l.runs_needed > 0) {
    out += fmt::format("; {} runs per side would see {:g}%", l.runs_needed, target);
  } else if (l.runs_needed < 0 && l.untestable == 0) {
    out += fmt::format("; no run count up to 1,000 would see {:g}% (below what --min-change lets count)", target);
  }
  return out;
}

std::string sensitivity_words(const Comparison& c, const LevelSensitivity& l) {
  (void)c;
  if (l.tested == 0) {
    return fmt::format("{}, {}: {} untestable ({})", l.family, l.level, l.untestable,
                       untestable_words(l.untestable_why));
  }
  std::string out = fmt::format("{}, {} ({} tested", l.family, l.level, l.tested);
  if (l.untestable > 0) out += fmt::format(", {} untestable: {}", l.untestable, untestable_words(l.untestable_why));
  out += fmt::format("): {:.1f}% typical, {:.1f}% at worst ({}); at p {:.2g}", l.mde_median_percent,
                     l.mde_worst_percent, l.worst, l.alpha_effective);
  return out;
}

std::string family_words(const FamilySummary& f) {
  std::vector<std::string> stages;
  for (const FamilyStage& st : f.stages) {
    const std::string what = st.name == "levels"  ? "common shifts and nodes first"
                             : st.name == "links" ? "then the pairs"
                                                  : "";
    stages.push_back(fmt::format("{}{}{} test{} at alpha {:.3g}, one lone change must reach p {:.2g}", what,
                                 what.empty() ? "" : ": ", st.hypotheses, plural(st.hypotheses), st.alpha,
                                 st.alpha_effective));
  }
  return fmt::format("{} (alpha {:.3g}: {})", f.name, f.alpha, text::join(stages, "; "));
}

std::string consistency_words(const ConsistencyVerdict& v) {
  if (!v.tested) return "";
  if (!v.less_consistent.empty()) {
    const bool after = v.less_consistent == "AFTER";
    const SideConsistency& side = after ? v.after : v.before;
    const SideConsistency& other = after ? v.before : v.after;
    return fmt::format(
        "{} less consistent: run {} is {:.1f}% {} {} (its runs' typical offsets spread {:.1f}% against {:.1f}% for "
        "{}, F test p {:.2g}): a change between the sides cannot be told apart from that run",
        v.less_consistent, side.farthest_run, std::fabs(side.farthest_percent),
        side.farthest_percent < 0.0 ? "below" : "above", others(side.runs), side.spread_percent, other.spread_percent,
        after ? "BEFORE" : "AFTER", v.p_value);
  }
  return fmt::format(
      "the runs of each side agree alike (the spread of a run's typical offset from its side: BEFORE {:.1f}%, AFTER "
      "{:.1f}%; farthest: BEFORE {} {:+.1f}%, AFTER {} {:+.1f}%)",
      v.before.spread_percent, v.after.spread_percent, v.before.farthest_run, v.before.farthest_percent,
      v.after.farthest_run, v.after.farthest_percent);
}

std::string run_verdict_words(const RunVerdictChange& v) {
  const std::string slow = v.slow_percent > 0.0 ? fmt::format("{:.0f}% slow, ", v.slow_percent) : "";
  if (v.status == "new") {
    std::string check;
    if (v.confirmed) {
      check = "this comparison's own test agrees";
    } else if (!std::isfinite(v.compare_mde_percent)) {
      check = "this comparison has no test of it, so it cannot confirm it";
    } else if (v.compare_mde_percent > (v.slow_percent > 0.0 ? v.slow_percent : 0.0)) {
      check = fmt::format("this comparison cannot confirm it: it could only have seen a change of {:.1f}%",
                          v.compare_mde_percent);
    } else {
      check = fmt::format("not confirmed: this comparison would have seen a change of {:.1f}% and did not",
                          v.compare_mde_percent);
    }
    return fmt::format("new {}: {}, {}in {} of {} AFTER runs; no BEFORE run named it; {}", v.kind, v.name, slow,
                       v.after_named, v.after_runs, check);
  }
  if (v.status == "gone") {
    return fmt::format("gone {}: {}, {}named by {} of {} BEFORE runs and by no AFTER run", v.kind, v.name, slow,
                       v.before_named, v.before_runs);
  }
  return fmt::format("{} {}: {}, {}named by {} of {} BEFORE and {} of {} AFTER runs", v.kind,
                     v.status == "both" ? "on both sides" : "now and then", v.name, slow, v.before_named, v.before_runs,
                     v.after_named, v.after_runs);
}

std::string outcome_word(const Comparison& c) {
  if (c.outcome.verdict == "regression") return "REGRESSION";
  if (c.outcome.verdict == "inconclusive") return "INCONCLUSIVE";
  return "NO REGRESSION";
}

std::string outcome_line(const Comparison& c) {
  const CompareOutcome& o = c.outcome;
  if (o.verdict == "regression" && !o.regressions.empty()) {
    std::string out = "REGRESSION: " + regression_words(c, o.regressions.front());
    if (o.regressions.size() > 1) {
      out += fmt::format(" (and {} more finding{} below)", o.regressions.size() - 1, plural(o.regressions.size() - 1));
    }
    return out;
  }
  if (o.verdict == "inconclusive" && o.blind.empty() && !o.unconfirmed.empty()) {
    const RunVerdictChange& v = c.run_verdicts[o.unconfirmed.front()];
    return fmt::format(
        "INCONCLUSIVE: no regression found, but the AFTER runs' own verdicts name a new {} ({}{}) that this comparison "
        "could not have seen{}",
        v.kind, v.name, v.slow_percent > 0.0 ? fmt::format(", {:.0f}% slow", v.slow_percent) : "",
        o.unconfirmed.size() > 1 ? fmt::format(" (and {} more below)", o.unconfirmed.size() - 1) : "");
  }
  if (o.verdict == "inconclusive" && !o.blind.empty()) {
    std::string out = fmt::format(
        "INCONCLUSIVE: no regression found, but this comparison could not have seen a change of {:g}% ({}): {}",
        o.target_percent, target_words(o), blind_words(c, c.sensitivity[o.blind.front()]));
    if (o.blind.size() > 1)
      out += fmt::format(" (and {} more level{} below)", o.blind.size() - 1, plural(o.blind.size() - 1));
    return out;
  }
  return fmt::format("No regression beyond {:g}% (--fail-on): every level could have seen a change of {:g}%",
                     o.fail_on_percent, o.target_percent);
}

}  // namespace podperf

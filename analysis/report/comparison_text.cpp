// The terminal text of a comparison (podperf compare without --json). Floor: the printers' wing
// (analysis/report/); pure, local; throws nothing. Layout only: every number is the Comparison's.
#include "analysis/report/comparison_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/base/text.hpp"

namespace podperf {
namespace {

std::string format_value(double v, std::string_view unit) {
  if (unit == "GB/s") return fmt::format("{:.2f} {}", v, unit);
  if (std::fabs(v) >= 1000.0) return fmt::format("{:.0f} {}", v, unit);
  return fmt::format("{:.4g} {}", v, unit);
}

std::string format_p(double p) {
  if (p < 0.0) return "-";
  if (p < 0.0001) return "<0.0001";
  return fmt::format("{:.4f}", p);
}

std::string table(const std::vector<const MetricComparison*>& rows, std::size_t cap, double confidence) {
  std::size_t width = 6;
  for (std::size_t i = 0; i < rows.size() && i < cap; ++i) width = std::max(width, rows[i]->name().size());
  std::string out = fmt::format("  {:<{}}  {:>14}  {:>14}  {:>8}  {:>20}  {:>8}  {}\n", "metric", width, "before",
                                "after", "change", fmt::format("{:.0f}% interval", confidence * 100.0), "p adj", "n");
  for (std::size_t i = 0; i < rows.size() && i < cap; ++i) {
    const MetricComparison& m = *rows[i];
    out += fmt::format("  {:<{}}  {:>14}  {:>14}  {:>+7.1f}%  {:>20}  {:>8}  {}/{}\n", m.name(), width,
                       format_value(m.before, m.unit()), format_value(m.after, m.unit()), m.change_percent,
                       fmt::format("[{:+.1f}%, {:+.1f}%]", m.ci_low_percent, m.ci_high_percent), format_p(m.p_adjusted),
                       m.n_before, m.n_after);
  }
  if (rows.size() > cap) out += fmt::format("  ... and {} more (--json lists every metric)\n", rows.size() - cap);
  return out;
}

}  // namespace

std::string verdict_text(const std::string& verdict) {
  if (verdict == "within_allowance") return "within the run-to-run allowance";
  if (verdict == "slower_beyond_allowance") return "SLOWER beyond the run-to-run allowance";
  if (verdict == "faster_beyond_allowance") return "faster beyond the run-to-run allowance";
  if (verdict == "no_change") return "no change within noise";
  return verdict;
}

std::string method_line(const Comparison& c) {
  if (c.method == "run_level_welch") return "the run is the unit (Welch's t on per-run medians)";
  if (c.method == "block_level_welch") {
    return fmt::format("the block is the unit ({} BEFORE, {} AFTER blocks of --repeat; Welch's t on per-block medians)",
                       c.units_before, c.units_after);
  }
  return "one run on a side: no test, changes judged against the run-to-run allowance (3 runs per side to test)";
}

std::string mde_words(const Comparison& c) {
  if (c.summary.no_change == 0) return "";
  return fmt::format("a change of more than {:.1f}% would have been seen (median over these metrics; {:.1f}% at most)",
                     c.summary.mde_median_percent, c.summary.mde_max_percent);
}

std::string spread_words(const Comparison& c) {
  const ComparisonSummary& sum = c.summary;
  if (sum.iteration_share_metrics == 0 || sum.iteration_share_median < 0.0) return "";
  const double percent = 100.0 * sum.iteration_share_median;
  const std::string over =
      fmt::format("median over {} metric{}", sum.iteration_share_metrics, sum.iteration_share_metrics == 1 ? "" : "s");
  if (sum.iteration_share_median >= 0.6) {
    return fmt::format(
        "iterations explain about {:.0f}% of the spread between these runs ({}): more iterations per run (-n, or "
        "--repeat) would shrink the smallest change they can show; the rest differs from launch to launch, which "
        "only more runs shrink",
        percent, over);
  }
  if (sum.iteration_share_median <= 0.3) {
    return fmt::format(
        "the spread between these runs is mostly from launch to launch (iterations explain about {:.0f}%, {}): more "
        "runs per side would shrink the smallest change they can show, more iterations per run would not",
        percent, over);
  }
  return fmt::format(
      "iterations explain about {:.0f}% of the spread between these runs ({}) and launch-to-launch differences the "
      "rest: more iterations per run and more runs per side both shrink the smallest change they can show",
      percent, over);
}

std::string method_text(const Comparison& c) {
  const CompareSettings& s = c.settings;
  if (c.method == "block_level_welch") {
    return fmt::format(
        "the block is the statistical unit ({} BEFORE, {} AFTER blocks of --repeat, each every case once, in a "
        "shuffled order for pairs and collectives, in the chain's order for filesystem probes): each metric is "
        "summarized per block (its median over iterations, or over ranks for a filesystem probe) and the per-block "
        "medians are compared with Welch's two-sided t test on their logarithms, p adjusted for the {} metrics "
        "tested ({}); slower or faster only when p < {:g} and |change| >= {:g}%, which is at least the run-to-run "
        "allowance: blocks see drift within a job, not launch-to-launch variance, so a smaller change between two "
        "jobs would be no evidence; only separate jobs (3 or more runs per side) measure that. Metrics not "
        "measured in blocks keep the run as unit and are judged against the run-to-run allowance of {:g}%. "
        "Settings: {}",
        c.units_before, c.units_after, c.summary.slower + c.summary.faster + c.summary.no_change,
        s.correction == "none" ? "no correction" : "Benjamini-Hochberg", s.alpha, s.min_change_percent,
        s.single_run_allowance_percent, s.source);
  }
  if (c.method == "run_level_welch") {
    return fmt::format(
        "the run is the statistical unit ({} BEFORE, {} AFTER runs): each metric is summarized per run (its "
        "median) and the per-run medians are compared with Welch's two-sided t test on their logarithms "
        "(benchstat's model of one sample per run), p adjusted for the {} metrics tested ({}); slower or faster "
        "only when p < {:g} and |change| >= {:g}%. Change: ratio of geometric means of the per-run medians; "
        "interval: {:.0f}% Welch t interval (analytic); a no change states the change the test finds with {:.0f}% "
        "power. Runs on one side must be separate jobs: blocks of one job would not capture launch-to-launch "
        "variance. Settings: {}",
        c.runs_before, c.runs_after, c.summary.slower + c.summary.faster + c.summary.no_change,
        s.correction == "none" ? "no correction" : "Benjamini-Hochberg", s.alpha, s.min_change_percent,
        s.confidence * 100.0, s.power * 100.0, s.source);
  }
  return fmt::format(
      "one run on a side ({} BEFORE, {} AFTER): iterations of one job share its placement, links and load, so they "
      "cannot measure the run-to-run spread and no significance is claimed from them; a change beyond the "
      "run-to-run allowance of {:g}% is reported (and a regression beyond it and beyond --fail-on exits 1). Give 3 "
      "or more runs per side (--before RUN... --after RUN...) to test. Change: ratio of the runs' medians. "
      "Settings: {}",
      c.runs_before, c.runs_after, s.single_run_allowance_percent, s.source);
}

std::string from_retest_note(const Comparison& c) {
  const std::size_t retested = c.from_retest_before.size() + c.from_retest_after.size();
  if (retested == 0) return "";
  std::vector<std::string> listed;
  for (const std::string& m : c.from_retest_before) listed.push_back("BEFORE " + m);
  for (const std::string& m : c.from_retest_after) listed.push_back("AFTER " + m);
  if (listed.size() > 4) listed.resize(4), listed.emplace_back("...");
  return fmt::format(
      "{} pair metric{} compared by the pair's retest, as its run judged it (the first measurement was slow, the "
      "retest cleared it as a transient): {}",
      retested, retested == 1 ? "" : "s", text::join(listed, "; "));
}

// The failures of one side with other_side_too == shared, up to `cap` lines, then how many more.
std::string failure_lines(const std::vector<ComparedFailure>& failures, bool shared, std::size_t cap) {
  std::string out;
  std::size_t shown = 0, more = 0;
  for (const ComparedFailure& f : failures) {
    if (f.other_side_too != shared) continue;
    if (shown == cap) {
      ++more;
      continue;
    }
    ++shown;
    out += fmt::format("  {}: {} in run {}{}\n", f.what, f.status, text::join(f.runs, ", "),
                       f.error.empty() ? "" : " (" + f.error + ")");
  }
  if (more > 0) out += fmt::format("  ... and {} more (--json lists them all)\n", more);
  return out;
}

std::string format_metric_value(double v, std::string_view unit) {
  return format_value(v, unit);
}

std::string format_p_value(double p) {
  return format_p(p);
}

std::string comparison_text(const Comparison& c, double fail_on_percent) {
  const CompareSettings& s = c.settings;
  std::string out = fmt::format("podperf compare: BEFORE {} (run {}) -> AFTER {} (run {})\n", c.before_source,
                                c.before_run_id, c.after_source, c.after_run_id);
  const ComparisonSummary& sum = c.summary;
  out += fmt::format("Summary: {} slower, {} faster, {} no change within noise, {} not tested; {} metrics in both runs",
                     sum.slower, sum.faster, sum.no_change, sum.untested, c.metrics.size());
  if (sum.only_before + sum.only_after > 0) {
    out += fmt::format(" ({} only in BEFORE, {} only in AFTER)", sum.only_before, sum.only_after);
  }
  out += "\n";
  out += fmt::format("Runs: {} BEFORE, {} AFTER; {}\n", c.runs_before, c.runs_after, method_line(c));
  for (const std::string& w : c.unit_warnings) out += "WARNING: " + w + "\n";
  const int beyond = slower_beyond(c, fail_on_percent);
  if (beyond > 0) {
    out += fmt::format("REGRESSION: {} metric{} slower by more than {:g}% (--fail-on)\n", beyond,
                       beyond == 1 ? "" : "s", fail_on_percent);
  }
  if (sum.failures_new > 0) {
    out += fmt::format(
        "REGRESSION: {} failure{} in AFTER that no BEFORE run had (failed measurements, runs that did not "
        "complete; a regression whatever --fail-on says):\n{}",
        sum.failures_new, sum.failures_new == 1 ? "" : "s", failure_lines(c.failures_after, false, 10));
  }
  if (beyond == 0 && sum.failures_new == 0)
    out += fmt::format("No regression beyond {:g}% (--fail-on)\n", fail_on_percent);
  if (sum.failures_both > 0) {
    out += fmt::format("WARNING: {} failure{} on both sides (not new, still failing):\n{}", sum.failures_both,
                       sum.failures_both == 1 ? "" : "s", failure_lines(c.failures_after, true, 5));
  }
  if (!c.comparability.empty()) {
    out += "WARNING: the runs are not comparable in every way (the common metrics are still compared):\n";
    for (const ComparabilityNote& n : c.comparability) {
      out += fmt::format("  {}: BEFORE {}; AFTER {}\n", n.what, n.before, n.after);
    }
  }
  const std::string retest_note = from_retest_note(c);
  if (!retest_note.empty()) out += "NOTE: " + retest_note + "\n";
  auto by_change = [](const MetricComparison* x, const MetricComparison* y) {
    return std::fabs(x->change_percent) > std::fabs(y->change_percent);
  };
  std::vector<const MetricComparison*> slower, faster, untested;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "slower") slower.push_back(&m);
    if (m.verdict == "faster") faster.push_back(&m);
    if (m.p_value < 0.0) untested.push_back(&m);
  }
  std::stable_sort(slower.begin(), slower.end(), by_change);
  std::stable_sort(faster.begin(), faster.end(), by_change);
  std::stable_sort(untested.begin(), untested.end(), by_change);
  constexpr std::size_t kCap = 25;
  if (!slower.empty())
    out += fmt::format("\nSlower ({}), largest first:\n{}", slower.size(), table(slower, kCap, s.confidence));
  if (!faster.empty())
    out += fmt::format("\nFaster ({}), largest first:\n{}", faster.size(), table(faster, kCap, s.confidence));
  if (sum.no_change > 0) {
    out += fmt::format("\nNo change within noise: {} metric{} (adjusted p >= {:g} or |change| < {:g}%); {}\n",
                       sum.no_change, sum.no_change == 1 ? "" : "s", s.alpha, s.min_change_percent, mde_words(c));
  }
  const std::string spread = spread_words(c);
  if (!spread.empty()) out += "Spread: " + spread + "\n";
  if (!untested.empty()) {
    out += fmt::format(
        "\nNot tested: {} metric{} (one run on a side: no significance from iterations, which share their job's "
        "state; {} beyond the {:g}% run-to-run allowance); no change means: a change of more than {:g}% would have "
        "been flagged. Largest changes:\n",
        untested.size(), untested.size() == 1 ? "" : "s", sum.beyond_allowance, s.single_run_allowance_percent,
        std::max(s.single_run_allowance_percent, s.min_change_percent));
    for (std::size_t i = 0; i < untested.size() && i < 5; ++i) {
      const MetricComparison& m = *untested[i];
      out += fmt::format("  {}: {} -> {} ({:+.1f}%, {})\n", m.name(), format_value(m.before, m.unit()),
                         format_value(m.after, m.unit()), m.change_percent, verdict_text(m.verdict));
    }
  }
  auto examples = [](const std::vector<std::string>& names) {
    std::vector<std::string> first(names.begin(),
                                   names.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, names.size())));
    return text::join(first, "; ") + (names.size() > 3 ? "; ..." : "");
  };
  if (sum.failures_fixed > 0) {
    out += fmt::format("Fixed: {} failure{} of BEFORE that no AFTER run had:\n{}", sum.failures_fixed,
                       sum.failures_fixed == 1 ? "" : "s", failure_lines(c.failures_before, false, 5));
  }
  if (!c.only_before.empty())
    out += fmt::format("Only in BEFORE: {} ({})\n", c.only_before.size(), examples(c.only_before));
  if (!c.only_after.empty())
    out += fmt::format("Only in AFTER: {} ({})\n", c.only_after.size(), examples(c.only_after));
  out += "\nMethod: " + method_text(c) + "\n";
  return out;
}

}  // namespace podperf

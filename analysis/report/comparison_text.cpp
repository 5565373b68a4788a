// The terminal text of a comparison (podperf compare without --json). Floor: the printers' wing
// (analysis/report/); pure, local; throws nothing. Layout only: every number is the Comparison's.
#include "analysis/report/comparison_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/base/text.hpp"
#include "analysis/compare/compare_pair_levels.hpp"
#include "analysis/report/comparison_words.hpp"

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
  if (verdict == "no_change") return "no change within noise";
  if (verdict == "slower") return "SLOWER";
  return verdict;
}

std::string method_line(const Comparison& c) {
  if (c.method == "run_level_moderated_t") {
    return "the run is the unit (a t test on per-run medians, each metric's spread moderated with its kind and size)";
  }
  if (c.method == "run_level_prediction_t") {
    return "one run against several: a prediction test of the single run against the other side's spread "
           "(moderated with its kind and size)";
  }
  if (c.method == "block_level_moderated_t") {
    return fmt::format(
        "the block is the unit ({} BEFORE, {} AFTER blocks of --repeat; a t test on per-block medians, moderated)",
        c.units_before, c.units_after);
  }
  return "one run a side: each pair's change tested against the spread of all pairs' changes; the common shift "
         "of all pairs and other metrics untestable (3 runs per side to test them)";
}

std::string mde_words(const Comparison& c) {
  if (c.summary.no_change == 0) return "";
  return fmt::format(
      "a change of more than {:.1f}% would have been seen in every one of them ({:.1f}% in the median one; each at "
      "its family's alpha)",
      c.summary.mde_max_percent, c.summary.mde_median_percent);
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
  std::string families;
  for (const FamilySummary& f : c.families) families += (families.empty() ? "" : "; ") + family_words(f);
  const std::string common = fmt::format(
      "Each family of tests (one per metric kind: {}) gets an equal share of alpha {:g}, its p values adjusted "
      "together ({}); slower or faster only when the adjusted p is below the family's alpha and |change| >= {:g}%. "
      "Pair metrics are also tested as the common shift of all pairs and per node (the median of a node's pairs "
      "beyond the common shift), and a pair whose change a changed node (or the common shift) explains is rolled up "
      "into it. The smallest change stated for each test is the one it finds with {:.0f}% power at the alpha one lone "
      "change among its family must reach (noncentral t), never below what --min-change lets count. Change: ratio of "
      "geometric means of the per-unit medians; interval: {:.0f}% t interval (analytic). Settings: {}",
      families.empty() ? "none tested" : families, s.alpha,
      s.correction == "none" ? "no correction" : "Benjamini-Hochberg", s.min_change_percent, s.power * 100.0,
      s.confidence * 100.0, s.source);
  const std::string moderation =
      s.moderate_variance
          ? "each metric's run-to-run variance is moderated with the metrics of its kind and size (an empirical-Bayes "
            "prior fitted to their variances, as limma's squeezeVar: its degrees of freedom add to the metric's own; a "
            "metric whose spread is far above the prior's keeps its own)"
          : "each metric's own run-to-run variance (compare.moderate_variance = false)";
  if (c.method == "block_level_moderated_t") {
    return fmt::format(
        "the block is the statistical unit ({} BEFORE, {} AFTER blocks of --repeat, each every case once, in a "
        "shuffled order for pairs and collectives, in the chain's order for filesystem probes): each metric is "
        "summarized per block (its median over iterations, or over ranks for a filesystem probe), {}, and the "
        "per-block medians are compared with a two-sided t test on their logarithms. A change counts only when it "
        "is at least the run-to-run allowance of {:g}%: blocks see drift within a job, not launch-to-launch "
        "variance, so a smaller change between two jobs would be no evidence; only separate jobs (3 or more runs "
        "per side) measure that. {}",
        c.units_before, c.units_after, moderation, s.single_run_allowance_percent, common);
  }
  if (c.method == "run_level_moderated_t") {
    return fmt::format(
        "the run is the statistical unit ({} BEFORE, {} AFTER runs): each metric is summarized per run (its median), "
        "{}, and the per-run medians are compared with a two-sided t test on their logarithms. Runs on one side "
        "must be separate jobs: blocks of one job would not capture launch-to-launch variance. {}",
        c.runs_before, c.runs_after, moderation, common);
  }
  if (c.method == "run_level_prediction_t") {
    return fmt::format(
        "one run against several ({} BEFORE, {} AFTER runs): each metric's single run is tested against the spread of "
        "the other side's runs (a prediction test: standard error sqrt(1 + 1/K) of that spread), {}. {}",
        c.runs_before, c.runs_after, moderation, common);
  }
  return fmt::format(
      "one run a side ({} BEFORE, {} AFTER): iterations of one job share its placement, links and load, so they "
      "cannot measure the run-to-run spread and no significance is claimed from them. What one run a side can "
      "test is whether a pair (or a node's pairs) moved against the others: each pair's change beyond the common "
      "shift of all pairs (their median change) is tested against the spread of all pairs' changes (1.4826 x "
      "their median absolute deviation, with the degrees of freedom of its efficiency; nodes first, their spread "
      "the larger of what pair noise gives and the spread of the nodes, then the pairs against the spread left "
      "once the nodes found are taken out; a pair retested in the job where it is slower counts only when its "
      "best measurement there is also beyond that spread at {:g}%, as the run's own link rule asks every "
      "measurement to be low). The common shift itself, and every metric that is not a pair, cannot "
      "be told from the launch-to-launch difference with one run a side: untestable, never judged by an allowance. "
      "Give 3 or more runs per side (--before RUN... --after RUN...) to test them. {}",
      c.runs_before, c.runs_after, 100.0 * kBestMeasurementAlpha, common);
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

std::string heavy_tail_note(const Comparison& c) {
  std::vector<std::string> parts;
  double df = 0.0;
  for (const PairLevelTest& t : c.pair_levels) {
    // The faster side's tail only: it is what the slower pairs are tested against (a heavy slower side
    // is also what one real slow link gives).
    if (t.level != "all pairs" || t.tail_df_faster <= 0.0) continue;
    parts.push_back(fmt::format("{} {} {}: {} pair{} faster by more than 4 robust sigmas", t.op, t.dtype,
                                format_size(t.size_bytes), t.tail_pairs_faster, t.tail_pairs_faster == 1 ? "" : "s"));
    df = df == 0.0 ? t.tail_df_faster : std::min(df, t.tail_df_faster);
  }
  if (parts.empty()) return "";
  return fmt::format(
      "the pairs' changes have heavier tails than noise alone gives, as transients of one job do ({}). With one "
      "run a side a slower pair is tested against the tail of the pairs that moved up by chance (Student's t, {:g} "
      "df), so a lone slow link counts only beyond what the transients reach; compare 3 or more runs per side to "
      "tell a lasting change from a transient",
      text::join(parts, "; "), df);
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

namespace {

// The metrics each node (or the common shift) explains, "node sim0005: 31; all pairs: 3".
std::string explained_lines(const Comparison& c) {
  std::vector<std::pair<std::string, std::size_t>> counts;
  for (const MetricComparison& m : c.metrics) {
    if (m.explained_by.empty()) continue;
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& x) { return x.first == m.explained_by; });
    if (it == counts.end()) {
      counts.emplace_back(m.explained_by, 0);
      it = std::prev(counts.end());
    }
    ++it->second;
  }
  std::string out;
  for (const auto& [by, n] : counts) {
    out += fmt::format("  {} {} metric{} explained by {}\n", n, n == 1 ? "pair" : "pair", n == 1 ? "" : "s",
                       by == "all pairs" ? "the common shift of all pairs" : "node " + by);
  }
  return out;
}

std::string untested_reasons(const Comparison& c) {
  std::vector<std::pair<std::string, std::size_t>> counts;
  for (const MetricComparison& m : c.metrics) {
    if (m.p_value >= 0.0) continue;
    const std::string why = m.untestable_why;
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& x) { return x.first == why; });
    if (it == counts.end()) {
      counts.emplace_back(why, 0);
      it = std::prev(counts.end());
    }
    ++it->second;
  }
  std::vector<std::string> parts;
  for (const auto& [why, n] : counts) parts.push_back(fmt::format("{}: {}", n, untestable_words(why)));
  return text::join(parts, "; ");
}

}  // namespace

std::string comparison_text(const Comparison& c) {
  const CompareSettings& s = c.settings;
  const CompareOutcome& o = c.outcome;
  std::string out = outcome_line(c) + "\n";
  out += fmt::format("podperf compare: BEFORE {} (run {}) -> AFTER {} (run {})\n", c.before_source, c.before_run_id,
                     c.after_source, c.after_run_id);
  const ComparisonSummary& sum = c.summary;
  out += fmt::format("Summary: {} slower, {} faster, {} no change within noise, {} not tested; {} metrics in both runs",
                     sum.slower, sum.faster, sum.no_change, sum.untested, c.metrics.size());
  if (sum.only_before + sum.only_after > 0) {
    out += fmt::format(" ({} only in BEFORE, {} only in AFTER)", sum.only_before, sum.only_after);
  }
  if (sum.explained > 0) {
    out += fmt::format("; {} of the slower and faster explained by a node or the common shift", sum.explained);
  }
  out += "\n";
  out += fmt::format("Runs: {} BEFORE, {} AFTER; {}\n", c.runs_before, c.runs_after, method_line(c));
  for (const std::string& w : c.unit_warnings) out += "WARNING: " + w + "\n";
  for (std::size_t i = 1; i < o.regressions.size(); ++i) {
    out += "REGRESSION: " + regression_words(c, o.regressions[i]) + "\n";
  }
  if (sum.failures_new > 0) out += failure_lines(c.failures_after, false, 10);
  for (std::size_t i = o.verdict == "inconclusive" ? 1 : 0; i < o.blind.size(); ++i) {
    out += fmt::format("{}: could not have seen {:g}%: {}\n", o.verdict == "inconclusive" ? "INCONCLUSIVE" : "NOTE",
                       o.target_percent, blind_words(c, c.sensitivity[o.blind[i]]));
  }
  if (o.max_mde_percent >= 0.0 && o.exit_code == 4) {
    out += fmt::format("--max-mde {:g}: some level could not have seen a change of {:g}% (exit 4)\n", o.max_mde_percent,
                       o.max_mde_percent);
  }
  const std::string consistency = consistency_words(c.consistency);
  if (!c.consistency.less_consistent.empty()) out += consistency + "\n";
  for (const RunVerdictChange& v : c.run_verdicts) out += "Runs' own verdicts: " + run_verdict_words(v) + "\n";
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
  const std::string single_run = single_run_words(o);
  if (!single_run.empty()) out += "NOTE: " + single_run + "\n";
  const std::string tails = heavy_tail_note(c);
  if (!tails.empty()) out += "NOTE: " + tails + "\n";
  if (!c.sensitivity.empty()) {
    out += fmt::format("Sensitivity (the change each level finds with {:.0f}% power; the target is {:g}%):\n",
                       s.power * 100.0, o.target_percent);
    for (const LevelSensitivity& l : c.sensitivity) out += "  " + sensitivity_words(c, l) + "\n";
  }
  if (c.consistency.tested && c.consistency.less_consistent.empty()) out += "Consistency: " + consistency + "\n";
  std::vector<const PairLevelTest*> levels_changed;
  for (const PairLevelTest& t : c.pair_levels) {
    if (t.verdict == "slower" || t.verdict == "faster") levels_changed.push_back(&t);
  }
  if (!levels_changed.empty()) {
    out += fmt::format("\nNodes and common shifts changed ({}):\n", levels_changed.size());
    for (const PairLevelTest* t : levels_changed) {
      out += fmt::format("  {}: {:+.1f}% [{:+.1f}%, {:+.1f}%], p adj {}, {}; {} pair metric{} roll up into it\n",
                         pair_level_name(*t), t->change_percent, t->ci_low_percent, t->ci_high_percent,
                         format_p(t->p_adjusted), t->verdict, t->explains, t->explains == 1 ? "" : "s");
    }
  }
  auto by_change = [](const MetricComparison* x, const MetricComparison* y) {
    return std::fabs(x->change_percent) > std::fabs(y->change_percent);
  };
  std::vector<const MetricComparison*> slower, faster, untested;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "slower" && m.explained_by.empty()) slower.push_back(&m);
    if (m.verdict == "faster" && m.explained_by.empty()) faster.push_back(&m);
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
  if (sum.explained > 0) out += fmt::format("\nRolled up ({}):\n{}", sum.explained, explained_lines(c));
  if (sum.no_change > 0) {
    out += fmt::format(
        "\nNo change within noise: {} metric{} (adjusted p >= the family's alpha or |change| < {:g}%); {}\n",
        sum.no_change, sum.no_change == 1 ? "" : "s", s.min_change_percent, mde_words(c));
  }
  if (sum.zero_variance > 0) {
    out += fmt::format("Zero variance: {} metric{} gave the same value in every run of each side{}\n",
                       sum.zero_variance, sum.zero_variance == 1 ? "" : "s",
                       sum.untested > 0 ? "" : " (tested against the spread their kind shares)");
  }
  const std::string spread = spread_words(c);
  if (!spread.empty()) out += "Spread: " + spread + "\n";
  if (!untested.empty()) {
    out += fmt::format("\nNot tested: {} metric{} ({}). Largest changes:\n", untested.size(),
                       untested.size() == 1 ? "" : "s", untested_reasons(c));
    for (std::size_t i = 0; i < untested.size() && i < 5; ++i) {
      const MetricComparison& m = *untested[i];
      out += fmt::format("  {}: {} -> {} ({:+.1f}%, untestable)\n", m.name(), format_value(m.before, m.unit()),
                         format_value(m.after, m.unit()), m.change_percent);
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

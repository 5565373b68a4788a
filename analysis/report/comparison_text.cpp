// The terminal text of a comparison (podperf compare without --json). Floor: the printers' wing
// (analysis/report/); pure, local; throws nothing. Layout only: every number is the Comparison's.
#include "analysis/report/comparison_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/text.hpp"

namespace podperf {
namespace {

std::string format_value(double v, const std::string& unit) {
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
  for (std::size_t i = 0; i < rows.size() && i < cap; ++i) width = std::max(width, rows[i]->name.size());
  std::string out = fmt::format("  {:<{}}  {:>14}  {:>14}  {:>8}  {:>20}  {:>8}  {}\n", "metric", width, "before",
                                "after", "change", fmt::format("{:.0f}% interval", confidence * 100.0), "p adj", "n");
  for (std::size_t i = 0; i < rows.size() && i < cap; ++i) {
    const MetricComparison& m = *rows[i];
    out += fmt::format("  {:<{}}  {:>14}  {:>14}  {:>+7.1f}%  {:>20}  {:>8}  {}/{}\n", m.name, width,
                       format_value(m.before, m.unit), format_value(m.after, m.unit), m.change_percent,
                       fmt::format("[{:+.1f}%, {:+.1f}%]", m.ci_low_percent, m.ci_high_percent), format_p(m.p_adjusted),
                       m.n_before, m.n_after);
  }
  if (rows.size() > cap) out += fmt::format("  ... and {} more (--json lists every metric)\n", rows.size() - cap);
  return out;
}

}  // namespace

std::string format_metric_value(double v, const std::string& unit) {
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
  int beyond = 0;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "slower" && regression_percent(m) > fail_on_percent) ++beyond;
  }
  out += beyond > 0 ? fmt::format("REGRESSION: {} metric{} slower by more than {:g}% (--fail-on)\n", beyond,
                                  beyond == 1 ? "" : "s", fail_on_percent)
                    : fmt::format("No regression beyond {:g}% (--fail-on)\n", fail_on_percent);
  if (!c.comparability.empty()) {
    out += "WARNING: the runs are not comparable in every way (the common metrics are still compared):\n";
    for (const ComparabilityNote& n : c.comparability) {
      out += fmt::format("  {}: BEFORE {}; AFTER {}\n", n.what, n.before, n.after);
    }
  }
  auto by_change = [](const MetricComparison* x, const MetricComparison* y) {
    return std::fabs(x->change_percent) > std::fabs(y->change_percent);
  };
  std::vector<const MetricComparison*> slower, faster, untested;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "slower") slower.push_back(&m);
    if (m.verdict == "faster") faster.push_back(&m);
    if (m.verdict == "not_enough_samples" || m.verdict == "single_value") untested.push_back(&m);
  }
  std::stable_sort(slower.begin(), slower.end(), by_change);
  std::stable_sort(faster.begin(), faster.end(), by_change);
  std::stable_sort(untested.begin(), untested.end(), by_change);
  constexpr std::size_t kCap = 25;
  if (!slower.empty())
    out += fmt::format("\nSlower ({}), largest first:\n{}", slower.size(), table(slower, kCap, s.confidence));
  if (!faster.empty())
    out += fmt::format("\nFaster ({}), largest first:\n{}", faster.size(), table(faster, kCap, s.confidence));
  out += fmt::format("\nNo change within noise: {} metric{} (adjusted p >= {:g} or |change| < {:g}%)\n", sum.no_change,
                     sum.no_change == 1 ? "" : "s", s.alpha, s.min_change_percent);
  if (!untested.empty()) {
    out += fmt::format("Not tested: {} metric{} (fewer than {} samples in a run; change only), largest changes:\n",
                       untested.size(), untested.size() == 1 ? "" : "s", s.min_samples);
    for (std::size_t i = 0; i < untested.size() && i < 5; ++i) {
      const MetricComparison& m = *untested[i];
      out += fmt::format("  {}: {} -> {} ({:+.1f}%, n {}/{})\n", m.name, format_value(m.before, m.unit),
                         format_value(m.after, m.unit), m.change_percent, m.n_before, m.n_after);
    }
  }
  auto examples = [](const std::vector<std::string>& names) {
    std::vector<std::string> first(names.begin(),
                                   names.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, names.size())));
    return text::join(first, "; ") + (names.size() > 3 ? "; ..." : "");
  };
  if (!c.only_before.empty())
    out += fmt::format("Only in BEFORE: {} ({})\n", c.only_before.size(), examples(c.only_before));
  if (!c.only_after.empty())
    out += fmt::format("Only in AFTER: {} ({})\n", c.only_after.size(), examples(c.only_after));
  out += fmt::format(
      "\nMethod: two-sided Mann-Whitney U on per-iteration busbw and per-rank filesystem numbers, p adjusted for the "
      "{} metrics tested ({}); a metric is slower or faster only when p < {:g} and |change| >= {:g}% (a significant "
      "but smaller change of a stable system is noise). Change: ratio of medians; interval: {:.0f}% percentile "
      "bootstrap, {} resamples, fixed seed. Settings: {}\n",
      sum.slower + sum.faster + sum.no_change, s.correction == "none" ? "no correction" : "Benjamini-Hochberg", s.alpha,
      s.min_change_percent, s.confidence * 100.0, s.bootstrap_resamples, s.source);
  return out;
}

}  // namespace podperf

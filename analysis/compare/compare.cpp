// Before/after comparison of runs (podperf compare): every run summarized once into per-metric values
// (compare_metrics), then per metric present on both sides its units' spread (work per metric on
// several threads), the moderated tests (compare_noise), the common shift and nodes of each pair matrix
// (compare_pair_levels), the families' verdicts and sensitivity (compare_families), the consistency of
// each side (compare_consistency), the runs' own verdicts (compare_run_verdicts) and the outcome
// (compare_outcome). Floor: analysis/compare; pure, local, deterministic (the same result for any
// number of threads).
#include "analysis/compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "analysis/base/chunks.hpp"
#include "analysis/base/text.hpp"
#include "analysis/compare/compare_comparability.hpp"
#include "analysis/compare/compare_consistency.hpp"
#include "analysis/compare/compare_failures.hpp"
#include "analysis/compare/compare_families.hpp"
#include "analysis/compare/compare_noise.hpp"
#include "analysis/compare/compare_outcome.hpp"
#include "analysis/compare/compare_pair_levels.hpp"
#include "analysis/compare/compare_run_verdicts.hpp"
#include "analysis/compare/compare_units.hpp"
#include "analysis/stats/change_stats.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf {
namespace {

// One metric across the runs of each side: the per-run values of the runs that have it.
struct MetricRuns {
  std::vector<double> before_runs, after_runs;
  std::size_t n_before = 0, n_after = 0;
  // Runs as units: the sum of the runs' squared standard errors from their own iterations
  // (RunMetricSummary::log_se) and how many runs had one.
  double se2_sum = 0.0;
  std::size_t se2_runs = 0;
  bool by_blocks = false;
  float best_ratio_before = 1.0F, best_ratio_after = 1.0F;  // one run on the side: RunMetricSummary::best_ratio
};

double geometric_mean(const std::vector<double>& v) {
  double sum = 0.0;
  std::size_t n = 0;
  for (double x : v) {
    if (x > 0.0 && std::isfinite(x)) {
      sum += std::log(x);
      ++n;
    }
  }
  return n == 0 ? 0.0 : std::exp(sum / static_cast<double>(n));
}

// The metric's units, their means and spread (the test comes later, with the metrics of its kind).
void gather_metric(MetricRuns& r, MetricComparison& m, UnitSpread& spread) {
  m.n_before = r.n_before;
  m.n_after = r.n_after;
  m.runs_before = std::move(r.before_runs);
  m.runs_after = std::move(r.after_runs);
  m.best_ratio_before = m.runs_before.size() == 1 ? r.best_ratio_before : 1.0F;
  m.best_ratio_after = m.runs_after.size() == 1 ? r.best_ratio_after : 1.0F;
  m.before = m.runs_before.size() == 1 ? m.runs_before[0] : geometric_mean(m.runs_before);
  m.after = m.runs_after.size() == 1 ? m.runs_after[0] : geometric_mean(m.runs_after);
  m.change_percent = m.before != 0.0 ? 100.0 * (m.after / m.before - 1.0) : 0.0;
  m.tested_change_percent = m.change_percent;
  m.untestable_why = "one_run_a_side";
  spread = unit_spread(m.runs_before, m.runs_after);
  const bool both_replicated = m.runs_before.size() >= 2 && m.runs_after.size() >= 2;
  if (both_replicated && !r.by_blocks && r.se2_runs == m.runs_before.size() + m.runs_after.size()) {
    m.iteration_share = iteration_share(spread.variance, r.se2_sum / static_cast<double>(r.se2_runs));
  }
}

// The settings the metrics are judged with: with blocks as the units, no change smaller than the
// run-to-run allowance counts (min_change raised to it), and none smaller is said to be detectable.
CompareSettings judged_settings(const CompareSettings& s, const CompareUnits& units) {
  CompareSettings out = s;
  if (units.by_blocks) out.min_change_percent = std::max(s.min_change_percent, s.single_run_allowance_percent);
  return out;
}

constexpr std::uint32_t kAbsent = 0xffffffffU;

// Per registry id, the metric's index in `s` (kAbsent: not in this run).
std::vector<std::uint32_t> metric_index_of(const RunMetricSummary& s, std::size_t metrics) {
  std::vector<std::uint32_t> out(metrics, kAbsent);
  for (std::size_t i = 0; i < s.metrics.size(); ++i) out[s.metrics[i]] = static_cast<std::uint32_t>(i);
  return out;
}

// The units of metric `id` in the runs of one side that have samples of it, in run order: each run's
// value, or with `by_blocks` each of its blocks' values where the metric was measured in blocks
// (analysis/compare/compare_units).
void gather_side(const std::vector<RunMetricSummary>& runs, const std::vector<std::vector<std::uint32_t>>& index,
                 std::uint32_t id, bool by_blocks, bool after, MetricRuns& r_out) {
  std::vector<double>& values = after ? r_out.after_runs : r_out.before_runs;
  std::size_t& n = after ? r_out.n_after : r_out.n_before;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const std::uint32_t i = index[r][id];
    if (i == kAbsent || runs[r].samples[i] == 0) continue;
    const std::vector<double>* blocks = by_blocks && !runs[r].block_values.empty() ? &runs[r].block_values[i] : nullptr;
    if (blocks != nullptr && !blocks->empty()) {
      values.insert(values.end(), blocks->begin(), blocks->end());
      r_out.by_blocks = true;
    } else {
      values.push_back(runs[r].values[i]);
      (after ? r_out.best_ratio_after : r_out.best_ratio_before) = runs[r].best_ratio[i];
      const double se = runs[r].log_se[i];
      if (std::isfinite(se) && runs[r].values[i] > 0.0) {
        r_out.se2_sum += se * se;
        ++r_out.se2_runs;
      }
    }
    n += runs[r].samples[i];
  }
}

void count_verdicts(Comparison& c) {
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "faster")
      ++c.summary.faster;
    else if (m.verdict == "slower")
      ++c.summary.slower;
    else if (m.verdict == "no_change")
      ++c.summary.no_change;
    else
      ++c.summary.untested;
    if (!m.explained_by.empty()) ++c.summary.explained;
    if (m.zero_variance) ++c.summary.zero_variance;
  }
  std::vector<double> mde, shares;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "no_change") mde.push_back(m.mde_percent);
    if (m.iteration_share >= 0.0) shares.push_back(m.iteration_share);
  }
  if (!shares.empty()) {
    c.summary.iteration_share_median = median(shares);
    c.summary.iteration_share_metrics = static_cast<int>(shares.size());
  }
  if (!mde.empty()) {
    c.summary.mde_median_percent = median(mde);
    c.summary.mde_max_percent = *std::max_element(mde.begin(), mde.end());
  }
  for (const ComparedFailure& f : c.failures_after)
    ++(f.other_side_too ? c.summary.failures_both : c.summary.failures_new);
  for (const ComparedFailure& f : c.failures_before) c.summary.failures_fixed += f.other_side_too ? 0 : 1;
  c.summary.only_before = static_cast<int>(c.only_before.size());
  c.summary.only_after = static_cast<int>(c.only_after.size());
}

// The method, from the runs per side.
std::string method_of(std::size_t before, std::size_t after) {
  if (before >= 2 && after >= 2) return "run_level_moderated_t";
  if (before >= 2 || after >= 2) return "run_level_prediction_t";
  return "pair_spread";
}

// "<run id>: <metric name>" for every pair metric a run of one side took from its retest.
void list_from_retest(const std::vector<RunMetricSummary>& runs, const std::vector<std::string>& ids,
                      const MetricRegistry& registry, std::vector<std::string>& out) {
  for (std::size_t r = 0; r < runs.size(); ++r) {
    for (std::uint32_t id : runs[r].from_retest) out.push_back(ids[r] + ": " + registry.name(id));
  }
}

// A node that runs of both sides say is slow now and then (a flapping NIC on both sides): its pairs
// move with its flaps, not with what changed between the sides (3 against 3 with one at half speed in
// 20% of its measurements, a pair slow in all three AFTER first measurements was a REGRESSION in 6.5% of
// healthy comparisons at 16 nodes and 15.5% at 64). Its pair metrics are untestable, left out of the
// levels, and said; the runs' own verdicts still compare it.
void set_aside_intermittent_pairs(Comparison& c, const std::vector<RunOwnVerdicts>& before,
                                  const std::vector<RunOwnVerdicts>& after) {
  std::set<std::string> in_before, both;
  for (const RunOwnVerdicts& v : before) in_before.insert(v.intermittent.begin(), v.intermittent.end());
  for (const RunOwnVerdicts& v : after) {
    for (const std::string& h : v.intermittent) {
      if (in_before.count(h)) both.insert(h);
    }
  }
  if (both.empty() || !c.registry) return;
  for (MetricComparison& m : c.metrics) {
    const MetricIdentity& id = c.registry->identity(m.metric);
    if (id.kind != MetricKind::kPair) continue;
    if (!both.count(c.registry->text(id.a)) && !both.count(c.registry->text(id.b))) continue;
    m.test = "untestable";
    m.untestable_why = "intermittent_both_sides";
    m.p_value = -1.0;
  }
}

}  // namespace

void RunComparison::add_before(const Run& run) {
  if (first_before_ == nullptr) first_before_ = &run;
  ids_before_.push_back(run.run_id);
  before_.push_back(summarize_run_metrics(run, *registry_));
  verdicts_before_.push_back(run_own_verdicts(run));
}

void RunComparison::add_after(const Run& run) {
  if (first_after_ == nullptr) first_after_ = &run;
  ids_after_.push_back(run.run_id);
  after_.push_back(summarize_run_metrics(run, *registry_));
  verdicts_after_.push_back(run_own_verdicts(run));
}

Comparison RunComparison::finish() const {
  Comparison c;
  c.settings = settings_;
  c.registry = registry_;
  c.runs_before = before_.size();
  c.runs_after = after_.size();
  if (before_.empty() || after_.empty()) return c;
  c.before_run_id = text::join(ids_before_, ", ");
  c.after_run_id = text::join(ids_after_, ", ");
  c.method = method_of(before_.size(), after_.size());
  c.comparability = comparability(*first_before_, *first_after_);
  std::vector<int> blocks_before, blocks_after;
  for (const RunMetricSummary& s : before_) blocks_before.push_back(s.blocks);
  for (const RunMetricSummary& s : after_) blocks_after.push_back(s.blocks);
  const CompareUnits units = compare_units(blocks_before, blocks_after);
  // Blocks of one job on each side measure drift within the job, not launch-to-launch variance, so a
  // change between them counts only beyond the run-to-run allowance too, as a single run's would
  // (measured: on the namespaced cluster 10 metrics of 90 in 15 one-against-one comparisons of healthy
  // --repeat 8 runs were called slower or faster at 2% when blocks were the units; issue 19).
  const CompareSettings judged = judged_settings(settings_, units);
  c.settings = judged;
  const MetricRegistry& registry = *registry_;
  const std::size_t count = registry.size();
  std::vector<std::vector<std::uint32_t>> in_before, in_after;
  for (const RunMetricSummary& s : before_) in_before.push_back(metric_index_of(s, count));
  for (const RunMetricSummary& s : after_) in_after.push_back(metric_index_of(s, count));
  // Metric order: the first run of BEFORE, then metrics first seen in later BEFORE runs.
  std::vector<std::uint32_t> order;
  std::vector<char> seen(count, 0);
  for (const RunMetricSummary& s : before_) {
    for (std::size_t i = 0; i < s.metrics.size(); ++i) {
      if (s.samples[i] > 0 && !seen[s.metrics[i]]) {
        seen[s.metrics[i]] = 1;
        order.push_back(s.metrics[i]);
      }
    }
  }
  // A metric that failed in the runs of one side is listed as a failure, not as only on the other side.
  const std::vector<char> failed_before = failed_metric_flags(before_, count);
  const std::vector<char> failed_after = failed_metric_flags(after_, count);
  // Which of them AFTER has too (in parallel: they are the bulk), then one comparison per metric.
  std::vector<std::uint32_t> slot(order.size(), kAbsent);
  std::size_t compared = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    bool in_after_runs = false;
    for (std::size_t r = 0; r < after_.size() && !in_after_runs; ++r) {
      const std::uint32_t i = in_after[r][order[k]];
      in_after_runs = i != kAbsent && after_[r].samples[i] > 0;
    }
    if (in_after_runs) {
      slot[k] = static_cast<std::uint32_t>(compared++);
    } else {
      if (!failed_after[order[k]]) c.only_before.push_back(registry.name(order[k]));
    }
  }
  c.metrics.resize(compared);
  std::vector<UnitSpread> spreads(compared);
  in_chunks(order.size(), analysis_threads(2 * order.size()), [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
      if (slot[k] == kAbsent) continue;
      const std::uint32_t id = order[k];
      MetricRuns r;
      gather_side(after_, in_after, id, units.by_blocks, true, r);
      gather_side(before_, in_before, id, units.by_blocks, false, r);
      MetricComparison& m = c.metrics[slot[k]];
      m.metric = id;
      m.registry = &registry;
      m.higher_is_better = registry.higher_is_better(id);
      gather_metric(r, m, spreads[slot[k]]);
    }
  });
  describe_units(c, units);
  test_metrics(c.metrics, spreads, registry, judged);
  std::vector<UnitSpread>().swap(spreads);
  set_aside_intermittent_pairs(c, verdicts_before_, verdicts_after_);
  test_pair_levels(c, judged);
  judge_families(c, judged);
  std::vector<char> seen_after(count, 0);
  for (const RunMetricSummary& s : after_) {
    for (std::size_t i = 0; i < s.metrics.size(); ++i) {
      const std::uint32_t id = s.metrics[i];
      if (s.samples[i] == 0 || seen_after[id]) continue;
      seen_after[id] = 1;
      if (!seen[id] && !failed_before[id]) c.only_after.push_back(registry.name(id));
    }
  }
  list_failures(before_, ids_before_, failed_before, after_, ids_after_, failed_after, registry, c.failures_before,
                c.failures_after);
  count_verdicts(c);
  list_from_retest(before_, ids_before_, registry, c.from_retest_before);
  list_from_retest(after_, ids_after_, registry, c.from_retest_after);
  describe_sensitivity(c, judged, outcome_target_percent(judged));
  c.consistency = judge_consistency(c, ids_before_, ids_after_, judged);
  c.run_verdicts = compare_run_verdicts(verdicts_before_, verdicts_after_);
  confirm_run_verdicts(c);
  decide_outcome(c, judged);
  return c;
}

Comparison compare_runs(const std::vector<Run>& before, const std::vector<Run>& after,
                        const CompareSettings& settings) {
  RunComparison comparison(settings);
  for (const Run& r : before) comparison.add_before(r);
  for (const Run& r : after) comparison.add_after(r);
  return comparison.finish();
}

Comparison compare_runs(const Run& before, const Run& after, const CompareSettings& settings) {
  return compare_runs(std::vector<Run>{before}, std::vector<Run>{after}, settings);
}

double regression_percent(const MetricComparison& m) {
  return m.higher_is_better ? -m.change_percent : m.change_percent;
}

Comparison at_fail_on(Comparison c, double fail_on_percent, double max_mde_percent) {
  c.settings.fail_on_percent = fail_on_percent;
  c.settings.max_mde_percent = max_mde_percent;
  describe_sensitivity(c, c.settings, outcome_target_percent(c.settings));
  decide_outcome(c, c.settings);
  return c;
}

bool regressed_beyond(const Comparison& c, double fail_on_percent) {
  int slower = 0;
  return !regressions_at(c, fail_on_percent, slower).empty();
}

}  // namespace podperf

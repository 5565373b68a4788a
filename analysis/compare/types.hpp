#pragma once
// The types of a comparison (podperf compare): what a metric is, its comparison, the ways the runs are
// not comparable, the failures, and the Comparison every printer reads. Below compare.hpp, so that the
// units that fill a Comparison (compare_metrics, compare_units, compare_comparability,
// compare_failures) include its types without the judge's functions.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/compare/compare_metrics.hpp"
#include "analysis/compare/compare_run_verdicts.hpp"
#include "analysis/config/compare_settings.hpp"
#include "analysis/model/run.hpp"
#include "analysis/stats/change_stats.hpp"

namespace podperf {

// What one metric is. Fields that do not apply to its kind are empty (or 0 / false).
struct MetricKey {
  std::string kind;              // pair | collective | topology_class | fs_probe | fs_node
  std::string quantity;          // busbw_gbps | mb_per_s | ops_per_s | lat_p99_us
  std::string op;                // pair, collective
  std::string dtype;             // pair, collective
  std::uint64_t size_bytes = 0;  // pair, collective
  bool in_place = false;         // collective
  std::string nodes;             // pair: "labelA<->labelB" (labels sorted, so node order and index do not matter)
  std::string group;             // collective: "world" or a node label; topology_class: "same leaf",
                                 // "crosses <level>" or "topology unknown" (runs with a topology)
  std::string probe;             // fs_probe, fs_node
  std::string node;              // fs_node: the node's label
};

// One metric compared. Its name, key and unit are not stored but made on demand from its registry
// entry (a run of 4096 nodes compares 8.4 million pair metrics: their strings alone were 3 GB), so a
// MetricComparison is valid while the Comparison that holds it (which owns the registry) or a copy of
// that Comparison lives.
struct MetricComparison {
  std::uint32_t metric = 0;                  // its id in `registry`
  const MetricRegistry* registry = nullptr;  // Comparison::registry
  MetricKey key() const { return registry->key(metric); }
  // For people: "pair node0<->node1 all_reduce float 1G busbw".
  std::string name() const { return registry->name(metric); }
  std::string_view unit() const { return registry->unit(metric); }  // GB/s | MB/s | ops/s | us
  bool higher_is_better = true;                                     // busbw, MB/s, ops/s; false for latency
  double before = 0.0;  // geometric mean of the per-run medians (one run: its median)
  double after = 0.0;
  double change_percent = 0.0;  // 100 * (after / before - 1)
  // The change its test is about: change_percent; for a pair touching a node or common shift found
  // (beyond_level), its change beyond them; with test pair_spread (one run a side), its change beyond the
  // common shift of every pair (which one run a side cannot test) and the nodes found.
  double tested_change_percent = 0.0;
  // Interval of change_percent at settings.confidence (tested metrics only); with test pair_spread, of
  // tested_change_percent (one run a side has no interval of the pair's own change).
  double ci_low_percent = 0.0;
  double ci_high_percent = 0.0;
  // Two-sided p of its test (`test`); -1: not tested (`untestable_why` says why).
  double p_value = -1.0;
  double p_adjusted = -1.0;  // p_value adjusted within its family (settings.correction); the verdict uses it
  bool exact = false;        // unused by the run-level test (kept for the JSON field)
  // The smallest |change| in percent its test finds with settings.power at its family's effective alpha
  // (Comparison::families: the alpha one lone change among the family's hypotheses must reach), by the
  // noncentral t, and never below what --min-change lets count; infinite when untestable.
  double mde_percent = 0.0;
  std::size_t n_before = 0;  // samples (iterations or ranks), every run together
  std::size_t n_after = 0;
  // The share of the spread between the runs that their own iterations explain (iteration_share in
  // change_stats: near 1, more iterations per run would shrink it; near 0, only more runs would); -1
  // when not estimated (one run on a side, blocks as units, no per-iteration samples: filesystem metrics).
  double iteration_share = -1.0;
  std::vector<double> runs_before;  // per-run medians, in the order the runs were given
  std::vector<double> runs_after;
  // A pair with one run a side: its best measurement in that run over the one its value comes from (>= 1;
  // RunMetricSummary::best_ratio); 1 otherwise.
  float best_ratio_before = 1.0F;
  float best_ratio_after = 1.0F;
  // How it was tested: moderated_t (its runs' spread, moderated with the metrics of its kind and size:
  // analysis/compare/compare_noise; with one run on a side, the other side's spread: a prediction test),
  // pair_spread (one run a side: its change against the spread of every pair's change, relative to their
  // common shift, analysis/compare/compare_pair_levels), or untestable.
  const char* test = "untestable";
  const char* family = "";          // its family (Comparison::families): pairs, collectives, filesystem, ...
  const char* untestable_why = "";  // one_run_a_side | zero_variance | too_few_pairs | intermittent_both_sides ("" when tested)
  double df = 0.0;                  // degrees of freedom of its t test (moderated: prior plus its own)
  double se_log = 0.0;              // standard error of its change on the log scale (0: untestable)
  bool zero_variance = false;       // every unit of each side gave the same value
  bool variance_outlier = false;    // its spread is far above its kind's: it kept its own (not moderated)
  // Pair metrics: the node (its label) or "all pairs" whose change explains this pair's: its change
  // minus that node's (or the common shift) is within noise. "" when none does.
  std::string explained_by;
  // Pair metrics touching a node or common shift the first stage found: the test (p,
  // tested_change_percent) is of the change beyond it.
  bool beyond_level = false;
  double explained_change_percent = 0.0;  // the change the levels of explained_by account for
  // faster | slower: p_adjusted < the family's alpha and |change| >= min_change (with blocks of one job as
  // units, the allowance when larger: Comparison::settings holds what was applied), in the better or
  // worse direction; no_change: within noise (mde_percent says how much would have been seen);
  // untestable: no test could be made (untestable_why).
  std::string verdict;
};

// A hypothesis about many pair metrics at once (analysis/compare/compare_pair_levels): every pair of one
// op, type and size moved together (level "all pairs": the common shift), or the pairs of one node moved
// against the rest (level "node"). Tested like a metric, in the pairs family.
struct PairLevelTest {
  std::string level;  // node | all pairs
  std::string node;   // level node: the node's label
  std::string op, dtype;
  std::uint64_t size_bytes = 0;
  std::size_t pairs = 0;  // pair metrics it summarizes
  // all pairs: the median pair's change; node: its pairs' median change beyond the common one (log
  // ratio as percent).
  double change_percent = 0.0;
  double ci_low_percent = 0.0, ci_high_percent = 0.0;
  double p_value = -1.0, p_adjusted = -1.0;
  double mde_percent = 0.0;
  double df = 0.0;
  double se_log = 0.0;
  const char* test = "untestable";  // moderated_t | pair_spread | untestable
  const char* untestable_why = "";  // one_run_a_side | too_few_nodes | too_few_pairs
  std::string verdict;              // faster | slower | no_change | untestable
  std::size_t explains = 0;         // pair metrics whose change it explains (MetricComparison::explained_by)
  // all pairs, one run a side: the tails of the pairs' changes (beyond the common shift and the nodes
  // found) on the faster and on the slower side, when heavier than normal (transients of one job): the
  // degrees of freedom of the t that the pairs moving the other way were tested against (0: normal).
  double tail_df_faster = 0.0, tail_df_slower = 0.0;
  std::size_t tail_pairs_faster = 0, tail_pairs_slower = 0;  // pairs beyond 4 robust sigmas on each side
};

// One stage of a family: hypotheses adjusted together. The pairs family has two: first the common
// shifts and the nodes, then the links (each pair, beyond the levels the first stage found); the other
// families one, their metrics.
struct FamilyStage {
  std::string name;              // levels | links | metrics
  std::size_t hypotheses = 0;    // tested (p value)
  std::size_t untestable = 0;    // could not be tested
  double alpha = 0.0;            // its share of the family's alpha
  double alpha_effective = 0.0;  // alpha / hypotheses: what one lone change must reach (Benjamini-Hochberg's
                                 // first step; alpha itself with correction none)
};

// One family of tests: the hypotheses of one metric kind, with its share of alpha.
struct FamilySummary {
  std::string name;            // pairs | topology classes | collectives | filesystem
  std::size_t hypotheses = 0;  // tested (p value) in the family, every stage
  std::size_t untestable = 0;  // could not be tested
  double alpha = 0.0;          // its share: settings.alpha / the number of families tested
  std::vector<FamilyStage> stages;
};

// What one level of a family could have seen (Comparison::sensitivity): its hypotheses' mde_percent.
struct LevelSensitivity {
  std::string family;            // FamilySummary::name
  std::string level;             // all pairs | nodes | links (the pairs family); metrics (the others)
  double alpha_effective = 0.0;  // what one lone change of this level must reach (its stage's)
  std::size_t tested = 0;
  std::size_t untestable = 0;
  const char* untestable_why = "";  // the first reason met
  double mde_median_percent = 0.0;  // over the tested hypotheses
  double mde_worst_percent = 0.0;   // the largest: what this level is sure to see
  std::string worst;                // the hypothesis with the largest (a metric name, a node, ...)
  bool sees_target = true;          // mde_worst_percent <= the outcome's target (and none untestable)
  // Runs per side that would see the target in the worst hypothesis (from its spread, the run count
  // scaled); 0 when it already does; -1 when it cannot be told (untestable: whole runs' spread unknown).
  int runs_needed = 0;
};

// How far the runs of one side agree with each other (analysis/compare/compare_consistency).
struct SideConsistency {
  std::size_t runs = 0;
  // Per run, its typical offset from the side's mean (the median over the metrics of its log value minus
  // the metric's side mean), as percent.
  std::vector<double> run_offsets_percent;
  double spread_percent = 0.0;    // standard deviation of those offsets (as percent)
  std::string farthest_run;       // the run farthest from the others of its side (its id)
  double farthest_percent = 0.0;  // how far: its value against the mean of the others, percent
};

// The consistency verdict: a side whose runs disagree far more than the other side's.
struct ConsistencyVerdict {
  bool tested = false;  // both sides have 2 or more runs (runs as units)
  SideConsistency before, after;
  std::string less_consistent;  // "" | BEFORE | AFTER
  double spread_ratio = 0.0;    // that side's spread over the other's
  double p_value = -1.0;        // F test of the two sides' run offsets
};

// A straggler, slow link or slow crossing the runs' own verdicts name (Run::stragglers, Run::links,
// pairs.slow_crossing findings), counted per side (analysis/compare/compare_run_verdicts).
struct RunVerdictChange {
  std::string kind;  // straggler | slow link | slow crossing
  std::string name;  // the node, "a<->b", or the crossing's two sides
  int after_named = 0, after_runs = 0;
  int before_named = 0, before_runs = 0;
  double slow_percent = 0.0;  // how much slower than its run's baseline, the median over the naming runs
  // new: named by most AFTER runs and by no BEFORE run; gone: the reverse; both; sometimes (otherwise)
  std::string status;
  // The comparison's own data agrees: the node's test (straggler), the pair's metric (slow link), or some
  // pair metric (slow crossing) is slower. Only a confirmed new one is a REGRESSION: a run's own judge
  // compares pairs within one job, and on a noisy machine names links that the next job does not.
  bool confirmed = false;
  // The smallest change the comparison's own test of it would have found (the smallest over its sizes);
  // infinite when it has none. A new one the comparison could not have seen (this above its slowness)
  // and did not confirm makes the comparison INCONCLUSIVE.
  double compare_mde_percent = 0.0;
};

// One item of a REGRESSION (CompareOutcome::regressions).
struct RegressionItem {
  // metrics (slower metrics beyond --fail-on, not explained by a node or all pairs), node, all pairs,
  // new straggler, new slow link, new slow crossing, failures
  std::string kind;
  std::string name;                 // the node, the group of pairs, the straggler, ...
  double regression_percent = 0.0;  // how much worse (the largest, for a count of metrics)
  std::size_t count = 0;            // metrics (kind metrics), pairs explained (node, all pairs), failures
  std::string runs;                 // the runs' own verdicts: "1 of 1 AFTER runs"
};

// The verdict of the comparison, decided once (analysis/compare/compare_outcome) and only formatted by
// the printers.
struct CompareOutcome {
  std::string verdict = "no_regression";  // regression | inconclusive | no_regression
  double fail_on_percent = 0.0;
  // The change the comparison must be able to see for "No regression": --fail-on, or twice
  // min_change_percent when --fail-on is 0.
  double target_percent = 0.0;
  double max_mde_percent = -1.0;  // --max-mde (< 0: not given)
  int exit_code = 0;              // 0, 1 (regression), 4 (inconclusive with --max-mde)
  int slower_beyond = 0;          // metrics slower by more than --fail-on: "REGRESSION: N metrics slower"
  std::vector<RegressionItem> regressions;
  std::vector<std::size_t> blind;        // indices into Comparison::sensitivity of the levels that could not see
                                         // target_percent (the INCONCLUSIVE reasons)
  std::vector<std::size_t> unconfirmed;  // indices into Comparison::run_verdicts: new, not confirmed, and
                                         // beyond what the comparison could have seen (INCONCLUSIVE reasons)
  // "BEFORE", "AFTER" or "BEFORE and AFTER": the sides of one run when the comparison found a change
  // (a metric or node slower or faster, a new or gone verdict of the runs): a transient of that one job
  // looks the same as a lasting change ("" when no side has one run or nothing changed).
  std::string single_run_sides;
};

// One way the two runs differ that may explain a change (or make it meaningless).
struct ComparabilityNote {
  std::string what;  // "nodes", "sizes", "backend", "NCCL version", "environment", ...
  std::string before;
  std::string after;
};

// A measurement that failed in the runs of one side (a pair or collective case with status error,
// wrong or timeout; a filesystem probe with a failed rank), or a run of that side that did not complete.
// A failure in AFTER that no BEFORE run had is a regression, whatever --fail-on says: the change broke
// what worked (analysis/compare/compare_failures).
struct ComparedFailure {
  std::string what;               // the metric's name; for a run, "run <id> did not complete"
  std::string status;             // error | wrong | timeout; a run: timeout | aborted
  std::string error;              // the first message ("" when none)
  std::vector<std::string> runs;  // the ids of the runs of this side it failed in
  bool other_side_too = false;    // it failed in a run of the other side too (not new, not fixed)
};

struct ComparisonSummary {
  int faster = 0;
  int slower = 0;
  int no_change = 0;
  int untested = 0;                 // verdict untestable
  int explained = 0;                // slower or faster metrics whose change a node or all pairs explains
  int zero_variance = 0;            // metrics whose every unit of each side gave the same value
  double mde_median_percent = 0.0;  // of the no_change metrics' mde_percent (0 when none)
  double mde_max_percent = 0.0;     // the largest: the worst metric (Comparison::sensitivity has each level's)
  double iteration_share_median = -1.0;  // over the metrics with an iteration_share; -1 when none
  int iteration_share_metrics = 0;       // how many metrics have one
  int only_before = 0;
  int only_after = 0;
  int failures_new = 0;    // failures of AFTER that no BEFORE run had: each is a regression
  int failures_fixed = 0;  // failures of BEFORE that no AFTER run had
  int failures_both = 0;   // failures of AFTER that a BEFORE run had too
};

struct Comparison {
  std::string before_source;  // file names, ", "-joined (filled by the caller)
  std::string after_source;
  std::string before_run_id;  // run ids, ", "-joined
  std::string after_run_id;
  std::size_t runs_before = 0;  // runs per side
  std::size_t runs_after = 0;
  // run_level_moderated_t (>= 2 runs per side) | run_level_prediction_t (one run against 2 or more: the
  // other side's spread) | pair_spread (one run a side: each pair against the spread of all pairs'
  // changes; other metrics untestable) | block_level_moderated_t (blocks of one job as units,
  // analysis/compare/compare_units)
  std::string method;
  std::string units = "runs";    // what a unit (an entry of runs_before/runs_after) is: runs | blocks
  std::size_t units_before = 0;  // units per side (runs, or the blocks of every run)
  std::size_t units_after = 0;
  std::vector<std::string> unit_warnings;  // blocks are not jobs; blocks pooled; block counts differ
  CompareSettings settings;
  // The metrics' names, keys and units (MetricComparison::registry points into it); shared by copies.
  std::shared_ptr<const MetricRegistry> registry;
  std::vector<ComparabilityNote> comparability;  // empty: comparable in every way podperf can check
  std::vector<MetricComparison> metrics;         // present in both runs, in run order
  std::vector<std::string> only_before;          // metric names measured only in BEFORE
  std::vector<std::string> only_after;
  // Pair metrics whose value in some run is the pair's retest, not its first measurement (the run cleared
  // the pair by its retest: RunMetricSummary::from_retest), per side: "<run id>: <metric name>".
  std::vector<std::string> from_retest_before;
  std::vector<std::string> from_retest_after;
  // Failed measurements and incomplete runs per side (their metrics are not in only_before/only_after).
  std::vector<ComparedFailure> failures_before;
  std::vector<ComparedFailure> failures_after;
  ComparisonSummary summary;
  std::vector<PairLevelTest> pair_levels;     // the common shift and the node tests of each pair matrix
  std::vector<FamilySummary> families;        // the families tested, in the order of the metrics
  std::vector<LevelSensitivity> sensitivity;  // per family and level: what it could have seen
  ConsistencyVerdict consistency;
  std::vector<RunVerdictChange> run_verdicts;  // the runs' own stragglers, links and crossings
  CompareOutcome outcome;
};

// A comparison built one run at a time, so that a caller can read a run, add it and drop its pairs
// before reading the next (runs of thousands of nodes). Each run is summarized when added (one value
// per metric: summarize_run_samples), and finish() compares the summaries, work per metric on several
// threads; the result is the same for any number of threads and the same as compare_runs.
class RunComparison {
 public:
  explicit RunComparison(const CompareSettings& settings) : settings_(settings) {}
  // Comparability is judged between the first run of each side: the caller keeps those two alive
  // until finish() (their pairs and collectives may be dropped once added).
  void add_before(const Run& run);
  void add_after(const Run& run);
  Comparison finish() const;

 private:
  CompareSettings settings_;
  std::shared_ptr<MetricRegistry> registry_ = std::make_shared<MetricRegistry>();
  std::vector<RunMetricSummary> before_, after_;
  std::vector<RunOwnVerdicts> verdicts_before_, verdicts_after_;
  std::vector<std::string> ids_before_, ids_after_;
  const Run* first_before_ = nullptr;
  const Run* first_after_ = nullptr;
};

}  // namespace podperf

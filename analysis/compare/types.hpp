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
  double ci_low_percent = 0.0;  // interval of change_percent at settings.confidence (tested metrics only)
  double ci_high_percent = 0.0;
  double p_value = -1.0;     // Welch's t on log per-run medians, two-sided; -1: not tested (one run on a side)
  double p_adjusted = -1.0;  // p_value adjusted for the metrics tested (settings.correction); the verdict uses it
  bool exact = false;        // unused by the run-level test (kept for the JSON field)
  double mde_percent = 0.0;  // smallest |change| this data would have found (tested: at alpha and power, and at
                             // least min_change, which with blocks of one job as units is at least the
                             // allowance; one run on a side: the allowance, or min_change when larger)
  std::size_t n_before = 0;  // samples (iterations or ranks), every run together
  std::size_t n_after = 0;
  // The share of the spread between the runs that their own iterations explain (iteration_share in
  // change_stats: near 1, more iterations per run would shrink it; near 0, only more runs would); -1
  // when not estimated (one run on a side, blocks as units, no per-iteration samples: filesystem metrics).
  double iteration_share = -1.0;
  std::vector<double> runs_before;  // per-run medians, in the order the runs were given
  std::vector<double> runs_after;
  // faster | slower: p_adjusted < alpha and |change| >= min_change (with blocks of one job as units, the
  // allowance when larger: Comparison::settings holds what was applied), in the better/worse direction;
  // no_change: within noise (mde_percent says how much would have been seen);
  // one run on a side, no test: within_allowance | slower_beyond_allowance | faster_beyond_allowance
  // (|change| over settings.single_run_allowance_percent).
  std::string verdict;
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
  int untested = 0;                 // one run on a side: within_allowance + *_beyond_allowance
  int beyond_allowance = 0;         // slower_beyond_allowance + faster_beyond_allowance
  double mde_median_percent = 0.0;  // of the no_change metrics' mde_percent (0 when none)
  double mde_max_percent = 0.0;
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
  // run_level_welch (>= 2 runs per side) | block_level_welch (blocks of one job as units,
  // analysis/compare/compare_units) | single_run_allowance (one run on a side)
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
  std::vector<std::string> ids_before_, ids_after_;
  const Run* first_before_ = nullptr;
  const Run* first_after_ = nullptr;
};

}  // namespace podperf

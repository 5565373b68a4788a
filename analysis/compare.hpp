#pragma once
// Before/after comparison of two runs (podperf compare). Pure functions, no MPI: for every metric
// present in both runs (busbw per pair or collective case, filesystem MB/s, IOPS and p99 latency per
// probe and per node) the change in percent with a confidence interval, a Mann-Whitney U test on the
// per-iteration (or per-rank) samples, and a verdict; plus the ways the two runs are not comparable.
// The judge only: its settings are in compare_settings, its statistics in change_stats, and its printers
// in the wing (analysis/report/comparison_text, comparison_json, compare_html). Floor: analysis/.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/change_stats.hpp"
#include "analysis/compare_settings.hpp"
#include "analysis/run.hpp"

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

struct MetricComparison {
  MetricKey key;
  std::string name;              // for people: "pair node0<->node1 all_reduce float 1G busbw"
  std::string unit;              // GB/s | MB/s | ops/s | us
  bool higher_is_better = true;  // busbw, MB/s, ops/s; false for latency
  double before = 0.0;           // median of the samples
  double after = 0.0;
  double change_percent = 0.0;  // 100 * (after / before - 1)
  double ci_low_percent = 0.0;  // interval of change_percent at settings.confidence (tested metrics only)
  double ci_high_percent = 0.0;
  double p_value = -1.0;     // Mann-Whitney U, two-sided; -1: not tested
  double p_adjusted = -1.0;  // p_value adjusted for the metrics tested (settings.correction); the verdict uses it
  bool exact = false;        // p from the exact distribution
  std::size_t n_before = 0;
  std::size_t n_after = 0;
  // faster | slower: p_adjusted < alpha and |change| >= min_change, in the better/worse direction;
  // no_change: within noise; not_enough_samples: fewer than min_samples in a run (change only);
  // single_value: one value per run (change only, no test).
  std::string verdict;
};

// One way the two runs differ that may explain a change (or make it meaningless).
struct ComparabilityNote {
  std::string what;  // "nodes", "sizes", "backend", "NCCL version", "environment", ...
  std::string before;
  std::string after;
};

struct ComparisonSummary {
  int faster = 0;
  int slower = 0;
  int no_change = 0;
  int untested = 0;  // not_enough_samples + single_value
  int only_before = 0;
  int only_after = 0;
};

struct Comparison {
  std::string before_source;  // file names (filled by the caller)
  std::string after_source;
  std::string before_run_id;
  std::string after_run_id;
  CompareSettings settings;
  std::vector<ComparabilityNote> comparability;  // empty: comparable in every way podperf can check
  std::vector<MetricComparison> metrics;         // present in both runs, in run order
  std::vector<std::string> only_before;          // metric names measured only in BEFORE
  std::vector<std::string> only_after;
  ComparisonSummary summary;
};

// Compares every metric present in both runs. Pure; deterministic.
Comparison compare_runs(const Run& before, const Run& after, const CompareSettings& settings);

// How much worse the metric got, in percent of `before`: -change for higher-is-better metrics,
// +change for latency; negative when it improved.
double regression_percent(const MetricComparison& m);
// True when some metric's verdict is slower and its regression_percent exceeds fail_on_percent.
bool regressed_beyond(const Comparison& c, double fail_on_percent);

}  // namespace podperf

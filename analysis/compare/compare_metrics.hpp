#pragma once
// The metrics of the runs of a comparison (podperf compare), held compactly so that runs of thousands
// of nodes (millions of pair metrics) fit: a metric is a small integer key (its kind and the ids of the
// strings its name is made of, interned once in a MetricRegistry), and a run is summarized once into
// one value per metric (its median) and a sample count, without copying its samples. The name, key
// strings and unit of a metric are made only for the metrics that are printed. Floor: analysis/; pure
// and deterministic (the same summaries for any number of threads); not thread-safe itself.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

struct MetricKey;  // analysis/compare/types.hpp

enum class MetricKind : std::uint8_t { kPair, kTopologyClass, kCollective, kFsProbe, kFsNode };

// What makes two metrics of different runs the same metric: the fields of its name, as ids of
// strings in the registry (a size by its printed form, as the name has it). Fields a kind does not
// use are 0.
struct MetricIdentity {
  MetricKind kind = MetricKind::kPair;
  std::uint8_t quantity = 0;  // filesystem metrics: index into the filesystem quantities
  bool in_place = false;      // collective
  std::uint32_t op = 0, dtype = 0, size_text = 0;
  std::uint32_t a = 0;  // pair: first node label; topology class, collective: group; fs: probe
  std::uint32_t b = 0;  // pair: second node label; fs_node: node label
  bool operator==(const MetricIdentity&) const = default;
};

struct MetricIdentityHash {
  std::size_t operator()(const MetricIdentity& m) const noexcept;
};

// Every metric met in the runs of one comparison, and the strings their names are made of.
class MetricRegistry {
 public:
  std::uint32_t intern(std::string_view text);
  const std::string& text(std::uint32_t id) const { return strings_[id]; }
  // The metric's id, registering it on first sight with `size_bytes` (the first run's size wins).
  std::uint32_t metric(const MetricIdentity& identity, std::uint64_t size_bytes);
  std::size_t size() const { return metrics_.size(); }

  // For people and the printers (made on demand, not stored):
  MetricKey key(std::uint32_t metric) const;
  std::string name(std::uint32_t metric) const;
  const char* unit(std::uint32_t metric) const;
  bool higher_is_better(std::uint32_t metric) const;
  const MetricIdentity& identity(std::uint32_t metric) const { return metrics_[metric].identity; }

 private:
  struct Entry {
    MetricIdentity identity;
    std::uint64_t size_bytes = 0;
  };
  std::vector<std::string> strings_;
  std::unordered_map<std::string, std::uint32_t> string_ids_;
  static constexpr std::uint32_t kEmptySlot = 0xffffffffU;
  void grow();
  std::vector<Entry> metrics_;
  // Open addressing, linear probing: metric ids by hash of their identity, at most half full
  // (4 bytes a slot: millions of metrics without a node per entry).
  std::vector<std::uint32_t> slots_;
};

// A measurement of a run that failed: a pair or collective case whose status is error, wrong
// (checksum) or timeout, or a filesystem probe with a failed rank. Its metric has no value from it.
struct MetricFailure {
  std::uint32_t metric = 0;  // registry id (a filesystem probe: each of its per-job quantities)
  std::string status;        // error | wrong | timeout
  std::string error;         // the run's message for it ("" when none)
};

// One run's metrics, summarized: per metric in the order the run first met it, its per-run value and
// how many samples it came from (0: met, but no usable sample, e.g. a pair with zero busbw).
struct RunMetricSummary {
  std::vector<std::uint32_t> metrics;  // registry ids
  std::vector<double> values;          // summarize_run_samples of the metric's samples in this run
  std::vector<std::uint32_t> samples;  // sample counts
  // A run measured in blocks (--repeat K >= 2, analysis/compare/compare_units): its block count, and per metric
  // the median of each block's samples (pair and collective metrics, whose samples are block after
  // block, run.options.iters per block); empty for other metrics and for runs without blocks.
  int blocks = 0;
  std::vector<std::vector<double>> block_values;
  // Per metric, the standard error of the log of its value from its own samples
  // (log_median_standard_error: per-iteration busbw of pair and collective metrics); NaN for the others
  // (filesystem per-rank numbers differ by rank, not by chance; topology classes by pair).
  std::vector<float> log_se;
  // Registry ids of the pair metrics whose value is the pair's retest, not its first measurement: the
  // run cleared the pair by its retest (PairResult::cleared_by_retest; runs without blocks only).
  std::vector<std::uint32_t> from_retest;
  // Per metric, a pair measured more than once in this run (its first measurement, retest and later
  // retests): its best measurement's busbw over the one its value comes from (>= 1; 1 for one
  // measurement, for other metrics and for runs with blocks). One run a side tests a pair that moved
  // down by its best measurement in the job where it is slower (analysis/compare/compare_pair_levels).
  std::vector<float> best_ratio;
  std::vector<MetricFailure> failed;    // in the order the run lists them
  std::string run_status = "complete";  // Run::status: complete | timeout | aborted
  std::string run_error;                // Run::error
};

// The one place where a run's samples of one metric become its per-run value (the unit of the
// comparison): their median. Reorders `samples`.
double summarize_run_samples(std::vector<double>& samples);

// Every metric of `run` (busbw per pair, its retest where the run cleared the pair by it, per
// topology class of path in runs with a topology, per collective case; filesystem MB/s, IOPS and p99
// latency per probe and per node), registered in `registry` and summarized. Work per metric on up to
// `threads` threads (0: chosen by size).
RunMetricSummary summarize_run_metrics(const Run& run, MetricRegistry& registry, std::size_t threads = 0);

}  // namespace podperf

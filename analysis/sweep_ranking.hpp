#pragma once
// podperf sweep: ranking the points of a sweep by busbw per message size. Pure: the runs are read by
// the caller; this turns their per-iteration samples into intervals, ranks and the best setting. Its
// printers (text, CSV, JSON) are in the wing (analysis/report/sweep_tables). Floor: analysis/.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/run.hpp"

namespace podperf {

// The ranking's interval: its confidence and bootstrap resamples (fixed seeds per point and size).
inline constexpr double kSweepConfidence = 0.95;
inline constexpr int kSweepResamples = 2000;

// One measured case of a point: per-iteration busbw (busbw x median time / iteration time).
struct SweepCase {
  std::string op;
  std::string dtype;
  std::uint64_t size_bytes = 0;
  std::vector<double> busbw_gbps;
};

// One point as it ran.
struct SweepPointResult {
  int index = 0;
  std::string name;   // run id, the directory under the sweep directory
  std::string label;  // its settings, printable
  std::map<std::string, std::string> env;
  std::vector<std::string> argv;  // exactly what was executed (launcher first)
  std::string status = "ok";      // ok | failed (non-zero exit, or no run.json) | timeout | interrupted | not_run
  int exit_code = 0;              // the launcher's exit status (128 + signal when killed)
  std::string error;              // why it failed, and the tail of its output
  std::string run_dir;
  double duration_s = 0.0;
  std::vector<SweepCase> cases;
};

struct SweepRankEntry {
  int point = 0;  // SweepPointResult::index
  std::string label;
  double median_gbps = 0.0;
  double ci_low_gbps = 0.0;  // 95% percentile-bootstrap interval of the median
  double ci_high_gbps = 0.0;
  std::size_t samples = 0;
};

// Every point that measured this op, type and size, best first.
struct SweepRankGroup {
  std::string op;
  std::string dtype;
  std::uint64_t size_bytes = 0;
  std::vector<SweepRankEntry> entries;
  // The best point's interval lies wholly above the second's: the ranking of #1 is beyond noise.
  bool best_clear = false;
};

// The cases of a run (run.json): collectives out of place with status ok (groups pooled), pairs with
// status ok (pairs of one size pooled). Cases without samples are left out.
std::vector<SweepCase> sweep_cases(const Run& run);

// Percentile-bootstrap interval of the median of `values`: `resamples` resamples with a
// std::mt19937_64 seeded with `seed`. Fewer than 2 values: {median, median}.
std::pair<double, double> bootstrap_median_interval(const std::vector<double>& values, double confidence, int resamples,
                                                    std::uint64_t seed);

// Groups by (op, dtype, size), ranks by median busbw (higher first; ties by point index).
std::vector<SweepRankGroup> rank_sweep(const std::vector<SweepPointResult>& points);

}  // namespace podperf

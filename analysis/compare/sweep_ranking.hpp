#pragma once
// podperf sweep: ranking the points of a sweep by busbw per message size. Pure: the runs are read by
// the caller; this turns them into intervals, ranks and the best setting. The unit is the job: each
// repeat of a point is a separate job, summarised by its median busbw, and the points are compared
// on those per-job medians (Welch's t on their logarithms, Benjamini-Hochberg across the sizes), as
// podperf compare does; iterations of one job share its placement, algorithm choice and co-scheduled
// load, so they say nothing about run-to-run noise. With one job per point there is no run-to-run
// spread to test against: a point is "ahead" only beyond the single-run allowance. Its printers
// (text, CSV, JSON) are in the wing (analysis/report/sweep_tables). Floor: analysis/.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/model/run.hpp"

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

// One job of a point as it ran (a point runs once per repeat).
struct SweepPointResult {
  int index = 0;   // the point (SweepPoint::index)
  int repeat = 1;  // which of its repeats

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
  // Two or more jobs: the geometric mean of the per-job medians and its 95% t interval over jobs;
  // one job: that job's median and the percentile bootstrap over its iterations (within-run only).
  double median_gbps = 0.0;
  double ci_low_gbps = 0.0;
  double ci_high_gbps = 0.0;
  std::size_t samples = 0;               // iterations, all jobs together
  std::vector<double> run_medians_gbps;  // one per job, in the order they ran
};

// Every point that measured this op, type and size, best first.
struct SweepRankGroup {
  std::string op;
  std::string dtype;
  std::uint64_t size_bytes = 0;
  std::vector<SweepRankEntry> entries;
  // #1 is ahead of #2 beyond run-to-run noise: by the run-level test (method "runs": Welch's t on
  // log per-job medians, p adjusted across the sweep's sizes, below alpha), or with one job on
  // either side (method "single_run") by more than the single-run allowance.
  // Either way #1 must also be ahead by at least the minimum change of podperf compare (--min-change,
  // min_change_percent of configs/compare.toml): a significant 0.5% lead of a stable system is no lead.
  bool best_clear = false;
  std::string method;           // runs | single_run | only_point
  double change_percent = 0.0;  // #1 over #2, percent
  double p_value = -1.0;        // method runs: two-sided Welch p (raw); else -1
  double p_adjusted = -1.0;     // Benjamini-Hochberg across the sizes tested
  // method runs: the smallest difference these jobs would show with `power` at the alpha one lone
  // difference among the sizes tested must reach (alpha / sizes tested; noncentral t), never below the
  // minimum change; infinite when every job of both points gave the same value (zero_variance).
  double mde_percent = 0.0;
  bool zero_variance = false;     // method runs: no spread between the jobs to test against (no test)
  bool below_min_change = false;  // significant, but by less than the minimum change
};

// What "beyond noise" means for a sweep (defaults: configs/compare.toml's alpha, min_change_percent and
// single_run_allowance_percent, the same footing as podperf compare).
struct SweepRankSettings {
  double alpha = 0.05;
  double min_change_percent = 2.0;
  double single_run_allowance_percent = 25.0;
  double power = 0.8;  // for the minimum detectable effect
};

// The cases of a run (run.json): collectives out of place with status ok (groups pooled), pairs with
// status ok (pairs of one size pooled). Cases without samples are left out.
std::vector<SweepCase> sweep_cases(const Run& run);

// Percentile-bootstrap interval of the median of `values`: `resamples` resamples with a
// std::mt19937_64 seeded with `seed`. Fewer than 2 values: {median, median}.
std::pair<double, double> bootstrap_median_interval(const std::vector<double>& values, double confidence, int resamples,
                                                    std::uint64_t seed);

// Groups by (op, dtype, size), pools the jobs of each point, ranks by the entry's busbw (higher
// first; ties by point index) and decides best_clear.
std::vector<SweepRankGroup> rank_sweep(const std::vector<SweepPointResult>& jobs, const SweepRankSettings& s = {});

}  // namespace podperf

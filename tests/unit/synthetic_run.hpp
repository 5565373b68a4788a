#pragma once
// Builders of synthetic Runs for the analysis tests: n nodes, every pair measured at one size,
// per-iteration samples around the median, timing fields consistent with fill_timing.
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf::synthetic {

inline constexpr std::uint64_t kJudgedSize = 1ULL << 30;  // 1 GiB

// The built-in [pairs] thresholds (configs/thresholds.toml), loaded once.
inline const PairThresholds& builtin_pair_thresholds() {
  static const PairThresholds t = load_thresholds("").pairs;
  return t;
}

// The findings of `run` with this check, in order.
inline std::vector<const Finding*> findings_of(const Run& run, const std::string& check) {
  std::vector<const Finding*> out;
  for (const Finding& f : run.findings) {
    if (f.check == check) out.push_back(&f);
  }
  return out;
}

inline std::vector<NodeInfo> make_nodes(int n, bool is_virtual = false) {
  std::vector<NodeInfo> nodes;
  for (int i = 0; i < n; ++i) {
    NodeInfo node;
    node.index = i;
    node.hostname = is_virtual ? "box" : "node" + std::to_string(i);
    node.label = is_virtual ? "box/v" + std::to_string(i) : "node" + std::to_string(i);
    node.ranks = {2 * i, 2 * i + 1};
    node.is_virtual = is_virtual;
    nodes.push_back(node);
  }
  return nodes;
}

// Per-iteration times: `iters` values median_s * (1 + spread * k / half), k = -half..half, so the
// median is exactly median_s and the samples spread +-spread around it.
inline std::vector<double> symmetric_samples(double median_s, double spread, int half = 10) {
  std::vector<double> out;
  for (int k = -half; k <= half; ++k) out.push_back(median_s * (1.0 + spread * k / half));
  return out;
}

// One ok pair at `size_bytes` whose median busbw is `busbw_gbps` (2 ranks, all_reduce: busbw = algbw).
inline PairResult make_pair(int a, int b, std::uint64_t size_bytes, double busbw_gbps, std::vector<double> rel_samples) {
  PairResult p;
  p.round = 1;
  p.nodes = {a, b};
  p.size_bytes = size_bytes;
  p.count = size_bytes / 4;
  p.ranks = 4;
  p.busbw_gbps = busbw_gbps;
  p.algbw_gbps = busbw_gbps / 1.5;  // 2(n-1)/n at n = 4
  p.median_s = static_cast<double>(size_bytes) / (p.algbw_gbps * 1e9);
  for (double r : rel_samples) p.samples_s.push_back(p.median_s * r);
  const Summary s = summarize(p.samples_s);
  p.min_s = s.min;
  p.max_s = s.max;
  p.p99_s = s.p99;
  p.cv = s.cv;
  return p;
}

inline PairResult make_pair(int a, int b, std::uint64_t size_bytes, double busbw_gbps, double spread = 0.01) {
  return make_pair(a, b, size_bytes, busbw_gbps, symmetric_samples(1.0, spread));
}

// Every pair of n nodes at one size; busbw(a, b) gives each pair's median busbw.
inline Run make_run(int n, const std::function<double(int, int)>& busbw, double spread = 0.01,
                    std::uint64_t size_bytes = kJudgedSize) {
  Run run;
  run.run_id = "test-run";
  run.command = "pairs";
  run.backend = "host";
  run.ranks = 2 * n;
  run.nodes = make_nodes(n);
  run.options.sizes_bytes = {size_bytes};
  Thresholds thresholds = load_thresholds("");
  thresholds.pairs.threshold = 0.05;
  record_thresholds(run, thresholds);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) run.pairs.push_back(make_pair(a, b, size_bytes, busbw(a, b), spread));
  }
  return run;
}

}  // namespace podperf::synthetic

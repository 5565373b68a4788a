#pragma once
// A synthetic pairs Run at scale for the micro-benchmarks: n nodes, every pair measured at one size
// (1 GiB all_reduce, 2 ranks per node), per-iteration samples with realistic noise, a few slow nodes
// and one slow link, host signals per host for correlate(). Deterministic (fixed seed). Also the
// process's memory figures (Linux /proc) the benchmarks report.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "analysis/model/result_timing.hpp"
#include "analysis/model/run.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf::perf {

inline constexpr std::uint64_t kSize = 1ULL << 30;
inline constexpr double kBaseBusbw = 40.0;  // GB/s

// Timed iterations per pair: PODPERF_BENCH_ITERS, default 10 (podperf's own default -n is 20; the
// analysis sorts each pair's samples once, so its cost grows with this number, see README).
inline int bench_iters() {
  const char* env = std::getenv("PODPERF_BENCH_ITERS");
  const int n = env != nullptr ? std::atoi(env) : 10;
  return n > 0 ? n : 10;
}

inline std::uint64_t pair_count(int n) {
  return static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n - 1) / 2;
}

// The slow nodes: about one in 500, at least 3 (at 70%, 80% and 85% of their NIC's speed).
inline std::vector<int> slow_nodes(int n) {
  const int count = std::max(3, n / 500);
  std::vector<int> out;
  for (int i = 0; i < count; ++i) out.push_back((i * 7919 + 17) % n);
  return out;
}

inline Run make_scale_run(int n, int iters = bench_iters()) {
  Run run;
  run.run_id = "perf-scale";
  run.command = "pairs";
  run.backend = "host";
  run.ranks = 2 * n;
  run.started_at = "2026-01-01T00:00:00Z";
  run.finished_at = "2026-01-01T00:10:00Z";
  run.options.sizes_bytes = {kSize};
  run.options.iters = iters;
  Thresholds thresholds = load_thresholds("");
  thresholds.pairs.threshold = 0.05;
  record_thresholds(run, thresholds);
  run.options.concurrency = "round";
  std::mt19937_64 rng(42);
  std::normal_distribution<double> nic(1.0, 0.01);    // node to node
  std::normal_distribution<double> pair(0.0, 0.02);   // pair to pair
  std::normal_distribution<double> iter(0.0, 0.015);  // iteration to iteration
  std::vector<double> factor(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    NodeInfo node;
    node.index = i;
    node.hostname = "ip-10-0-" + std::to_string(i / 256) + "-" + std::to_string(i % 256);
    node.label = node.hostname;
    node.ranks = {2 * i, 2 * i + 1};
    run.nodes.push_back(std::move(node));
    factor[static_cast<std::size_t>(i)] = std::clamp(nic(rng), 0.95, 1.05);
  }
  const double slow[] = {0.70, 0.80, 0.85};
  const std::vector<int> slow_list = slow_nodes(n);
  for (std::size_t i = 0; i < slow_list.size(); ++i) factor[static_cast<std::size_t>(slow_list[i])] = slow[i % 3];
  // One slow link between two healthy nodes.
  const int link_a = 1, link_b = n / 2 + 1;

  // Round numbers as the circle schedule would give them do not matter to the analysis: a cheap
  // stand-in (a + b) mod (n - 1) + 1 keeps them in range.
  run.pairs.reserve(pair_count(n));
  run.rounds_planned = run.rounds_completed = run.rounds_full_schedule = n % 2 == 0 ? n - 1 : n;
  std::vector<double> samples(static_cast<std::size_t>(iters));
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      PairResult p;
      p.round = (a + b) % (n - 1) + 1;
      p.nodes = {a, b};
      p.size_bytes = kSize;
      p.count = kSize / 4;
      p.ranks = 4;
      double busbw = kBaseBusbw * std::min(factor[static_cast<std::size_t>(a)], factor[static_cast<std::size_t>(b)]) *
                     (1.0 + pair(rng));
      if (a == link_a && b == link_b) busbw *= 0.6;
      const double algbw = busbw / 1.5;
      const double median_s = static_cast<double>(kSize) / (algbw * 1e9);
      for (double& s : samples) s = median_s * (1.0 + std::fabs(iter(rng)));
      p.samples_s = samples;
      set_timing_from_samples(p, 1.5);
      run.pairs.push_back(std::move(p));
    }
  }
  // Host signals over the run (correlate ranks hosts by them) and a concern on one slow node.
  std::uniform_real_distribution<double> errors(0.0, 3.0);
  for (int i = 0; i < n; ++i) {
    run.node_metrics.push_back({run.nodes[static_cast<std::size_t>(i)].hostname, "efa_error_counter_rise",
                                std::floor(errors(rng))});
    run.node_metrics.push_back({run.nodes[static_cast<std::size_t>(i)].hostname, "iowait_percent", errors(rng)});
  }
  Finding f;
  f.tag = Tag::kConcern;
  f.source = "signals";
  f.check = "efa.error_counters";
  f.host = run.nodes[static_cast<std::size_t>(slow_list[0])].hostname;
  f.observed = "rdma_read_resp_bytes errors rose by 120";
  f.expected = "no rise";
  f.meaning = "the NIC retransmits";
  f.next_step = "check the EFA device";
  run.findings.push_back(f);
  return run;
}

// This process's resident set and its peak (VmRSS, VmHWM from /proc/self/status), in bytes; 0 when
// not readable.
inline std::uint64_t proc_status_kib(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) == 0) return std::strtoull(line.c_str() + key.size() + 1, nullptr, 10);
  }
  return 0;
}
inline std::uint64_t rss_bytes() { return proc_status_kib("VmRSS") * 1024; }
inline std::uint64_t peak_rss_bytes() { return proc_status_kib("VmHWM") * 1024; }

// Resets the peak (VmHWM) to the current resident set (Linux >= 4.0: "5" to clear_refs). Returns
// false when the kernel refuses, and the peak then covers the whole process so far.
inline bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

inline double mib(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

}  // namespace podperf::perf

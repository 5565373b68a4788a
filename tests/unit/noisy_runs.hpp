#pragma once
// Pairs of synthetic runs for podperf compare's tests: a cluster of six nodes with a fixed true busbw
// per pair and size, per-iteration log-normal noise with occasional hiccups, and two filesystem probes
// with per-rank numbers, optionally a run effect shared by a run's iterations (the two-level model);
// a ClusterSpec changes a pair, the filesystem, the nodes, sizes or versions.
// Portable noise (own uniform and Box-Muller on mt19937_64): the same seed gives the same run everywhere.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "analysis/model/result_timing.hpp"
#include "analysis/model/run.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf::noisy {

inline constexpr std::uint64_t kM = 1ULL << 20;

class Noise {
 public:
  explicit Noise(std::uint64_t seed) : rng_(seed) {}
  double uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  double normal() {
    const double u1 = std::max(uniform(), 1e-300), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  std::mt19937_64 rng_;
};

struct ClusterSpec {
  std::vector<std::string> labels{"node0", "node1", "node2", "node3", "node4", "node5"};
  std::vector<std::uint64_t> sizes{16 * kM, 64 * kM, 256 * kM};
  int iters = 20;
  double cv = 0.02;                // log-normal iteration noise
  double outlier_fraction = 0.05;  // iterations 30% slower (a hiccup)
  // The run effect of the two-level model: every pair and size of one run gets its own log-normal factor
  // of this cv, shared by all its iterations (placement, path hash, co-scheduled load); 0: none (and no
  // draws, so the runs of the other tests stay the same).
  double run_cv = 0.0;
  // Multiplies the pair's iteration times (1.25: busbw 20% lower).
  std::function<double(const std::string&, const std::string&, std::uint64_t)> time_factor =
      [](const std::string&, const std::string&, std::uint64_t) { return 1.0; };
  int fs_ranks_per_node = 4;
  double fs_rate_factor = 1.0;     // multiplies MB/s and IOPS
  double fs_latency_factor = 1.0;  // multiplies rand-read latency
  std::string nccl_version = "NCCL 2.21.5";
  std::string environment = "FI_PROVIDER=efa, NCCL_DEBUG=INFO";
};

// The cluster's true busbw of a pair (a property of the cluster, the same in every run): 3% pair to
// pair spread, lower at small sizes.
inline double true_busbw_gbps(const std::string& a, const std::string& b, std::uint64_t size) {
  std::uint64_t h = 0;
  for (char c : a + b) h = h * 131 + static_cast<unsigned char>(c);
  const double spread = 1.0 + 0.03 * (static_cast<double>(h % 7) - 3.0) / 3.0;
  return 100.0 * spread * static_cast<double>(size) / static_cast<double>(size + 8 * kM);
}

inline Run make_noisy_run(const ClusterSpec& spec, std::uint64_t seed) {
  Noise noise(seed);
  Run run;
  run.run_id = "run-" + std::to_string(seed);
  run.command = "run";
  run.backend = "nccl";
  record_thresholds(run, load_thresholds(""));
  const int n = static_cast<int>(spec.labels.size());
  run.ranks = n * spec.fs_ranks_per_node;
  run.options.sizes_bytes = spec.sizes;
  run.options.iters = spec.iters;
  for (int i = 0; i < n; ++i) {
    NodeInfo node;
    node.index = i;
    node.hostname = node.label = spec.labels[i];
    for (int r = 0; r < spec.fs_ranks_per_node; ++r) node.ranks.push_back(i * spec.fs_ranks_per_node + r);
    run.nodes.push_back(node);
    Finding v;
    v.tag = Tag::kOk;
    v.check = "signals.nccl_version";
    v.host = node.hostname;
    v.observed = spec.nccl_version;
    run.findings.push_back(v);
    Finding e = v;
    e.tag = Tag::kInfo;
    e.check = "signals.environment";
    e.observed = spec.environment;
    run.findings.push_back(e);
  }
  for (std::uint64_t size : spec.sizes) {
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        PairResult p;
        p.nodes = {a, b};
        p.size_bytes = size;
        p.count = size / 4;
        p.ranks = 2 * spec.fs_ranks_per_node;
        const double busbw = true_busbw_gbps(spec.labels[a], spec.labels[b], size);
        const double t_true =
            static_cast<double>(size) * 1.5 / (busbw * 1e9) * spec.time_factor(spec.labels[a], spec.labels[b], size);
        const double run_factor = spec.run_cv > 0.0 ? std::exp(spec.run_cv * noise.normal()) : 1.0;
        for (int i = 0; i < spec.iters; ++i) {
          double t = t_true * run_factor * std::exp(spec.cv * noise.normal());
          if (noise.uniform() < spec.outlier_fraction) t *= 1.3;
          p.samples_s.push_back(t);
        }
        set_timing_from_samples(p, 1.5);
        run.pairs.push_back(p);
      }
    }
  }
  run.fs.fs_type = "lustre";
  run.fs.shared = true;
  for (const char* name : {"seq-write", "rand-read"}) {
    FsProbeResult probe;
    probe.probe = name;
    probe.block_size_bytes = std::string(name) == "rand-read" ? 4096 : kM;
    for (int node = 0; node < n; ++node) {
      for (int r = 0; r < spec.fs_ranks_per_node; ++r) {
        FsRankResult rank;
        rank.rank = node * spec.fs_ranks_per_node + r;
        rank.node = node;
        rank.mb_per_s = 500.0 * spec.fs_rate_factor * std::exp(0.05 * noise.normal());
        rank.ops_per_s = rank.mb_per_s * 1e6 / static_cast<double>(probe.block_size_bytes);
        if (probe.probe == "rand-read")
          rank.lat_p99_us = 800.0 * spec.fs_latency_factor * std::exp(0.05 * noise.normal());
        probe.ranks.push_back(rank);
      }
    }
    run.fs.probes.push_back(probe);
  }
  return run;
}

}  // namespace podperf::noisy

#pragma once
// Filesystem probe analysis (IOR, fio, elbencho, DLIO and the FSx for Lustre performance documentation): IOR-style
// aggregates, per-node outliers against a robust baseline (the pairs' flagging machinery), saturation against the
// filesystem's expected throughput, page-cache warnings, and the slow nodes joined with their hosts' findings. Pure.
#include <string>
#include <vector>

#include "analysis/config/fs_probes.hpp"
#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"

namespace podperf {

// What each probe is (read or write, judged on MB/s or ops/s) is its row in analysis/config/fs_probes.
// "MB/s" or "ops/s".
const char* fs_metric_unit(const FsProbeResult& p);
// The value a node or the probe is judged on: mb_per_s, or ops_per_s for the probes judged on rate
// (the metadata phases).
double fs_node_metric(const FsProbeResult& p, const FsNodeResult& n);
double fs_probe_metric(const FsProbeResult& p);
// The throughput a probe's aggregate is compared with: fs.expected_read_mb_s for the read probes
// (seq-read, rand-read, ckpt-load), fs.expected_write_mb_s for the writes (seq-write, ckpt-save), 0 for
// the metadata phases, a probe not in the catalog, or when not given.
double fs_expected_mb_s(const FsRun& fs, const std::string& probe);

// Fills p.nodes (one per node that has ranks in p.ranks, labels from `nodes`), the aggregate fields
// (bytes, ops, duration_s = last end - first start, first_done_s, mb_per_s, ops_per_s),
// cached_fraction_max, status/error (the worst rank status and the first rank error), each rank's
// mb_per_s/ops_per_s, and, when any rank carries latency samples, the per-rank and all-rank latency
// percentiles (p50, p90, p99, p99.9; nearest rank). Ranks with status error count towards nothing
// but the status.
void summarize_fs_probe(FsProbeResult& p, const std::vector<NodeInfo>& nodes);

// For every probe in run.fs.probes: summarize_fs_probe, then baseline (robust_baseline of the nodes'
// metric), each node's ratio and flag (below baseline * (1 - t.threshold) and the gap above
// t.spread_factor * min(spread, t.max_spread_fraction * baseline); fewer than 3 nodes: no node is
// flagged), slowest_node. Then run.fs.slow_nodes (nodes flagged in any probe, likely causes from
// their hosts' CONCERN findings in run.findings, iowait/mount/Lustre first; next step otherwise),
// and findings with source "fs" appended to run.findings (replacing earlier ones, so it can run
// again): fs.saturation (aggregate >= t.saturation_fraction of expected), fs.cache (a read probe
// with cached_fraction_max above t.cache_warn_fraction), fs.checksum (wrong), fs.error.
void judge_fs(Run& run, const FsThresholds& t);

// 3 when any probe has status error; 1 when any is wrong or a node is flagged; else 0.
int fs_exit_code(const Run& run);

}  // namespace podperf

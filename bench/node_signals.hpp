#pragma once
// Host signals inside the MPI job: one snapshot per host (taken by the lowest rank of each
// shared-memory group) at the start and at the end of the run, gathered to rank 0 and evaluated:
// each host's rules, what changed during the run (iowait, EFA counters, new Xids), and drift
// across hosts. Read-only.
#include <string>
#include <vector>

#include "analysis/base/finding.hpp"
#include "analysis/model/run.hpp"
#include "bench/mpi.hpp"
#include "signals/snapshot.hpp"

namespace podperf {

// Collective over `world`: the snapshots of every host, on rank 0 (empty elsewhere). `root` prefixes
// every path read ("/" on a real host); "%h" in it becomes the host's name.
std::vector<HostSnapshot> gather_host_snapshots(const Comm& world, const std::string& root);

// Rank 0: findings of the run from the snapshots at its start and end (matched by hostname).
std::vector<Finding> host_signal_findings(const std::vector<HostSnapshot>& before,
                                          const std::vector<HostSnapshot>& after);

// Rank 0: numeric host signals over the run, for correlation with busbw: efa_error_counter_rise,
// iowait_percent and steal_percent per host present in both snapshots; gpu_temperature_c (the hottest
// GPU NVML could read at the end of the run) per host of `after` whose NVML was readable.
std::vector<NodeMetric> host_signal_metrics(const std::vector<HostSnapshot>& before,
                                            const std::vector<HostSnapshot>& after);

}  // namespace podperf

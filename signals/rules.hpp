#pragma once
// Signal thresholds (configs/rules.toml) and the rules that turn host snapshots into findings
// (podperf's host-signal sources: NVML, sysfs, procfs and NVIDIA's Xid catalog, "concern when" column). Pure: no I/O
// except the loaders.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/base/finding.hpp"
#include "signals/snapshot.hpp"

namespace podperf {

struct Rules {
  std::string governor_expected;              // [cpu] governor
  double iowait_concern_percent = 0.0;        // [cpu] iowait_concern_percent: iowait above this -> CONCERN
  double steal_concern_percent = 0.0;         // [cpu] steal_concern_percent
  std::uint64_t shm_min_bytes = 0;            // [memory] shm_min_bytes: below -> INFO, at or above -> OK
  std::uint64_t shm_concern_bytes = 0;        // [memory] shm_concern_bytes: at or below -> CONCERN
  std::uint64_t memlock_min_bytes = 0;        // [memory] memlock_min_bytes: below (and not unlimited) -> CONCERN
  double root_used_concern_fraction = 0.0;    // [storage] root_used_concern_fraction: used >= this -> CONCERN
  double ost_fill_imbalance_points = 0.0;     // [storage] ost_fill_imbalance_points: max OST fill minus the
                                              // median fill, percentage points, above -> CONCERN
  std::map<std::string, int> efa_expected_count;  // [efa.expected_count] instance type -> EFA devices
  std::vector<std::string> efa_concern_counters;  // [efa] concern_counters: a rise is a CONCERN
  std::set<int> xid_concern_codes;                // [xid] concern_codes: CONCERN; other Xids INFO
  // [gpu] (NVML)
  double gpu_temperature_concern_c = 0.0;  // temperature_concern_c: at or above -> CONCERN
  double gpu_slowdown_margin_c = 0.0;      // slowdown_margin_c: at or above (slowdown threshold - this) -> CONCERN
  std::vector<std::string> gpu_clock_event_concern;   // clock_event_concern: reason names that are a CONCERN
  std::vector<std::string> gpu_clock_event_info;      // clock_event_info: reason names that are an INFO
  bool gpu_pcie_gen_below_max_concern = false;        // pcie_gen_below_max_concern: false -> INFO only
  std::int64_t gpu_ecc_volatile_uncorrected_max = 0;  // ecc_volatile_uncorrected_max: above -> CONCERN
  std::int64_t gpu_nvlink_error_concern_count = 0;    // nvlink_error_concern_count: any counter of a link
                                                      // above -> CONCERN
  std::int64_t gpu_nvlink_error_rise_max = 0;         // nvlink_error_rise_max: a link's counters rising by more
                                                      // during a test -> CONCERN
  std::string source;                                 // where it was loaded from
};

// Where the findings of a host check rank among the likely causes of a slow pair and of a slow
// filesystem node (analysis/base/cause_rank.hpp): a column of the rule table, stamped on every finding
// the check writes (Finding::pair_cause_rank, fs_cause_rank).
struct CauseRanks {
  int pair;
  int fs;
};
// The ranks of the host check `check` ("signals.xid"), nullopt for a check the table does not have.
std::optional<CauseRanks> signal_cause_ranks(std::string_view check);

// Parses TOML text; `source` names it in errors. Every key is required and unknown keys are errors.
// Throws ConfigError "<source>:<line>: '<key>' ... (expected ...)".
Rules parse_rules(std::string_view toml_text, const std::string& source);
// Loads a rules file. Throws ConfigError (also when it cannot be read).
Rules load_rules_file(const std::string& path);
// `path_or_empty` empty: the configs/rules.toml built into the binary. Throws ConfigError.
Rules load_rules(const std::string& path_or_empty);

// Findings about one snapshot, source "signals", host = the snapshot's hostname. Checks (stable ids):
// signals.instance_type, signals.kernel, signals.cpu_governor, signals.meminfo, signals.dev_shm,
// signals.root_fs, signals.mounts, signals.memlock, signals.stack, signals.efa_count, signals.efa_versions,
// signals.nvidia_driver, signals.pcie_width, signals.lustre_ost, signals.xid, signals.environment,
// NVML: signals.nvml (loaded or not, and why), signals.gpu_lost, signals.gpu_temperature,
// signals.gpu_clock_events, signals.gpu_pcie, signals.gpu_ecc, signals.gpu_row_remap, signals.gpu_nvlink,
// signals.gpu_fabric; libraries: signals.libfabric, signals.nccl_version, signals.cuda_driver_version.
// PCIe width comes from NVML (signals.gpu_pcie) when NVML read a link width; sysfs's signals.pcie_width
// is evaluated only otherwise, so one degraded link gives one finding.
// Anything not readable is an INFO that says why and how to look by hand.
std::vector<Finding> evaluate(const HostSnapshot& s, const Rules& r);

// Findings about what changed between two snapshots of the same host (before and after a test):
// signals.iowait, signals.steal (percent of CPU time between the two /proc/stat samples),
// signals.efa_counters (any rise of r.efa_concern_counters), signals.xid_new (Xids in `after` only),
// signals.gpu_ecc_new (volatile uncorrected ECC rose), signals.gpu_nvlink_errors_new (a link's error
// counters rose by more than r.gpu_nvlink_error_rise_max); the GPU ones only when NVML read both.
std::vector<Finding> evaluate_delta(const HostSnapshot& before, const HostSnapshot& after, const Rules& r);

// Run-wide findings (host "") about values that differ across nodes: drift.nvidia_driver, drift.kernel,
// drift.efa_installer, drift.efa_module, drift.instance_type, drift.cuda_driver, drift.nccl,
// drift.libfabric (CONCERN when they differ, OK when the same; skipped when no node could read it),
// drift.env.<NAME> for each tracked variable that differs ("(unset)" where absent) and one drift.env OK
// when none differs. Observed lists the groups: "535.104.05: a, b; 550.54.15: c". Fewer than two nodes:
// one INFO drift.nodes.
std::vector<Finding> evaluate_drift(const std::vector<HostSnapshot>& nodes);


}  // namespace podperf

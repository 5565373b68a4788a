#pragma once
// Signal thresholds (configs/rules.toml) and the rules that turn host snapshots into findings
// (FIELD-NOTES section 4, "concern when" column). Pure: no I/O except the loaders.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/finding.hpp"
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
  std::string source;                             // where it was loaded from
};

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
// signals.nvidia_driver, signals.pcie_width, signals.lustre_ost, signals.xid, signals.environment.
// Anything not readable is an INFO that says why and how to look by hand.
std::vector<Finding> evaluate(const HostSnapshot& s, const Rules& r);

// Findings about what changed between two snapshots of the same host (before and after a test):
// signals.iowait, signals.steal (percent of CPU time between the two /proc/stat samples),
// signals.efa_counters (any rise of r.efa_concern_counters), signals.xid_new (Xids in `after` only).
std::vector<Finding> evaluate_delta(const HostSnapshot& before, const HostSnapshot& after, const Rules& r);

// Run-wide findings (host "") about values that differ across nodes: drift.nvidia_driver, drift.kernel,
// drift.efa_installer, drift.efa_module, drift.instance_type (CONCERN when they differ, OK when the same),
// drift.env.<NAME> for each tracked variable that differs ("(unset)" where absent) and one drift.env OK
// when none differs. Observed lists the groups: "535.104.05: a, b; 550.54.15: c". Fewer than two nodes:
// one INFO drift.nodes.
std::vector<Finding> evaluate_drift(const std::vector<HostSnapshot>& nodes);

// "64 MiB", "1.5 GiB", "512 B".
std::string format_bytes(std::uint64_t bytes);

}  // namespace podperf

#pragma once
// Private to signals/: the host domain of the signal rules: identity (instance type, kernel), CPU
// governor and time shares, memory, /dev/shm, resource limits, library versions and the environment.
// Reads rules.toml [cpu] and [memory]. Pure, local; the section parsers throw ConfigError, the checks
// never throw. Each function is one row of the rule table in signals/rules.cpp.
#include "signals/rules_common.hpp"

namespace podperf::signal_rules {

// [cpu]: governor, iowait_concern_percent, steal_concern_percent.
void parse_cpu_section(const toml::table& cpu, const std::string& source, Rules& r);
// [memory]: shm_min_bytes, shm_concern_bytes (at most shm_min_bytes), memlock_min_bytes.
void parse_memory_section(const toml::table& memory, const std::string& source, Rules& r);

void check_instance_type(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);  // signals.instance_type
void check_kernel(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);         // signals.kernel
void check_governor(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);       // signals.cpu_governor
void check_meminfo(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);        // signals.meminfo
// signals.dev_shm; nothing when the mounts are unreadable (signals.mounts says so).
void check_dev_shm(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_memlock(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);       // signals.memlock
void check_stack(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);         // signals.stack (if read)
void check_nccl_version(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);  // signals.nccl_version
// signals.cuda_driver_version
void check_cuda_driver_version(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_environment(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);  // signals.environment

// signals.iowait between two /proc/stat samples (an INFO when they cannot be compared).
void delta_iowait(const HostSnapshot& before, const HostSnapshot& after, const Rules& r, std::vector<Finding>& out);
// signals.steal between two /proc/stat samples (nothing when they cannot be compared).
void delta_steal(const HostSnapshot& before, const HostSnapshot& after, const Rules& r, std::vector<Finding>& out);

// drift.env.<NAME> per tracked variable that differs across nodes, else one drift.env OK.
void drift_environment(const std::vector<HostSnapshot>& nodes, std::vector<Finding>& out);

}  // namespace podperf::signal_rules

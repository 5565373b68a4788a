#pragma once
// Private to signals/: the GPU domain of the signal rules: the NVIDIA driver, sysfs PCIe link widths and
// the Xid/SXid kernel log records (signals/rules_gpu.cpp), and NVML's GPU state and its changes during
// a test (signals/rules_nvml.cpp). Reads rules.toml [gpu] and [xid]. Pure, local; the section parsers
// throw ConfigError, the checks never throw. Each function is one row of the rule table in
// signals/rules.cpp.
#include "signals/rules_common.hpp"

namespace podperf::signal_rules {

// [xid]: concern_codes (1 to 999, each once).
void parse_xid_section(const toml::table& xid, const std::string& source, Rules& r);
// [gpu]: temperature and slowdown margins, clock event reason names (each once in concern and info
// together), pcie_gen_below_max_concern, ECC and NVLink error limits.
void parse_gpu_section(const toml::table& gpu, const std::string& source, Rules& r);

// ---- rules_gpu.cpp ----
void check_nvidia_driver(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);  // signals.nvidia_driver
// signals.pcie_width from sysfs; nothing when NVML read a link width (signals.gpu_pcie covers it).
void check_pcie_width(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_xid(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);  // signals.xid
// signals.xid_new: Xids in `after` only (nothing when `after` has no kernel log).
void delta_xid_new(const HostSnapshot& before, const HostSnapshot& after, const Rules& r, std::vector<Finding>& out);

// ---- rules_nvml.cpp: nothing from the signals.gpu_* checks unless NVML loaded and listed a GPU ----
void check_nvml(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);  // signals.nvml
void check_gpu_lost(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_gpu_temperature(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_gpu_clock_events(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_gpu_pcie(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_gpu_ecc(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_gpu_row_remap(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_gpu_nvlink(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_gpu_fabric(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
// signals.gpu_ecc_new / signals.gpu_nvlink_errors_new: only when NVML read both snapshots and a GPU of
// `after` (matched by UUID, else index) had the counters in both.
void delta_gpu_ecc(const HostSnapshot& before, const HostSnapshot& after, const Rules& r, std::vector<Finding>& out);
void delta_gpu_nvlink(const HostSnapshot& before, const HostSnapshot& after, const Rules& r, std::vector<Finding>& out);

}  // namespace podperf::signal_rules

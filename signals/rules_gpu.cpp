// The GPU domain of the signal rules, outside NVML (signals/rules_gpu.hpp): [xid] and [gpu] of rules.toml,
// the NVIDIA driver and sysfs PCIe checks and the Xid/SXid kernel log records of podperf's host-signal sources: NVML,
// sysfs, procfs and NVIDIA's Xid catalog. Every finding says what was seen, what healthy looks like, what it means, the
// likely effect and the next step; podperf never runs that step. Pure, local; only the section parsers throw
// (ConfigError).
#include "signals/rules_gpu.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"

namespace podperf::signal_rules {
namespace {

// Identity of an Xid record for "new since before": the kmsg sequence number when known.
std::string xid_key(const XidEvent& e) {
  if (e.seq >= 0) return fmt::format("seq:{}", e.seq);
  return fmt::format("{}:{}:{}:{}:{}", e.sxid, e.code, e.pci, e.usec, e.text);
}

// Xid findings grouped by (sxid, code): one finding per code, `check` their id, `window` where they were
// seen ("in the kernel log").
void xid_findings(const std::vector<XidEvent>& xids, const Rules& r, const std::string& host, const std::string& check,
                  const std::string& window, std::vector<Finding>& out) {
  std::map<std::pair<bool, int>, std::vector<const XidEvent*>> by_code;
  for (const auto& e : xids) by_code[{e.sxid, e.code}].push_back(&e);
  for (const auto& [key, events] : by_code) {
    const auto [sxid, code] = key;
    std::vector<std::string> pcis;
    for (const auto* e : events)
      if (std::find(pcis.begin(), pcis.end(), e->pci) == pcis.end()) pcis.push_back(e->pci);
    const std::string observed = fmt::format("{} {} x{} on {}: {}", sxid ? "SXid" : "Xid", code, events.size(),
                                             list(pcis, 4), events.back()->text);
    if (sxid) {
      const bool fatal = events.back()->text.find("Fatal") != std::string::npos &&
                         events.back()->text.find("Non-fatal") == std::string::npos;
      out.push_back(make(fatal ? Tag::kConcern : Tag::kInfo, check, host, observed, "no NVSwitch errors " + window,
                         fatal ? "a fatal NVSwitch error" : "a non-fatal NVSwitch error",
                         "NVLink traffic through that switch may stall or fail",
                         "confirm: dmesg | grep SXid; nvidia-smi -q | grep -i fabric; follow NVIDIA's NVSwitch "
                         "(Fabric Manager) troubleshooting"));
      continue;
    }
    const std::optional<XidInfo> info = xid_info(code);
    const bool concern = r.xid_concern_codes.contains(code);
    std::string meaning =
        info ? std::string(info->meaning) : "an Xid NVIDIA's catalog (as podperf knows it) does not describe";
    std::string action = info ? std::string(info->action) : "look the code up in NVIDIA's Xid catalog";
    out.push_back(
        make(concern ? Tag::kConcern : Tag::kInfo, check, host, observed, "no hardware Xid " + window,
             "Xid " + std::to_string(code) + ": " + meaning,
             concern ? "the GPU may be unusable or slow: NCCL collectives through it hang, error out "
                       "or run slow"
                     : "usually an application event; no effect on other jobs",
             "confirm: dmesg -T | grep -E 'NVRM: Xid'; nvidia-smi -q -d ECC,ROW_REMAPPER; action: " + action));
  }
}

// [gpu] clock_event_concern or clock_event_info (`key`) into `into`: reason names, none listed twice in
// the two lists together.
void parse_clock_event_reasons(const toml::table& gpu, std::string_view key, const std::string& source, Rules& r,
                               std::vector<std::string>& into) {
  const toml::array& a = require_array(gpu, key, "gpu.", source);
  for (const toml::node& n : a) {
    if (!n.is_string() || clock_event_reason_bit(n.as_string()->get()) == 0) {
      throw ConfigError(
          fmt::format("{}: 'gpu.{}' entries must be clock event reason names (expected strings such as \"HwSlowdown\", "
                      "\"SwThermalSlowdown\", \"HwThermalSlowdown\", \"HwPowerBrakeSlowdown\", \"SwPowerCap\")",
                      toml_where(source, n), key));
    }
    const std::string name = n.as_string()->get();
    if (std::find(r.gpu_clock_event_concern.begin(), r.gpu_clock_event_concern.end(), name) !=
            r.gpu_clock_event_concern.end() ||
        std::find(r.gpu_clock_event_info.begin(), r.gpu_clock_event_info.end(), name) != r.gpu_clock_event_info.end()) {
      throw ConfigError(
          fmt::format("{}: 'gpu.{}' lists \"{}\" twice (expected each reason once in "
                      "clock_event_concern and clock_event_info together)",
                      toml_where(source, n), key, name));
    }
    into.push_back(name);
  }
}

}  // namespace

void parse_xid_section(const toml::table& xid, const std::string& source, Rules& r) {
  toml_reject_unknown(xid, {"concern_codes"}, "xid.", source);
  const toml::array& a = require_array(xid, "concern_codes", "xid.", source);
  for (const toml::node& n : a) {
    const int code = static_cast<int>(require_integer(n, "xid.concern_codes", 1, 999, source));
    if (!r.xid_concern_codes.insert(code).second) {
      throw ConfigError(
          fmt::format("{}: 'xid.concern_codes' lists {} twice (expected each once)", toml_where(source, n), code));
    }
  }
}

void parse_gpu_section(const toml::table& gpu, const std::string& source, Rules& r) {
  toml_reject_unknown(gpu,
                      {"temperature_concern_c", "slowdown_margin_c", "clock_event_concern", "clock_event_info",
                       "pcie_gen_below_max_concern", "ecc_volatile_uncorrected_max", "nvlink_error_concern_count",
                       "nvlink_error_rise_max"},
                      "gpu.", source);
  r.gpu_temperature_concern_c = require_number(gpu, "temperature_concern_c", "gpu.", 0.0, 200.0, source);
  r.gpu_slowdown_margin_c = require_number(gpu, "slowdown_margin_c", "gpu.", 0.0, 50.0, source);
  parse_clock_event_reasons(gpu, "clock_event_concern", source, r, r.gpu_clock_event_concern);
  parse_clock_event_reasons(gpu, "clock_event_info", source, r, r.gpu_clock_event_info);
  const toml::node& b = require_key(gpu, "pcie_gen_below_max_concern", "gpu.", source);
  if (!b.is_boolean()) {
    throw ConfigError(fmt::format("{}: 'gpu.pcie_gen_below_max_concern' must be true or false", toml_where(source, b)));
  }
  r.gpu_pcie_gen_below_max_concern = b.as_boolean()->get();
  constexpr std::int64_t kMaxCount = std::int64_t{1} << 40;
  r.gpu_ecc_volatile_uncorrected_max = require_integer(require_key(gpu, "ecc_volatile_uncorrected_max", "gpu.", source),
                                                       "gpu.ecc_volatile_uncorrected_max", 0, kMaxCount, source);
  r.gpu_nvlink_error_concern_count = require_integer(require_key(gpu, "nvlink_error_concern_count", "gpu.", source),
                                                     "gpu.nvlink_error_concern_count", 0, kMaxCount, source);
  r.gpu_nvlink_error_rise_max = require_integer(require_key(gpu, "nvlink_error_rise_max", "gpu.", source),
                                                "gpu.nvlink_error_rise_max", 0, kMaxCount, source);
}

void check_nvidia_driver(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (s.nvidia_driver.readable) {
    out.push_back(make(Tag::kOk, "signals.nvidia_driver", host, s.nvidia_driver.value, "the same on every node",
                       "NVIDIA kernel driver version", "driver drift across nodes (10-30% pair loss seen in the field)",
                       "cat /proc/driver/nvidia/version"));
  } else {
    out.push_back(make(Tag::kInfo, "signals.nvidia_driver", host, "not available: " + s.nvidia_driver.why,
                       "an NVIDIA driver version", "no NVIDIA kernel driver is loaded (or this is not a GPU node)",
                       "GPU checks are skipped", "cat /proc/driver/nvidia/version; nvidia-smi"));
  }
}

void check_pcie_width(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  // NVML's signals.gpu_pcie covers the links when it read a width: no second finding from sysfs.
  const bool nvml_has_pcie =
      s.nvml.readable && std::any_of(s.nvml.value.gpus.begin(), s.nvml.value.gpus.end(),
                                     [](const NvmlGpu& g) { return g.pcie_width >= 0 && g.pcie_width_max >= 0; });
  if (nvml_has_pcie) return;
  if (!s.gpu_pcie.readable || s.gpu_pcie.value.empty()) {
    out.push_back(make(Tag::kInfo, "signals.pcie_width", host,
                       s.gpu_pcie.readable ? "no NVIDIA GPU (vendor 0x10de, class 0x0302) in sysfs"
                                           : "not available: " + s.gpu_pcie.why,
                       "current_link_width == max_link_width per GPU", "no GPU PCIe link to check", "none known",
                       "lspci -d 10de: -vv | grep -E 'LnkCap|LnkSta'"));
    return;
  }
  std::vector<std::string> degraded;
  std::vector<std::string> unknown;
  for (const auto& l : s.gpu_pcie.value) {
    if (l.current_width < 0 || l.max_width < 0) {
      unknown.push_back(l.bdf);
    } else if (l.current_width < l.max_width) {
      degraded.push_back(fmt::format("{} x{} of x{}", l.bdf, l.current_width, l.max_width));
    }
  }
  if (!degraded.empty()) {
    out.push_back(make(Tag::kConcern, "signals.pcie_width", host, list(degraded), "every GPU at its maximum link width",
                       "a GPU's PCIe link trained at reduced width (bad riser, seating or link)",
                       "host-device copies and GPUDirect RDMA through that GPU run at a fraction of the "
                       "bandwidth; its pairs look slow",
                       "confirm: nvidia-smi -q | grep -A3 'Link Width'; lspci -s <bdf> -vv | grep LnkSta; "
                       "remediation: reboot; if it persists, have the node serviced"));
  } else if (!unknown.empty()) {
    out.push_back(make(Tag::kInfo, "signals.pcie_width", host, "link width unreadable for " + list(unknown),
                       "current_link_width == max_link_width", "PCIe width unknown for some GPUs", "none known",
                       "nvidia-smi -q | grep -A3 'Link Width'"));
  } else {
    out.push_back(
        make(Tag::kOk, "signals.pcie_width", host,
             fmt::format("{} GPUs at full width (x{})", s.gpu_pcie.value.size(), s.gpu_pcie.value[0].max_width),
             "current_link_width == max_link_width", "PCIe links trained at full width", "none",
             "nvidia-smi -q | grep -A3 'Link Width'"));
  }
}

void check_xid(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (!s.xids.readable) {
    out.push_back(make(Tag::kInfo, "signals.xid", host, "kernel log not read: " + s.xids.why,
                       "no hardware Xid in the kernel log", "GPU error history is unknown",
                       "a failed GPU would go unnoticed here",
                       "sudo dmesg -T | grep -E 'NVRM: Xid|SXid' (or run podperf with CAP_SYSLOG)"));
    return;
  }
  if (s.xids.value.empty()) {
    out.push_back(make(Tag::kOk, "signals.xid", host, "no Xid or SXid lines", "no hardware Xid in the kernel log",
                       "no GPU errors logged", "none", "dmesg -T | grep -E 'NVRM: Xid|SXid'"));
    return;
  }
  xid_findings(s.xids.value, r, host, "signals.xid", "in the kernel log", out);
}

void delta_xid_new(const HostSnapshot& before, const HostSnapshot& after, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = after.hostname.value;
  if (!after.xids.readable) return;
  std::set<std::string> seen;
  if (before.xids.readable)
    for (const auto& e : before.xids.value) seen.insert(xid_key(e));
  std::vector<XidEvent> fresh;
  for (const auto& e : after.xids.value)
    if (!seen.contains(xid_key(e))) fresh.push_back(e);
  if (fresh.empty()) {
    out.push_back(make(Tag::kOk, "signals.xid_new", host, "no new Xid during the test", "no new hardware Xid",
                       "no GPU errors logged during the test", "none", "dmesg -T | grep -E 'NVRM: Xid|SXid'"));
  } else {
    xid_findings(fresh, r, host, "signals.xid_new", "during the test", out);
  }
}

}  // namespace podperf::signal_rules

// The EFA and network domain of the signal rules (signals/rules_efa.hpp): [efa] of rules.toml, the EFA
// device, version and libfabric checks and the EFA error counter rises of podperf's host-signal sources: NVML, sysfs,
// procfs and NVIDIA's Xid catalog. Every finding says what was seen, what healthy looks like, what it means, the likely
// effect and the next step; podperf never runs that step. Pure, local; only the section parser throws (ConfigError).
#include "signals/rules_efa.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"

namespace podperf::signal_rules {
namespace {

bool is_counter_name(std::string_view s) {
  return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// [efa] concern_counters: names of a-z, 0-9, _, each once.
void parse_concern_counters(const toml::table& efa, const std::string& source, Rules& r) {
  const toml::array& a = require_array(efa, "concern_counters", "efa.", source);
  for (const toml::node& n : a) {
    if (!n.is_string() || !is_counter_name(n.as_string()->get())) {
      throw ConfigError(
          fmt::format("{}: 'efa.concern_counters' entries must be counter names (expected strings "
                      "of a-z, 0-9, _ such as \"retrans_pkts\")",
                      toml_where(source, n)));
    }
    const std::string name = n.as_string()->get();
    if (std::find(r.efa_concern_counters.begin(), r.efa_concern_counters.end(), name) != r.efa_concern_counters.end()) {
      throw ConfigError(fmt::format("{}: 'efa.concern_counters' lists \"{}\" twice (expected each once)",
                                    toml_where(source, n), name));
    }
    r.efa_concern_counters.push_back(name);
  }
}

std::size_t efa_device_count(const HostSnapshot& s) {
  return s.efa.readable ? s.efa.value.size() : 0;
}

}  // namespace

void parse_efa_section(const toml::table& efa, const std::string& source, Rules& r) {
  toml_reject_unknown(efa, {"concern_counters", "expected_count"}, "efa.", source);
  parse_concern_counters(efa, source, r);
  const toml::table& counts = require_table(efa, "expected_count", "efa.", source);
  for (const auto& [key, value] : counts) {
    const std::string name = fmt::format("efa.expected_count.\"{}\"", key.str());
    r.efa_expected_count[std::string(key.str())] = static_cast<int>(require_integer(value, name, 0, 256, source));
  }
}

void check_efa_count(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  const std::size_t count = efa_device_count(s);
  const std::optional<int> expected = expected_efa_count(s, r);
  const std::string confirm = "ls /sys/class/infiniband; fi_info -p efa -t FI_EP_RDM | grep -c domain";
  if (expected) {
    const std::string exp_text = fmt::format("{} EFA devices on {}", *expected, s.instance_type.value);
    const std::string obs =
        s.efa.readable ? fmt::format("{} EFA devices", count) : "no EFA devices (" + s.efa.why + ")";
    if (static_cast<int>(count) != *expected) {
      out.push_back(make(Tag::kConcern, "signals.efa_count", host, obs, exp_text,
                         "EFA devices are missing (driver not loaded, device failed, or not attached)",
                         "NCCL uses fewer NICs (lower inter-node busbw) or falls back to TCP sockets",
                         "confirm: " + confirm +
                             "; dmesg | grep -i efa; remediation: reload the efa driver or "
                             "stop/start the instance; replace it if devices stay missing"));
    } else {
      out.push_back(
          make(Tag::kOk, "signals.efa_count", host, obs, exp_text, "all EFA devices present", "none", confirm));
    }
  } else {
    out.push_back(make(Tag::kInfo, "signals.efa_count", host,
                       s.efa.readable ? fmt::format("{} EFA devices", count) : "no EFA devices (" + s.efa.why + ")",
                       "the count listed in rules.toml [efa.expected_count] for this instance type",
                       s.instance_type.readable
                           ? "instance type " + s.instance_type.value + " has no expected EFA count"
                           : "instance type unknown, so no expected EFA count",
                       "none known", confirm));
  }
}

void check_efa_versions(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (s.efa_installer.readable || s.efa_module_version.readable) {
    out.push_back(
        make(Tag::kOk, "signals.efa_versions", host,
             fmt::format("installer {}; efa module {}", s.efa_installer.readable ? s.efa_installer.value : "unknown",
                         s.efa_module_version.readable ? s.efa_module_version.value : "unknown"),
             "the same on every node", "EFA software versions", "version drift across nodes",
             "head -1 /opt/amazon/efa_installed_packages; cat /sys/module/efa/version"));
  } else if (efa_device_count(s) > 0 || expected_efa_count(s, r).value_or(0) > 0) {
    out.push_back(make(Tag::kInfo, "signals.efa_versions", host,
                       "not available: " + s.efa_installer.why + "; " + s.efa_module_version.why,
                       "an EFA installer and efa module version", "EFA software versions are unknown",
                       "version drift cannot be checked",
                       "head -1 /opt/amazon/efa_installed_packages; modinfo efa | grep ^version"));
  }
}

void check_libfabric(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  const std::string fi_confirm = "fi_info -l; fi_info -p efa -t FI_EP_RDM";
  if (!s.libfabric.readable) {
    out.push_back(make(Tag::kInfo, "signals.libfabric", host, "libfabric not readable: " + s.libfabric.why,
                       "libfabric loads and lists its providers", "libfabric providers are unknown",
                       "none on nodes without EFA; with EFA, NCCL's aws-ofi-nccl plugin needs libfabric", fi_confirm));
    return;
  }
  const LibfabricInfo& f = s.libfabric.value;
  const bool efa = std::any_of(f.providers.begin(), f.providers.end(), is_efa_provider);
  const int expected_efa = expected_efa_count(s, r).value_or(0);
  std::string obs =
      fmt::format("libfabric {}: {}", f.version, f.providers.empty() ? "no providers" : list(f.providers, 12));
  if (f.getinfo_seconds > 2.0) obs += fmt::format(" (fi_getinfo took {:.1f} s)", f.getinfo_seconds);
  if (efa) {
    out.push_back(make(Tag::kOk, "signals.libfabric", host, obs, "the efa provider visible",
                       "libfabric sees the EFA provider", "none", fi_confirm));
  } else if (expected_efa > 0) {
    out.push_back(
        make(Tag::kConcern, "signals.libfabric", host, obs,
             fmt::format("the efa provider visible ({} has {} EFA devices)", s.instance_type.value, expected_efa),
             "libfabric does not offer the efa provider on an instance type that has EFA (wrong "
             "libfabric on the library path, FI_PROVIDER excluding efa, or the efa driver not loaded)",
             "aws-ofi-nccl cannot use EFA: NCCL falls back to TCP sockets, inter-node busbw drops by "
             "an order of magnitude",
             "confirm: " + fi_confirm +
                 "; check LD_LIBRARY_PATH for /opt/amazon/efa/lib and FI_PROVIDER; lsmod | grep efa"));
  } else {
    out.push_back(make(Tag::kInfo, "signals.libfabric", host, obs, "the efa provider where the instance has EFA",
                       "libfabric providers of this host (no EFA expected here)", "none known", fi_confirm));
  }
}

void delta_efa_counters(const HostSnapshot& before, const HostSnapshot& after, const Rules& r,
                        std::vector<Finding>& out) {
  const std::string& host = after.hostname.value;
  const std::string efa_confirm =
      "for d in /sys/class/infiniband/*; do grep -H . $d/ports/1/hw_counters/{retrans_*,*_events,rx_drops,rdma_*_err}; "
      "done";
  if (!before.efa.readable || !after.efa.readable || after.efa.value.empty()) {
    if (after.efa.readable || before.efa.readable) {
      out.push_back(make(Tag::kInfo, "signals.efa_counters", host, "no EFA devices", "no rise of EFA error counters",
                         "no EFA counters to compare", "none", "ls /sys/class/infiniband"));
    } else {
      out.push_back(make(Tag::kInfo, "signals.efa_counters", host, "not available: " + after.efa.why,
                         "no rise of EFA error counters", "no EFA counters to compare", "none",
                         "ls /sys/class/infiniband"));
    }
    return;
  }
  std::vector<std::string> rises;
  for (const auto& dev : after.efa.value) {
    auto prev = std::find_if(before.efa.value.begin(), before.efa.value.end(),
                             [&](const EfaDevice& d) { return d.name == dev.name; });
    if (prev == before.efa.value.end()) continue;
    for (const auto& name : r.efa_concern_counters) {
      auto a = dev.counters.find(name);
      auto b = prev->counters.find(name);
      if (a == dev.counters.end() || b == prev->counters.end()) continue;
      if (a->second > b->second) rises.push_back(fmt::format("{} {} +{}", dev.name, name, a->second - b->second));
    }
  }
  const std::string expected = "no rise of " + list(r.efa_concern_counters, 12);
  if (!rises.empty()) {
    out.push_back(make(Tag::kConcern, "signals.efa_counters", host, list(rises, 10), expected,
                       "EFA error counters rose during the test: packets were retransmitted, dropped, or peers "
                       "stopped answering",
                       "retransmits and timeouts cut inter-node busbw and add latency spikes; unresponsive or "
                       "impaired remotes point at the peer node or the network path",
                       "confirm: " + efa_confirm + " (before and after a rerun); check the peer nodes' counters"));
  } else {
    out.push_back(make(Tag::kOk, "signals.efa_counters", host,
                       fmt::format("no error counter rose on {} EFA devices", after.efa.value.size()), expected,
                       "clean EFA traffic", "none", efa_confirm));
  }
}

}  // namespace podperf::signal_rules

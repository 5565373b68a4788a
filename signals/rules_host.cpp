// The host domain of the signal rules (signals/rules_host.hpp): [cpu] and [memory] of rules.toml, and the
// checks of podperf's host-signal sources: NVML, sysfs, procfs and NVIDIA's Xid catalog about the node itself. Every
// finding says what was seen, what healthy looks like, what it means, the likely effect and the next step; podperf
// never runs that step. Pure, local; only the section parsers throw (ConfigError).
#include "signals/rules_host.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"
#include "analysis/base/units.hpp"

namespace podperf::signal_rules {
namespace {

// RDMA memory registration matters: an RDMA device directory exists, or the type expects EFA.
bool has_rdma(const HostSnapshot& s, const Rules& r) {
  if (s.efa.readable) return true;
  return expected_efa_count(s, r).value_or(0) > 0;
}

std::string rlimit_text(const Rlimit& l) {
  return l.unlimited ? "unlimited" : format_bytes(l.bytes);
}

struct CpuShares {
  double iowait = 0.0;  // percent of CPU time between the samples
  double steal = 0.0;
};

// The iowait and steal shares between two /proc/stat samples; nullopt when either is unreadable or no
// CPU time elapsed.
std::optional<CpuShares> cpu_shares(const HostSnapshot& before, const HostSnapshot& after) {
  if (!before.cpu_times.readable || !after.cpu_times.readable ||
      after.cpu_times.value.total() <= before.cpu_times.value.total()) {
    return std::nullopt;
  }
  const CpuTimes& a = after.cpu_times.value;
  const CpuTimes& b = before.cpu_times.value;
  const double total = static_cast<double>(a.total() - b.total());
  auto share = [&](std::uint64_t x, std::uint64_t y) {
    return x >= y ? 100.0 * static_cast<double>(x - y) / total : 0.0;
  };
  return CpuShares{share(a.iowait, b.iowait), share(a.steal, b.steal)};
}

const std::string kStatConfirm = "vmstat 1 5 (columns wa, st); iostat -x 1 5";

}  // namespace

void parse_cpu_section(const toml::table& cpu, const std::string& source, Rules& r) {
  toml_reject_unknown(cpu, {"governor", "iowait_concern_percent", "steal_concern_percent"}, "cpu.", source);
  const toml::node& g = require_key(cpu, "governor", "cpu.", source);
  static const std::set<std::string> kGovernors = {"performance",  "powersave", "ondemand",
                                                   "conservative", "schedutil", "userspace"};
  if (!g.is_string()) {
    throw ConfigError(fmt::format("{}: 'cpu.governor' must be a string (expected one of: {})", toml_where(source, g),
                                  fmt::join(kGovernors, ", ")));
  }
  r.governor_expected = g.as_string()->get();
  if (!kGovernors.contains(r.governor_expected)) {
    throw ConfigError(fmt::format("{}: 'cpu.governor' = \"{}\" is not a cpufreq governor (expected one of: {})",
                                  toml_where(source, g), r.governor_expected, fmt::join(kGovernors, ", ")));
  }
  r.iowait_concern_percent = require_number(cpu, "iowait_concern_percent", "cpu.", 0.0, 100.0, source);
  r.steal_concern_percent = require_number(cpu, "steal_concern_percent", "cpu.", 0.0, 100.0, source);
}

void parse_memory_section(const toml::table& memory, const std::string& source, Rules& r) {
  toml_reject_unknown(memory, {"shm_min_bytes", "shm_concern_bytes", "memlock_min_bytes"}, "memory.", source);
  r.shm_min_bytes = require_bytes(memory, "shm_min_bytes", "memory.", source);
  r.shm_concern_bytes = require_bytes(memory, "shm_concern_bytes", "memory.", source);
  if (r.shm_concern_bytes > r.shm_min_bytes) {
    throw ConfigError(
        fmt::format("{}: 'memory.shm_concern_bytes' = {} is out of range (expected at most "
                    "'memory.shm_min_bytes' = {})",
                    toml_where(source, *memory.get("shm_concern_bytes")), r.shm_concern_bytes, r.shm_min_bytes));
  }
  r.memlock_min_bytes = require_bytes(memory, "memlock_min_bytes", "memory.", source);
}

void check_instance_type(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (s.instance_type.readable) {
    std::string obs = s.instance_type.value;
    if (s.instance_id.readable) obs += " (" + s.instance_id.value + ")";
    out.push_back(make(Tag::kOk, "signals.instance_type", host, obs, "the same type on every node of a run",
                       "instance type from DMI", "mixed types in one run make pair results incomparable",
                       "cat /sys/devices/virtual/dmi/id/product_name"));
  } else {
    out.push_back(make(Tag::kInfo, "signals.instance_type", host, "unknown: " + s.instance_type.why,
                       "a DMI product name (e.g. p5.48xlarge)",
                       "the instance type could not be read, so the expected EFA count is unknown",
                       "EFA and baseline checks that depend on the type are skipped",
                       "cat /sys/devices/virtual/dmi/id/product_name"));
  }
}

void check_kernel(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (s.kernel_release.readable) {
    out.push_back(make(Tag::kOk, "signals.kernel", host, s.kernel_release.value, "the same kernel on every node",
                       "kernel release", "kernel drift across nodes changes EFA and driver behaviour", "uname -r"));
  } else {
    out.push_back(make(Tag::kInfo, "signals.kernel", host, "unknown: " + s.kernel_release.why, "a kernel release",
                       "the kernel release could not be read", "kernel drift cannot be checked", "uname -r"));
  }
}

void check_governor(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  const std::string confirm = "cat /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor | sort | uniq -c";
  if (!s.governors.readable) {
    out.push_back(make(Tag::kInfo, "signals.cpu_governor", host, "not available: " + s.governors.why,
                       "scaling_governor = " + r.governor_expected,
                       "no cpufreq governor is exposed (usual in VMs, where the hypervisor sets CPU frequency)",
                       "none known; CPU frequency is outside this host's control", confirm));
    return;
  }
  std::vector<std::string> off;
  std::map<std::string, int> counts;
  for (const auto& g : s.governors.value) {
    if (g.governor != r.governor_expected) {
      off.push_back(g.cpu);
      ++counts[g.governor];
    }
  }
  if (off.empty()) {
    out.push_back(make(Tag::kOk, "signals.cpu_governor", host,
                       fmt::format("{} on all {} CPUs", r.governor_expected, s.governors.value.size()),
                       "scaling_governor = " + r.governor_expected, "CPUs run at full frequency", "none", confirm));
    return;
  }
  std::vector<std::string> kinds;
  for (const auto& [g, n] : counts) kinds.push_back(fmt::format("{} on {}", g, n));
  out.push_back(make(
      Tag::kConcern, "signals.cpu_governor", host,
      fmt::format("{} of {} CPUs (first: {})", list(kinds), s.governors.value.size(), list(off, 4)),
      "scaling_governor = " + r.governor_expected + " on every CPU",
      "CPUs scale their frequency down when lightly loaded",
      "slower NCCL proxy threads and kernel launches: higher small-message latency, jitter "
      "between iterations; slower filesystem client threads",
      "remediation (operator, as root): cpupower frequency-set -g " + r.governor_expected + "; confirm: " + confirm));
}

void check_meminfo(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (!s.meminfo.readable) {
    out.push_back(make(Tag::kInfo, "signals.meminfo", host, "not available: " + s.meminfo.why, "/proc/meminfo",
                       "memory figures could not be read", "none known", "cat /proc/meminfo"));
    return;
  }
  const MemInfo& m = s.meminfo.value;
  std::string obs =
      fmt::format("MemAvailable {} of MemTotal {}",
                  format_bytes(static_cast<std::uint64_t>(std::max<std::int64_t>(m.mem_available_kib, 0)) * 1024),
                  format_bytes(static_cast<std::uint64_t>(m.mem_total_kib) * 1024));
  if (m.hugepages_total >= 0) {
    obs += fmt::format("; HugePages {} total, {} free", m.hugepages_total, std::max<std::int64_t>(m.hugepages_free, 0));
    if (m.hugepage_size_kib > 0)
      obs += fmt::format(" of {}", format_bytes(static_cast<std::uint64_t>(m.hugepage_size_kib) * 1024));
  }
  out.push_back(make(Tag::kInfo, "signals.meminfo", host, obs, "no threshold (podperf's signal rules lists none)",
                     "memory and hugepages at snapshot time",
                     "little free memory makes page-cache-backed filesystem reads slower",
                     "grep -E "
                     "'MemTotal|MemAvailable|HugePages_|Hugepagesize' /proc/meminfo"));
}

void check_dev_shm(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  if (!s.mounts.readable) return;
  const std::string& host = s.hostname.value;
  const std::string shm_expected = fmt::format("/dev/shm >= {} (CONCERN at or below {})", format_bytes(r.shm_min_bytes),
                                               format_bytes(r.shm_concern_bytes));
  const MountInfo* shm = find_mount(s, "/dev/shm");
  if (shm == nullptr || !shm->stat_ok) {
    out.push_back(make(Tag::kInfo, "signals.dev_shm", host,
                       shm == nullptr ? "no /dev/shm mount in mountinfo" : "statvfs(/dev/shm) failed", shm_expected,
                       "the size of /dev/shm is unknown",
                       "NCCL's SHM transport and intra-node buffers live in /dev/shm", "df -h /dev/shm"));
  } else if (shm->total_bytes <= r.shm_concern_bytes) {
    out.push_back(make(Tag::kConcern, "signals.dev_shm", host,
                       fmt::format("/dev/shm {} ({})", format_bytes(shm->total_bytes), shm->fstype), shm_expected,
                       "/dev/shm has the container default size",
                       "NCCL fails with 'failed to extend /dev/shm' or falls back to slower intra-node paths; "
                       "data loaders using shared memory fail",
                       "remediation: docker run --shm-size=1g (or --ipc=host); Kubernetes: an emptyDir with "
                       "medium: Memory mounted at /dev/shm; confirm: df -h /dev/shm"));
  } else if (shm->total_bytes < r.shm_min_bytes) {
    out.push_back(make(Tag::kInfo, "signals.dev_shm", host,
                       fmt::format("/dev/shm {} ({})", format_bytes(shm->total_bytes), shm->fstype), shm_expected,
                       "/dev/shm is smaller than recommended", "large intra-node jobs may run out of shared memory",
                       "consider --shm-size=1g or larger; confirm: df -h /dev/shm"));
  } else {
    out.push_back(make(Tag::kOk, "signals.dev_shm", host, fmt::format("/dev/shm {}", format_bytes(shm->total_bytes)),
                       shm_expected, "/dev/shm is large enough", "none", "df -h /dev/shm"));
  }
}

void check_memlock(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  const std::string expected = "unlimited, or >= " + format_bytes(r.memlock_min_bytes);
  if (!s.memlock.readable) {
    out.push_back(make(Tag::kInfo, "signals.memlock", host, "not available: " + s.memlock.why, expected,
                       "the locked-memory limit is unknown", "none known", "ulimit -l (inside the job)"));
  } else if (!s.memlock.value.unlimited && s.memlock.value.bytes < r.memlock_min_bytes && !has_rdma(s, r)) {
    out.push_back(make(Tag::kInfo, "signals.memlock", host, rlimit_text(s.memlock.value), expected,
                       "the locked-memory limit is low, but this node has no RDMA devices (/sys/class/infiniband) "
                       "and its instance type expects no EFA",
                       "none while NCCL uses sockets or NVLink only; EFA/InfiniBand registration would fail",
                       "ulimit -l (inside the job)"));
  } else if (!s.memlock.value.unlimited && s.memlock.value.bytes < r.memlock_min_bytes) {
    out.push_back(make(Tag::kConcern, "signals.memlock", host, rlimit_text(s.memlock.value), expected,
                       "the process cannot pin enough memory (limit inherited from slurmd/orted/containerd)",
                       "EFA/InfiniBand memory registration fails (ibv_reg_mr ENOMEM): NCCL errors out or falls "
                       "back to sockets",
                       "confirm inside the job: ulimit -l; remediation: LimitMEMLOCK=infinity in the slurmd or "
                       "containerd unit, '* - memlock unlimited' in /etc/security/limits.conf, "
                       "docker --ulimit memlock=-1:-1; restart the daemon"));
  } else {
    out.push_back(make(Tag::kOk, "signals.memlock", host, rlimit_text(s.memlock.value), expected,
                       "enough memory can be pinned", "none", "ulimit -l (inside the job)"));
  }
}

void check_stack(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  if (!s.stack.readable) return;
  out.push_back(make(Tag::kInfo, "signals.stack", s.hostname.value, rlimit_text(s.stack.value), "no threshold",
                     "stack size limit of the process", "none known", "ulimit -s (inside the job)"));
}

void check_nccl_version(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (s.nccl_version.readable) {
    out.push_back(make(Tag::kOk, "signals.nccl_version", host, "NCCL " + s.nccl_version.value, "the same on every node",
                       "NCCL library version (ncclGetVersion)",
                       "NCCL version drift across nodes breaks or slows collectives", "ldconfig -p | grep libnccl"));
  } else {
    out.push_back(make(Tag::kInfo, "signals.nccl_version", host, "not readable: " + s.nccl_version.why,
                       "libnccl.so.2 on the library path", "the NCCL version is unknown",
                       "none here; jobs ship their own NCCL", "ldconfig -p | grep libnccl"));
  }
}

void check_cuda_driver_version(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (s.cuda_driver_version.readable) {
    out.push_back(make(Tag::kOk, "signals.cuda_driver_version", host, "CUDA driver " + s.cuda_driver_version.value,
                       "the same on every node", "CUDA driver API version (cuDriverGetVersion)",
                       "driver drift across nodes", "nvidia-smi | head -4"));
  } else {
    out.push_back(make(Tag::kInfo, "signals.cuda_driver_version", host, "not readable: " + s.cuda_driver_version.why,
                       "libcuda.so.1 from the NVIDIA driver", "no CUDA driver on this host (or not a GPU node)",
                       "GPU jobs cannot run here", "nvidia-smi; ldconfig -p | grep libcuda.so.1"));
  }
}

void check_environment(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  std::vector<std::string> items;
  // Every variable with its whole value: the terminal table prints long values whole, --json keeps them.
  for (const auto& [k, v] : s.env) items.push_back(k + "=" + v);
  out.push_back(
      make(Tag::kInfo, "signals.environment", s.hostname.value,
           items.empty() ? "no NCCL_/FI_/OFI_NCCL_/RDMAV_/TORCH_NCCL_ variables set" : list(items, items.size()),
           "the same on every node", "the NCCL and libfabric settings of this process",
           "differences across nodes change transport and protocol choices",
           "env | grep -E '^(NCCL|FI|OFI_NCCL|RDMAV|TORCH_NCCL)_'"));
}

void delta_iowait(const HostSnapshot& before, const HostSnapshot& after, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = after.hostname.value;
  const std::optional<CpuShares> shares = cpu_shares(before, after);
  if (!shares) {
    out.push_back(make(Tag::kInfo, "signals.iowait", host,
                       !before.cpu_times.readable  ? "not available: " + before.cpu_times.why
                       : !after.cpu_times.readable ? "not available: " + after.cpu_times.why
                                                   : "no CPU time elapsed between the samples",
                       "two /proc/stat samples >= 1 s apart", "iowait and steal are unknown", "none known",
                       kStatConfirm));
    return;
  }
  const double iowait = shares->iowait;
  const std::string iowait_exp = fmt::format("iowait <= {}", percent(r.iowait_concern_percent));
  if (iowait > r.iowait_concern_percent) {
    out.push_back(make(Tag::kConcern, "signals.iowait", host, percent(iowait) + " of CPU time in iowait", iowait_exp,
                       "CPUs spent much of the test waiting for I/O",
                       "the filesystem (or local disk) is the bottleneck: filesystem probe results reflect it, "
                       "and data loading starves the GPUs",
                       "confirm: " + kStatConfirm + "; find the device: iostat -x 1"));
  } else {
    out.push_back(make(Tag::kOk, "signals.iowait", host, percent(iowait) + " iowait", iowait_exp,
                       "little time waiting for I/O", "none", kStatConfirm));
  }
}

void delta_steal(const HostSnapshot& before, const HostSnapshot& after, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = after.hostname.value;
  const std::optional<CpuShares> shares = cpu_shares(before, after);
  if (!shares) return;  // signals.iowait says why
  const double steal = shares->steal;
  const std::string steal_exp = fmt::format("steal <= {}", percent(r.steal_concern_percent));
  if (steal > r.steal_concern_percent) {
    out.push_back(make(Tag::kConcern, "signals.steal", host, percent(steal) + " of CPU time stolen", steal_exp,
                       "the hypervisor ran something else on this node's CPUs",
                       "NCCL proxy threads and filesystem clients get less CPU: jitter and slower iterations",
                       "confirm: " + kStatConfirm + "; if it persists, move off the instance"));
  } else {
    out.push_back(make(Tag::kOk, "signals.steal", host, percent(steal) + " steal", steal_exp, "no CPU steal", "none",
                       kStatConfirm));
  }
}

void drift_environment(const std::vector<HostSnapshot>& nodes, std::vector<Finding>& out) {
  std::set<std::string> names;
  for (const auto& n : nodes)
    for (const auto& [k, v] : n.env) names.insert(k);
  bool env_drift = false;
  for (const auto& name : names) {
    std::map<std::string, std::vector<std::string>> groups;
    for (const auto& n : nodes) {
      auto it = n.env.find(name);
      groups[it == n.env.end() ? "(unset)" : it->second].push_back(n.hostname.value);
    }
    if (groups.size() < 2) continue;
    env_drift = true;
    out.push_back(make(Tag::kConcern, "drift.env." + name, "", groups_text(groups), name + " the same on every node",
                       "the job's environment differs across nodes (launcher, container or module setup)",
                       "NCCL/libfabric pick different transports, protocols or NICs on different nodes: hangs or "
                       "slow pairs between the differing nodes",
                       "confirm: srun -l env | grep " + name +
                           "; remediation: export it in the job script for all "
                           "ranks (or mpirun -x " +
                           name + ")"));
  }
  if (!env_drift) {
    out.push_back(make(Tag::kOk, "drift.env", "",
                       fmt::format("{} tracked variables the same on all {} nodes", names.size(), nodes.size()),
                       "NCCL_*/FI_*/... the same on every node", "no environment drift", "none",
                       "srun -l env | grep -E '^(NCCL|FI|OFI_NCCL|RDMAV|TORCH_NCCL)_'"));
  }
}

}  // namespace podperf::signal_rules

// Signal rules: configs/rules.toml loading (same style as analysis/thresholds.cpp) and the checks of
// FIELD-NOTES section 4. Every finding says what was seen, what healthy looks like, what it means, the
// likely effect on NCCL or filesystem performance and the next step; podperf never runs that step.
#include "signals/rules.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "analysis/errors.hpp"
#include "analysis/toml_check.hpp"
#include "analysis/units.hpp"

namespace podperf {
namespace {

// ---- loading ----

const toml::table& require_table(const toml::table& parent, std::string_view key, std::string_view prefix,
                                 const std::string& source) {
  const toml::node* node = parent.get(key);
  if (node == nullptr) throw ConfigError(fmt::format("{}: missing table [{}{}]", source, prefix, key));
  const auto* table = node->as_table();
  if (table == nullptr) {
    throw ConfigError(fmt::format("{}: '{}{}' must be a table (expected [{}{}])", toml_where(source, *node), prefix,
                                  key, prefix, key));
  }
  return *table;
}

const toml::node& require_key(const toml::table& table, std::string_view key, std::string_view prefix,
                              const std::string& source) {
  const toml::node* node = table.get(key);
  if (node == nullptr) throw ConfigError(fmt::format("{}: missing key '{}{}'", source, prefix, key));
  return *node;
}

double require_number(const toml::table& table, std::string_view key, std::string_view prefix, double lo, double hi,
                      const std::string& source) {
  const toml::node& node = require_key(table, key, prefix, source);
  std::optional<double> value = node.value<double>();
  if (!value || !(node.is_floating_point() || node.is_integer())) {
    throw ConfigError(
        fmt::format("{}: '{}{}' must be a number (expected {} to {})", toml_where(source, node), prefix, key, lo, hi));
  }
  if (!(*value >= lo && *value <= hi)) {
    throw ConfigError(fmt::format("{}: '{}{}' = {} is out of range (expected {} to {})", toml_where(source, node),
                                  prefix, key, *value, lo, hi));
  }
  return *value;
}

std::int64_t require_integer(const toml::node& node, std::string_view name, std::int64_t lo, std::int64_t hi,
                             const std::string& source) {
  if (!node.is_integer()) {
    throw ConfigError(
        fmt::format("{}: '{}' must be a whole number (expected {} to {})", toml_where(source, node), name, lo, hi));
  }
  const std::int64_t v = node.as_integer()->get();
  if (v < lo || v > hi) {
    throw ConfigError(
        fmt::format("{}: '{}' = {} is out of range (expected {} to {})", toml_where(source, node), name, v, lo, hi));
  }
  return v;
}

std::uint64_t require_bytes(const toml::table& table, std::string_view key, std::string_view prefix,
                            const std::string& source) {
  const toml::node& node = require_key(table, key, prefix, source);
  constexpr std::int64_t kMax = std::int64_t{1} << 50;  // 1 PiB
  return static_cast<std::uint64_t>(require_integer(node, fmt::format("{}{}", prefix, key), 1, kMax, source));
}

const toml::array& require_array(const toml::table& table, std::string_view key, std::string_view prefix,
                                 const std::string& source) {
  const toml::node& node = require_key(table, key, prefix, source);
  const toml::array* a = node.as_array();
  if (a == nullptr)
    throw ConfigError(fmt::format("{}: '{}{}' must be an array", toml_where(source, node), prefix, key));
  return *a;
}

bool is_counter_name(std::string_view s) {
  return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// ---- findings ----

constexpr const char* kSource = "signals";

Finding make(Tag tag, std::string check, const std::string& host, std::string observed, std::string expected,
             std::string meaning, std::string effect, std::string next_step) {
  Finding f;
  f.tag = tag;
  f.source = kSource;
  f.check = std::move(check);
  f.host = host;
  f.observed = std::move(observed);
  f.expected = std::move(expected);
  f.meaning = std::move(meaning);
  f.effect = std::move(effect);
  f.next_step = std::move(next_step);
  return f;
}

std::string percent(double v) {
  return fmt::format("{:.1f}%", v);
}

// "a, b, c" with at most `cap` items, then "+N more".
std::string list(const std::vector<std::string>& items, std::size_t cap = 8) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < cap; ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  if (items.size() > cap) out += fmt::format(" +{} more", items.size() - cap);
  return out;
}

const MountInfo* find_mount(const HostSnapshot& s, const std::string& mp) {
  if (!s.mounts.readable) return nullptr;
  for (const auto& m : s.mounts.value)
    if (m.mount_point == mp) return &m;
  return nullptr;
}

double used_fraction(const MountInfo& m) {
  if (m.total_bytes == 0) return 0.0;
  const std::uint64_t avail = std::min(m.avail_bytes, m.total_bytes);
  return 1.0 - static_cast<double>(avail) / static_cast<double>(m.total_bytes);
}

void check_identity(const HostSnapshot& s, std::vector<Finding>& out) {
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

void check_meminfo(const HostSnapshot& s, std::vector<Finding>& out) {
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
  out.push_back(make(Tag::kInfo, "signals.meminfo", host, obs, "no threshold (FIELD-NOTES 4 lists none)",
                     "memory and hugepages at snapshot time",
                     "little free memory makes page-cache-backed filesystem reads slower",
                     "grep -E "
                     "'MemTotal|MemAvailable|HugePages_|Hugepagesize' /proc/meminfo"));
}

void check_mounts(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (!s.mounts.readable) {
    out.push_back(make(Tag::kInfo, "signals.mounts", host, "not available: " + s.mounts.why, "/proc/self/mountinfo",
                       "mounts and their free space could not be read", "/dev/shm and root fill cannot be checked",
                       "df -h / /dev/shm; findmnt"));
    return;
  }
  // /dev/shm
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
  // root
  const std::string root_expected = fmt::format("/ below {:.0f}% used", r.root_used_concern_fraction * 100.0);
  const MountInfo* root = find_mount(s, "/");
  if (root == nullptr || !root->stat_ok || root->total_bytes == 0) {
    out.push_back(make(Tag::kInfo, "signals.root_fs", host,
                       root == nullptr ? "no / mount in mountinfo" : "statvfs(/) failed", root_expected,
                       "root filesystem usage is unknown", "none known", "df -h /"));
  } else {
    const double used = used_fraction(*root);
    const std::string obs = fmt::format("/ {:.1f}% used ({} free of {}, {})", used * 100.0,
                                        format_bytes(root->avail_bytes), format_bytes(root->total_bytes), root->fstype);
    if (used >= r.root_used_concern_fraction) {
      out.push_back(make(Tag::kConcern, "signals.root_fs", host, obs, root_expected,
                         "the root filesystem is nearly full",
                         "logs, core dumps, NCCL debug files and checkpoints written locally can fail or stall; "
                         "a full root can take the node's services down",
                         "confirm: df -h /; find the large directories: du -xh / --max-depth=2 | sort -h | tail; "
                         "remediation: remove old logs, containers (docker system df) or core files"));
    } else {
      out.push_back(make(Tag::kOk, "signals.root_fs", host, obs, root_expected, "root has room", "none", "df -h /"));
    }
  }
  // data mounts
  std::vector<std::string> data;
  std::vector<std::string> unstat;
  for (const auto& m : s.mounts.value) {
    if (m.mount_point == "/" || m.mount_point == "/dev/shm") continue;
    if (!m.stat_ok || m.total_bytes == 0) {
      unstat.push_back(m.mount_point + " " + m.fstype);
      continue;
    }
    data.push_back(fmt::format("{} {} {:.0f}% used of {}", m.mount_point, m.fstype, used_fraction(m) * 100.0,
                               format_bytes(m.total_bytes)));
  }
  if (!data.empty() || !unstat.empty()) {
    std::string obs = list(data, 12);
    if (!unstat.empty()) obs += (obs.empty() ? "" : "; ") + std::string("statvfs failed: ") + list(unstat, 6);
    out.push_back(make(Tag::kInfo, "signals.mounts", host, obs, "no threshold", "data filesystems on this node",
                       "a full or missing shared filesystem shows up as slow or failed filesystem probes",
                       "findmnt -t lustre,nfs,nfs4,xfs,ext4; df -h"));
  }
}

// RDMA memory registration matters: an RDMA device directory exists, or the type expects EFA.
bool has_rdma(const HostSnapshot& s, const Rules& r) {
  if (s.efa.readable) return true;
  if (!s.instance_type.readable) return false;
  auto it = r.efa_expected_count.find(s.instance_type.value);
  return it != r.efa_expected_count.end() && it->second > 0;
}

std::string rlimit_text(const Rlimit& l) {
  return l.unlimited ? "unlimited" : format_bytes(l.bytes);
}

void check_limits(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
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
  if (s.stack.readable) {
    out.push_back(make(Tag::kInfo, "signals.stack", host, rlimit_text(s.stack.value), "no threshold",
                       "stack size limit of the process", "none known", "ulimit -s (inside the job)"));
  }
}

void check_efa(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  const std::size_t count = s.efa.readable ? s.efa.value.size() : 0;
  std::optional<int> expected;
  if (s.instance_type.readable) {
    auto it = r.efa_expected_count.find(s.instance_type.value);
    if (it != r.efa_expected_count.end()) expected = it->second;
  }
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
  if (s.efa_installer.readable || s.efa_module_version.readable) {
    out.push_back(
        make(Tag::kOk, "signals.efa_versions", host,
             fmt::format("installer {}; efa module {}", s.efa_installer.readable ? s.efa_installer.value : "unknown",
                         s.efa_module_version.readable ? s.efa_module_version.value : "unknown"),
             "the same on every node", "EFA software versions", "version drift across nodes",
             "head -1 /opt/amazon/efa_installed_packages; cat /sys/module/efa/version"));
  } else if (count > 0 || expected.value_or(0) > 0) {
    out.push_back(make(Tag::kInfo, "signals.efa_versions", host,
                       "not available: " + s.efa_installer.why + "; " + s.efa_module_version.why,
                       "an EFA installer and efa module version", "EFA software versions are unknown",
                       "version drift cannot be checked",
                       "head -1 /opt/amazon/efa_installed_packages; modinfo efa | grep ^version"));
  }
}

void check_gpu(const HostSnapshot& s, std::vector<Finding>& out) {
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

// ---- NVML GPU checks ----

std::string gpu_label(const NvmlGpu& g) {
  if (g.pci_bus_id.empty()) return fmt::format("GPU{}", g.index);
  return fmt::format("GPU{} ({})", g.index, g.pci_bus_id);
}

// A GPU whose handle was taken and that did not fall off the bus.
bool usable(const NvmlGpu& g) {
  return !g.lost && g.handle_error == 0;
}

const std::string kNvmlConfirm = "nvidia-smi -q";

void check_nvml(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (!s.nvml.readable) {
    out.push_back(make(Tag::kInfo, "signals.nvml", host, "NVML not loadable: " + s.nvml.why,
                       "libnvidia-ml.so.1 loads and nvmlInit_v2 succeeds (on a GPU node)",
                       "no NVIDIA driver's NVML on this host (or not a GPU node)",
                       "GPU temperature, clock, ECC, row-remap, NVLink and fabric checks are skipped",
                       "nvidia-smi; ldconfig -p | grep libnvidia-ml"));
    return;
  }
  const NvmlReport& n = s.nvml.value;
  std::string obs =
      fmt::format("driver {}, CUDA driver {}, {} GPUs", n.driver_version.empty() ? "?" : n.driver_version,
                  n.cuda_driver_version > 0 ? cuda_version_text(n.cuda_driver_version) : "?", n.gpus.size());
  if (!n.missing_symbols.empty()) obs += "; not supported by this NVML: " + list(n.missing_symbols, 6);
  out.push_back(make(n.gpus.empty() ? Tag::kInfo : Tag::kOk, "signals.nvml", host, obs, "NVML loads and lists the GPUs",
                     n.gpus.empty() ? "NVML loaded but reports no GPU" : "NVML answers",
                     n.gpus.empty() ? "no GPU checks" : "none", "nvidia-smi -L"));
  if (n.gpus.empty()) return;

  // Lost / unreachable GPUs.
  std::vector<std::string> lost, reset, unreachable;
  for (const NvmlGpu& g : n.gpus) {
    if (g.lost) {
      lost.push_back(fmt::format("GPU {} fell off the bus: reboot, then replace if it recurs", g.index));
    } else if (g.reset_required) {
      reset.push_back(fmt::format("GPU {} requires a reset", g.index));
    } else if (g.handle_error != 0) {
      unreachable.push_back(fmt::format("GPU {}: {}", g.index, g.handle_error_text));
    }
  }
  if (!lost.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_lost", host, list(lost, 8), "every GPU answers NVML",
                       "NVML_ERROR_GPU_IS_LOST: the GPU fell off the bus (Xid 79)",
                       "the GPU is unusable: NCCL jobs on this node fail or hang",
                       "confirm: nvidia-smi; dmesg -T | grep -E 'NVRM: Xid.*79'; remediation (operator): reboot "
                       "the node, replace the GPU if it recurs"));
  }
  if (!reset.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_lost", host, list(reset, 8), "every GPU answers NVML",
                       "NVML_ERROR_RESET_REQUIRED: the GPU must be reset before it can be used again",
                       "jobs on this GPU fail",
                       "confirm: nvidia-smi -q; remediation (operator, no processes on the "
                       "GPU): nvidia-smi -r -i <index>, or reboot"));
  }
  if (!unreachable.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_lost", host, list(unreachable, 8), "every GPU answers NVML",
                       "NVML cannot open these GPUs", "jobs that use them fail",
                       "confirm: nvidia-smi -q -i <index>; dmesg -T | grep NVRM"));
  }
  if (lost.empty() && reset.empty() && unreachable.empty()) {
    out.push_back(make(Tag::kOk, "signals.gpu_lost", host, fmt::format("all {} GPUs answer NVML", n.gpus.size()),
                       "every GPU answers NVML", "no GPU fell off the bus", "none", "nvidia-smi -L"));
  }

  // Temperature.
  {
    std::vector<std::string> hot;
    std::int64_t max_t = -1, slowdown_at_max = -1;
    int read = 0;
    for (const NvmlGpu& g : n.gpus) {
      if (!usable(g) || g.temperature_c < 0) continue;
      ++read;
      if (g.temperature_c > max_t) {
        max_t = g.temperature_c;
        slowdown_at_max = g.slowdown_c;
      }
      const bool over_abs = static_cast<double>(g.temperature_c) >= r.gpu_temperature_concern_c;
      const bool near_slowdown = g.slowdown_c > 0 && static_cast<double>(g.temperature_c) >=
                                                         static_cast<double>(g.slowdown_c) - r.gpu_slowdown_margin_c;
      if (over_abs || near_slowdown) {
        hot.push_back(g.slowdown_c > 0
                          ? fmt::format("{} {} C (slowdown {} C)", gpu_label(g), g.temperature_c, g.slowdown_c)
                          : fmt::format("{} {} C", gpu_label(g), g.temperature_c));
      }
    }
    const std::string expected = fmt::format("below {:.0f} C and more than {:.0f} C under the slowdown threshold",
                                             r.gpu_temperature_concern_c, r.gpu_slowdown_margin_c);
    const std::string confirm = "nvidia-smi -q -d TEMPERATURE,PERFORMANCE";
    if (read == 0) {
      out.push_back(make(Tag::kInfo, "signals.gpu_temperature", host, "temperature not supported by NVML here",
                         expected, "GPU temperatures are unknown", "none known", confirm));
    } else if (!hot.empty()) {
      out.push_back(make(Tag::kConcern, "signals.gpu_temperature", host, list(hot), expected,
                         "the GPU runs at or near the temperature where the driver slows its clocks",
                         "thermal slowdown lowers SM clocks: kernels and NCCL collectives on this GPU run slower, "
                         "the whole job waits for it",
                         "confirm: " + confirm + "; check airflow, fans and inlet temperature (data-centre operator)"));
    } else {
      out.push_back(make(Tag::kOk, "signals.gpu_temperature", host,
                         slowdown_at_max > 0
                             ? fmt::format("max {} C over {} GPUs (slowdown {} C)", max_t, read, slowdown_at_max)
                             : fmt::format("max {} C over {} GPUs", max_t, read),
                         expected, "GPUs are cool enough", "none", confirm));
    }
  }

  // Clock event reasons.
  {
    std::uint64_t concern_mask = 0, info_mask = 0;
    for (const auto& name : r.gpu_clock_event_concern) concern_mask |= clock_event_reason_bit(name);
    for (const auto& name : r.gpu_clock_event_info) info_mask |= clock_event_reason_bit(name);
    std::vector<std::string> bad, info, other;
    int read = 0;
    for (const NvmlGpu& g : n.gpus) {
      if (!usable(g) || g.clock_event_reasons < 0) continue;
      ++read;
      const auto mask = static_cast<std::uint64_t>(g.clock_event_reasons);
      const std::string clocks =
          g.sm_clock_mhz >= 0 ? fmt::format(" at {} of {} MHz", g.sm_clock_mhz, g.sm_clock_max_mhz) : "";
      if ((mask & concern_mask) != 0) {
        bad.push_back(fmt::format("{} {}{}", gpu_label(g),
                                  fmt::join(decode_clock_event_reasons(mask & concern_mask), "+"), clocks));
      } else if ((mask & info_mask) != 0) {
        info.push_back(
            fmt::format("{} {}{}", gpu_label(g), fmt::join(decode_clock_event_reasons(mask & info_mask), "+"), clocks));
      } else if (mask != 0) {
        other.push_back(fmt::format("GPU{} {}", g.index, fmt::join(decode_clock_event_reasons(mask), "+")));
      }
    }
    const std::string expected = "no " + list(r.gpu_clock_event_concern, 8) + " clock event";
    const std::string confirm = "nvidia-smi -q -d PERFORMANCE,CLOCK";
    if (read == 0) {
      out.push_back(make(Tag::kInfo, "signals.gpu_clock_events", host, "clock event reasons not supported by NVML here",
                         expected, "why clocks are lowered is unknown", "none known", confirm));
    } else if (!bad.empty()) {
      out.push_back(make(Tag::kConcern, "signals.gpu_clock_events", host, list(bad), expected,
                         "the driver holds SM clocks down for thermal, power-brake or hardware slowdown reasons",
                         "kernels and NCCL collectives on these GPUs run slower; the job runs at the slowest GPU's "
                         "pace",
                         "confirm: nvidia-smi -q -d TEMPERATURE,PERFORMANCE; HW slowdown or power brake: check power "
                         "supplies and cooling (operator), replace the board if it persists"));
    } else if (!info.empty()) {
      out.push_back(make(Tag::kInfo, "signals.gpu_clock_events", host, list(info), expected,
                         "clocks limited by the software power cap (normal under heavy load)",
                         "slightly lower clocks at full power draw", confirm + "; nvidia-smi -q -d POWER"));
    } else {
      out.push_back(make(Tag::kOk, "signals.gpu_clock_events", host,
                         other.empty() ? fmt::format("no clock event on {} GPUs", read)
                                       : fmt::format("{} GPUs; benign: {}", read, list(other, 4)),
                         expected, "clocks are not held down", "none", confirm));
    }
  }

  // PCIe link.
  {
    std::vector<std::string> narrow, slow_gen;
    int read = 0;
    for (const NvmlGpu& g : n.gpus) {
      if (!usable(g) || g.pcie_width < 0 || g.pcie_width_max < 0) continue;
      ++read;
      if (g.pcie_width < g.pcie_width_max) {
        narrow.push_back(fmt::format("{} x{} of x{}", gpu_label(g), g.pcie_width, g.pcie_width_max));
      }
      if (g.pcie_gen >= 0 && g.pcie_gen_max >= 0 && g.pcie_gen < g.pcie_gen_max) {
        slow_gen.push_back(fmt::format("{} gen{} of gen{}", gpu_label(g), g.pcie_gen, g.pcie_gen_max));
      }
    }
    const std::string expected = "every GPU at its maximum PCIe width (and generation under load)";
    const std::string confirm =
        "nvidia-smi --query-gpu=index,pci.bus_id,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,"
        "pcie.link.width.max --format=csv";
    if (read == 0) {
      out.push_back(make(Tag::kInfo, "signals.gpu_pcie", host, "PCIe link not supported by NVML here", expected,
                         "PCIe link state from NVML is unknown (sysfs's signals.pcie_width applies)", "none known",
                         confirm));
    } else if (!narrow.empty() || (r.gpu_pcie_gen_below_max_concern && !slow_gen.empty())) {
      std::vector<std::string> all = narrow;
      if (r.gpu_pcie_gen_below_max_concern) all.insert(all.end(), slow_gen.begin(), slow_gen.end());
      out.push_back(make(Tag::kConcern, "signals.gpu_pcie", host, list(all), expected,
                         "a GPU's PCIe link trained below its maximum (bad riser, seating or link)",
                         "host-device copies and GPUDirect RDMA through that GPU run at a fraction of the "
                         "bandwidth; its pairs look slow",
                         "confirm: " + confirm + "; remediation: reboot; if it persists, have the node serviced"));
    } else if (!slow_gen.empty()) {
      out.push_back(make(Tag::kInfo, "signals.gpu_pcie", host, list(slow_gen), expected,
                         "the link runs below its maximum generation: normal power saving while the GPU is idle",
                         "none at idle; under load it would halve host-device bandwidth per generation step",
                         "confirm under load (during a test): " + confirm));
    } else {
      out.push_back(make(Tag::kOk, "signals.gpu_pcie", host, fmt::format("{} GPUs at full PCIe width", read), expected,
                         "PCIe links trained at full width", "none", confirm));
    }
  }

  // ECC.
  {
    std::vector<std::string> bad, past;
    int read = 0;
    for (const NvmlGpu& g : n.gpus) {
      if (!usable(g)) continue;
      if (g.ecc_uncorrected_volatile >= 0 || g.ecc_uncorrected_aggregate >= 0) ++read;
      if (g.ecc_uncorrected_volatile > r.gpu_ecc_volatile_uncorrected_max) {
        bad.push_back(fmt::format("{} {} uncorrected since driver load", gpu_label(g), g.ecc_uncorrected_volatile));
      } else if (g.ecc_uncorrected_aggregate > 0) {
        past.push_back(fmt::format("{} {} uncorrected in its lifetime", gpu_label(g), g.ecc_uncorrected_aggregate));
      }
    }
    const std::string expected =
        fmt::format("volatile uncorrected ECC errors <= {}", r.gpu_ecc_volatile_uncorrected_max);
    const std::string confirm = "nvidia-smi -q -d ECC";
    if (read == 0) {
      out.push_back(make(Tag::kInfo, "signals.gpu_ecc", host, "ECC counters not supported (ECC off or no NVML support)",
                         expected, "memory errors are unknown", "none known", confirm));
    } else if (!bad.empty()) {
      out.push_back(make(Tag::kConcern, "signals.gpu_ecc", host, list(bad), expected,
                         "uncorrectable GPU memory errors since the driver loaded (Xid 48/94/95)",
                         "the work that hit them failed; the GPU may fail again and stall collectives",
                         "confirm: " + confirm +
                             ",ROW_REMAPPER; remediation (operator, no processes on the GPU): nvidia-smi -r -i "
                             "<index> or reboot; replace the GPU if it recurs"));
    } else if (!past.empty()) {
      out.push_back(make(Tag::kInfo, "signals.gpu_ecc", host, list(past), expected,
                         "uncorrectable errors in the GPU's history, none since the driver loaded",
                         "none now; watch for recurrence", confirm));
    } else {
      out.push_back(make(Tag::kOk, "signals.gpu_ecc", host, fmt::format("no uncorrected ECC errors on {} GPUs", read),
                         expected, "clean GPU memory", "none", confirm));
    }
  }

  // Row remapping.
  {
    std::vector<std::string> pending, failed;
    int read = 0;
    for (const NvmlGpu& g : n.gpus) {
      if (!usable(g) || (g.remap_pending < 0 && g.remap_failure < 0)) continue;
      ++read;
      if (g.remap_failure > 0) failed.push_back(fmt::format("{} remap failure", gpu_label(g)));
      if (g.remap_pending > 0) pending.push_back(fmt::format("{} remap pending", gpu_label(g)));
    }
    const std::string expected = "no pending row remap and no remap failure";
    const std::string confirm = "nvidia-smi -q -d ROW_REMAPPER";
    if (read == 0) {
      out.push_back(make(Tag::kInfo, "signals.gpu_row_remap", host, "row remapping not supported (pre-Ampere or MIG)",
                         expected, "row remapper state is unknown", "none known", confirm));
    } else if (!failed.empty() || !pending.empty()) {
      std::vector<std::string> all = failed;
      all.insert(all.end(), pending.begin(), pending.end());
      out.push_back(make(
          Tag::kConcern, "signals.gpu_row_remap", host, list(all), expected,
          failed.empty() ? "memory rows wait for a GPU reset to be remapped (Xid 63)"
                         : "a memory row could not be remapped (Xid 64): the GPU has run out of spare rows",
          "the GPU's memory is degraded: uncorrectable errors can recur and kill the job",
          "confirm: " + confirm +
              (failed.empty() ? "; remediation (operator, no processes on the GPU): nvidia-smi -r -i <index> or reboot"
                              : "; remediation (operator): drain the node and replace the GPU")));
    } else {
      out.push_back(make(Tag::kOk, "signals.gpu_row_remap", host,
                         fmt::format("no pending or failed row remap on {} GPUs", read), expected,
                         "row remapper healthy", "none", confirm));
    }
  }

  // NVLink.
  {
    std::vector<std::string> down, errors;
    int gpus_with_links = 0;
    std::size_t links = 0;
    for (const NvmlGpu& g : n.gpus) {
      if (!usable(g) || g.nvlinks.empty()) continue;
      ++gpus_with_links;
      links += g.nvlinks.size();
      for (const NvLinkInfo& l : g.nvlinks) {
        if (!l.active) down.push_back(fmt::format("GPU{} link {} inactive", g.index, l.link));
        const std::pair<const char*, std::int64_t> counters[] = {{"replay", l.replay_errors},
                                                                 {"recovery", l.recovery_errors},
                                                                 {"crc_flit", l.crc_flit_errors},
                                                                 {"crc_data", l.crc_data_errors}};
        for (const auto& [name, v] : counters) {
          if (v > r.gpu_nvlink_error_concern_count)
            errors.push_back(fmt::format("GPU{} link {} {} {}", g.index, l.link, name, v));
        }
      }
    }
    const std::string expected =
        fmt::format("every NVLink active, no error counter above {}", r.gpu_nvlink_error_concern_count);
    const std::string confirm = "nvidia-smi nvlink -s; nvidia-smi nvlink -e";
    if (gpus_with_links == 0) {
      out.push_back(make(Tag::kInfo, "signals.gpu_nvlink", host, "no NVLink reported (PCIe-only GPUs or not supported)",
                         expected, "no NVLink to check", "none", confirm));
    } else if (!down.empty() || !errors.empty()) {
      std::vector<std::string> all = down;
      all.insert(all.end(), errors.begin(), errors.end());
      out.push_back(make(Tag::kConcern, "signals.gpu_nvlink", host, list(all), expected,
                         !down.empty() ? "NVLink links are down" : "NVLink links retransmit or recover often",
                         "intra-node collectives lose NVLink bandwidth or fall back to PCIe/SHM; retries add latency",
                         "confirm: " + confirm +
                             "; remediation (operator): reset the GPUs or reboot; follow NVIDIA's NVLink "
                             "troubleshooting (Xid 74) and replace the board if links stay down"));
    } else {
      out.push_back(make(Tag::kOk, "signals.gpu_nvlink", host,
                         fmt::format("{} links active on {} GPUs, error counters low", links, gpus_with_links),
                         expected, "NVLink healthy", "none", confirm));
    }
  }

  // Fabric (NVSwitch systems).
  {
    std::vector<std::string> bad;
    int supported = 0;
    for (const NvmlGpu& g : n.gpus) {
      if (!usable(g) || g.fabric_state < 0 || g.fabric_state == kFabricStateNotSupported) continue;
      ++supported;
      if (g.fabric_state != kFabricStateCompleted || g.fabric_status != kNvmlSuccess) {
        static const char* kStates[] = {"not supported", "not started", "in progress", "completed"};
        const char* st = g.fabric_state >= 0 && g.fabric_state <= 3 ? kStates[g.fabric_state] : "unknown";
        bad.push_back(fmt::format("GPU{} fabric {} (status {})", g.index, st, g.fabric_status));
      }
    }
    const std::string expected = "fabric registration COMPLETED with status success on every GPU";
    const std::string confirm = "nvidia-smi -q | grep -A4 -i fabric; systemctl status nvidia-fabricmanager";
    if (supported == 0) {
      const bool absent = std::find(n.missing_symbols.begin(), n.missing_symbols.end(), "nvmlDeviceGetGpuFabricInfo") !=
                          n.missing_symbols.end();
      out.push_back(make(Tag::kInfo, "signals.gpu_fabric", host,
                         absent ? "not supported: this NVML lacks nvmlDeviceGetGpuFabricInfo"
                                : "not supported (no NVSwitch fabric on these GPUs)",
                         expected, "no NVSwitch fabric state to check", "none", confirm));
    } else if (!bad.empty()) {
      out.push_back(make(Tag::kConcern, "signals.gpu_fabric", host, list(bad), expected,
                         "the GPU has not (or not successfully) joined the NVSwitch fabric",
                         "CUDA and NCCL cannot use NVLink through the switches: jobs fail at init or run slow",
                         "confirm: " + confirm +
                             "; remediation (operator): start or restart nvidia-fabricmanager, then reset the GPUs"));
    } else {
      out.push_back(make(Tag::kOk, "signals.gpu_fabric", host, fmt::format("{} GPUs joined the fabric", supported),
                         expected, "NVSwitch fabric ready", "none", confirm));
    }
  }
}

void check_libraries(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  const std::string fi_confirm = "fi_info -l; fi_info -p efa -t FI_EP_RDM";
  if (!s.libfabric.readable) {
    out.push_back(make(Tag::kInfo, "signals.libfabric", host, "libfabric not readable: " + s.libfabric.why,
                       "libfabric loads and lists its providers", "libfabric providers are unknown",
                       "none on nodes without EFA; with EFA, NCCL's aws-ofi-nccl plugin needs libfabric", fi_confirm));
  } else {
    const LibfabricInfo& f = s.libfabric.value;
    const bool efa = std::any_of(f.providers.begin(), f.providers.end(), is_efa_provider);
    int expected_efa = 0;
    if (s.instance_type.readable) {
      auto it = r.efa_expected_count.find(s.instance_type.value);
      if (it != r.efa_expected_count.end()) expected_efa = it->second;
    }
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
  if (s.nccl_version.readable) {
    out.push_back(make(Tag::kOk, "signals.nccl_version", host, "NCCL " + s.nccl_version.value, "the same on every node",
                       "NCCL library version (ncclGetVersion)",
                       "NCCL version drift across nodes breaks or slows collectives", "ldconfig -p | grep libnccl"));
  } else {
    out.push_back(make(Tag::kInfo, "signals.nccl_version", host, "not readable: " + s.nccl_version.why,
                       "libnccl.so.2 on the library path", "the NCCL version is unknown",
                       "none here; jobs ship their own NCCL", "ldconfig -p | grep libnccl"));
  }
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

// Per-GPU counters, keyed by UUID (index when the UUID is unknown).
std::string gpu_key(const NvmlGpu& g) {
  return g.uuid.empty() ? fmt::format("index:{}", g.index) : g.uuid;
}

void gpu_delta(const HostSnapshot& before, const HostSnapshot& after, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = after.hostname.value;
  if (!before.nvml.readable || !after.nvml.readable || after.nvml.value.gpus.empty()) return;
  std::map<std::string, const NvmlGpu*> prev;
  for (const NvmlGpu& g : before.nvml.value.gpus) prev[gpu_key(g)] = &g;
  std::vector<std::string> ecc, links;
  bool any_ecc = false, any_links = false;
  for (const NvmlGpu& g : after.nvml.value.gpus) {
    auto it = prev.find(gpu_key(g));
    if (it == prev.end() || !usable(g) || !usable(*it->second)) continue;
    const NvmlGpu& b = *it->second;
    if (g.ecc_uncorrected_volatile >= 0 && b.ecc_uncorrected_volatile >= 0) {
      any_ecc = true;
      if (g.ecc_uncorrected_volatile > b.ecc_uncorrected_volatile)
        ecc.push_back(
            fmt::format("{} +{} uncorrected", gpu_label(g), g.ecc_uncorrected_volatile - b.ecc_uncorrected_volatile));
    }
    for (const NvLinkInfo& l : g.nvlinks) {
      auto bl = std::find_if(b.nvlinks.begin(), b.nvlinks.end(), [&](const NvLinkInfo& x) { return x.link == l.link; });
      if (bl == b.nvlinks.end()) continue;
      any_links = true;
      std::int64_t rise = 0;
      const std::pair<std::int64_t, std::int64_t> pairs[] = {{l.replay_errors, bl->replay_errors},
                                                             {l.recovery_errors, bl->recovery_errors},
                                                             {l.crc_flit_errors, bl->crc_flit_errors},
                                                             {l.crc_data_errors, bl->crc_data_errors}};
      for (const auto& [a, p] : pairs)
        if (a >= 0 && p >= 0 && a > p) rise += a - p;
      if (rise > r.gpu_nvlink_error_rise_max) links.push_back(fmt::format("GPU{} link {} +{}", g.index, l.link, rise));
    }
  }
  if (any_ecc) {
    if (!ecc.empty()) {
      out.push_back(make(Tag::kConcern, "signals.gpu_ecc_new", host, list(ecc), "no new uncorrected ECC error",
                         "GPU memory produced uncorrectable errors during the test",
                         "the work on that GPU failed or will; collectives through it stall",
                         "confirm: nvidia-smi -q -d ECC,ROW_REMAPPER; dmesg -T | grep -E 'Xid.*(48|94|95)'; "
                         "remediation (operator): reset the GPU, replace it if it recurs"));
    } else {
      out.push_back(make(Tag::kOk, "signals.gpu_ecc_new", host, "no new uncorrected ECC error",
                         "no new uncorrected ECC error", "GPU memory clean during the test", "none",
                         "nvidia-smi -q -d ECC"));
    }
  }
  if (any_links) {
    const std::string expected = fmt::format("NVLink error counters rise by at most {}", r.gpu_nvlink_error_rise_max);
    if (!links.empty()) {
      out.push_back(make(Tag::kConcern, "signals.gpu_nvlink_errors_new", host, list(links), expected,
                         "NVLink replay/recovery/CRC errors rose during the test",
                         "retransmissions cut intra-node NVLink bandwidth; a failing link can take the GPU down",
                         "confirm: nvidia-smi nvlink -e (before and after a rerun); remediation (operator): reset "
                         "the GPUs; follow NVIDIA's NVLink troubleshooting if it persists"));
    } else {
      out.push_back(make(Tag::kOk, "signals.gpu_nvlink_errors_new", host, "no NVLink error counter rose", expected,
                         "clean NVLink traffic", "none", "nvidia-smi nvlink -e"));
    }
  }
}

void check_lustre(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  const std::string confirm = "lfs df -h";
  if (!s.lustre_osts.readable || s.lustre_osts.value.empty()) {
    out.push_back(make(
        Tag::kInfo, "signals.lustre_ost", host, s.lustre_osts.readable ? "no Lustre OSTs listed" : s.lustre_osts.why,
        "OST fills within " + fmt::format("{:.0f}", r.ost_fill_imbalance_points) + " points of the median",
        "no Lustre client on this node", "none", "lfs df -h (on a Lustre client)"));
    return;
  }
  std::vector<std::pair<double, std::string>> fills;
  for (const auto& o : s.lustre_osts.value) {
    if (o.total_kib == 0) continue;
    const double used =
        100.0 * (1.0 - static_cast<double>(std::min(o.free_kib, o.total_kib)) / static_cast<double>(o.total_kib));
    fills.emplace_back(used, o.name);
  }
  if (fills.empty()) return;
  std::vector<double> sorted;
  for (const auto& f : fills) sorted.push_back(f.first);
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double median = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  std::vector<std::string> over;
  for (const auto& [fill, name] : fills) {
    if (fill - median > r.ost_fill_imbalance_points) over.push_back(fmt::format("{} {:.0f}%", name, fill));
  }
  const std::string expected =
      fmt::format("no OST more than {:.0f} points fuller than the median", r.ost_fill_imbalance_points);
  if (!over.empty()) {
    out.push_back(make(Tag::kConcern, "signals.lustre_ost", host,
                       fmt::format("{} (median {:.0f}% over {} OSTs)", list(over), median, n), expected,
                       "one OST is far fuller than the rest",
                       "files striped onto it write slower and fail with ENOSPC first; striped I/O runs at the "
                       "pace of the full OST",
                       "confirm: lfs df -h; remediation (filesystem admin): rebalance with lfs_migrate, or set "
                       "the OST to no-create (lctl set_param osp.<ost>*.max_create_count=0)"));
  } else {
    out.push_back(make(Tag::kOk, "signals.lustre_ost", host,
                       fmt::format("{} OSTs, median {:.0f}% used, max {:.0f}%", n, median, sorted.back()), expected,
                       "OST fill is balanced", "none", confirm));
  }
}

// Xid findings grouped by (sxid, code): one finding per code.
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
    std::string meaning = info ? std::string(info->meaning) : "an Xid FIELD-NOTES does not describe";
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

void check_env(const HostSnapshot& s, std::vector<Finding>& out) {
  std::vector<std::string> items;
  for (const auto& [k, v] : s.env) items.push_back(k + "=" + (v.size() > 80 ? v.substr(0, 77) + "..." : v));
  out.push_back(make(Tag::kInfo, "signals.environment", s.hostname.value,
                     items.empty() ? "no NCCL_/FI_/OFI_NCCL_/RDMAV_/TORCH_NCCL_ variables set" : list(items, 20),
                     "the same on every node", "the NCCL and libfabric settings of this process",
                     "differences across nodes change transport and protocol choices",
                     "env | grep -E '^(NCCL|FI|OFI_NCCL|RDMAV|TORCH_NCCL)_'"));
}

// Identity of an Xid record for "new since before": the kmsg sequence number when known.
std::string xid_key(const XidEvent& e) {
  if (e.seq >= 0) return fmt::format("seq:{}", e.seq);
  return fmt::format("{}:{}:{}:{}:{}", e.sxid, e.code, e.pci, e.usec, e.text);
}

}  // namespace

Rules parse_rules(std::string_view toml_text, const std::string& source) {
  const toml::table root = toml_parse(toml_text, source);
  toml_reject_unknown(root, {"cpu", "memory", "storage", "efa", "xid", "gpu"}, "", source);
  Rules r;
  r.source = source;

  const toml::table& cpu = require_table(root, "cpu", "", source);
  toml_reject_unknown(cpu, {"governor", "iowait_concern_percent", "steal_concern_percent"}, "cpu.", source);
  {
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
  }
  r.iowait_concern_percent = require_number(cpu, "iowait_concern_percent", "cpu.", 0.0, 100.0, source);
  r.steal_concern_percent = require_number(cpu, "steal_concern_percent", "cpu.", 0.0, 100.0, source);

  const toml::table& memory = require_table(root, "memory", "", source);
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

  const toml::table& storage = require_table(root, "storage", "", source);
  toml_reject_unknown(storage, {"root_used_concern_fraction", "ost_fill_imbalance_points"}, "storage.", source);
  r.root_used_concern_fraction = require_number(storage, "root_used_concern_fraction", "storage.", 0.0, 1.0, source);
  r.ost_fill_imbalance_points = require_number(storage, "ost_fill_imbalance_points", "storage.", 0.0, 100.0, source);

  const toml::table& efa = require_table(root, "efa", "", source);
  toml_reject_unknown(efa, {"concern_counters", "expected_count"}, "efa.", source);
  {
    const toml::array& a = require_array(efa, "concern_counters", "efa.", source);
    for (const toml::node& n : a) {
      if (!n.is_string() || !is_counter_name(n.as_string()->get())) {
        throw ConfigError(
            fmt::format("{}: 'efa.concern_counters' entries must be counter names (expected strings "
                        "of a-z, 0-9, _ such as \"retrans_pkts\")",
                        toml_where(source, n)));
      }
      const std::string name = n.as_string()->get();
      if (std::find(r.efa_concern_counters.begin(), r.efa_concern_counters.end(), name) !=
          r.efa_concern_counters.end()) {
        throw ConfigError(fmt::format("{}: 'efa.concern_counters' lists \"{}\" twice (expected each once)",
                                      toml_where(source, n), name));
      }
      r.efa_concern_counters.push_back(name);
    }
  }
  {
    const toml::table& counts = require_table(efa, "expected_count", "efa.", source);
    for (const auto& [key, value] : counts) {
      const std::string name = fmt::format("efa.expected_count.\"{}\"", key.str());
      r.efa_expected_count[std::string(key.str())] = static_cast<int>(require_integer(value, name, 0, 256, source));
    }
  }

  const toml::table& xid = require_table(root, "xid", "", source);
  toml_reject_unknown(xid, {"concern_codes"}, "xid.", source);
  {
    const toml::array& a = require_array(xid, "concern_codes", "xid.", source);
    for (const toml::node& n : a) {
      const int code = static_cast<int>(require_integer(n, "xid.concern_codes", 1, 999, source));
      if (!r.xid_concern_codes.insert(code).second) {
        throw ConfigError(
            fmt::format("{}: 'xid.concern_codes' lists {} twice (expected each once)", toml_where(source, n), code));
      }
    }
  }
  const toml::table& gpu = require_table(root, "gpu", "", source);
  toml_reject_unknown(gpu,
                      {"temperature_concern_c", "slowdown_margin_c", "clock_event_concern", "clock_event_info",
                       "pcie_gen_below_max_concern", "ecc_volatile_uncorrected_max", "nvlink_error_concern_count",
                       "nvlink_error_rise_max"},
                      "gpu.", source);
  r.gpu_temperature_concern_c = require_number(gpu, "temperature_concern_c", "gpu.", 0.0, 200.0, source);
  r.gpu_slowdown_margin_c = require_number(gpu, "slowdown_margin_c", "gpu.", 0.0, 50.0, source);
  auto reasons = [&](std::string_view key, std::vector<std::string>& into) {
    const toml::array& a = require_array(gpu, key, "gpu.", source);
    for (const toml::node& n : a) {
      if (!n.is_string() || clock_event_reason_bit(n.as_string()->get()) == 0) {
        throw ConfigError(fmt::format(
            "{}: 'gpu.{}' entries must be clock event reason names (expected strings such as \"HwSlowdown\", "
            "\"SwThermalSlowdown\", \"HwThermalSlowdown\", \"HwPowerBrakeSlowdown\", \"SwPowerCap\")",
            toml_where(source, n), key));
      }
      const std::string name = n.as_string()->get();
      if (std::find(r.gpu_clock_event_concern.begin(), r.gpu_clock_event_concern.end(), name) !=
              r.gpu_clock_event_concern.end() ||
          std::find(r.gpu_clock_event_info.begin(), r.gpu_clock_event_info.end(), name) !=
              r.gpu_clock_event_info.end()) {
        throw ConfigError(
            fmt::format("{}: 'gpu.{}' lists \"{}\" twice (expected each reason once in "
                        "clock_event_concern and clock_event_info together)",
                        toml_where(source, n), key, name));
      }
      into.push_back(name);
    }
  };
  reasons("clock_event_concern", r.gpu_clock_event_concern);
  reasons("clock_event_info", r.gpu_clock_event_info);
  {
    const toml::node& b = require_key(gpu, "pcie_gen_below_max_concern", "gpu.", source);
    if (!b.is_boolean()) {
      throw ConfigError(
          fmt::format("{}: 'gpu.pcie_gen_below_max_concern' must be true or false", toml_where(source, b)));
    }
    r.gpu_pcie_gen_below_max_concern = b.as_boolean()->get();
  }
  constexpr std::int64_t kMaxCount = std::int64_t{1} << 40;
  r.gpu_ecc_volatile_uncorrected_max = require_integer(require_key(gpu, "ecc_volatile_uncorrected_max", "gpu.", source),
                                                       "gpu.ecc_volatile_uncorrected_max", 0, kMaxCount, source);
  r.gpu_nvlink_error_concern_count = require_integer(require_key(gpu, "nvlink_error_concern_count", "gpu.", source),
                                                     "gpu.nvlink_error_concern_count", 0, kMaxCount, source);
  r.gpu_nvlink_error_rise_max = require_integer(require_key(gpu, "nvlink_error_rise_max", "gpu.", source),
                                                "gpu.nvlink_error_rise_max", 0, kMaxCount, source);
  return r;
}

Rules load_rules_file(const std::string& path) {
  if (path.empty()) throw ConfigError(": cannot read rules file");
  return load_rules(path);
}

Rules load_rules(const std::string& path_or_empty) {
  std::string source;
  const std::string text = config_text(path_or_empty, "rules.toml", "rules file", source);
  return parse_rules(text, source);
}

std::vector<Finding> evaluate(const HostSnapshot& s, const Rules& r) {
  std::vector<Finding> out;
  check_identity(s, out);
  check_governor(s, r, out);
  check_meminfo(s, out);
  check_mounts(s, r, out);
  check_limits(s, r, out);
  check_efa(s, r, out);
  check_gpu(s, out);
  check_nvml(s, r, out);
  check_libraries(s, r, out);
  check_lustre(s, r, out);
  check_xid(s, r, out);
  check_env(s, out);
  return out;
}

std::vector<Finding> evaluate_delta(const HostSnapshot& before, const HostSnapshot& after, const Rules& r) {
  std::vector<Finding> out;
  const std::string& host = after.hostname.value;
  // CPU time shares between the samples.
  const std::string stat_confirm = "vmstat 1 5 (columns wa, st); iostat -x 1 5";
  if (before.cpu_times.readable && after.cpu_times.readable &&
      after.cpu_times.value.total() > before.cpu_times.value.total()) {
    const CpuTimes& a = after.cpu_times.value;
    const CpuTimes& b = before.cpu_times.value;
    const double total = static_cast<double>(a.total() - b.total());
    auto share = [&](std::uint64_t x, std::uint64_t y) {
      return x >= y ? 100.0 * static_cast<double>(x - y) / total : 0.0;
    };
    const double iowait = share(a.iowait, b.iowait);
    const double steal = share(a.steal, b.steal);
    const std::string iowait_exp = fmt::format("iowait <= {}", percent(r.iowait_concern_percent));
    if (iowait > r.iowait_concern_percent) {
      out.push_back(make(Tag::kConcern, "signals.iowait", host, percent(iowait) + " of CPU time in iowait", iowait_exp,
                         "CPUs spent much of the test waiting for I/O",
                         "the filesystem (or local disk) is the bottleneck: filesystem probe results reflect it, "
                         "and data loading starves the GPUs",
                         "confirm: " + stat_confirm + "; find the device: iostat -x 1"));
    } else {
      out.push_back(make(Tag::kOk, "signals.iowait", host, percent(iowait) + " iowait", iowait_exp,
                         "little time waiting for I/O", "none", stat_confirm));
    }
    const std::string steal_exp = fmt::format("steal <= {}", percent(r.steal_concern_percent));
    if (steal > r.steal_concern_percent) {
      out.push_back(make(Tag::kConcern, "signals.steal", host, percent(steal) + " of CPU time stolen", steal_exp,
                         "the hypervisor ran something else on this node's CPUs",
                         "NCCL proxy threads and filesystem clients get less CPU: jitter and slower iterations",
                         "confirm: " + stat_confirm + "; if it persists, move off the instance"));
    } else {
      out.push_back(make(Tag::kOk, "signals.steal", host, percent(steal) + " steal", steal_exp, "no CPU steal", "none",
                         stat_confirm));
    }
  } else {
    out.push_back(make(Tag::kInfo, "signals.iowait", host,
                       !before.cpu_times.readable  ? "not available: " + before.cpu_times.why
                       : !after.cpu_times.readable ? "not available: " + after.cpu_times.why
                                                   : "no CPU time elapsed between the samples",
                       "two /proc/stat samples >= 1 s apart", "iowait and steal are unknown", "none known",
                       stat_confirm));
  }
  // EFA error counters.
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
  } else {
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
  // New Xids.
  if (after.xids.readable) {
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
  gpu_delta(before, after, r, out);
  return out;
}

std::vector<Finding> evaluate_drift(const std::vector<HostSnapshot>& nodes) {
  std::vector<Finding> out;
  if (nodes.size() < 2) {
    out.push_back(make(Tag::kInfo, "drift.nodes", "", fmt::format("{} node", nodes.size()), "two or more nodes",
                       "nothing to compare across nodes", "none", "none"));
    return out;
  }
  struct Item {
    const char* check;
    const char* what;
    const char* confirm;
    Reading<std::string> (*get)(const HostSnapshot&);
  };
  static const Item kItems[] = {
      {"drift.nvidia_driver", "NVIDIA driver", "cat /proc/driver/nvidia/version",
       [](const HostSnapshot& n) { return n.nvidia_driver; }},
      {"drift.kernel", "kernel release", "uname -r", [](const HostSnapshot& n) { return n.kernel_release; }},
      {"drift.efa_installer", "EFA installer", "head -1 /opt/amazon/efa_installed_packages",
       [](const HostSnapshot& n) { return n.efa_installer; }},
      {"drift.efa_module", "efa kernel module", "cat /sys/module/efa/version",
       [](const HostSnapshot& n) { return n.efa_module_version; }},
      {"drift.instance_type", "instance type", "cat /sys/devices/virtual/dmi/id/product_name",
       [](const HostSnapshot& n) { return n.instance_type; }},
      {"drift.cuda_driver", "CUDA driver version", "nvidia-smi | head -4",
       [](const HostSnapshot& n) { return n.cuda_driver_version; }},
      {"drift.nccl", "NCCL version", "ldconfig -p | grep libnccl; NCCL_DEBUG=VERSION in the job",
       [](const HostSnapshot& n) { return n.nccl_version; }},
      {"drift.libfabric", "libfabric version", "fi_info --version",
       [](const HostSnapshot& n) {
         Reading<std::string> v;
         v.readable = n.libfabric.readable;
         v.value = n.libfabric.value.version;
         v.why = n.libfabric.why;
         return v;
       }},
  };
  auto groups_text = [](const std::map<std::string, std::vector<std::string>>& groups) {
    std::vector<std::string> parts;
    for (const auto& [value, hosts] : groups) parts.push_back(value + ": " + list(hosts, 6));
    std::string s;
    for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? "; " : "") + parts[i];
    return s;
  };
  for (const Item& item : kItems) {
    std::map<std::string, std::vector<std::string>> groups;
    bool any_readable = false;
    for (const auto& n : nodes) {
      const Reading<std::string> v = item.get(n);
      any_readable = any_readable || v.readable;
      groups[v.readable ? v.value : "(unreadable)"].push_back(n.hostname.value);
    }
    if (!any_readable) continue;
    if (groups.size() > 1) {
      out.push_back(make(Tag::kConcern, item.check, "", groups_text(groups),
                         std::string("the same ") + item.what + " on every node",
                         std::string("nodes of this run differ in ") + item.what,
                         std::string(item.check) == "drift.instance_type"
                             ? "pairs of different types are not comparable; baselines and expected EFA counts "
                               "differ"
                             : "version drift across nodes: mismatched transports or protocols, 10-30% pair "
                               "bandwidth loss seen in the field",
                         std::string("confirm on each node: ") + item.confirm +
                             "; remediation: bring the odd nodes to the fleet's version (or drain them)"));
    } else {
      out.push_back(make(Tag::kOk, item.check, "",
                         fmt::format("{} on all {} nodes", groups.begin()->first, nodes.size()),
                         std::string("the same ") + item.what + " on every node", "no drift", "none", item.confirm));
    }
  }
  // Environment.
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
  return out;
}

}  // namespace podperf

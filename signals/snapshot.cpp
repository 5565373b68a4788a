// Read-only collection of one node's snapshot (podperf's host-signal sources: NVML, sysfs, procfs and NVIDIA's Xid
// catalog): collect_snapshot in named steps, one per source (identity, procfs, mounts, limits, EFA, kernel log, NVIDIA
// driver, environment, libraries). Every path is read under the root prefix (signals/root_path.hpp); the sysfs readers
// are in snapshot_sysfs.cpp, the text parsers in snapshot_parsers.cpp. Local; any failure is recorded in the field's
// `why` instead of thrown.
#include "signals/snapshot.hpp"

#include <string_view>
#include <utility>

#include "analysis/base/text.hpp"
#include "signals/host_files.hpp"
#include "signals/root_path.hpp"
#include "signals/snapshot_sysfs.hpp"

namespace podperf {
namespace {

using host_files::clean;
using host_files::read_first_line;
using host_files::read_text;

// Hostname (inputs.hostname, else <root>/proc/sys/kernel/hostname, else "unknown-host"), DMI instance
// type and id, kernel release.
void read_identity(const std::string& root, const CollectInputs& inputs, HostSnapshot& s) {
  if (!inputs.hostname.empty()) {
    s.hostname.value = clean(inputs.hostname);
    s.hostname.readable = true;
  } else {
    s.hostname = read_first_line(under_root(root, "/proc/sys/kernel/hostname"));
    if (!s.hostname.readable) s.hostname.value = "unknown-host";
  }
  s.instance_type = read_first_line(under_root(root, "/sys/devices/virtual/dmi/id/product_name"));
  s.instance_id = read_first_line(under_root(root, "/sys/devices/virtual/dmi/id/board_asset_tag"));
  s.kernel_release = read_first_line(under_root(root, "/proc/sys/kernel/osrelease"));
}

// /proc/stat's aggregate CPU times and /proc/meminfo.
void read_proc_counters(const std::string& root, HostSnapshot& s) {
  {
    const std::string path = under_root(root, "/proc/stat");
    std::string text;
    if (read_text(path, text, s.cpu_times.why)) {
      if (auto t = parse_proc_stat(text)) {
        s.cpu_times.value = *t;
        s.cpu_times.readable = true;
      } else {
        s.cpu_times.why = path + ": no valid 'cpu ' line";
      }
    }
  }
  const std::string path = under_root(root, "/proc/meminfo");
  std::string text;
  if (read_text(path, text, s.meminfo.why)) {
    s.meminfo.value = parse_meminfo(text);
    s.meminfo.readable = s.meminfo.value.mem_total_kib >= 0;
    if (!s.meminfo.readable) s.meminfo.why = path + ": no MemTotal line";
  }
}

// The mounts podperf reports (/proc/self/mountinfo), each with inputs.statvfs's sizes when it answers.
void read_mounts(const std::string& root, const CollectInputs& inputs, HostSnapshot& s) {
  const std::string path = under_root(root, "/proc/self/mountinfo");
  std::string text;
  if (!read_text(path, text, s.mounts.why)) return;
  s.mounts.value = parse_mountinfo(text);
  s.mounts.readable = true;
  for (auto& m : s.mounts.value) {
    if (!inputs.statvfs) continue;
    if (std::optional<FsSpace> space = inputs.statvfs(m.mount_point)) {
      m.stat_ok = true;
      m.total_bytes = space->total_bytes;
      m.avail_bytes = space->avail_bytes;
    }
  }
}

// The injected memlock and stack limits.
void read_limits(const CollectInputs& inputs, HostSnapshot& s) {
  if (inputs.memlock) {
    s.memlock.value = *inputs.memlock;
    s.memlock.readable = true;
  } else {
    s.memlock.why = "getrlimit(RLIMIT_MEMLOCK) not taken";
  }
  if (inputs.stack) {
    s.stack.value = *inputs.stack;
    s.stack.readable = true;
  } else {
    s.stack.why = "getrlimit(RLIMIT_STACK) not taken";
  }
}

// EFA devices with their counters, the EFA installer's version and the efa module's version.
void read_efa_software(const std::string& root, HostSnapshot& s) {
  s.efa = read_efa_devices(root);
  s.efa_installer = read_first_line(under_root(root, "/opt/amazon/efa_installed_packages"));
  // "# EFA installer version: 1.30.0" -> "1.30.0"
  constexpr std::string_view kPrefix = "# EFA installer version:";
  std::string& v = s.efa_installer.value;
  if (v.starts_with(kPrefix)) v = std::string(text::trim(std::string_view(v).substr(kPrefix.size())));
  s.efa_module_version = read_first_line(under_root(root, "/sys/module/efa/version"));
}

// Xid/SXid records of the injected kernel log text, from inputs.kmsg_window_start_usec on.
void read_kernel_log(const CollectInputs& inputs, HostSnapshot& s) {
  if (inputs.kmsg_text) {
    s.xids.value = parse_kmsg_xids(*inputs.kmsg_text, inputs.kmsg_window_start_usec);
    s.xids.readable = true;
  } else {
    s.xids.why = inputs.kmsg_why.empty() ? "kernel log not read" : inputs.kmsg_why;
  }
}

// The kernel driver's version from /proc/driver/nvidia/version.
void read_nvidia_driver(const std::string& root, HostSnapshot& s) {
  const std::string path = under_root(root, "/proc/driver/nvidia/version");
  std::string text;
  if (read_text(path, text, s.nvidia_driver.why)) {
    s.nvidia_driver.value = parse_nvidia_driver_version(text);
    s.nvidia_driver.readable = !s.nvidia_driver.value.empty();
    if (!s.nvidia_driver.readable) s.nvidia_driver.why = path + ": no version number in the first line";
  }
}

// The tracked variables of the injected environment.
void read_environment(const CollectInputs& inputs, HostSnapshot& s) {
  for (const auto& [name, value] : inputs.env) {
    if (is_tracked_env(name)) s.env[name] = value;
  }
}

// NVML, libfabric, NCCL and the CUDA driver through the libraries named in `inputs` (dlopen); the CUDA
// driver version falls back to NVML's.
void read_libraries(const CollectInputs& inputs, HostSnapshot& s) {
  if (inputs.nvml_library.empty()) {
    s.nvml.why = "NVML not read (no library given)";
  } else {
    NvmlRead n = read_nvml(inputs.nvml_library);
    s.nvml.value = std::move(n.report);
    s.nvml.readable = n.loaded;
    s.nvml.why = std::move(n.why);
  }
  if (inputs.libfabric_library.empty()) {
    s.libfabric.why = "libfabric not read (no library given)";
  } else {
    LibfabricRead f = read_libfabric(inputs.libfabric_library);
    s.libfabric.value = std::move(f.info);
    s.libfabric.readable = f.loaded;
    s.libfabric.why = std::move(f.why);
  }
  auto version = [](const LibraryVersion& v, Reading<std::string>& out) {
    out.value = v.version;
    out.readable = v.loaded;
    out.why = v.why;
  };
  if (inputs.nccl_library.empty()) {
    s.nccl_version.why = "NCCL not read (no library given)";
  } else {
    version(read_nccl_version(inputs.nccl_library), s.nccl_version);
  }
  if (inputs.cuda_library.empty()) {
    s.cuda_driver_version.why = "CUDA driver not read (no library given)";
  } else {
    version(read_cuda_driver_version(inputs.cuda_library), s.cuda_driver_version);
  }
  if (!s.cuda_driver_version.readable && s.nvml.readable && s.nvml.value.cuda_driver_version > 0) {
    s.cuda_driver_version.value = cuda_version_text(s.nvml.value.cuda_driver_version);
    s.cuda_driver_version.readable = true;
    s.cuda_driver_version.why = "from nvmlSystemGetCudaDriverVersion (" + s.cuda_driver_version.why + ")";
  }
}

}  // namespace

HostSnapshot collect_snapshot(const std::string& root, const CollectInputs& inputs) {
  HostSnapshot s;
  s.root = root;
  read_identity(root, inputs, s);
  s.governors = read_governors(root);
  read_proc_counters(root, s);
  read_mounts(root, inputs, s);
  read_limits(inputs, s);
  read_efa_software(root, s);
  s.gpu_pcie = read_gpu_pcie(root);
  s.lustre_osts = read_lustre(root);
  read_kernel_log(inputs, s);
  read_nvidia_driver(root, s);
  read_environment(inputs, s);
  read_libraries(inputs, s);
  return s;
}

}  // namespace podperf

#pragma once
// What one node reports about itself: a read-only snapshot of procfs, sysfs, the kernel log and the
// process's own limits and environment (podperf's host-signal sources: NVML, sysfs, procfs and NVIDIA's Xid catalog).
// Local, no MPI, no CUDA, never throws on host content: a missing or unreadable file leaves its field `readable ==
// false` with the reason in `why`, and the rules turn that into an INFO.
//
// Every path is read under a root prefix ("/" on a real host, a fixture tree in tests). What cannot be
// read from a file tree (statvfs, getrlimit, getenv, /dev/kmsg) comes in through CollectInputs, so tests
// inject it.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "signals/kmsg.hpp"
#include "signals/libfabric_probe.hpp"
#include "signals/nvml.hpp"

namespace podperf {

// One value read from the host. `why` says why it could not be read ("<path>: No such file or directory").
template <class T>
struct Reading {
  T value{};
  bool readable = false;
  std::string why;
};

struct CpuGovernor {
  std::string cpu;       // "cpu0"
  std::string governor;  // "performance"
};

// The aggregate "cpu" line of /proc/stat, in USER_HZ ticks.
struct CpuTimes {
  std::uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  [[nodiscard]] std::uint64_t total() const { return user + nice + system + idle + iowait + irq + softirq + steal; }
};

// /proc/meminfo; sizes in KiB as the kernel prints them. -1: the key was absent.
struct MemInfo {
  std::int64_t mem_total_kib = -1;
  std::int64_t mem_available_kib = -1;
  std::int64_t hugepages_total = -1;
  std::int64_t hugepages_free = -1;
  std::int64_t hugepage_size_kib = -1;
};

// What statvfs says about one mount point (f_blocks * f_frsize, f_bavail * f_frsize).
struct FsSpace {
  std::uint64_t total_bytes = 0;
  std::uint64_t avail_bytes = 0;
};
// Called with the mount point as /proc/self/mountinfo names it ("/dev/shm"); the real-host caller stats
// root + mount point. std::nullopt: statvfs failed (the mount then has stat_ok == false).
using StatvfsFn = std::function<std::optional<FsSpace>(const std::string& mount_point)>;

struct MountInfo {
  std::string mount_point;  // unescaped ("\040" -> ' ')
  std::string fstype;       // "ext4", "tmpfs", "lustre", "nfs4", ...
  std::string source;       // "/dev/nvme0n1p1", "10.0.0.5@tcp:/fsx", ...
  bool stat_ok = false;
  std::uint64_t total_bytes = 0;
  std::uint64_t avail_bytes = 0;
};

// A resource limit in bytes; unlimited == RLIM_INFINITY.
struct Rlimit {
  bool unlimited = false;
  std::uint64_t bytes = 0;
};

struct EfaDevice {
  std::string name;                                // "rdmap16s27"
  std::map<std::string, std::uint64_t> counters;   // ports/1/hw_counters/<name>, only those present
};

struct PcieLink {
  std::string bdf;  // "0000:b9:00.0"
  int current_width = -1;
  int max_width = -1;
  std::string current_speed;  // "16.0 GT/s PCIe"
  std::string max_speed;
};

// One Lustre OST as its client (osc) sees it, in KiB.
struct LustreOst {
  std::string name;  // "fsx-OST0003-osc-ffff9a8c4c1e5000"
  std::uint64_t total_kib = 0;
  std::uint64_t free_kib = 0;
  std::uint64_t avail_kib = 0;
};

struct HostSnapshot {
  std::string root;                             // the prefix it was read under
  Reading<std::string> hostname;                // inputs.hostname, else <root>/proc/sys/kernel/hostname
  Reading<std::string> instance_type;           // /sys/devices/virtual/dmi/id/product_name
  Reading<std::string> instance_id;             // /sys/devices/virtual/dmi/id/board_asset_tag
  Reading<std::string> kernel_release;          // /proc/sys/kernel/osrelease
  Reading<std::vector<CpuGovernor>> governors;  // /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor
  Reading<CpuTimes> cpu_times;                  // /proc/stat
  Reading<MemInfo> meminfo;                     // /proc/meminfo
  Reading<std::vector<MountInfo>> mounts;       // /proc/self/mountinfo: "/", "/dev/shm" and data filesystems
  Reading<Rlimit> memlock;                      // injected (getrlimit(RLIMIT_MEMLOCK))
  Reading<Rlimit> stack;                        // injected (getrlimit(RLIMIT_STACK))
  Reading<std::vector<EfaDevice>> efa;          // /sys/class/infiniband/*, device/vendor == 0x1d0f
  Reading<std::string> efa_installer;           // /opt/amazon/efa_installed_packages, first line
                                                // ("# EFA installer version: 1.30.0" -> "1.30.0")
  Reading<std::string> efa_module_version;      // /sys/module/efa/version
  Reading<std::vector<PcieLink>> gpu_pcie;      // /sys/bus/pci/devices/*: vendor 0x10de, class 0x0302xx
  Reading<std::vector<LustreOst>> lustre_osts;  // /sys/fs/lustre/osc/*/kbytes*, else /proc/fs/lustre/osc
  Reading<std::vector<XidEvent>> xids;          // Xid/SXid records of inputs.kmsg_text in the window
  Reading<std::string> nvidia_driver;           // /proc/driver/nvidia/version -> "535.104.05"
  Reading<NvmlReport> nvml;                     // NVML at inputs.nvml_library (why: dlerror text, ...)
  Reading<LibfabricInfo> libfabric;             // fi_getinfo providers of inputs.libfabric_library
  Reading<std::string> nccl_version;            // ncclGetVersion of inputs.nccl_library: "2.28.3"
  Reading<std::string> cuda_driver_version;     // cuDriverGetVersion of inputs.cuda_library ("13.0"),
                                                // else NVML's nvmlSystemGetCudaDriverVersion
  std::map<std::string, std::string> env;       // NCCL_*, FI_*, OFI_NCCL_*, RDMAV_*, TORCH_NCCL_*,
                                                // CUDA_VISIBLE_DEVICES, LD_LIBRARY_PATH
};

// What the caller reads for the collector. Tests fill it with fixed values.
struct CollectInputs {
  std::string hostname;                                   // "" -> <root>/proc/sys/kernel/hostname
  std::vector<std::pair<std::string, std::string>> env;   // the whole environment; filtered on collect
  std::optional<Rlimit> memlock;                          // nullopt -> memlock not readable
  std::optional<Rlimit> stack;
  StatvfsFn statvfs;                                      // empty -> every mount stat_ok == false
  std::optional<std::string> kmsg_text;                   // /dev/kmsg records or dmesg text; nullopt ->
  std::string kmsg_why;                                   //   not readable, for this reason
  std::int64_t kmsg_window_start_usec = 0;                // keep Xids at or after this (usec since boot)
  // Libraries loaded with dlopen (names or paths); "" -> not read, the field is not readable.
  std::string nvml_library;       // "libnvidia-ml.so.1"
  std::string libfabric_library;  // "libfabric.so.1"
  std::string nccl_library;       // "libnccl.so.2"
  std::string cuda_library;       // "libcuda.so.1" (the driver's, never the toolkit's link stub)
};

// True for the environment variables the snapshot keeps.
bool is_tracked_env(const std::string& name);

// EFA devices (vendor 0x1d0f) under `root` with their port 1 hw_counters: cheap enough to read
// around every pair round.
Reading<std::vector<EfaDevice>> read_efa_devices(const std::string& root);

// Reads everything under `root` and the libraries named in `inputs`. Never throws on host content (only
// std::bad_alloc).
HostSnapshot collect_snapshot(const std::string& root, const CollectInputs& inputs);

// ---- individual readers and parsers (exposed for tests) ----

// Parses the "cpu " line of /proc/stat text. nullopt when absent or malformed.
std::optional<CpuTimes> parse_proc_stat(const std::string& text);
MemInfo parse_meminfo(const std::string& text);
// Mount entries of /proc/self/mountinfo text that podperf reports: "/", "/dev/shm" and filesystems of a
// data type (lustre, nfs, nfs4, xfs, ext4, beegfs, gpfs, wekafs, fuse.*), skipping /proc, /sys, /run
// (other than /dev/shm) and /boot. Malformed lines are skipped.
std::vector<MountInfo> parse_mountinfo(const std::string& text);
// Every well-formed entry of /proc/self/mountinfo text, in file order, unfiltered (no statvfs).
std::vector<MountInfo> parse_mountinfo_all(const std::string& text);
// The entry whose mount point holds `path` (an absolute, canonical path): the longest mount point
// that is `path` or a directory above it; of equal ones the later (an over-mount). nullptr if none.
const MountInfo* mount_holding(const std::vector<MountInfo>& all, const std::string& path);
// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug ..." -> "535.104.05"; "" if none.
std::string parse_nvidia_driver_version(const std::string& text);

}  // namespace podperf

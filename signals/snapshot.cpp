// Read-only collectors for one node (FIELD-NOTES section 4). Every path is root + the host path; any
// failure is recorded in the field's `why` instead of thrown.
#include "signals/snapshot.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

#include "analysis/text.hpp"

namespace podperf {
namespace {

namespace fs = std::filesystem;
using std::string_view;

constexpr std::size_t kMaxFileBytes = std::size_t{4} << 20;  // procfs/sysfs files are small
constexpr std::size_t kMaxEntries = 4096;                    // directory entries looked at
constexpr std::size_t kMaxCounters = 64;

using text::is_space;
using text::to_number;
using text::trim;

// Only printable ASCII, at most 200 bytes: values end up in reports.
std::string clean(string_view s) { return text::printable(s, 200, false); }

std::string join(const std::string& root, string_view rel) {
  std::string base = root;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  if (base == "/") base.clear();
  return base + std::string(rel);
}

// Reads a whole (small) file. On failure returns false and sets `why` ("<path>: <strerror>").
bool read_text(const std::string& path, std::string& out, std::string& why) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    why = path + ": is a directory";
    return false;
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = path + ": " + (errno != 0 ? std::strerror(errno) : "cannot open");
    return false;
  }
  std::string text;
  char buf[8192];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) break;
  }
  if (in.bad()) {
    why = path + ": read error";
    return false;
  }
  out = std::move(text);
  return true;
}

Reading<std::string> read_first_line(const std::string& path) {
  Reading<std::string> r;
  std::string text;
  if (!read_text(path, text, r.why)) return r;
  const std::size_t nl = text.find('\n');
  r.value = clean(string_view(text).substr(0, nl));
  if (r.value.empty()) {
    r.why = path + ": empty";
    return r;
  }
  r.readable = true;
  return r;
}

std::optional<std::string> first_line(const std::string& path) {
  Reading<std::string> r = read_first_line(path);
  if (!r.readable) return std::nullopt;
  return r.value;
}

template <class T>
std::optional<T> read_number(const std::string& path) {
  std::optional<std::string> line = first_line(path);
  T value{};
  if (!line || !to_number(*line, value)) return std::nullopt;
  return value;
}

// Entry names of a directory, sorted; nullopt (with why) when it cannot be listed.
std::optional<std::vector<std::string>> list_dir(const std::string& path, std::string& why) {
  std::error_code ec;
  fs::directory_iterator it(path, ec);
  if (ec) {
    why = path + ": " + ec.message();
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (; it != fs::directory_iterator() && names.size() < kMaxEntries; it.increment(ec)) {
    if (ec) break;
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// "cpu12" -> 12, else -1.
int cpu_index(const std::string& name) {
  if (name.size() < 4 || name.compare(0, 3, "cpu") != 0) return -1;
  int n = -1;
  if (!to_number(string_view(name).substr(3), n)) return -1;
  return n;
}

Reading<std::vector<CpuGovernor>> read_governors(const std::string& root) {
  Reading<std::vector<CpuGovernor>> r;
  const std::string dir = join(root, "/sys/devices/system/cpu");
  auto names = list_dir(dir, r.why);
  if (!names) return r;
  std::vector<std::pair<int, std::string>> cpus;
  for (const auto& n : *names) {
    const int i = cpu_index(n);
    if (i >= 0) cpus.emplace_back(i, n);
  }
  std::sort(cpus.begin(), cpus.end());
  for (const auto& [i, name] : cpus) {
    if (auto g = first_line(dir + "/" + name + "/cpufreq/scaling_governor")) r.value.push_back({name, *g});
  }
  if (r.value.empty()) {
    r.why = dir + "/cpu*/cpufreq/scaling_governor: absent (no cpufreq driver; common in VMs)";
    return r;
  }
  r.readable = true;
  return r;
}

Reading<std::vector<EfaDevice>> read_efa(const std::string& root) {
  Reading<std::vector<EfaDevice>> r;
  const std::string dir = join(root, "/sys/class/infiniband");
  auto names = list_dir(dir, r.why);
  if (!names) return r;
  r.readable = true;
  for (const auto& n : *names) {
    const std::string dev = dir + "/" + n;
    std::optional<std::string> vendor = first_line(dev + "/device/vendor");
    if (!vendor || *vendor != "0x1d0f") continue;
    EfaDevice d;
    d.name = n;
    const std::string counters = dev + "/ports/1/hw_counters";
    std::string why;
    if (auto files = list_dir(counters, why)) {
      for (const auto& c : *files) {
        if (d.counters.size() >= kMaxCounters) break;
        if (auto v = read_number<std::uint64_t>(counters + "/" + c)) d.counters[c] = *v;
      }
    }
    r.value.push_back(std::move(d));
  }
  return r;
}

Reading<std::vector<PcieLink>> read_gpu_pcie(const std::string& root) {
  Reading<std::vector<PcieLink>> r;
  const std::string dir = join(root, "/sys/bus/pci/devices");
  auto names = list_dir(dir, r.why);
  if (!names) return r;
  r.readable = true;
  for (const auto& n : *names) {
    const std::string dev = dir + "/" + n;
    std::optional<std::string> vendor = first_line(dev + "/vendor");
    std::optional<std::string> cls = first_line(dev + "/class");
    if (!vendor || *vendor != "0x10de" || !cls || !cls->starts_with("0x0302")) continue;
    PcieLink l;
    l.bdf = n;
    l.current_width = read_number<int>(dev + "/current_link_width").value_or(-1);
    l.max_width = read_number<int>(dev + "/max_link_width").value_or(-1);
    l.current_speed = first_line(dev + "/current_link_speed").value_or("");
    l.max_speed = first_line(dev + "/max_link_speed").value_or("");
    r.value.push_back(std::move(l));
  }
  return r;
}

Reading<std::vector<LustreOst>> read_lustre(const std::string& root) {
  Reading<std::vector<LustreOst>> r;
  std::string why_sys;
  std::string why_proc;
  std::string dir = join(root, "/sys/fs/lustre/osc");
  auto names = list_dir(dir, why_sys);
  if (!names) {
    dir = join(root, "/proc/fs/lustre/osc");
    names = list_dir(dir, why_proc);
  }
  if (!names) {
    r.why = "no Lustre client (" + why_sys + "; " + why_proc + ")";
    return r;
  }
  r.readable = true;
  for (const auto& n : *names) {
    const std::string ost = dir + "/" + n;
    auto total = read_number<std::uint64_t>(ost + "/kbytestotal");
    if (!total) continue;
    LustreOst o;
    o.name = n;
    o.total_kib = *total;
    o.free_kib = read_number<std::uint64_t>(ost + "/kbytesfree").value_or(0);
    o.avail_kib = read_number<std::uint64_t>(ost + "/kbytesavail").value_or(o.free_kib);
    r.value.push_back(std::move(o));
  }
  return r;
}

// "\040" -> ' ' (mountinfo escapes space, tab, newline and backslash as octal).
std::string unescape_octal(string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
        s[i + 3] >= '0' && s[i + 3] <= '7') {
      out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool is_data_fstype(const std::string& t) {
  static const char* kTypes[] = {"lustre", "nfs",    "nfs4", "xfs",    "ext4", "ext3", "btrfs",
                                 "zfs",    "beegfs", "gpfs", "wekafs", "cifs", "smb3", "ceph"};
  for (const char* k : kTypes)
    if (t == k) return true;
  return t.starts_with("fuse.");
}

bool under(const std::string& path, const std::string& dir) {
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
}

}  // namespace

Reading<std::vector<EfaDevice>> read_efa_devices(const std::string& root) {
  return read_efa(root);
}

bool is_tracked_env(const std::string& name) {
  for (const char* p : {"NCCL_", "FI_", "OFI_NCCL_", "RDMAV_", "TORCH_NCCL_"}) {
    if (name.starts_with(p) && name.size() > std::strlen(p)) return true;
  }
  return name == "CUDA_VISIBLE_DEVICES" || name == "LD_LIBRARY_PATH";
}

std::optional<CpuTimes> parse_proc_stat(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("cpu ")) continue;
    std::istringstream fields(line.substr(4));
    std::uint64_t v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int n = 0;
    std::string tok;
    while (n < 8 && fields >> tok) {
      if (!to_number(tok, v[n])) return std::nullopt;
      ++n;
    }
    if (n < 4) return std::nullopt;  // user nice system idle are always there
    CpuTimes t;
    t.user = v[0];
    t.nice = v[1];
    t.system = v[2];
    t.idle = v[3];
    t.iowait = v[4];
    t.irq = v[5];
    t.softirq = v[6];
    t.steal = v[7];
    return t;
  }
  return std::nullopt;
}

MemInfo parse_meminfo(const std::string& text) {
  MemInfo m;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, colon);
    string_view rest = trim(string_view(line).substr(colon + 1));
    const std::size_t sp = rest.find(' ');
    std::int64_t v = 0;
    if (!to_number(rest.substr(0, sp), v)) continue;
    if (key == "MemTotal")
      m.mem_total_kib = v;
    else if (key == "MemAvailable")
      m.mem_available_kib = v;
    else if (key == "HugePages_Total")
      m.hugepages_total = v;
    else if (key == "HugePages_Free")
      m.hugepages_free = v;
    else if (key == "Hugepagesize")
      m.hugepage_size_kib = v;
  }
  return m;
}

std::vector<MountInfo> parse_mountinfo_all(const std::string& text) {
  std::vector<MountInfo> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::vector<std::string> tok;
    std::string t;
    while (f >> t) tok.push_back(t);
    // id parent major:minor root mount_point options [optional...] - fstype source super_options
    auto dash = std::find(tok.begin(), tok.end(), "-");
    if (tok.size() < 9 || dash == tok.end() || dash - tok.begin() < 6 || tok.end() - dash < 3) continue;
    MountInfo m;
    m.mount_point = unescape_octal(tok[4]);
    m.fstype = *(dash + 1);
    m.source = unescape_octal(*(dash + 2));
    out.push_back(std::move(m));
  }
  return out;
}

const MountInfo* mount_holding(const std::vector<MountInfo>& all, const std::string& path) {
  const MountInfo* best = nullptr;
  for (const MountInfo& m : all) {
    const std::string& mp = m.mount_point;
    const bool covers = mp == "/" || path == mp || (path.starts_with(mp) && path.size() > mp.size() && path[mp.size()] == '/');
    // The longest mount point wins; of equal ones the later line (an over-mount).
    if (covers && (best == nullptr || mp.size() >= best->mount_point.size())) best = &m;
  }
  return best;
}

std::vector<MountInfo> parse_mountinfo(const std::string& text) {
  std::vector<MountInfo> out;
  for (MountInfo& m : parse_mountinfo_all(text)) {
    const std::string& mp = m.mount_point;
    const bool keep = mp == "/" || mp == "/dev/shm" ||
                      (is_data_fstype(m.fstype) && !under(mp, "/proc") && !under(mp, "/sys") && !under(mp, "/run") &&
                       !under(mp, "/boot") && !under(mp, "/dev"));
    if (!keep) continue;
    // A later line for the same mount point is an over-mount: it is what the path shows.
    auto same = std::find_if(out.begin(), out.end(), [&](const MountInfo& o) { return o.mount_point == mp; });
    if (same != out.end()) out.erase(same);
    out.push_back(std::move(m));
  }
  return out;
}

std::string parse_nvidia_driver_version(const std::string& text) {
  const std::size_t nl = text.find('\n');
  std::istringstream in(text.substr(0, nl));
  std::string tok;
  while (in >> tok) {
    // the first token shaped like 535.104.05 / 550.54 (digits and dots, at least one dot)
    if (tok.empty() || !std::isdigit(static_cast<unsigned char>(tok[0]))) continue;
    if (tok.find('.') == std::string::npos) continue;
    if (std::all_of(tok.begin(), tok.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; }))
      return tok;
  }
  return "";
}

HostSnapshot collect_snapshot(const std::string& root, const CollectInputs& inputs) {
  HostSnapshot s;
  s.root = root;

  if (!inputs.hostname.empty()) {
    s.hostname.value = clean(inputs.hostname);
    s.hostname.readable = true;
  } else {
    s.hostname = read_first_line(join(root, "/proc/sys/kernel/hostname"));
    if (!s.hostname.readable) s.hostname.value = "unknown-host";
  }
  s.instance_type = read_first_line(join(root, "/sys/devices/virtual/dmi/id/product_name"));
  s.instance_id = read_first_line(join(root, "/sys/devices/virtual/dmi/id/board_asset_tag"));
  s.kernel_release = read_first_line(join(root, "/proc/sys/kernel/osrelease"));
  s.governors = read_governors(root);

  {
    const std::string path = join(root, "/proc/stat");
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
  {
    const std::string path = join(root, "/proc/meminfo");
    std::string text;
    if (read_text(path, text, s.meminfo.why)) {
      s.meminfo.value = parse_meminfo(text);
      s.meminfo.readable = s.meminfo.value.mem_total_kib >= 0;
      if (!s.meminfo.readable) s.meminfo.why = path + ": no MemTotal line";
    }
  }
  {
    const std::string path = join(root, "/proc/self/mountinfo");
    std::string text;
    if (read_text(path, text, s.mounts.why)) {
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
  }
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
  s.efa = read_efa(root);
  s.efa_installer = read_first_line(join(root, "/opt/amazon/efa_installed_packages"));
  {
    // "# EFA installer version: 1.30.0" -> "1.30.0"
    constexpr std::string_view kPrefix = "# EFA installer version:";
    std::string& v = s.efa_installer.value;
    if (v.starts_with(kPrefix)) v = std::string(trim(std::string_view(v).substr(kPrefix.size())));
  }
  s.efa_module_version = read_first_line(join(root, "/sys/module/efa/version"));
  s.gpu_pcie = read_gpu_pcie(root);
  s.lustre_osts = read_lustre(root);
  if (inputs.kmsg_text) {
    s.xids.value = parse_kmsg_xids(*inputs.kmsg_text, inputs.kmsg_window_start_usec);
    s.xids.readable = true;
  } else {
    s.xids.why = inputs.kmsg_why.empty() ? "kernel log not read" : inputs.kmsg_why;
  }
  {
    const std::string path = join(root, "/proc/driver/nvidia/version");
    std::string text;
    if (read_text(path, text, s.nvidia_driver.why)) {
      s.nvidia_driver.value = parse_nvidia_driver_version(text);
      s.nvidia_driver.readable = !s.nvidia_driver.value.empty();
      if (!s.nvidia_driver.readable) s.nvidia_driver.why = path + ": no version number in the first line";
    }
  }
  for (const auto& [name, value] : inputs.env) {
    if (is_tracked_env(name)) s.env[name] = value;
  }
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
  return s;
}

}  // namespace podperf

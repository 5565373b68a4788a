// The sysfs readers of the snapshot (signals/snapshot_sysfs.hpp): CPU governors, EFA devices and their
// counters, GPU PCIe links and Lustre OSTs, each under a root prefix. Local, read-only; a failure is
// recorded in the Reading's `why`, never thrown (only std::bad_alloc).
#include "signals/snapshot_sysfs.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

#include "analysis/base/text.hpp"
#include "signals/host_files.hpp"
#include "signals/root_path.hpp"

namespace podperf {
namespace {

using host_files::first_line;
using host_files::list_dir;
using host_files::read_number;

constexpr std::size_t kMaxCounters = 64;  // hw_counters read per EFA device

// "cpu12" -> 12, else -1.
int cpu_index(const std::string& name) {
  if (name.size() < 4 || name.compare(0, 3, "cpu") != 0) return -1;
  int n = -1;
  if (!text::to_number(std::string_view(name).substr(3), n)) return -1;
  return n;
}

}  // namespace

Reading<std::vector<CpuGovernor>> read_governors(const std::string& root) {
  Reading<std::vector<CpuGovernor>> r;
  const std::string dir = under_root(root, "/sys/devices/system/cpu");
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

Reading<std::vector<PcieLink>> read_gpu_pcie(const std::string& root) {
  Reading<std::vector<PcieLink>> r;
  const std::string dir = under_root(root, "/sys/bus/pci/devices");
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
  std::string dir = under_root(root, "/sys/fs/lustre/osc");
  auto names = list_dir(dir, why_sys);
  if (!names) {
    dir = under_root(root, "/proc/fs/lustre/osc");
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

Reading<std::vector<EfaDevice>> read_efa_devices(const std::string& root) {
  Reading<std::vector<EfaDevice>> r;
  const std::string dir = under_root(root, "/sys/class/infiniband");
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

}  // namespace podperf

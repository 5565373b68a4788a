// The whole host snapshot on a file tree whose files hold arbitrary bytes: the input is split at
// NUL bytes into the contents of the files the collector reads (sysfs and procfs), then
// collect_snapshot and the rules run on it (signals/snapshot, signals/rules).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "signals/rules.hpp"
#include "signals/snapshot.hpp"
#include "tests/fuzz/fuzz_common.hpp"

namespace {

const char* const kFiles[] = {
    "proc/stat",
    "proc/meminfo",
    "proc/self/mountinfo",
    "proc/sys/kernel/hostname",
    "proc/sys/kernel/osrelease",
    "proc/driver/nvidia/version",
    "sys/devices/virtual/dmi/id/product_name",
    "sys/devices/virtual/dmi/id/board_asset_tag",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
    "sys/class/infiniband/rdmap0/device/vendor",
    "sys/class/infiniband/rdmap0/ports/1/hw_counters/retrans_timeout_events",
    "sys/class/infiniband/rdmap0/ports/1/hw_counters/rx_drops",
    "sys/bus/pci/devices/0000:01:00.0/vendor",
    "sys/bus/pci/devices/0000:01:00.0/class",
    "sys/bus/pci/devices/0000:01:00.0/current_link_width",
    "sys/bus/pci/devices/0000:01:00.0/max_link_width",
    "sys/fs/lustre/osc/fsx-OST0000-osc/kbytestotal",
    "sys/fs/lustre/osc/fsx-OST0000-osc/kbytesfree",
    "sys/module/efa/version",
    "opt/amazon/efa_installed_packages",
};

const std::string& root() {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/podperf-fuzz-sysfs-XXXXXX";
    const char* made = ::mkdtemp(tmpl);
    return std::string(made != nullptr ? made : "/tmp/podperf-fuzz-sysfs");
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = podperf::fuzz::text_of(data, size);
  std::size_t at = 0;
  for (const char* rel : kFiles) {
    const std::filesystem::path p = std::filesystem::path(root()) / rel;
    std::filesystem::create_directories(p.parent_path());
    const std::size_t end = std::min(text.find('\0', at), text.size());
    std::ofstream(p, std::ios::binary | std::ios::trunc) << (at < text.size() ? text.substr(at, end - at) : "");
    at = end < text.size() ? end + 1 : text.size();
  }
  podperf::fuzz::expect_clean([&] {
    podperf::CollectInputs in;
    in.kmsg_text = std::string(text.substr(0, std::min<std::size_t>(text.size(), 4096)));
    const podperf::HostSnapshot s = podperf::collect_snapshot(root(), in);
    static const podperf::Rules rules = podperf::load_rules("");
    (void)podperf::evaluate(s, rules);
    (void)podperf::evaluate_delta(s, s, rules);
    (void)podperf::evaluate_drift({s, s});
  });
  return 0;
}

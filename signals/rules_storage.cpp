// The filesystem domain of the signal rules (signals/rules_storage.hpp): [storage] of rules.toml and the
// mount and Lustre checks of podperf's host-signal sources: NVML, sysfs, procfs and NVIDIA's Xid catalog. Every finding
// says what was seen, what healthy looks like, what it means, the likely effect and the next step; podperf never runs
// that step. Pure, local; only the section parser throws (ConfigError).
#include "signals/rules_storage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "analysis/base/toml_check.hpp"
#include "analysis/base/units.hpp"

namespace podperf::signal_rules {
namespace {

double used_fraction(const MountInfo& m) {
  if (m.total_bytes == 0) return 0.0;
  const std::uint64_t avail = std::min(m.avail_bytes, m.total_bytes);
  return 1.0 - static_cast<double>(avail) / static_cast<double>(m.total_bytes);
}

}  // namespace

void parse_storage_section(const toml::table& storage, const std::string& source, Rules& r) {
  toml_reject_unknown(storage, {"root_used_concern_fraction", "ost_fill_imbalance_points"}, "storage.", source);
  r.root_used_concern_fraction = require_number(storage, "root_used_concern_fraction", "storage.", 0.0, 1.0, source);
  r.ost_fill_imbalance_points = require_number(storage, "ost_fill_imbalance_points", "storage.", 0.0, 100.0, source);
}

void check_root_fs(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  if (!s.mounts.readable) return;
  const std::string& host = s.hostname.value;
  const std::string root_expected = fmt::format("/ below {:.0f}% used", r.root_used_concern_fraction * 100.0);
  const MountInfo* root = find_mount(s, "/");
  if (root == nullptr || !root->stat_ok || root->total_bytes == 0) {
    out.push_back(make(Tag::kInfo, "signals.root_fs", host,
                       root == nullptr ? "no / mount in mountinfo" : "statvfs(/) failed", root_expected,
                       "root filesystem usage is unknown", "none known", "df -h /"));
    return;
  }
  const double used = used_fraction(*root);
  const std::string obs = fmt::format("/ {:.1f}% used ({} free of {}, {})", used * 100.0,
                                      format_bytes(root->avail_bytes), format_bytes(root->total_bytes), root->fstype);
  if (used >= r.root_used_concern_fraction) {
    out.push_back(make(Tag::kConcern, "signals.root_fs", host, obs, root_expected, "the root filesystem is nearly full",
                       "logs, core dumps, NCCL debug files and checkpoints written locally can fail or stall; "
                       "a full root can take the node's services down",
                       "confirm: df -h /; find the large directories: du -xh / --max-depth=2 | sort -h | tail; "
                       "remediation: remove old logs, containers (docker system df) or core files"));
  } else {
    out.push_back(make(Tag::kOk, "signals.root_fs", host, obs, root_expected, "root has room", "none", "df -h /"));
  }
}

void check_mounts(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (!s.mounts.readable) {
    out.push_back(make(Tag::kInfo, "signals.mounts", host, "not available: " + s.mounts.why, "/proc/self/mountinfo",
                       "mounts and their free space could not be read", "/dev/shm and root fill cannot be checked",
                       "df -h / /dev/shm; findmnt"));
    return;
  }
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

}  // namespace podperf::signal_rules

// The text parsers of the snapshot (declared in signals/snapshot.hpp): /proc/stat, /proc/meminfo,
// /proc/self/mountinfo, /proc/driver/nvidia/version, and which environment variables are kept. Pure,
// local; malformed input gives absent values, never a throw (only std::bad_alloc).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>
#include <string_view>

#include "analysis/base/text.hpp"
#include "signals/snapshot.hpp"

namespace podperf {
namespace {

using std::string_view;
using text::to_number;
using text::trim;

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
    const bool covers =
        mp == "/" || path == mp || (path.starts_with(mp) && path.size() > mp.size() && path[mp.size()] == '/');
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

}  // namespace podperf

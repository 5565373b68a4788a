// Kernel log parsing for Xid/SXid lines and the Xid catalog (podperf's host-signal sources: NVML, sysfs, procfs and
// NVIDIA's Xid catalog). Plain string_view scanning, no regex, like the NCCL log reader (analysis/logs/).
#include "signals/kmsg.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "analysis/base/text.hpp"

namespace podperf {
namespace {

using std::string_view;

constexpr std::size_t kMaxText = 300;
constexpr std::size_t kMaxKmsgBytes = std::size_t{16} << 20;

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
using text::is_space;
using text::to_number;
using text::trim;

std::string kmsg_printable(string_view s) {
  return text::printable(s, kMaxText, true);
}

// The catalog. Meanings and actions are podperf's host-signal sources: NVML, sysfs, procfs and NVIDIA's Xid catalog
// (NVIDIA "Analyzing Xid catalog"); the codes only listed there as "Azure watches" carry no description of their own.
const std::vector<XidInfo>& catalog() {
  static const std::vector<XidInfo> kCatalog = [] {
    std::vector<XidInfo> v = {
        {13, "graphics engine exception", "restart the application; a concern if it repeats", false},
        {31, "GPU memory page fault", "application bug (bad address); check the application", false},
        {43, "GPU stopped processing", "informational (usually the application was stopped)", false},
        {45, "preemptive cleanup", "follows other errors; look at the other Xids of this GPU", false},
        {46, "GPU timeout", "reset the GPU", true},
        {48, "double-bit ECC error", "reset the GPU; replace it if the error persists", true},
        {62, "internal micro-controller halt", "reset the GPU", true},
        {63, "row-remap event (ECC page retirement)", "informational; watch for Xid 64", true},
        {64, "row-remap failure", "reset the GPU; replace it if it recurs", true},
        {74, "NVLink error", "follow NVIDIA's NVLink troubleshooting workflow", true},
        {79, "GPU has fallen off the bus", "reboot the node; replace the GPU if it recurs", true},
        {92, "high single-bit ECC error rate", "watch; replace the GPU if the rate keeps rising", true},
        {94, "contained memory error", "restart the affected application", true},
        {95, "uncontained memory error", "reset the GPU", true},
        {109, "context-switch timeout", "reset the GPU", true},
        {119, "GSP RPC timeout", "reset the GPU", true},
        {120, "GSP error", "reset the GPU", true},
        {136, "link training failed", "reset the GPU", true},
        {140, "ECC unrecovered error escape", "reset the GPU", true},
        {143, "GPU initialization error", "reset the GPU", true},
        {154, "GPU recovery action changed", "read the message text for the recovery action", false},
        {155, "NVLink software error", "reset the GPU", true},
    };
    for (int code = 144; code <= 150; ++code) {
      v.push_back({code, "NVLink5 error (GB200)", "follow NVIDIA's NVLink troubleshooting workflow", true});
    }
    for (int code : {56, 57, 58, 65, 68, 69, 73, 80, 81}) {
      v.push_back({code, "GPU error watched by Azure's GPU health checks",
                   "look the code up in NVIDIA's Xid catalog; reset the GPU if it recurs", true});
    }
    std::sort(v.begin(), v.end(), [](const XidInfo& a, const XidInfo& b) { return a.code < b.code; });
    return v;
  }();
  return kCatalog;
}

// Splits a /dev/kmsg record header "pri,seq,usec,flags[,...];" off `line`. Returns false when the line
// is not a record.
bool split_kmsg_record(string_view line, std::int64_t& seq, std::int64_t& usec, string_view& message) {
  const std::size_t semi = line.find(';');
  if (semi == string_view::npos || semi == 0) return false;
  const string_view header = line.substr(0, semi);
  std::int64_t fields[3] = {-1, -1, -1};
  std::size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = header.find(',', start);
    const string_view part = header.substr(start, comma == string_view::npos ? string_view::npos : comma - start);
    if (!to_number(part, fields[i])) return false;
    if (comma == string_view::npos) {
      if (i < 2) return false;
      start = header.size();
    } else {
      start = comma + 1;
    }
  }
  seq = fields[1];
  usec = fields[2];
  message = line.substr(semi + 1);
  return true;
}

// "[ 1234.567890] msg" or "<4>[ 1234.567890] msg" -> usec and message. Returns false when the line has
// no numeric bracketed time (e.g. dmesg -T output).
bool split_dmesg_time(string_view line, std::int64_t& usec, string_view& message) {
  if (line.starts_with('<')) {
    const std::size_t gt = line.find('>');
    if (gt == string_view::npos || gt > 4) return false;
    line.remove_prefix(gt + 1);
  }
  if (!line.starts_with('[')) return false;
  const std::size_t close = line.find(']');
  if (close == string_view::npos) return false;
  const string_view stamp = trim(line.substr(1, close - 1));
  const std::size_t dot = stamp.find('.');
  std::int64_t secs = 0;
  std::int64_t frac = 0;
  if (dot == string_view::npos) {
    if (!to_number(stamp, secs)) return false;
  } else {
    string_view frac_text = stamp.substr(dot + 1);
    if (!to_number(stamp.substr(0, dot), secs) || frac_text.empty() || frac_text.size() > 9) return false;
    if (!to_number(frac_text, frac)) return false;
    // scale the fraction to microseconds
    for (std::size_t n = frac_text.size(); n < 6; ++n) frac *= 10;
    for (std::size_t n = frac_text.size(); n > 6; --n) frac /= 10;
  }
  // A time since boot beyond ~292,000 years does not fit in microseconds: not a kernel timestamp
  // (found by fuzz_kmsg: "[44444444444444001.0]" overflowed).
  constexpr std::int64_t kMaxSecs = (INT64_MAX - 999999) / 1000000;
  if (secs < 0 || secs > kMaxSecs) return false;
  usec = secs * 1000000 + frac;
  message = line.substr(close + 1);
  return true;
}

}  // namespace

std::optional<XidInfo> xid_info(int code) {
  const auto& c = catalog();
  auto it = std::lower_bound(c.begin(), c.end(), code, [](const XidInfo& a, int k) { return a.code < k; });
  if (it == c.end() || it->code != code) return std::nullopt;
  return *it;
}

const std::vector<XidInfo>& xid_catalog() {
  return catalog();
}

std::optional<XidEvent> parse_xid_message(string_view message) {
  std::size_t pos = message.find("Xid (");
  while (pos != string_view::npos) {
    // "Xid" must start a word, or be "SXid".
    const bool sxid = pos > 0 && message[pos - 1] == 'S';
    const std::size_t word = sxid ? pos - 1 : pos;
    if (word == 0 || !std::isalnum(static_cast<unsigned char>(message[word - 1]))) {
      const std::size_t open = pos + 4;
      const std::size_t close = message.find("):", open);
      if (close != string_view::npos) {
        string_view pci = trim(message.substr(open + 1, close - open - 1));
        if (pci.starts_with("PCI:")) pci.remove_prefix(4);
        string_view rest = message.substr(close + 2);
        while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
        std::size_t n = 0;
        while (n < rest.size() && is_digit(rest[n])) ++n;
        int code = -1;
        if (n > 0 && n <= 6 && to_number(rest.substr(0, n), code)) {
          XidEvent e;
          e.sxid = sxid;
          e.code = code;
          e.pci = kmsg_printable(pci);
          rest.remove_prefix(n);
          while (!rest.empty() && (rest.front() == ',' || is_space(rest.front()))) rest.remove_prefix(1);
          e.text = kmsg_printable(rest);
          return e;
        }
      }
    }
    pos = message.find("Xid (", pos + 1);
  }
  return std::nullopt;
}

std::vector<XidEvent> parse_kmsg_xids(string_view text, std::int64_t window_start_usec) {
  std::vector<XidEvent> out;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    string_view line = text.substr(0, nl);
    text = nl == string_view::npos ? string_view{} : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == ' ') continue;  // blank, or a /dev/kmsg continuation (KEY=value)
    std::int64_t seq = -1;
    std::int64_t usec = -1;
    string_view message = line;
    if (!split_kmsg_record(line, seq, usec, message)) {
      seq = -1;
      if (!split_dmesg_time(line, usec, message)) {
        usec = -1;
        message = line;
      }
    }
    if (message.find("Xid (") == string_view::npos) continue;
    std::optional<XidEvent> e = parse_xid_message(message);
    if (!e) continue;
    if (window_start_usec > 0 && (usec < 0 || usec < window_start_usec)) continue;
    e->usec = usec;
    e->seq = seq;
    out.push_back(std::move(*e));
  }
  return out;
}

KmsgRead read_kmsg_nonblocking(const std::string& path) {
  KmsgRead out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    out.why = "open " + path + ": " + std::strerror(err);
    if (err == EPERM || err == EACCES) {
      out.why += " (with kernel.dmesg_restrict=1 reading the kernel log needs CAP_SYSLOG)";
    }
    return out;
  }
  // /dev/kmsg returns one record per read(); a record is at most a few KiB.
  std::string buffer(16384, '\0');
  int error = 0;
  while (out.text.size() < kMaxKmsgBytes) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n > 0) {
      out.text.append(buffer.data(), static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) break;  // end of a regular file
    const int err = errno;
    if (err == EINTR || err == EPIPE) continue;  // EPIPE: the next record was overwritten; go on
    if (err == EAGAIN || err == EWOULDBLOCK) break;
    error = err;
    break;
  }
  ::close(fd);
  if (error != 0 && out.text.empty()) {
    out.why = "read " + path + ": " + std::strerror(error);
    if (error == EPERM || error == EACCES) {
      out.why += " (with kernel.dmesg_restrict=1 reading the kernel log needs CAP_SYSLOG)";
    }
    return out;
  }
  out.ok = true;
  return out;
}

}  // namespace podperf

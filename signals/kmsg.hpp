#pragma once
// Kernel log parsing for GPU errors: NVIDIA Xid and NVSwitch SXid lines, from /dev/kmsg records
// ("pri,seq,usec,flags;message", continuation lines starting with a space) or dmesg text
// ("[ 1234.567890] message"), and the Xid catalog of podperf's host-signal sources: NVML, sysfs, procfs and NVIDIA's
// Xid catalog as a data table. Pure except read_kmsg_nonblocking.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

struct XidEvent {
  bool sxid = false;          // NVSwitch "SXid" rather than GPU "Xid"
  int code = -1;              // 79
  std::string pci;            // "0000:b9:00" as printed inside "(PCI:...)"
  std::int64_t usec = -1;     // microseconds since boot; -1: the line carried no monotonic time
  std::int64_t seq = -1;      // /dev/kmsg sequence number; -1 for dmesg text
  std::string text;           // the message after "Xid (...): ", cleaned (printable, <= 300 bytes)
};

// One row of the Xid catalog (podperf's host-signal sources: NVML, sysfs, procfs and NVIDIA's Xid catalog, from
// NVIDIA's "Analyzing Xid catalog").
struct XidInfo {
  int code = -1;
  std::string_view meaning;  // "GPU has fallen off the bus"
  std::string_view action;   // "reboot the node; replace the GPU if it recurs"
  bool hardware = false;     // points at the GPU, its memory, NVLink or the bus (not the application)
};

// The catalog row for `code`, or nullopt for a code the catalog does not describe.
std::optional<XidInfo> xid_info(int code);
// Every catalog row, ascending by code.
const std::vector<XidInfo>& xid_catalog();

// Parses kernel log text: /dev/kmsg records, dmesg output ("[  12.345678] ..."), or plain lines
// (journalctl -k). Returns the Xid and SXid events whose time is >= window_start_usec; lines without a
// monotonic time are kept only when window_start_usec <= 0. Never throws on content.
std::vector<XidEvent> parse_kmsg_xids(std::string_view text, std::int64_t window_start_usec = 0);

// Parses one message (without the record header), e.g.
// "NVRM: Xid (PCI:0000:b9:00): 79, pid=1234, name=python, GPU has fallen off the bus."
std::optional<XidEvent> parse_xid_message(std::string_view message);

struct KmsgRead {
  bool ok = false;
  std::string text;  // records, one per line, as /dev/kmsg gives them
  std::string why;   // when !ok: "open /dev/kmsg: Operation not permitted (kernel.dmesg_restrict=1 needs
                     // CAP_SYSLOG)"
};

// Opens `path` O_RDONLY|O_NONBLOCK and reads records until EAGAIN (or end of file for a regular file),
// at most 16 MiB. EPIPE (records overwritten while reading) is skipped. Never blocks, never throws.
KmsgRead read_kmsg_nonblocking(const std::string& path);

}  // namespace podperf

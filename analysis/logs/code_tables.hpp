#pragma once
// Two tables of codes a job's log quotes, as data: NCCL's result codes (ncclResult_t, nccl.h: the name,
// the text ncclGetErrorString prints, what it means for a job) and the NVIDIA driver's Xid codes (what
// the GPU reported and what to do with the node: hardware to drain and reset or replace, errors that are
// usually the application's, or informational). Pure, analysis floor.
#include <span>
#include <string_view>

#include "analysis/logs/log_event.hpp"

namespace podperf::logs {

struct NcclResult {
  int rc;
  std::string_view name;   // "ncclSystemError"
  std::string_view text;   // "unhandled system error" (without the "(run with ...)" suffix old NCCL lacks)
  std::string_view check;  // "nccl.system_error"
  int cause_rank;          // as the pattern table's: 15 for the codes that are usually a consequence
  std::string_view cause;
};

// Every ncclResult_t but ncclSuccess, in code order (1 .. 8).
std::span<const NcclResult> nccl_results();

// The row of a code; nullptr for 0 and unknown codes.
const NcclResult* nccl_result(int rc);

// The row whose name or text a line quotes ("NCCL error in: ..., unhandled system error", "ncclRemoteError:
// ..."), the most specific first; nullptr when none.
const NcclResult* nccl_result_in(std::string_view line);

// What an Xid code asks of the node.
enum class XidAction {
  hardware,     // a hardware fault: drain the node, reset or reboot, replace the part if it repeats
  reset,        // the GPU needs a reset (or the node a reboot) before it runs jobs again
  nvlink,       // an NVLink fault: drain, follow the NVLink recovery (reset, check the links/switches)
  contained,    // a contained memory error: the job using that memory was stopped; reset when idle
  application,  // usually the application (a kernel fault in the job's code), not the node
  info,         // informational: watch it (repeated events are a hardware concern)
};

struct XidCode {
  int code;
  std::string_view meaning;  // "GPU has fallen off the bus"
  XidAction action;
};

std::span<const XidCode> xid_codes();

// The row of a code; nullptr when the table does not know it.
const XidCode* xid_code(int code);

// The Xid number a line carries ("NVRM: Xid (PCI:0000:b9:00): 79, pid=...", "Xid=69", "Xid 48"); -1 none.
int xid_in(std::string_view line);

std::string_view xid_action_name(XidAction a);  // "hardware", "reset", ...

}  // namespace podperf::logs

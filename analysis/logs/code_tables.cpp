// NCCL result codes and Xid codes (contract in code_tables.hpp). The NCCL strings are nccl.h's
// ncclGetErrorString (2.30); the Xid meanings and actions follow NVIDIA's Xid catalogue.
#include "analysis/logs/code_tables.hpp"

#include <array>
#include <cctype>

namespace podperf::logs {
namespace {

constexpr std::array kNccl = {
    NcclResult{1, "ncclUnhandledCudaError", "unhandled cuda error", "nccl.cuda_error", 40,
               "ncclUnhandledCudaError: a CUDA call failed inside NCCL (the Cuda failure WARN before it names it)"},
    NcclResult{2, "ncclSystemError", "unhandled system error", "nccl.system_error", 35,
               "ncclSystemError: a system call failed (socket, shared memory, verbs registration or the OS; mostly "
               "configuration, not hardware)"},
    NcclResult{3, "ncclInternalError", "internal error - please report this issue", "nccl.internal_error", 15,
               "ncclInternalError: often downstream of a system, network or remote error"},
    NcclResult{4, "ncclInvalidArgument", "invalid argument", "nccl.invalid_argument", 60,
               "ncclInvalidArgument: a bad argument to an NCCL call (application bug or mismatched sizes)"},
    NcclResult{5, "ncclInvalidUsage", "invalid usage", "nccl.invalid_usage", 60,
               "ncclInvalidUsage: the application or launcher used NCCL wrongly (e.g. two ranks on one GPU)"},
    NcclResult{6, "ncclRemoteError", "remote process exited or there was a network error", "nccl.remote_error", 15,
               "ncclRemoteError: a peer process died or the network failed (usually a consequence)"},
    NcclResult{7, "ncclInProgress", "NCCL operation in progress", "nccl.in_progress", 0,
               "ncclInProgress: a non-blocking call has not finished yet (not an error)"},
    NcclResult{8, "ncclTimeout", "timeout", "nccl.timeout", 30, "ncclTimeout: an NCCL operation timed out"},
};

using A = XidAction;
constexpr std::array kXids = {
    XidCode{13, "graphics engine exception (an illegal instruction or address in a kernel)", A::application},
    XidCode{31, "GPU memory page fault (a kernel used an invalid address)", A::application},
    XidCode{32, "invalid or corrupted push buffer stream (PCIe or driver)", A::reset},
    XidCode{38, "driver firmware error", A::reset},
    XidCode{43, "GPU stopped processing (the application was stopped after a fault)", A::application},
    XidCode{44, "graphics engine fault during a context switch", A::reset},
    XidCode{45, "preemptive cleanup after earlier errors", A::application},
    XidCode{46, "GPU stopped processing (timeout)", A::reset},
    XidCode{48, "double-bit ECC error", A::hardware},
    XidCode{56, "display engine error", A::reset},
    XidCode{57, "error programming the video memory interface", A::hardware},
    XidCode{58, "unstable video memory interface", A::hardware},
    XidCode{61, "internal micro-controller breakpoint/warning", A::reset},
    XidCode{62, "internal micro-controller halt", A::reset},
    XidCode{63, "ECC page retirement or row-remapping event", A::info},
    XidCode{64, "ECC page retirement or row-remapping failure", A::hardware},
    XidCode{65, "video processor exception", A::reset},
    XidCode{68, "video processor exception", A::reset},
    XidCode{69, "graphics engine class error", A::reset},
    XidCode{73, "NVENC2 error", A::reset},
    XidCode{74, "NVLink error", A::nvlink},
    XidCode{79, "GPU has fallen off the bus", A::hardware},
    XidCode{80, "corrupted data sent to the GPU", A::hardware},
    XidCode{81, "VGA subsystem error", A::hardware},
    XidCode{92, "high single-bit ECC error rate", A::info},
    XidCode{94, "contained ECC error", A::contained},
    XidCode{95, "uncontained ECC error", A::hardware},
    XidCode{109, "context switch timeout", A::reset},
    XidCode{119, "GSP RPC timeout", A::reset},
    XidCode{120, "GSP error", A::reset},
    XidCode{121, "C2C link corrected error", A::info},
    XidCode{136, "link training failed", A::reset},
    XidCode{140, "ECC unrecovered error escape", A::hardware},
    XidCode{143, "GPU initialisation error", A::reset},
    XidCode{144, "NVLink error (NVLink5)", A::nvlink},
    XidCode{145, "NVLink error (NVLink5)", A::nvlink},
    XidCode{146, "NVLink error (NVLink5)", A::nvlink},
    XidCode{147, "NVLink error (NVLink5)", A::nvlink},
    XidCode{148, "NVLink error (NVLink5)", A::nvlink},
    XidCode{149, "NVLink error (NVLink5)", A::nvlink},
    XidCode{150, "NVLink error (NVLink5)", A::nvlink},
    XidCode{154, "GPU recovery action changed (the line says which: reset, reboot or drain)", A::reset},
    XidCode{155, "NVLink software error", A::reset},
};

int digits_at(std::string_view s, std::size_t i) {
  int v = 0;
  std::size_t n = 0;
  while (i < s.size() && n < 5 && std::isdigit(static_cast<unsigned char>(s[i]))) v = v * 10 + (s[i++] - '0'), ++n;
  return n > 0 ? v : -1;
}

}  // namespace

std::span<const NcclResult> nccl_results() {
  return kNccl;
}

const NcclResult* nccl_result(int rc) {
  for (const NcclResult& r : kNccl) {
    if (r.rc == rc) return &r;
  }
  return nullptr;
}

const NcclResult* nccl_result_in(std::string_view line) {
  for (const NcclResult& r : kNccl) {
    if (line.find(r.name) != std::string_view::npos) return &r;
  }
  // Texts: NCCL's own wordings of 1, 2, 3 and 6 anywhere; "invalid argument", "invalid usage" and
  // "timeout" are common words, read as NCCL's only after "NCCL error" or "NCCL failure".
  const std::size_t at = std::min(line.find("NCCL error"), line.find("NCCL failure"));
  for (const NcclResult& r : kNccl) {
    if (r.rc == 1 || r.rc == 2 || r.rc == 3 || r.rc == 6) {
      if (line.find(r.text) != std::string_view::npos) return &r;
    }
  }
  if (at != std::string_view::npos) {
    const std::string_view tail = line.substr(at);
    for (const NcclResult& r : kNccl) {
      if (r.rc != 7 && tail.find(r.text) != std::string_view::npos) return &r;
    }
  }
  return nullptr;
}

std::span<const XidCode> xid_codes() {
  return kXids;
}

const XidCode* xid_code(int code) {
  for (const XidCode& x : kXids) {
    if (x.code == code) return &x;
  }
  return nullptr;
}

int xid_in(std::string_view line) {
  for (std::size_t at = line.find("Xid"); at != std::string_view::npos; at = line.find("Xid", at + 3)) {
    std::size_t i = at + 3;
    if (i < line.size() && line[i] == '=') {  // "Xid=69"
      if (const int v = digits_at(line, i + 1); v >= 0) return v;
      continue;
    }
    while (i < line.size() && (line[i] == ' ' || line[i] == ':')) ++i;
    if (i < line.size() && line[i] == '(') {  // "Xid (PCI:0000:b9:00): 79,"
      const std::size_t close = line.find(')', i);
      if (close == std::string_view::npos) continue;
      i = close + 1;
      while (i < line.size() && (line[i] == ' ' || line[i] == ':')) ++i;
    }
    if (const int v = digits_at(line, i); v >= 0) return v;
  }
  return -1;
}

std::string_view xid_action_name(XidAction a) {
  switch (a) {
    case XidAction::hardware: return "hardware";
    case XidAction::reset: return "reset";
    case XidAction::nvlink: return "nvlink";
    case XidAction::contained: return "contained";
    case XidAction::application: return "application";
    case XidAction::info: return "info";
  }
  return "info";
}

}  // namespace podperf::logs

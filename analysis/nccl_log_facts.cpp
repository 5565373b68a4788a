// What the NCCL log parser and its findings share (analysis/nccl_log_facts.hpp): the message classes
// (errors, memory registration, /dev/shm), the transport classes (TCP providers, NCCL's socket
// fallback) and how two processes' facts combine. Pure, local, never throws (except std::bad_alloc).
#include "analysis/nccl_log_facts.hpp"

#include <array>

namespace podperf::nccl_log_detail {
namespace {

using std::string_view;

constexpr std::array<string_view, 14> kErrorPhrases = {
    "unhandled system error",
    "unhandled cuda error",
    "remote process exited",   // "remote process exited or there was a network error"
    "remote process exiting",  // newer ncclRemoteError text
    "internal error",          // "internal error - please report this issue to the NCCL developers"
    "ncclSystemError",
    "ncclInternalError",
    "ncclUnhandledCudaError",
    "ncclRemoteError",
    "ncclInvalidUsage",
    "Cuda failure",  // NCCL WARN Cuda failure 'out of memory'
    "Duplicate GPU detected",
    "Connection closed by remote peer",
    "collective operation timeout",  // PyTorch watchdog
};

}  // namespace

bool is_error(string_view msg) {
  return std::any_of(kErrorPhrases.begin(), kErrorPhrases.end(), [&](string_view p) { return has(msg, p); });
}

bool is_memlock(string_view msg) {
  if (has(msg, "ibv_reg_mr") && has(msg, "failed") && !has(msg, "Invalid argument")) return true;
  const bool registration = has(msg, "register memory") || has(msg, "register MR") || has(msg, "reg_mr");
  return registration && (has(msg, "RC: -12") || has(msg, "RC: 12,") || has(msg, "Cannot allocate memory"));
}

bool is_shm_failure(string_view msg) {
  return has(msg, "failed to extend /dev/shm") || has(msg, "Error while creating shared memory segment") ||
         has(msg, "posix_fallocate failed");
}

bool is_tcp_provider(string_view provider) {
  return has(provider, "tcp") || provider.starts_with("sockets") || provider.starts_with("udp");
}

bool is_socket_net(const NcclProcessFacts& f) {
  return f.net == "Socket" || (f.net.empty() && f.plugin_missing && f.ofi_provider.empty());
}

void combine(NcclProcessFacts& into, const NcclProcessFacts& from) {
  for (int d : from.cuda_devices) add_unique(into.cuda_devices, d, kMaxDevices);
  if (into.nccl_version.empty()) {
    into.nccl_version = from.nccl_version;
    into.nccl_cuda = from.nccl_cuda;
  }
  if (into.net.empty()) into.net = from.net;
  if (into.ofi_provider.empty()) {
    into.ofi_provider = from.ofi_provider;
    into.ofi_fabric = from.ofi_fabric;
  }
  if (into.nic_count < 0) into.nic_count = from.nic_count;
  into.plugin_missing = into.plugin_missing || from.plugin_missing;
  for (const auto& i : from.socket_ifaces) add_unique(into.socket_ifaces, i, kMaxIfaces);
  into.gdrdma_seen = into.gdrdma_seen || from.gdrdma_seen;
  into.net_without_gdrdma_seen = into.net_without_gdrdma_seen || from.net_without_gdrdma_seen;
  into.intra_paths.insert(from.intra_paths.begin(), from.intra_paths.end());
  into.channels = std::max(into.channels, from.channels);
  into.nodes = std::max(into.nodes, from.nodes);
  for (const auto& w : from.warnings) add_unique(into.warnings, w, kMaxWarnings);
  for (const auto& e : from.errors) add_unique(into.errors, e, kMaxErrors);
  into.memlock_failure = into.memlock_failure || from.memlock_failure;
  into.shm_failure = into.shm_failure || from.shm_failure;
  into.nvls_unavailable = into.nvls_unavailable || from.nvls_unavailable;
}

}  // namespace podperf::nccl_log_detail

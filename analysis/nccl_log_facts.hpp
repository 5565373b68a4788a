#pragma once
// Private to the NCCL log reader (analysis/nccl_log_parse.cpp, analysis/nccl_log_findings.cpp): what the
// parser and the findings both know about the facts of analysis/nccl_log.hpp: the caps on kept lists,
// how facts combine, and the message and transport classes both test. Pure, local, never throws (except
// std::bad_alloc).
#include <algorithm>
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/nccl_log.hpp"

namespace podperf::nccl_log_detail {

inline constexpr std::size_t kMaxWarnings = 50;
inline constexpr std::size_t kMaxErrors = 50;
inline constexpr std::size_t kMaxDevices = 64;
inline constexpr std::size_t kMaxIfaces = 16;

// Appends `value` unless present or `v` holds `cap` values already.
template <class T>
void add_unique(std::vector<T>& v, T value, std::size_t cap) {
  if (v.size() >= cap) return;
  if (std::find(v.begin(), v.end(), value) != v.end()) return;
  v.push_back(std::move(value));
}

// `needle` occurs in `s`.
inline bool has(std::string_view s, std::string_view needle) {
  return s.find(needle) != std::string_view::npos;
}

// An error line: unhandled system/cuda error, remote process exited, internal error, ncclSystemError,
// Cuda failure, a PyTorch collective timeout, ... (on NCCL lines and on any other line).
bool is_error(std::string_view msg);
// A memory registration failure for lack of locked memory ("Call to ibv_reg_mr failed", "RC: -12").
bool is_memlock(std::string_view msg);
// A /dev/shm segment that could not be created or extended.
bool is_shm_failure(std::string_view msg);
// A libfabric provider that moves data over TCP or UDP ("tcp", "tcp;ofi_rxm", "sockets", "udp").
bool is_tcp_provider(std::string_view provider);
// The process used NCCL's own socket transport ("Using network Socket", or no plugin and no provider).
bool is_socket_net(const NcclProcessFacts& f);

// Adds what `from` knows and `into` does not; lists and flags are unions, counts are maxima.
void combine(NcclProcessFacts& into, const NcclProcessFacts& from);

}  // namespace podperf::nccl_log_detail

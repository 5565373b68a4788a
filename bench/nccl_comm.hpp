#pragma once
// The NCCL communicator's life on the function table alone (no CUDA here, so a fake NCCL tests it):
// non-blocking init polled against a deadline, split, a group guard that always closes the group,
// one op's launch (alltoall as grouped send/recv where NCCL has no ncclAlltoAll), and the end:
// finalize then destroy after success, abort after any failure or timeout. Every wait ends in a
// named error (RuntimeFailure) or TimeoutError; nothing NCCL may still write lives on a stack.
// Bench floor, local (each call is collective over the communicator's ranks, as NCCL's are).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "bench/collectives.hpp"
#include "bench/nccl_api.hpp"
#include "bench/nccl_timing.hpp"

namespace podperf {

// "<what>: <call> -> <error string> (<last error>)".
[[noreturn]] void throw_nccl_error(const NcclApi& api, const std::string& what, const char* call, NcclResult r,
                                   NcclCommHandle comm);

// Owns one non-blocking communicator. Moves only; closes itself on destruction.
class NcclComm {
 public:
  NcclComm() = default;
  NcclComm(const NcclApi* api, NcclCommHandle comm) : api_(api), comm_(comm) {}
  NcclComm(NcclComm&& o) noexcept;
  NcclComm& operator=(NcclComm&& o) noexcept;
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;
  ~NcclComm() { close(); }

  // ncclCommInitRankConfig (blocking = 0), polled until ready. On an error or at the deadline the
  // communicator is aborted and the error thrown.
  static NcclComm init(const NcclApi& api, int nranks, const NcclUniqueId& id, int rank, double timeout_s);

  // ncclCommSplit; an empty NcclComm for color < 0 (NCCL_SPLIT_NOCOLOR). The child's slot is on the
  // heap: after a timeout it is left to NCCL (never freed) and this communicator is aborted, so a late
  // write by NCCL's thread lands in memory nobody reuses.
  NcclComm split(int color, int key, double timeout_s);

  // Polls ncclCommGetAsyncError until it leaves ncclInProgress; marks this communicator failed and
  // throws on an error (RuntimeFailure) or at the deadline (TimeoutError).
  void wait(NcclClock::time_point deadline, const std::string& what, const char* call);
  // A call's result: success or in progress -> wait; anything else -> failed and thrown.
  void check(NcclResult r, NcclClock::time_point deadline, const std::string& what, const char* call);
  // A call's result only (inside a group, where NCCL merely queues): an error -> failed and thrown.
  void check_result(NcclResult r, const std::string& what, const char* call);
  // Local state only (ncclCommGetAsyncError once): throws on an error, never waits.
  void check_async(const std::string& what);

  [[nodiscard]] NcclCommHandle get() const { return comm_; }
  [[nodiscard]] const NcclApi& api() const { return *api_; }
  [[nodiscard]] bool failed() const { return failed_; }
  [[nodiscard]] bool empty() const { return comm_ == nullptr; }
  void mark_failed() { failed_ = true; }

  // ncclCommAbort now (result checked, reported on stderr). Idempotent.
  void abort() noexcept;
  // Finalize (polled, 60 s at most), then destroy; abort instead after a failure. Idempotent.
  void close() noexcept;

 private:
  const NcclApi* api_ = nullptr;
  NcclCommHandle comm_ = nullptr;
  bool failed_ = false;
};

// ncclGroupStart in the constructor; end() calls ncclGroupEnd and checks it. If end() is never
// reached (an error inside the group), the destructor still calls ncclGroupEnd and marks the
// communicator failed, so no group stays open on the thread.
class NcclGroupGuard {
 public:
  NcclGroupGuard(NcclComm& comm, NcclClock::time_point deadline, std::string what);
  ~NcclGroupGuard();
  NcclGroupGuard(const NcclGroupGuard&) = delete;
  NcclGroupGuard& operator=(const NcclGroupGuard&) = delete;
  void end();

 private:
  NcclComm& comm_;
  NcclClock::time_point deadline_;
  std::string what_;
  bool open_ = false;
};

// One op's buffers and counts, as NCCL takes them (pointers already offset for in place).
struct NcclOpCall {
  OpKind kind = OpKind::kAllReduce;
  const void* send = nullptr;
  void* recv = nullptr;
  std::uint64_t count = 0;  // send_count (all_reduce, broadcast, reduce, send/recv) or chunk (per-rank ops)
  std::size_t type_bytes = 4;
  int type = kNcclFloat32;
  int root = 0;
  int rank = 0;
  int nranks = 1;
  void* stream = nullptr;  // cudaStream_t
};

// Enqueues `call` on its stream and waits for NCCL to accept it (not for the GPU to finish).
// alltoall without ncclAlltoAll: a group of nranks sends and receives (nccl-tests' fallback).
void nccl_enqueue(NcclComm& comm, const NcclOpCall& call, NcclClock::time_point deadline, const std::string& what);

}  // namespace podperf

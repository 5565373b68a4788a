// The communicator lifecycle on the NCCL function table (see nccl_comm.hpp). Bench floor, local.
#include "bench/nccl_comm.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <thread>
#include <utility>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {

// A poll backs off from 1 us to 50 us: short enough that a quick init is not slowed, long enough
// that a stuck one does not burn a core. Polls happen outside every timed interval.
std::chrono::microseconds next_backoff(std::chrono::microseconds now) {
  return std::min(now * 2, std::chrono::microseconds(50));
}

void warn_close_failure(const NcclApi& api, const char* call, NcclResult r) {
  std::fprintf(stderr, "podperf: %s failed: %s\n", call, api.get_error_string(r));
}

}  // namespace

void throw_nccl_error(const NcclApi& api, const std::string& what, const char* call, NcclResult r,
                      NcclCommHandle comm) {
  const char* last = api.get_last_error != nullptr ? api.get_last_error(comm) : nullptr;
  throw RuntimeFailure(fmt::format("NCCL failure in {}: {} -> {} ({})", what, call, api.get_error_string(r),
                                   last != nullptr && *last != '\0' ? last : "no detail"));
}

NcclComm::NcclComm(NcclComm&& o) noexcept : api_(o.api_), comm_(std::exchange(o.comm_, nullptr)), failed_(o.failed_) {}

NcclComm& NcclComm::operator=(NcclComm&& o) noexcept {
  if (this != &o) {
    close();
    api_ = o.api_;
    comm_ = std::exchange(o.comm_, nullptr);
    failed_ = o.failed_;
  }
  return *this;
}

NcclComm NcclComm::init(const NcclApi& api, int nranks, const NcclUniqueId& id, int rank, double timeout_s) {
  NcclConfig config;
  config.blocking = 0;
  NcclCommHandle handle = nullptr;
  const NcclResult r = api.comm_init_rank_config(&handle, nranks, id, rank, &config);
  NcclComm comm(&api, handle);
  if (r != kNcclSuccess && r != kNcclInProgress) {
    comm.mark_failed();  // a partly built communicator is aborted by ~NcclComm
    throw_nccl_error(api, fmt::format("world communicator init (rank {} of {})", rank, nranks),
                     "ncclCommInitRankConfig", r, handle);
  }
  if (handle == nullptr) {
    throw RuntimeFailure("NCCL failure in world communicator init: ncclCommInitRankConfig returned no communicator");
  }
  comm.wait(nccl_deadline_after(timeout_s), fmt::format("world communicator init (rank {} of {})", rank, nranks),
            "ncclCommInitRankConfig");
  return comm;
}

NcclComm NcclComm::split(int color, int key, double timeout_s) {
  if (comm_ == nullptr) throw RuntimeFailure("NCCL split: the parent communicator was aborted after an earlier error");
  // Heap slot: NCCL's thread writes the child here, possibly after a timeout below.
  auto* slot = new NcclCommHandle(nullptr);
  NcclConfig config;
  config.blocking = 0;
  const auto deadline = nccl_deadline_after(timeout_s);
  const std::string what = fmt::format("pair communicator split (color {})", color);
  try {
    const NcclResult r = api_->comm_split(comm_, color < 0 ? kNcclSplitNoColor : color, key, slot, &config);
    check(r, deadline, what, "ncclCommSplit");
  } catch (...) {
    // The parent is failed (aborted by whoever owns it); the child slot is left to NCCL, a child
    // already written is aborted.
    if (*slot != nullptr) {
      NcclComm child(api_, *slot);
      child.mark_failed();
    }
    abort();
    throw;  // `slot` is not freed: NCCL's thread may still write it
  }
  NcclComm child(api_, *slot);
  delete slot;
  if (color < 0) return child;  // NCCL writes NULL for NOCOLOR
  if (child.empty()) {
    mark_failed();
    throw RuntimeFailure(fmt::format("NCCL failure in {}: ncclCommSplit returned no communicator", what));
  }
  child.wait(deadline, what, "ncclCommSplit");
  return child;
}

void NcclComm::wait(NcclClock::time_point deadline, const std::string& what, const char* call) {
  std::chrono::microseconds backoff(1);
  while (true) {
    NcclResult state = kNcclSuccess;
    const NcclResult r = api_->comm_get_async_error(comm_, &state);
    if (r != kNcclSuccess) {
      mark_failed();
      throw_nccl_error(*api_, what, "ncclCommGetAsyncError", r, comm_);
    }
    if (state == kNcclSuccess) return;
    if (state != kNcclInProgress) {
      mark_failed();
      throw_nccl_error(*api_, what, call, state, comm_);
    }
    if (NcclClock::now() > deadline) {
      mark_failed();
      throw TimeoutError(fmt::format("{}: {} still in progress at the deadline; communicator aborted", what, call));
    }
    std::this_thread::sleep_for(backoff);
    backoff = next_backoff(backoff);
  }
}

void NcclComm::check_result(NcclResult r, const std::string& what, const char* call) {
  if (r != kNcclSuccess && r != kNcclInProgress) {
    mark_failed();
    throw_nccl_error(*api_, what, call, r, comm_);
  }
}

void NcclComm::check(NcclResult r, NcclClock::time_point deadline, const std::string& what, const char* call) {
  check_result(r, what, call);
  wait(deadline, what, call);
}

void NcclComm::check_async(const std::string& what) {
  NcclResult state = kNcclSuccess;
  const NcclResult r = api_->comm_get_async_error(comm_, &state);
  if (r != kNcclSuccess) {
    mark_failed();
    throw_nccl_error(*api_, what, "ncclCommGetAsyncError", r, comm_);
  }
  if (state != kNcclSuccess && state != kNcclInProgress) {
    mark_failed();
    throw_nccl_error(*api_, what, "ncclCommGetAsyncError", state, comm_);
  }
}

void NcclComm::abort() noexcept {
  if (comm_ == nullptr) return;
  const NcclResult r = api_->comm_abort(comm_);
  if (r != kNcclSuccess) warn_close_failure(*api_, "ncclCommAbort", r);
  comm_ = nullptr;
  failed_ = true;
}

void NcclComm::close() noexcept {
  if (comm_ == nullptr) return;
  if (failed_) {
    abort();
    return;
  }
  try {
    check(api_->comm_finalize(comm_), nccl_deadline_after(60.0), "communicator finalize", "ncclCommFinalize");
    const NcclResult r = api_->comm_destroy(comm_);
    if (r != kNcclSuccess) warn_close_failure(*api_, "ncclCommDestroy", r);
    comm_ = nullptr;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "podperf: %s; aborting the communicator\n", e.what());
    abort();
  }
}

NcclGroupGuard::NcclGroupGuard(NcclComm& comm, NcclClock::time_point deadline, std::string what)
    : comm_(comm), deadline_(deadline), what_(std::move(what)) {
  const NcclResult r = comm_.api().group_start();
  if (r != kNcclSuccess) {
    comm_.mark_failed();
    throw_nccl_error(comm_.api(), what_, "ncclGroupStart", r, comm_.get());
  }
  open_ = true;
}

NcclGroupGuard::~NcclGroupGuard() {
  if (!open_) return;
  (void)comm_.api().group_end();  // close the group on this thread; the communicator is not trusted
  comm_.mark_failed();
}

void NcclGroupGuard::end() {
  open_ = false;
  comm_.check(comm_.api().group_end(), deadline_, what_, "ncclGroupEnd");
}

void nccl_enqueue(NcclComm& comm, const NcclOpCall& c, NcclClock::time_point deadline, const std::string& what) {
  const NcclApi& api = comm.api();
  const NcclCommHandle h = comm.get();
  if (h == nullptr) throw RuntimeFailure(fmt::format("{}: the communicator was aborted after an earlier error", what));
  auto* recv = static_cast<char*>(c.recv);
  const auto* send = static_cast<const char*>(c.send);
  switch (c.kind) {
    case OpKind::kAllReduce:
      comm.check(api.all_reduce(send, recv, c.count, c.type, kNcclSum, h, c.stream), deadline, what, "ncclAllReduce");
      return;
    case OpKind::kAllGather:
      comm.check(api.all_gather(send, recv, c.count, c.type, h, c.stream), deadline, what, "ncclAllGather");
      return;
    case OpKind::kReduceScatter:
      comm.check(api.reduce_scatter(send, recv, c.count, c.type, kNcclSum, h, c.stream), deadline, what,
                 "ncclReduceScatter");
      return;
    case OpKind::kBroadcast:
      comm.check(api.broadcast(send, recv, c.count, c.type, c.root, h, c.stream), deadline, what, "ncclBroadcast");
      return;
    case OpKind::kReduce:
      comm.check(api.reduce(send, recv, c.count, c.type, kNcclSum, c.root, h, c.stream), deadline, what, "ncclReduce");
      return;
    case OpKind::kAllToAll:
      if (api.alltoall != nullptr) {
        comm.check(api.alltoall(send, recv, c.count, c.type, h, c.stream), deadline, what, "ncclAlltoAll");
        return;
      }
      {
        NcclGroupGuard group(comm, deadline, what);
        const std::uint64_t chunk_bytes = c.count * c.type_bytes;
        for (int r = 0; r < c.nranks; ++r) {
          comm.check_result(api.send(send + r * chunk_bytes, c.count, c.type, r, h, c.stream), what, "ncclSend");
          comm.check_result(api.recv(recv + r * chunk_bytes, c.count, c.type, r, h, c.stream), what, "ncclRecv");
        }
        group.end();
      }
      return;
    case OpKind::kSendRecv: {
      NcclGroupGuard group(comm, deadline, what);
      comm.check_result(api.send(send, c.count, c.type, (c.rank + 1) % c.nranks, h, c.stream), what, "ncclSend");
      comm.check_result(api.recv(recv, c.count, c.type, (c.rank - 1 + c.nranks) % c.nranks, h, c.stream), what,
                        "ncclRecv");
      group.end();
      return;
    }
  }
}

}  // namespace podperf

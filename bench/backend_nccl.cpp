// The NCCL backend (see backend_nccl.hpp), built with CUDA. Every OpKind is listed in each switch (no
// default: a new op fails to compile here). Floor: bench; collective over a group.
#include "bench/backend_nccl.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>
#include <nccl.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <set>
#include <thread>

#include "analysis/errors.hpp"
#include "kernels/pattern_device.hpp"

namespace podperf {
namespace {

// Rotating buffer windows (nccl-tests style): iteration i uses offset (i % kWindows) * kWindowBytes,
// so consecutive iterations do not hit the same cache lines at small sizes.
constexpr std::uint64_t kWindowBytes = 16ULL << 20;
constexpr int kWindows = 4;

[[noreturn]] void throw_cuda(const char* file, int line, const char* call, cudaError_t err) {
  throw RuntimeFailure(fmt::format("CUDA failure at {}:{}: {} -> {} ({})", file, line, call, cudaGetErrorString(err),
                                   cudaGetErrorName(err)));
}
[[noreturn]] void throw_nccl(const char* file, int line, const char* call, ncclResult_t r, ncclComm_t comm) {
  throw RuntimeFailure(fmt::format("NCCL failure at {}:{}: {} -> {} ({})", file, line, call, ncclGetErrorString(r),
                                   ncclGetLastError(comm)));
}

#define PODPERF_CHECK_CUDA(call)                                                                    \
  do {                                                                                              \
    const cudaError_t podperf_cuda_err_ = (call);                                                   \
    if (podperf_cuda_err_ != cudaSuccess) throw_cuda(__FILE__, __LINE__, #call, podperf_cuda_err_); \
  } while (0)

// Non-blocking communicators: a call may return ncclInProgress; then the communicator's state is
// polled (ncclCommGetAsyncError) until it leaves ncclInProgress, within the deadline.
#define PODPERF_CHECK_NCCL(comm, deadline, what, call)                       \
  do {                                                                       \
    const ncclResult_t podperf_nccl_r_ = (call);                             \
    if (podperf_nccl_r_ != ncclSuccess && podperf_nccl_r_ != ncclInProgress) \
      throw_nccl(__FILE__, __LINE__, #call, podperf_nccl_r_, (comm));        \
    wait_comm((comm), (deadline), (what), __FILE__, __LINE__, #call);        \
  } while (0)

using Clock = std::chrono::steady_clock;

Clock::time_point deadline_after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

void wait_comm(ncclComm_t comm, Clock::time_point deadline, const std::string& what, const char* file, int line,
               const char* call) {
  while (true) {
    ncclResult_t state = ncclSuccess;
    const ncclResult_t r = ncclCommGetAsyncError(comm, &state);
    if (r != ncclSuccess) throw_nccl(file, line, "ncclCommGetAsyncError", r, comm);
    if (state == ncclSuccess) return;
    if (state != ncclInProgress) throw_nccl(file, line, call, state, comm);
    if (Clock::now() > deadline) {
      throw TimeoutError(fmt::format("{}: {} still in progress at the deadline", what, call));
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

ncclDataType_t nccl_type(DType t) {
  switch (t) {
    case DType::kFloat: return ncclFloat32;
    case DType::kDouble: return ncclFloat64;
    case DType::kInt32: return ncclInt32;
    case DType::kHalf: return ncclFloat16;
    case DType::kBfloat16: return ncclBfloat16;
  }
  return ncclFloat32;
}

ncclConfig_t nonblocking_config() {
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  return config;
}

// Owns a non-blocking communicator: finalized and destroyed on success, aborted after an error or a
// timeout. Never held in a static object.
class NcclComm {
 public:
  NcclComm() = default;
  explicit NcclComm(ncclComm_t comm) : comm_(comm) {}
  NcclComm(NcclComm&& o) noexcept : comm_(std::exchange(o.comm_, nullptr)), failed_(o.failed_) {}
  NcclComm& operator=(NcclComm&&) = delete;
  ~NcclComm() { close(); }
  [[nodiscard]] ncclComm_t get() const { return comm_; }
  void mark_failed() { failed_ = true; }
  void abort() noexcept {
    if (comm_ != nullptr) ncclCommAbort(comm_);
    comm_ = nullptr;
  }
  // Finalize (flush and wait for global quiescence) then destroy; abort instead after a failure.
  void close() noexcept {
    if (comm_ == nullptr) return;
    if (failed_) {
      abort();
      return;
    }
    try {
      const auto deadline = deadline_after(60.0);
      PODPERF_CHECK_NCCL(comm_, deadline, "finalize", ncclCommFinalize(comm_));
      ncclCommDestroy(comm_);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "podperf: NCCL finalize failed (%s); aborting the communicator\n", e.what());
      ncclCommAbort(comm_);
    }
    comm_ = nullptr;
  }

 private:
  ncclComm_t comm_ = nullptr;
  bool failed_ = false;
};

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::uint64_t bytes) { PODPERF_CHECK_CUDA(cudaMalloc(&ptr_, bytes == 0 ? 1 : bytes)); }
  ~DeviceBuffer() {
    if (ptr_ != nullptr) cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  [[nodiscard]] char* get() const { return static_cast<char*>(ptr_); }

 private:
  void* ptr_ = nullptr;
};

class NcclGroup final : public Group {
 public:
  NcclGroup(Comm comm, NcclComm nccl, std::uint64_t max_bytes, DType dtype, double timeout_s)
      : comm_(std::move(comm)),
        nccl_(std::move(nccl)),
        dtype_(dtype),
        timeout_s_(timeout_s),
        send_(max_bytes + kWindowBytes * (kWindows - 1)),
        recv_(max_bytes + kWindowBytes * (kWindows - 1)),
        wrong_(sizeof(unsigned long long)) {
    PODPERF_CHECK_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    PODPERF_CHECK_CUDA(cudaEventCreate(&start_));
    PODPERF_CHECK_CUDA(cudaEventCreate(&stop_));
  }
  ~NcclGroup() override {
    nccl_.close();  // before the stream and buffers it used go away
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    cudaStreamDestroy(stream_);
  }

  const Comm& comm() const override { return comm_; }

  std::vector<double> run(const Case& c, int iters) override {
    guard_in_place(c);
    const CaseCounts k = case_counts(*c.op, c.size_bytes, dtype_info(c.dtype).bytes, comm_.size());
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(iters));
    for (int i = 0; i < iters; ++i) {
      const std::uint64_t offset = static_cast<std::uint64_t>(i % kWindows) * kWindowBytes;
      comm_.barrier();
      PODPERF_CHECK_CUDA(cudaEventRecord(start_, stream_));
      launch(c, k, send_.get() + offset, recv_.get() + offset);
      PODPERF_CHECK_CUDA(cudaEventRecord(stop_, stream_));
      wait_stream(c, "timed iteration");
      float ms = 0.0F;
      PODPERF_CHECK_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
      samples.push_back(static_cast<double>(ms) / 1e3);
    }
    return samples;
  }

  std::int64_t check(const Case& c) override {
    guard_in_place(c);
    const std::size_t type_bytes = dtype_info(c.dtype).bytes;
    const CaseCounts k = case_counts(*c.op, c.size_bytes, type_bytes, comm_.size());
    const int rank = comm_.rank();
    const int n = comm_.size();
    char* send = send_.get();
    char* recv = recv_.get();
    device_fill_pattern(send, c.dtype, k.send_count, rank, 0, stream_);
    PODPERF_CHECK_CUDA(cudaMemsetAsync(recv, 0, k.recv_count * type_bytes, stream_));
    // In place, NCCL's conventions: the input sits where the output goes.
    const char* out = recv;
    if (c.in_place) {
      switch (c.op->kind) {
        case OpKind::kAllGather:  // sendbuff == recvbuff + rank * sendcount
          PODPERF_CHECK_CUDA(cudaMemcpyAsync(recv + rank * k.chunk * type_bytes, send, k.chunk * type_bytes,
                                             cudaMemcpyDeviceToDevice, stream_));
          break;
        case OpKind::kReduceScatter:  // recvbuff == sendbuff + rank * recvcount
          out = send + rank * k.chunk * type_bytes;
          break;
        case OpKind::kAllReduce:  // all_reduce, broadcast, reduce: sendbuff == recvbuff
        case OpKind::kBroadcast:
        case OpKind::kReduce:
        case OpKind::kAllToAll:  // no in-place form: guard_in_place refused them above
        case OpKind::kSendRecv: out = send; break;
      }
    }
    launch(c, k, send, recv);
    PODPERF_CHECK_CUDA(cudaMemsetAsync(wrong_.get(), 0, sizeof(unsigned long long), stream_));
    auto* wrong = reinterpret_cast<unsigned long long*>(wrong_.get());
    switch (c.op->kind) {
      case OpKind::kAllReduce:
        device_count_wrong(out, c.dtype, k.recv_count, Expect::kSum, n, 0, wrong, stream_);
        break;
      case OpKind::kReduce:
        if (rank == c.root) device_count_wrong(out, c.dtype, k.recv_count, Expect::kSum, n, 0, wrong, stream_);
        break;
      case OpKind::kReduceScatter:
        device_count_wrong(out, c.dtype, k.chunk, Expect::kSum, n, static_cast<std::uint64_t>(rank) * k.chunk, wrong,
                           stream_);
        break;
      case OpKind::kAllGather:
        for (int r = 0; r < n; ++r) {
          device_count_wrong(out + r * k.chunk * type_bytes, c.dtype, k.chunk, Expect::kCopy, r, 0, wrong, stream_);
        }
        break;
      case OpKind::kAllToAll:
        for (int r = 0; r < n; ++r) {
          device_count_wrong(out + r * k.chunk * type_bytes, c.dtype, k.chunk, Expect::kCopy, r,
                             static_cast<std::uint64_t>(rank) * k.chunk, wrong, stream_);
        }
        break;
      case OpKind::kBroadcast:
        device_count_wrong(out, c.dtype, k.recv_count, Expect::kCopy, c.root, 0, wrong, stream_);
        break;
      case OpKind::kSendRecv:
        device_count_wrong(out, c.dtype, k.recv_count, Expect::kCopy, (rank - 1 + n) % n, 0, wrong, stream_);
        break;
    }
    PODPERF_CHECK_CUDA(cudaGetLastError());
    wait_stream(c, "check");
    unsigned long long host_wrong = 0;
    PODPERF_CHECK_CUDA(cudaMemcpy(&host_wrong, wrong_.get(), sizeof(host_wrong), cudaMemcpyDeviceToHost));
    return static_cast<std::int64_t>(host_wrong);
  }

 private:
  // alltoall and sendrecv have no in-place form in NCCL (the same buffer would be read and written
  // by different peers at once).
  static void guard_in_place(const Case& c) {
    if (c.in_place && (c.op->kind == OpKind::kAllToAll || c.op->kind == OpKind::kSendRecv)) {
      throw InPlaceUnsupported(fmt::format("{} has no in-place form in NCCL", c.op->name));
    }
  }

  void launch(const Case& c, const CaseCounts& k, char* send, char* recv) {
    const ncclComm_t comm = nccl_.get();
    const ncclDataType_t type = nccl_type(c.dtype);
    const std::size_t type_bytes = dtype_info(c.dtype).bytes;
    const int rank = comm_.rank();
    const int n = comm_.size();
    const bool ip = c.in_place;
    const auto deadline = deadline_after(timeout_s_);
    const std::string what = fmt::format("{} of {} bytes", c.op->name, k.size_bytes);
    try {
      switch (c.op->kind) {
        case OpKind::kAllReduce:
          PODPERF_CHECK_NCCL(comm, deadline, what,
                             ncclAllReduce(send, ip ? send : recv, k.send_count, type, ncclSum, comm, stream_));
          break;
        case OpKind::kAllGather:
          PODPERF_CHECK_NCCL(
              comm, deadline, what,
              ncclAllGather(ip ? recv + rank * k.chunk * type_bytes : send, recv, k.chunk, type, comm, stream_));
          break;
        case OpKind::kReduceScatter:
          PODPERF_CHECK_NCCL(comm, deadline, what,
                             ncclReduceScatter(send, ip ? send + rank * k.chunk * type_bytes : recv, k.chunk, type,
                                               ncclSum, comm, stream_));
          break;
        case OpKind::kAllToAll:
          PODPERF_CHECK_NCCL(comm, deadline, what, ncclAlltoAll(send, recv, k.chunk, type, comm, stream_));
          break;
        case OpKind::kBroadcast:
          PODPERF_CHECK_NCCL(comm, deadline, what,
                             ncclBroadcast(send, ip ? send : recv, k.send_count, type, c.root, comm, stream_));
          break;
        case OpKind::kReduce:
          PODPERF_CHECK_NCCL(comm, deadline, what,
                             ncclReduce(send, ip ? send : recv, k.send_count, type, ncclSum, c.root, comm, stream_));
          break;
        case OpKind::kSendRecv:
          PODPERF_CHECK_NCCL(comm, deadline, what, ncclGroupStart());
          PODPERF_CHECK_NCCL(comm, deadline, what, ncclSend(send, k.send_count, type, (rank + 1) % n, comm, stream_));
          PODPERF_CHECK_NCCL(comm, deadline, what,
                             ncclRecv(recv, k.recv_count, type, (rank - 1 + n) % n, comm, stream_));
          PODPERF_CHECK_NCCL(comm, deadline, what, ncclGroupEnd());
          break;
      }
    } catch (...) {
      nccl_.mark_failed();
      throw;
    }
  }

  // Polls the stream together with the communicator's async error until the deadline; on expiry
  // the communicator is aborted (the operation can never complete) and TimeoutError names the case.
  void wait_stream(const Case& c, const char* phase) {
    const auto deadline = deadline_after(timeout_s_);
    while (true) {
      const cudaError_t q = cudaStreamQuery(stream_);
      if (q == cudaSuccess) return;
      if (q != cudaErrorNotReady) {
        nccl_.mark_failed();
        throw_cuda(__FILE__, __LINE__, "cudaStreamQuery", q);
      }
      ncclResult_t state = ncclSuccess;
      ncclCommGetAsyncError(nccl_.get(), &state);
      if (state != ncclSuccess && state != ncclInProgress) {
        nccl_.mark_failed();
        throw_nccl(__FILE__, __LINE__, "ncclCommGetAsyncError", state, nccl_.get());
      }
      if (Clock::now() > deadline) {
        nccl_.abort();
        throw TimeoutError(
            fmt::format("{} {} of {} bytes did not complete within {} s on a group of {} ranks; "
                        "communicator aborted",
                        c.op->name, phase, c.size_bytes, timeout_s_, comm_.size()));
      }
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }

  Comm comm_;
  NcclComm nccl_;
  DType dtype_;
  double timeout_s_;
  DeviceBuffer send_;
  DeviceBuffer recv_;
  DeviceBuffer wrong_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

class NcclBackend final : public Backend {
 public:
  NcclBackend(const Comm& world, double timeout_s) : timeout_s_(timeout_s) {
    // One GPU per rank: the rank's index among the ranks of its host picks the device.
    // A launcher that binds GPUs (srun --gpus-per-task=1, CUDA_VISIBLE_DEVICES per rank) leaves each
    // rank one visible device: use it. Otherwise the local rank indexes the visible devices.
    Comm local = world.split_shared();
    int devices = 0;
    PODPERF_CHECK_CUDA(cudaGetDeviceCount(&devices));
    int device = 0;
    if (devices > 1 || local.size() == 1) {
      if (local.size() > devices) {
        throw UsageError(
            fmt::format("--backend nccl: {} ranks on this host but {} visible GPUs; NCCL needs one GPU "
                        "per rank (launch one rank per GPU)",
                        local.size(), devices));
      }
      device = local.rank();
    }
    PODPERF_CHECK_CUDA(cudaSetDevice(device));
    // Two ranks on one GPU fail inside NCCL ("Duplicate GPU detected"): say so plainly first.
    std::array<char, 32> bus{};
    PODPERF_CHECK_CUDA(cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), device));
    const std::vector<std::string> buses = allgather_strings(local, std::string(bus.data()));
    int duplicate = std::set<std::string>(buses.begin(), buses.end()).size() != buses.size() ? 1 : 0;
    PODPERF_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &duplicate, 1, MPI_INT, MPI_MAX, world.raw()));
    if (duplicate != 0) {
      throw UsageError(
          "--backend nccl: two ranks of one host share a GPU; NCCL needs one GPU per rank (launch one "
          "rank per GPU, or give each rank its own CUDA_VISIBLE_DEVICES)");
    }
    ncclUniqueId id{};
    if (world.rank() == 0) {
      const ncclResult_t r = ncclGetUniqueId(&id);
      if (r != ncclSuccess) throw_nccl(__FILE__, __LINE__, "ncclGetUniqueId", r, nullptr);
    }
    PODPERF_CHECK_MPI(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, world.raw()));
    ncclConfig_t config = nonblocking_config();
    ncclComm_t comm = nullptr;
    const ncclResult_t r = ncclCommInitRankConfig(&comm, world.size(), id, world.rank(), &config);
    if (r != ncclSuccess && r != ncclInProgress) throw_nccl(__FILE__, __LINE__, "ncclCommInitRankConfig", r, comm);
    world_ = std::make_unique<NcclComm>(comm);
    wait_comm(comm, deadline_after(timeout_s_), "world communicator init", __FILE__, __LINE__,
              "ncclCommInitRankConfig");
  }

  std::string_view name() const override { return "nccl"; }

  std::unique_ptr<Group> split(const Comm& world, int color, int key, std::uint64_t max_bytes, DType dtype) override {
    Comm members = world.split(color, key);
    ncclConfig_t config = nonblocking_config();
    ncclComm_t child = nullptr;
    const auto deadline = deadline_after(timeout_s_);
    PODPERF_CHECK_NCCL(world_->get(), deadline, "ncclCommSplit",
                       ncclCommSplit(world_->get(), color < 0 ? NCCL_SPLIT_NOCOLOR : color, key, &child, &config));
    if (color < 0) return nullptr;
    NcclComm owned(child);
    wait_comm(child, deadline, "pair communicator init", __FILE__, __LINE__, "ncclCommSplit");
    return std::make_unique<NcclGroup>(std::move(members), std::move(owned), max_bytes, dtype, timeout_s_);
  }

 private:
  double timeout_s_;
  std::unique_ptr<NcclComm> world_;
};

}  // namespace

int nccl_visible_gpus() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) return 0;
  return devices;
}

std::unique_ptr<Backend> make_nccl_backend(const Comm& world, double op_timeout_s) {
  return std::make_unique<NcclBackend>(world, op_timeout_s);
}

}  // namespace podperf

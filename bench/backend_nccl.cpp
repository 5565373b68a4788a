// The NCCL backend (see backend_nccl.hpp), built with CUDA: device buffers, the stream, the events
// and the timing gate here; the communicator's life on NCCL's function table in bench/nccl_comm. Every OpKind is listed
// in each switch (no default: a new op fails to compile here). Floor: bench; collective over a group.
#include "bench/backend_nccl.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include <array>
#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "analysis/base/errors.hpp"
#include "bench/nccl_comm.hpp"
#include "bench/nccl_timing.hpp"
#include "kernels/pattern_device.hpp"

namespace podperf {
namespace {

[[noreturn]] void throw_cuda(const char* file, int line, const char* call, cudaError_t err) {
  throw RuntimeFailure(fmt::format("CUDA failure at {}:{}: {} -> {} ({})", file, line, call, cudaGetErrorString(err),
                                   cudaGetErrorName(err)));
}

#define PODPERF_CHECK_CUDA(call)                                                                    \
  do {                                                                                              \
    const cudaError_t podperf_cuda_err_ = (call);                                                   \
    if (podperf_cuda_err_ != cudaSuccess) throw_cuda(__FILE__, __LINE__, #call, podperf_cuda_err_); \
  } while (0)

int nccl_type(DType t) {
  switch (t) {
    case DType::kFloat: return kNcclFloat32;
    case DType::kDouble: return kNcclFloat64;
    case DType::kInt32: return kNcclInt32;
    case DType::kHalf: return kNcclFloat16;
    case DType::kBfloat16: return kNcclBfloat16;
  }
  return kNcclFloat32;
}

// The timing gate's two flags in mapped host memory: [0] the host's release, [1] the GPU's "expired".
// The GPU spins on [0] (device_gate) until release(); one writer per word, so no update is lost.
class TimingGate {
 public:
  TimingGate() {
    void* host = nullptr;
    void* device = nullptr;
    PODPERF_CHECK_CUDA(cudaHostAlloc(&host, 2 * sizeof(unsigned), cudaHostAllocMapped));
    flags_ = static_cast<volatile unsigned*>(host);
    PODPERF_CHECK_CUDA(cudaHostGetDevicePointer(&device, host, 0));
    device_flags_ = static_cast<volatile unsigned*>(device);
    flags_[0] = 1U;
    flags_[1] = 0U;
  }
  ~TimingGate() {
    release();
    cudaFreeHost(const_cast<unsigned*>(flags_));
  }
  TimingGate(const TimingGate&) = delete;
  TimingGate& operator=(const TimingGate&) = delete;
  // Holds `stream` until release(); gives up on its own after `max_s` (saturated: nccl_gate_spin_ns).
  void hold(cudaStream_t stream, double max_s) {
    flags_[0] = 0U;
    flags_[1] = 0U;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    device_gate(device_flags_, nccl_gate_spin_ns(max_s), stream);
    PODPERF_CHECK_CUDA(cudaGetLastError());
  }
  void release() noexcept {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    flags_[0] = 1U;
  }
  // True when the gate gave up before the host released it (the launch took longer than max_s).
  // Read after the stream has completed.
  [[nodiscard]] bool expired() const { return flags_[1] != 0U; }

 private:
  volatile unsigned* flags_ = nullptr;
  volatile unsigned* device_flags_ = nullptr;
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
  // Takes `nccl` only once everything else is built: a constructor that throws leaves it with the
  // caller, who aborts it (never a finalize, a collective the other ranks may not enter).
  NcclGroup(Comm comm, NcclComm& nccl, std::uint64_t max_bytes, DType dtype, double timeout_s)
      : comm_(std::move(comm)),
        dtype_(dtype),
        timeout_s_(timeout_s),
        send_(nccl_buffer_bytes(max_bytes)),
        recv_(nccl_buffer_bytes(max_bytes)),
        wrong_(sizeof(unsigned long long)) {
    PODPERF_CHECK_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    PODPERF_CHECK_CUDA(cudaEventCreate(&start_));
    PODPERF_CHECK_CUDA(cudaEventCreate(&stop_));
    nccl_ = std::move(nccl);
  }
  ~NcclGroup() override {
    nccl_.close();  // before the stream and buffers it used go away
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    cudaStreamDestroy(stream_);
  }

  const Comm& comm() const override { return comm_; }

  // Timing (docs/nccl.md, "How podperf times"): the stream is held by a gate kernel while the start
  // event, the operation and the stop event are enqueued, then released, so the events bracket GPU
  // work only (not NCCL's host launch, nor the polls of a non-blocking communicator). The order of
  // the steps and the subtraction are nccl_timed_iterations' (bench/nccl_timing, unit-tested); this
  // class only does each step on CUDA.
  std::vector<double> run(const Case& c, int iters) override {
    guard_in_place(c);
    CudaTimedStream stream(*this, c, case_counts(*c.op, c.size_bytes, dtype_info(c.dtype).bytes, comm_.size()));
    return nccl_timed_iterations(stream, iters, fmt::format("{} of {} bytes", c.op->name, c.size_bytes), timeout_s_);
  }

  std::int64_t check(const Case& c) override {
    guard_in_place(c);
    const std::size_t type_bytes = dtype_info(c.dtype).bytes;
    const CaseCounts k = case_counts(*c.op, c.size_bytes, type_bytes, comm_.size());
    const int rank = comm_.rank();
    const int n = comm_.size();
    char* send = send_.get();
    char* recv = recv_.get();
    const bool reduces =
        c.op->kind == OpKind::kAllReduce || c.op->kind == OpKind::kReduce || c.op->kind == OpKind::kReduceScatter;
    device_fill_pattern(send, c.dtype, k.send_count, rank, 0, stream_, reduces ? n : 0);
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
    const std::size_t type_bytes = dtype_info(c.dtype).bytes;
    const bool ip = c.in_place;
    NcclOpCall call;
    call.kind = c.op->kind;
    call.type = nccl_type(c.dtype);
    call.type_bytes = type_bytes;
    call.root = c.root;
    call.rank = comm_.rank();
    call.nranks = comm_.size();
    call.stream = stream_;
    call.send = send;
    call.recv = ip ? send : recv;
    call.count = k.send_count;
    switch (c.op->kind) {
      case OpKind::kAllGather:  // in place: sendbuff == recvbuff + rank * sendcount
        call.send = ip ? recv + call.rank * k.chunk * type_bytes : send;
        call.recv = recv;
        call.count = k.chunk;
        break;
      case OpKind::kReduceScatter:  // in place: recvbuff == sendbuff + rank * recvcount
        call.recv = ip ? send + call.rank * k.chunk * type_bytes : recv;
        call.count = k.chunk;
        break;
      case OpKind::kAllToAll: call.count = k.chunk; break;
      case OpKind::kSendRecv: call.recv = recv; break;
      case OpKind::kAllReduce:
      case OpKind::kBroadcast:
      case OpKind::kReduce: break;
    }
    nccl_enqueue(nccl_, call, nccl_deadline_after(timeout_s_), fmt::format("{} of {} bytes", c.op->name, k.size_bytes));
  }

  // Polls the stream together with the communicator's async error until the deadline; on expiry
  // the communicator is aborted (the operation can never complete) and TimeoutError names the case.
  void wait_stream(const Case& c, const char* phase) {
    const auto deadline = nccl_deadline_after(timeout_s_);
    while (true) {
      const cudaError_t q = cudaStreamQuery(stream_);
      if (q == cudaSuccess) return;
      if (q != cudaErrorNotReady) {
        nccl_.mark_failed();
        throw_cuda(__FILE__, __LINE__, "cudaStreamQuery", q);
      }
      nccl_.check_async(fmt::format("{} {} of {} bytes", c.op->name, phase, c.size_bytes));
      if (NcclClock::now() > deadline) {
        nccl_.abort();
        throw TimeoutError(
            fmt::format("{} {} of {} bytes did not complete within {} s on a group of {} ranks; "
                        "communicator aborted",
                        c.op->name, phase, c.size_bytes, timeout_s_, comm_.size()));
      }
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }

  // The steps of one timed iteration on this group's stream, events and gate.
  class CudaTimedStream final : public NcclTimedStream {
   public:
    CudaTimedStream(NcclGroup& group, const Case& c, const CaseCounts& counts) : g_(group), c_(c), k_(counts) {}
    void barrier() override { g_.comm_.barrier(); }
    void hold_gate() override { g_.gate_.hold(g_.stream_, g_.timeout_s_); }
    void record(NcclEvent event) override { PODPERF_CHECK_CUDA(cudaEventRecord(event_of(event), g_.stream_)); }
    void enqueue_operation(std::uint64_t window_offset) override {
      g_.launch(c_, k_, g_.send_.get() + window_offset, g_.recv_.get() + window_offset);
    }
    void release_gate() noexcept override { g_.gate_.release(); }
    void wait() override { g_.wait_stream(c_, "timed iteration"); }
    [[nodiscard]] bool gate_expired() const override { return g_.gate_.expired(); }
    [[nodiscard]] float elapsed_ms(NcclEvent from, NcclEvent to) const override {
      float ms = 0.0F;
      PODPERF_CHECK_CUDA(cudaEventElapsedTime(&ms, event_of(from), event_of(to)));
      return ms;
    }

   private:
    [[nodiscard]] cudaEvent_t event_of(NcclEvent event) const {
      return event == NcclEvent::kStart ? g_.start_ : g_.stop_;
    }
    NcclGroup& g_;
    const Case& c_;
    CaseCounts k_;
  };

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
  TimingGate gate_;
};

// Every rank learns of a local problem (too few GPUs, a shared GPU, no NCCL): the worst code wins and
// every rank throws the message of its code, so no rank waits in a collective the others left.
void agree_or_throw(const Comm& world, int local_code, const std::string& local_message,
                    const std::vector<std::string>& message_of_code) {
  int worst = local_code;
  PODPERF_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_INT, MPI_MAX, world.raw()));
  if (worst == 0) return;
  if (worst == local_code)
    throw UsageError(local_message.empty() ? message_of_code[static_cast<std::size_t>(worst)] : local_message);
  throw UsageError(message_of_code[static_cast<std::size_t>(worst)] + " (on another rank)");
}

class NcclBackend final : public Backend {
 public:
  NcclBackend(const Comm& world, const NcclBackendSettings& settings) : timeout_s_(settings.op_timeout_s) {
    int code = 0;
    std::string message;
    try {
      api_ = load_nccl_api(nccl_library_candidates(settings.nccl_library, python_site_dirs()));
    } catch (const UsageError& e) {
      code = 1;
      message = e.what();
    }
    agree_or_throw(world, code, message, {"", "--backend nccl: no usable NCCL library"});
    choose_device(world);
    struct {
      int ok = 1;
      NcclUniqueId id{};
    } root_id;
    if (world.rank() == 0) root_id.ok = api_.get_unique_id(&root_id.id) == kNcclSuccess ? 1 : 0;
    PODPERF_CHECK_MPI(MPI_Bcast(&root_id, sizeof(root_id), MPI_BYTE, 0, world.raw()));
    if (root_id.ok == 0)
      throw RuntimeFailure("NCCL failure in world communicator init: ncclGetUniqueId failed on rank 0");
    world_ = NcclComm::init(api_, world.size(), root_id.id, world.rank(), timeout_s_);
  }

  std::string_view name() const override { return "nccl"; }

  std::unique_ptr<Group> split(const Comm& world, int color, int key, std::uint64_t max_bytes, DType dtype) override {
    Comm members = world.split(color, key);
    NcclComm child = world_.split(color, key, timeout_s_);
    if (color < 0) return nullptr;
    try {
      return std::make_unique<NcclGroup>(std::move(members), child, max_bytes, dtype, timeout_s_);
    } catch (...) {
      child.mark_failed();  // aborted as it goes out of scope
      throw;
    }
  }

  [[nodiscard]] const NcclApi& api() const { return api_; }

 private:
  // One GPU per rank: the rank's index among the ranks of its host picks the device. A launcher that
  // binds GPUs (srun --gpus-per-task=1, CUDA_VISIBLE_DEVICES per rank) leaves each rank one visible
  // device: use it. Every rank agrees on a problem before anyone throws.
  static void choose_device(const Comm& world) {
    Comm local = world.split_shared();
    int devices = 0;
    int code = 0;
    std::string message;
    if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
    int device = 0;
    if (devices > 1 || local.size() == 1) {
      if (local.size() > devices) {
        code = 2;
        message = fmt::format(
            "--backend nccl: {} ranks on this host but {} visible GPUs; NCCL needs one GPU per rank (launch one "
            "rank per GPU)",
            local.size(), devices);
      }
      device = local.rank();
    }
    std::array<char, 32> bus{};
    if (code == 0 && (cudaSetDevice(device) != cudaSuccess ||
                      cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), device) != cudaSuccess)) {
      code = 2;
      message = fmt::format("--backend nccl: cannot use GPU {} on this host", device);
    }
    // Two ranks on one GPU fail inside NCCL ("Duplicate GPU detected"): say so plainly first.
    const std::vector<std::string> buses = allgather_strings(local, std::string(bus.data()));
    if (code == 0 && std::set<std::string>(buses.begin(), buses.end()).size() != buses.size()) code = 3;
    agree_or_throw(world, code, message,
                   {"", "", "--backend nccl: a host has fewer visible GPUs than ranks",
                    "--backend nccl: two ranks of one host share a GPU; NCCL needs one GPU per rank (launch one "
                    "rank per GPU, or give each rank its own CUDA_VISIBLE_DEVICES)"});
  }

  double timeout_s_;
  NcclApi api_;
  NcclComm world_;
};

}  // namespace

int nccl_visible_gpus() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) return 0;
  return devices;
}

std::unique_ptr<Backend> make_nccl_backend(const Comm& world, const NcclBackendSettings& settings) {
  return std::make_unique<NcclBackend>(world, settings);
}

}  // namespace podperf

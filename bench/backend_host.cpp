// The host backend (see backend_host.hpp): collectives on host memory through MPI. Every OpKind is
// listed in each switch (no default: a new op fails to compile here). Floor: bench; collective over a
// group; UsageError for dtypes it does not run.
#include "bench/backend_host.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "kernels/pattern.hpp"

namespace podperf {
namespace {

template <typename T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<float>() {
  return MPI_FLOAT;
}
template <>
MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}
template <>
MPI_Datatype mpi_type<std::int32_t>() {
  return MPI_INT32_T;
}

int as_int(std::uint64_t count) {
  return static_cast<int>(count);
}

template <typename T>
class HostGroup final : public Group {
 public:
  HostGroup(Comm comm, std::uint64_t max_bytes)
      : comm_(std::move(comm)), send_(max_bytes / sizeof(T) + 1), recv_(max_bytes / sizeof(T) + 1) {}

  const Comm& comm() const override { return comm_; }

  std::vector<double> run(const Case& c, int iters) override {
    const CaseCounts counts = case_counts(*c.op, c.size_bytes, sizeof(T), comm_.size());
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(iters));
    for (int i = 0; i < iters; ++i) {
      comm_.barrier();
      const double t0 = MPI_Wtime();
      execute(c, counts);
      samples.push_back(MPI_Wtime() - t0);
    }
    return samples;
  }

  std::int64_t check(const Case& c) override {
    const CaseCounts k = case_counts(*c.op, c.size_bytes, sizeof(T), comm_.size());
    const int rank = comm_.rank();
    const int n = comm_.size();
    const auto me = static_cast<std::uint64_t>(rank);
    std::span<T> send(send_.data(), k.send_count);
    std::span<T> recv(recv_.data(), k.recv_count);
    fill_pattern(send, rank);
    std::fill(recv.begin(), recv.end(), T{0});
    if (c.in_place) prepare_in_place(c, k);
    execute(c, k);
    std::span<const T> out = c.in_place ? in_place_result(c, k) : std::span<const T>(recv);
    std::int64_t wrong = 0;
    switch (c.op->kind) {
      case OpKind::kAllReduce: return count_wrong_sum(out, n);
      case OpKind::kReduce: return rank == c.root ? count_wrong_sum(out, n) : 0;
      case OpKind::kReduceScatter: return count_wrong_sum(out, n, me * k.chunk);
      case OpKind::kAllGather:
        for (int r = 0; r < n; ++r)
          wrong += count_wrong_copy(out.subspan(static_cast<std::size_t>(r) * k.chunk, k.chunk), r);
        return wrong;
      case OpKind::kAllToAll:
        for (int r = 0; r < n; ++r) {
          wrong += count_wrong_copy(out.subspan(static_cast<std::size_t>(r) * k.chunk, k.chunk), r, me * k.chunk);
        }
        return wrong;
      case OpKind::kBroadcast: return count_wrong_copy(out, c.root);
      case OpKind::kSendRecv: return count_wrong_copy(out, (rank - 1 + n) % n);
    }
    return wrong;
  }

 private:
  // In place, the input lives where the output goes (MPI_IN_PLACE conventions).
  void prepare_in_place(const Case& c, const CaseCounts& k) {
    const int rank = comm_.rank();
    switch (c.op->kind) {
      case OpKind::kAllGather:  // own block at its offset in the receive buffer
        std::copy_n(send_.begin(), k.chunk, recv_.begin() + static_cast<std::ptrdiff_t>(rank * k.chunk));
        break;
      case OpKind::kReduce:
        if (rank == c.root) std::copy_n(send_.begin(), k.send_count, recv_.begin());
        break;
      case OpKind::kAllReduce:  // the rest work on send_ in place
      case OpKind::kReduceScatter:
      case OpKind::kAllToAll:
      case OpKind::kBroadcast:
      case OpKind::kSendRecv: break;
    }
  }

  std::span<const T> in_place_result(const Case& c, const CaseCounts& k) const {
    switch (c.op->kind) {
      case OpKind::kAllGather:
      case OpKind::kReduce: return {recv_.data(), k.recv_count};
      case OpKind::kAllReduce:
      case OpKind::kReduceScatter:
      case OpKind::kAllToAll:
      case OpKind::kBroadcast:
      case OpKind::kSendRecv: return {send_.data(), k.recv_count};
    }
    return {send_.data(), k.recv_count};
  }

  void execute(const Case& c, const CaseCounts& k) {
    const MPI_Datatype type = mpi_type<T>();
    const MPI_Comm comm = comm_.raw();
    T* send = send_.data();
    T* recv = recv_.data();
    const bool ip = c.in_place;
    const int n = comm_.size();
    const int rank = comm_.rank();
    switch (c.op->kind) {
      case OpKind::kAllReduce:
        PODPERF_CHECK_MPI(
            MPI_Allreduce(ip ? MPI_IN_PLACE : send, ip ? send : recv, as_int(k.send_count), type, MPI_SUM, comm));
        return;
      case OpKind::kAllGather:
        PODPERF_CHECK_MPI(
            MPI_Allgather(ip ? MPI_IN_PLACE : send, as_int(k.chunk), type, recv, as_int(k.chunk), type, comm));
        return;
      case OpKind::kReduceScatter:
        PODPERF_CHECK_MPI(
            MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : send, ip ? send : recv, as_int(k.chunk), type, MPI_SUM, comm));
        return;
      case OpKind::kAllToAll:
        PODPERF_CHECK_MPI(MPI_Alltoall(ip ? MPI_IN_PLACE : send, as_int(k.chunk), type, ip ? send : recv,
                                       as_int(k.chunk), type, comm));
        return;
      case OpKind::kBroadcast:
        // Out of place as NCCL does: the root's send buffer reaches every rank's receive buffer.
        if (!ip && rank == c.root) std::copy_n(send, k.send_count, recv);
        PODPERF_CHECK_MPI(MPI_Bcast(ip ? send : recv, as_int(k.send_count), type, c.root, comm));
        return;
      case OpKind::kReduce:
        PODPERF_CHECK_MPI(MPI_Reduce(ip && rank == c.root ? MPI_IN_PLACE : send, recv, as_int(k.send_count), type,
                                     MPI_SUM, c.root, comm));
        return;
      case OpKind::kSendRecv: {
        const int next = (rank + 1) % n;
        const int prev = (rank - 1 + n) % n;
        if (ip) {
          PODPERF_CHECK_MPI(
              MPI_Sendrecv_replace(send, as_int(k.send_count), type, next, 7, prev, 7, comm, MPI_STATUS_IGNORE));
        } else {
          PODPERF_CHECK_MPI(MPI_Sendrecv(send, as_int(k.send_count), type, next, 7, recv, as_int(k.recv_count), type,
                                         prev, 7, comm, MPI_STATUS_IGNORE));
        }
        return;
      }
    }
  }

  Comm comm_;
  std::vector<T> send_;
  std::vector<T> recv_;
};

}  // namespace

std::unique_ptr<Group> HostBackend::split(const Comm& world, int color, int key, std::uint64_t max_bytes, DType dtype) {
  if (dtype != DType::kFloat && dtype != DType::kDouble && dtype != DType::kInt32) {
    throw UsageError(
        fmt::format("-d {}: the host backend runs float, double and int32 (half and bfloat16 need "
                    "--backend nccl)",
                    dtype_info(dtype).name));
  }
  Comm comm = world.split(color, key);
  if (comm.is_null()) return nullptr;
  switch (dtype) {
    case DType::kDouble: return std::make_unique<HostGroup<double>>(std::move(comm), max_bytes);
    case DType::kInt32: return std::make_unique<HostGroup<std::int32_t>>(std::move(comm), max_bytes);
    default: return std::make_unique<HostGroup<float>>(std::move(comm), max_bytes);
  }
}

}  // namespace podperf

#include "bench/backend_host.hpp"

#include <fmt/format.h>

#include <vector>

#include "kernels/pattern.hpp"

namespace podperf {
namespace {

class HostGroup final : public Group {
 public:
  HostGroup(const Comm& members, std::uint64_t max_bytes)
      : comm_(dup(members)), send_(max_bytes / sizeof(float)), recv_(max_bytes / sizeof(float)) {
    fill_pattern(send_, comm_.rank());
  }

  std::vector<double> run(const Op& op, std::uint64_t size_bytes, int iters) override {
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(iters));
    for (int i = 0; i < iters; ++i) {
      comm_.barrier();
      const double t0 = MPI_Wtime();
      execute(op, size_bytes);
      samples.push_back(MPI_Wtime() - t0);
    }
    return samples;
  }

  std::int64_t check(const Op& op, std::uint64_t size_bytes) override {
    const std::size_t count = size_bytes / sizeof(float);
    fill_pattern(std::span<float>(send_.data(), count), comm_.rank());
    execute(op, size_bytes);
    return count_wrong_sum(std::span<const float>(recv_.data(), count), comm_.size());
  }

 private:
  static Comm dup(const Comm& members) {
    MPI_Comm out = MPI_COMM_NULL;
    PODPERF_CHECK_MPI(MPI_Comm_dup(members.raw(), &out));
    return Comm(out, true);
  }

  void execute(const Op& op, std::uint64_t size_bytes) {
    const auto count = static_cast<int>(size_bytes / sizeof(float));
    switch (op.kind) {
      case OpKind::kAllReduce:
        PODPERF_CHECK_MPI(MPI_Allreduce(send_.data(), recv_.data(), count, MPI_FLOAT, MPI_SUM, comm_.raw()));
        return;
      default:
        throw UsageError(fmt::format("op {} is not implemented on the host backend yet", op.name));
    }
  }

  Comm comm_;
  std::vector<float> send_;
  std::vector<float> recv_;
};

}  // namespace

std::unique_ptr<Group> HostBackend::make_group(const Comm& members, std::uint64_t max_bytes) {
  return std::make_unique<HostGroup>(members, max_bytes);
}

}  // namespace podperf

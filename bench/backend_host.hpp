#pragma once
// Host backend: host memory and MPI collectives. Runs everywhere; used by the CPU tests. Element
// types: float, double, int32.
#include "bench/backend.hpp"

namespace podperf {

class HostBackend final : public Backend {
 public:
  [[nodiscard]] std::string_view name() const override { return "host"; }
  [[nodiscard]] std::unique_ptr<Group> split(const Comm& world, int color, int key, std::uint64_t max_bytes,
                                             DType dtype) override;
};

}  // namespace podperf

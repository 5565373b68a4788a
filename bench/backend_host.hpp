#pragma once
// Host backend: host memory and MPI collectives. Runs everywhere; used by the CPU tests.
#include "bench/backend.hpp"

namespace podperf {

class HostBackend final : public Backend {
 public:
  [[nodiscard]] std::string_view name() const override { return "host"; }
  [[nodiscard]] std::unique_ptr<Group> make_group(const Comm& members, std::uint64_t max_bytes) override;
};

}  // namespace podperf

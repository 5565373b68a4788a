#pragma once
// Backend interface: a way to run collectives on a group of ranks (NCCL on GPUs, MPI on host
// memory, a modelled fabric). Collective contract: every rank of the group calls each method in the
// same order with the same arguments.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "bench/collectives.hpp"
#include "bench/mpi.hpp"

namespace podperf {

class Group {
 public:
  virtual ~Group() = default;
  // Collective: runs `iters` operations of `op` on `size_bytes` (nccl-tests size semantics), each
  // preceded by a barrier, and returns this rank's per-iteration seconds.
  [[nodiscard]] virtual std::vector<double> run(const Op& op, std::uint64_t size_bytes, int iters) = 0;
  // Collective: fills inputs with the per-rank pattern, runs one operation, and returns the number of
  // wrong elements on this rank.
  [[nodiscard]] virtual std::int64_t check(const Op& op, std::uint64_t size_bytes) = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Collective over `members`. `max_bytes` sizes the buffers once.
  [[nodiscard]] virtual std::unique_ptr<Group> make_group(const Comm& members, std::uint64_t max_bytes) = 0;
};

}  // namespace podperf

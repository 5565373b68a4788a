#pragma once
// Backend interface: a way to run collectives on groups of ranks (MPI on host memory, NCCL on GPUs,
// later a modelled fabric). Collective contract: every rank of a group calls each method in the
// same order with the same arguments.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "bench/collectives.hpp"
#include "bench/dtype.hpp"
#include "bench/mpi.hpp"

namespace podperf {

// One operation to run: op, element type, size (nccl-tests semantics), in place or not.
struct Case {
  const Op* op = nullptr;
  DType dtype = DType::kFloat;
  std::uint64_t size_bytes = 0;
  bool in_place = false;
  int root = 0;  // broadcast and reduce
};

class Group {
 public:
  virtual ~Group() = default;
  // The members' MPI communicator (barriers, reductions of timings, results).
  [[nodiscard]] virtual const Comm& comm() const = 0;
  // Collective: runs `iters` operations, each preceded by a barrier, and returns this rank's
  // per-iteration seconds. Throws on failure (TimeoutError when an operation overruns).
  [[nodiscard]] virtual std::vector<double> run(const Case& c, int iters) = 0;
  // Collective: fills the inputs with the per-rank pattern, runs one operation, and returns the
  // number of wrong elements on this rank.
  [[nodiscard]] virtual std::int64_t check(const Case& c) = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Collective over `world`: ranks passing the same color >= 0 form a group (ordered by key);
  // color < 0 gets nullptr. `max_bytes` sizes the buffers once. Throws UsageError for element
  // types the backend cannot run.
  [[nodiscard]] virtual std::unique_ptr<Group> split(const Comm& world, int color, int key, std::uint64_t max_bytes,
                                                     DType dtype) = 0;
};

}  // namespace podperf

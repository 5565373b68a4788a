#pragma once
// The collectives as data: the bytes nccl-tests uses for algbw and the busbw factor
// (the nccl-tests performance notes, NVIDIA/nccl-tests doc/PERFORMANCE.md). One row per op; one unit test per row.
#include <cstdint>
#include <span>
#include <string_view>

namespace podperf {

enum class OpKind { kAllReduce, kAllGather, kReduceScatter, kAllToAll, kBroadcast, kReduce, kSendRecv };
enum class BusFactor { kTwoNMinusOneOverN, kNMinusOneOverN, kOne };

struct Op {
  OpKind kind;
  std::string_view name;
  // True when the size (-b/-e) is count * type bytes * n, count being per rank (all_gather,
  // reduce_scatter, alltoall); false when it is count * type bytes.
  bool per_rank_count_times_n;
  BusFactor bus;
};

std::span<const Op> all_ops();
// Throws UsageError listing the known names.
const Op& find_op(std::string_view name);
double bus_factor(const Op& op, int nranks);

// Element counts of one operation, nccl-tests style. `size_bytes` is rounded down so that it
// divides evenly (per-rank ops: into n chunks of whole elements).
struct CaseCounts {
  std::uint64_t size_bytes = 0;  // the bytes algbw is computed from (what runs)
  std::uint64_t send_count = 0;  // elements in each rank's send buffer
  std::uint64_t recv_count = 0;  // elements in each rank's receive buffer
  std::uint64_t chunk = 0;       // elements per rank for per-rank ops, else send_count
};
CaseCounts case_counts(const Op& op, std::uint64_t size_bytes, std::size_t type_bytes, int nranks);

}  // namespace podperf

#pragma once
// The collectives as data: the bytes nccl-tests uses for algbw and the busbw factor
// (FIELD-NOTES section 1). One row per op; one unit test per row.
#include <cstdint>
#include <span>
#include <string_view>

namespace podperf {

enum class OpKind { kAllReduce, kAllGather, kReduceScatter, kAllToAll, kBroadcast, kReduce, kSendRecv };
enum class BusFactor { kTwoNMinusOneOverN, kNMinusOneOverN, kOne };

struct Op {
  OpKind kind;
  std::string_view name;
  // algbw bytes = size_bytes, where size_bytes (-b/-e) is count * type bytes for ops whose
  // buffers do not scale with ranks, and count * type bytes * n for those that do.
  bool per_rank_count_times_n;
  BusFactor bus;
};

std::span<const Op> all_ops();
// Throws UsageError listing the known names.
const Op& find_op(std::string_view name);
double bus_factor(const Op& op, int nranks);

}  // namespace podperf

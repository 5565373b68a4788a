// The collectives as data (see collectives.hpp). Floor: bench; pure; UsageError for an unknown op.
#include "bench/collectives.hpp"

#include <fmt/format.h>

#include <array>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"

namespace podperf {

namespace {
constexpr std::array<Op, 7> kOps{{
    {OpKind::kAllReduce, "all_reduce", false, BusFactor::kTwoNMinusOneOverN},
    {OpKind::kAllGather, "all_gather", true, BusFactor::kNMinusOneOverN},
    {OpKind::kReduceScatter, "reduce_scatter", true, BusFactor::kNMinusOneOverN},
    {OpKind::kAllToAll, "alltoall", true, BusFactor::kNMinusOneOverN},
    {OpKind::kBroadcast, "broadcast", false, BusFactor::kOne},
    {OpKind::kReduce, "reduce", false, BusFactor::kOne},
    {OpKind::kSendRecv, "sendrecv", false, BusFactor::kOne},
}};
}  // namespace

std::span<const Op> all_ops() {
  return kOps;
}

const Op& find_op(std::string_view name) {
  for (const Op& op : kOps) {
    if (op.name == name) return op;
  }
  std::vector<std::string_view> names;
  for (const Op& op : kOps) names.push_back(op.name);
  throw UsageError(fmt::format("unknown op '{}' (expected one of: {})", name, fmt::join(names, ", ")));
}

double bus_factor(const Op& op, int nranks) {
  const double n = nranks;
  switch (op.bus) {
    case BusFactor::kTwoNMinusOneOverN: return 2.0 * (n - 1.0) / n;
    case BusFactor::kNMinusOneOverN: return (n - 1.0) / n;
    case BusFactor::kOne: return 1.0;
  }
  return 1.0;
}

CaseCounts case_counts(const Op& op, std::uint64_t size_bytes, std::size_t type_bytes, int nranks) {
  CaseCounts c;
  const std::uint64_t elements = size_bytes / type_bytes;
  const auto n = static_cast<std::uint64_t>(nranks);
  switch (op.kind) {
    case OpKind::kAllGather:
      c.chunk = elements / n;
      c.send_count = c.chunk;
      c.recv_count = c.chunk * n;
      break;
    case OpKind::kReduceScatter:
      c.chunk = elements / n;
      c.send_count = c.chunk * n;
      c.recv_count = c.chunk;
      break;
    case OpKind::kAllToAll:
      c.chunk = elements / n;
      c.send_count = c.chunk * n;
      c.recv_count = c.chunk * n;
      break;
    case OpKind::kAllReduce:
    case OpKind::kBroadcast:
    case OpKind::kReduce:
    case OpKind::kSendRecv:
      c.chunk = elements;
      c.send_count = elements;
      c.recv_count = elements;
      break;
  }
  c.size_bytes = (op.per_rank_count_times_n ? c.chunk * n : c.chunk) * type_bytes;
  return c;
}

}  // namespace podperf

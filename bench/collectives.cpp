#include "bench/collectives.hpp"

#include <fmt/format.h>

#include <array>
#include <string>
#include <vector>

#include "analysis/errors.hpp"

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

std::span<const Op> all_ops() { return kOps; }

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
    case BusFactor::kTwoNMinusOneOverN:
      return 2.0 * (n - 1.0) / n;
    case BusFactor::kNMinusOneOverN:
      return (n - 1.0) / n;
    case BusFactor::kOne:
      return 1.0;
  }
  return 1.0;
}

}  // namespace podperf

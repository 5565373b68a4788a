#include "bench/dtype.hpp"

#include <fmt/format.h>

#include <array>
#include <vector>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {
constexpr std::array<DTypeInfo, 5> kTypes{{
    {DType::kFloat, "float", 4},
    {DType::kDouble, "double", 8},
    {DType::kInt32, "int32", 4},
    {DType::kHalf, "half", 2},
    {DType::kBfloat16, "bfloat16", 2},
}};
}  // namespace

std::span<const DTypeInfo> all_dtypes() {
  return kTypes;
}

const DTypeInfo& dtype_info(DType t) {
  for (const DTypeInfo& d : kTypes) {
    if (d.type == t) return d;
  }
  return kTypes.front();
}

const DTypeInfo& find_dtype(std::string_view name) {
  for (const DTypeInfo& d : kTypes) {
    if (d.name == name) return d;
  }
  std::vector<std::string_view> names;
  for (const DTypeInfo& d : kTypes) names.push_back(d.name);
  throw UsageError(fmt::format("-d/--datatype: unknown type '{}' (expected one of: {})", name, fmt::join(names, ", ")));
}

}  // namespace podperf

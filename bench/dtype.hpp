#pragma once
// Element types a collective can run on (nccl-tests -d). The host backend runs float, double and
// int32; the NCCL backend adds half and bfloat16.
#include <cstddef>
#include <span>
#include <string_view>

#include "kernels/dtype_enum.hpp"

namespace podperf {

struct DTypeInfo {
  DType type;
  std::string_view name;
  std::size_t bytes;
};

std::span<const DTypeInfo> all_dtypes();
const DTypeInfo& dtype_info(DType t);
// Throws UsageError listing the known names.
const DTypeInfo& find_dtype(std::string_view name);

}  // namespace podperf

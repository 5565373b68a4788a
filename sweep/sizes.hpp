#pragma once
// Message size sweeps (-b -e -f -i), nccl-tests semantics; parse_size is in analysis/base/units.hpp.
#include <cstdint>
#include <string_view>
#include <vector>

namespace podperf {

// nccl-tests semantics: from min_bytes to max_bytes inclusive, multiplying by `factor` (>= 2), or,
// when increment_bytes > 0, adding it instead. Each size is rounded down to a multiple of
// `type_bytes`. Throws UsageError for min 0, min > max, factor < 2 without increment, or a size
// below one element.
std::vector<std::uint64_t> size_sweep(std::uint64_t min_bytes, std::uint64_t max_bytes, std::uint64_t factor,
                                      std::uint64_t increment_bytes, std::uint64_t type_bytes);

}  // namespace podperf

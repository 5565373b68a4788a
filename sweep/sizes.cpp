#include "sweep/sizes.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <limits>
#include <string>

#include "analysis/base/errors.hpp"

namespace podperf {


std::vector<std::uint64_t> size_sweep(std::uint64_t min_bytes, std::uint64_t max_bytes, std::uint64_t factor,
                                      std::uint64_t increment_bytes, std::uint64_t type_bytes) {
  if (min_bytes == 0) throw UsageError("-b/--minbytes: must be at least one element, not 0");
  if (min_bytes > max_bytes) {
    throw UsageError(fmt::format("-b/--minbytes ({}) is larger than -e/--maxbytes ({})", min_bytes, max_bytes));
  }
  if (increment_bytes == 0 && factor < 2) {
    throw UsageError(fmt::format("-f/--stepfactor: must be at least 2, got {}", factor));
  }
  if (min_bytes < type_bytes) {
    throw UsageError(fmt::format("-b/--minbytes ({}) is smaller than one element ({} bytes)", min_bytes, type_bytes));
  }
  std::vector<std::uint64_t> sizes;
  constexpr std::size_t kMaxSizes = 4096;
  for (std::uint64_t s = min_bytes; s <= max_bytes;) {
    const std::uint64_t aligned = s / type_bytes * type_bytes;
    if (sizes.empty() || sizes.back() != aligned) sizes.push_back(aligned);
    if (sizes.size() > kMaxSizes) {
      throw UsageError(fmt::format("size sweep {}..{} has more than {} sizes; use a larger -f or -i", min_bytes,
                                   max_bytes, kMaxSizes));
    }
    const std::uint64_t next = increment_bytes > 0 ? s + increment_bytes : s * factor;
    if (next <= s) break;  // overflow
    s = next;
  }
  return sizes;
}

}  // namespace podperf

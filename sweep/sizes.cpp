#include "sweep/sizes.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <limits>
#include <string>

#include "analysis/errors.hpp"

namespace podperf {

std::uint64_t parse_size(std::string_view text, std::string_view what) {
  const std::string shown(text);
  std::uint64_t value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec == std::errc::result_out_of_range) throw UsageError(fmt::format("{}: size '{}' is too large", what, shown));
  if (ec != std::errc() || ptr == begin) {
    throw UsageError(fmt::format("{}: '{}' is not a size (expected a whole number of bytes with an optional K, M or G "
                                 "suffix, e.g. 64K, 4M, 1G)",
                                 what, shown));
  }
  std::string suffix(ptr, end);
  for (char& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::uint64_t multiplier = 1;
  if (suffix.empty() || suffix == "B") {
    multiplier = 1;
  } else if (suffix == "K" || suffix == "KB" || suffix == "KIB") {
    multiplier = 1ULL << 10;
  } else if (suffix == "M" || suffix == "MB" || suffix == "MIB") {
    multiplier = 1ULL << 20;
  } else if (suffix == "G" || suffix == "GB" || suffix == "GIB") {
    multiplier = 1ULL << 30;
  } else if (suffix == "T" || suffix == "TB" || suffix == "TIB") {
    multiplier = 1ULL << 40;
  } else {
    throw UsageError(fmt::format("{}: '{}' has an unknown suffix '{}' (expected K, M, G or T)", what, shown,
                                 std::string(ptr, end)));
  }
  if (value > std::numeric_limits<std::uint64_t>::max() / multiplier) {
    throw UsageError(fmt::format("{}: size '{}' is too large", what, shown));
  }
  return value * multiplier;
}

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

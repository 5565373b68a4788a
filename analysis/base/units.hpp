#pragma once
// Sizes in bytes: parsing with K/M/G suffixes (binary, as nccl-tests) and formatting for people.
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace podperf {

// "8", "64K", "4M", "1G", "2GiB", "512KB" -> bytes (multiples of 1024). Throws UsageError naming
// `what` (the flag) on garbage, negative numbers or overflow.
std::uint64_t parse_size(std::string_view text, std::string_view what);

// 1536 -> "1.5 KiB", 1073741824 -> "1 GiB": binary units, one decimal where it matters.
std::string format_bytes(std::uint64_t bytes);

// 4194304 -> "4M", 1536 -> "1536", 1073741824 -> "1G": exact binary multiples only, else bytes.
inline std::string format_size(std::uint64_t bytes) {
  constexpr std::uint64_t kK = 1024, kM = kK * 1024, kG = kM * 1024;
  if (bytes >= kG && bytes % kG == 0) return fmt::format("{}G", bytes / kG);
  if (bytes >= kM && bytes % kM == 0) return fmt::format("{}M", bytes / kM);
  if (bytes >= kK && bytes % kK == 0) return fmt::format("{}K", bytes / kK);
  return fmt::format("{}", bytes);
}

}  // namespace podperf

#pragma once
// Formatting of sizes for people: binary suffixes as nccl-tests users read them.
#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace podperf {

// 4194304 -> "4M", 1536 -> "1536", 1073741824 -> "1G": exact binary multiples only, else bytes.
inline std::string format_size(std::uint64_t bytes) {
  constexpr std::uint64_t kK = 1024, kM = kK * 1024, kG = kM * 1024;
  if (bytes >= kG && bytes % kG == 0) return fmt::format("{}G", bytes / kG);
  if (bytes >= kM && bytes % kM == 0) return fmt::format("{}M", bytes / kM);
  if (bytes >= kK && bytes % kK == 0) return fmt::format("{}K", bytes / kK);
  return fmt::format("{}", bytes);
}

}  // namespace podperf

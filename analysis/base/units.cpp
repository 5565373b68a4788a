#include "analysis/base/units.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "analysis/base/errors.hpp"

namespace podperf {

std::uint64_t parse_size(std::string_view text, std::string_view what) {
  const std::string shown(text);
  std::uint64_t value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec == std::errc::result_out_of_range) throw UsageError(fmt::format("{}: size '{}' is too large", what, shown));
  if (ec != std::errc() || ptr == begin) {
    throw UsageError(
        fmt::format("{}: '{}' is not a size (expected a whole number of bytes with an optional K, M or G "
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
    throw UsageError(
        fmt::format("{}: '{}' has an unknown suffix '{}' (expected K, M, G or T)", what, shown, std::string(ptr, end)));
  }
  if (value > std::numeric_limits<std::uint64_t>::max() / multiplier) {
    throw UsageError(fmt::format("{}: size '{}' is too large", what, shown));
  }
  return value * multiplier;
}

std::string format_bytes(std::uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 5) {
    v /= 1024.0;
    ++u;
  }
  if (u == 0) return fmt::format("{} B", bytes);
  if (std::fabs(v - std::round(v)) < 0.05) return fmt::format("{:.0f} {}", v, kUnits[u]);
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

}  // namespace podperf

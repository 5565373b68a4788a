#pragma once
// Deterministic per-rank data patterns and their verification: the host twins of the device kernels.
// Values are small integers, so sums over thousands of ranks are exact in float.
#include <cstdint>
#include <span>

namespace podperf {

// Value of element i on `rank`: an integer in [1, 61].
inline float pattern_value(int rank, std::uint64_t i) {
  return static_cast<float>((static_cast<std::uint64_t>(rank) * 131U + i * 7U) % 61U + 1U);
}

// Fills `buf` with rank's pattern, element i of `buf` holding pattern_value(rank, first_index + i).
void fill_pattern(std::span<float> buf, int rank, std::uint64_t first_index = 0);

// Counts elements of `buf` that differ from the sum over ranks [0, nranks) of the pattern at
// first_index + i, within a relative tolerance of 1e-5 (floating-point rounding).
std::int64_t count_wrong_sum(std::span<const float> buf, int nranks, std::uint64_t first_index = 0);

// Counts elements of `buf` that differ from rank's pattern at first_index + i (exact).
std::int64_t count_wrong_copy(std::span<const float> buf, int rank, std::uint64_t first_index = 0);

}  // namespace podperf

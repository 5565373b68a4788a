#pragma once
// Deterministic per-rank data patterns and their verification: the host twins of the device kernels
// (kernels/pattern_device.cu), so both backends check the same way. Values are small integers, so
// sums over thousands of ranks are exact in float, double and int32.
#include <cmath>
#include <cstdint>
#include <span>

namespace podperf {

// Value of element i on `rank`: an integer in [1, 61], from a 64-bit mix (splitmix64 finalizer) of
// (rank, i), so another rank's data, or data shifted by any offset, differs in most elements.
// The device kernels compute the same function.
inline std::uint32_t pattern_int(int rank, std::uint64_t i) {
  std::uint64_t x = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(rank)) << 40U) ^ i;
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  x ^= x >> 31U;
  return static_cast<std::uint32_t>(x % 61U) + 1U;
}
inline float pattern_value(int rank, std::uint64_t i) {
  return static_cast<float>(pattern_int(rank, i));
}

// Half and bfloat16 sums use the narrow pattern instead, so the check stays exact at any rank count:
// element i gets a non-zero value (1..4) only from the kNarrowWindow ranks i % n, i % n + 1, ... (mod
// n), 0 from the others. Every sum, and every partial sum in any reduction order, is an integer <= 32,
// exact in half (11-bit significand) and bfloat16 (8-bit), so there is no tolerance to grow with n,
// no overflow, an all-zero result fails every element, and every rank's data counts somewhere.
inline constexpr int kNarrowWindow = 8;
inline std::uint32_t narrow_pattern_int(int rank, std::uint64_t i, int nranks) {
  const int window = nranks < kNarrowWindow ? nranks : kNarrowWindow;
  const auto first = static_cast<std::uint64_t>(i % static_cast<std::uint64_t>(nranks));
  const std::uint64_t offset = (static_cast<std::uint64_t>(rank) + static_cast<std::uint64_t>(nranks) - first) %
                               static_cast<std::uint64_t>(nranks);
  return offset < static_cast<std::uint64_t>(window) ? pattern_int(rank, i) % 4U + 1U : 0U;
}
inline std::uint32_t narrow_pattern_sum(int nranks, std::uint64_t i) {
  std::uint32_t sum = 0;
  const int window = nranks < kNarrowWindow ? nranks : kNarrowWindow;
  for (int k = 0; k < window; ++k) {
    const int r = static_cast<int>((i + static_cast<std::uint64_t>(k)) % static_cast<std::uint64_t>(nranks));
    sum += narrow_pattern_int(r, i, nranks);
  }
  return sum;
}

// Sum over ranks [0, nranks) of the pattern at element i.
inline double pattern_sum(int nranks, std::uint64_t i) {
  double sum = 0.0;
  for (int r = 0; r < nranks; ++r) sum += pattern_int(r, i);
  return sum;
}

// True when `got` equals `expected` within a relative 1e-5 (rounding of float sums); exact for ints.
template <typename T>
bool pattern_equal(T got, double expected) {
  return std::fabs(static_cast<double>(got) - expected) <= 1e-5 * std::fabs(expected);
}

// buf[i] = pattern(rank, first_index + i).
template <typename T>
void fill_pattern(std::span<T> buf, int rank, std::uint64_t first_index = 0) {
  for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<T>(pattern_int(rank, first_index + i));
}

// Elements of `buf` that differ from the sum over nranks of the pattern at first_index + i.
template <typename T>
std::int64_t count_wrong_sum(std::span<const T> buf, int nranks, std::uint64_t first_index = 0) {
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < buf.size(); ++i) {
    if (!pattern_equal(buf[i], pattern_sum(nranks, first_index + i))) ++wrong;
  }
  return wrong;
}

// Elements of `buf` that differ from rank's pattern at first_index + i.
template <typename T>
std::int64_t count_wrong_copy(std::span<const T> buf, int rank, std::uint64_t first_index = 0) {
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < buf.size(); ++i) {
    if (!pattern_equal(buf[i], static_cast<double>(pattern_int(rank, first_index + i)))) ++wrong;
  }
  return wrong;
}

}  // namespace podperf

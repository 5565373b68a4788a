#pragma once
// Sorting networks for at most 16 values: a fixed sequence of compare-exchanges (min and max, no
// branch on the data), so a CPU never mispredicts on the values. For the pairs analysis's per-pair
// median and MAD of its 5-20 samples, millions of times. The networks are Batcher's odd-even merge
// sort, cut to n wires (wires past n would hold +infinity and never move, so their comparators drop).
// For NaN-free input the result is the ascending order std::sort gives (equal values are
// indistinguishable except -0.0 against 0.0, which compare equal and may come out in either order).
// The same networks sort two samples at once, one per lane of an SSE2 register (Lanes2).
#include <array>
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace podperf {

inline constexpr std::size_t kSortNetworkMax = 16;

// min and max as one instruction each (minsd, maxsd) where there is SSE2: for NaN-free input the
// same values as std::min and std::max, without a branch on the data (compilers turn plain ternaries
// into compares and branches).
inline double min_of(double a, double b) {
#if defined(__SSE2__)
  return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(a), _mm_set_sd(b)));
#else
  return b < a ? b : a;
#endif
}
inline double max_of(double a, double b) {
#if defined(__SSE2__)
  return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(a), _mm_set_sd(b)));
#else
  return a < b ? b : a;
#endif
}

#if defined(__SSE2__)
// Two doubles, one per lane, computed on together (minpd, maxpd, and +, -, * per lane: each lane's
// result is bit for bit what the same operations on a double give).
using Lanes2 = __m128d;
inline Lanes2 min_of(Lanes2 a, Lanes2 b) {
  return _mm_min_pd(a, b);
}
inline Lanes2 max_of(Lanes2 a, Lanes2 b) {
  return _mm_max_pd(a, b);
}
#endif

namespace sort_network_detail {

struct Network {
  std::array<std::array<std::uint8_t, 2>, 64> pairs{};  // 63 comparators for 16 wires
  std::size_t size = 0;
};

constexpr Network batcher(std::size_t n) {
  Network net;
  for (std::size_t p = 1; p < n; p += p) {
    for (std::size_t k = p; k > 0; k /= 2) {
      for (std::size_t j = k % p; j + k < n; j += k + k) {
        for (std::size_t i = 0; i < k && i + j + k < n; ++i) {
          if ((i + j) / (p + p) == (i + j + k) / (p + p)) {
            net.pairs[net.size++] = {static_cast<std::uint8_t>(i + j), static_cast<std::uint8_t>(i + j + k)};
          }
        }
      }
    }
  }
  return net;
}

template <std::size_t N>
inline constexpr Network kNetwork = batcher(N);

template <std::size_t N, class V>
inline void sort_fixed(V* v) {
  constexpr const Network& net = kNetwork<N>;
#pragma GCC unroll 64
  for (std::size_t c = 0; c < net.size; ++c) {
    const V a = v[net.pairs[c][0]];
    const V b = v[net.pairs[c][1]];
    v[net.pairs[c][0]] = min_of(a, b);
    v[net.pairs[c][1]] = max_of(a, b);
  }
}

}  // namespace sort_network_detail

// Sorts v[0..n) ascending (each lane on its own for Lanes2); n <= kSortNetworkMax (larger n is a
// caller's bug and sorts nothing).
template <class V>
inline void sort_small(V* v, std::size_t n) {
  using namespace sort_network_detail;
  switch (n) {
    case 2: sort_fixed<2>(v); break;
    case 3: sort_fixed<3>(v); break;
    case 4: sort_fixed<4>(v); break;
    case 5: sort_fixed<5>(v); break;
    case 6: sort_fixed<6>(v); break;
    case 7: sort_fixed<7>(v); break;
    case 8: sort_fixed<8>(v); break;
    case 9: sort_fixed<9>(v); break;
    case 10: sort_fixed<10>(v); break;
    case 11: sort_fixed<11>(v); break;
    case 12: sort_fixed<12>(v); break;
    case 13: sort_fixed<13>(v); break;
    case 14: sort_fixed<14>(v); break;
    case 15: sort_fixed<15>(v); break;
    case 16: sort_fixed<16>(v); break;
    default: break;  // 0 or 1: sorted
  }
}

}  // namespace podperf

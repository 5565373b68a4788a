#pragma once
// Content checksum of checkpoint shards: a 64-bit hash over 8-byte words (a tail of fewer than 8
// bytes is zero-padded), fast enough (several GB/s) not to slow the load probe down. Not
// cryptographic: it detects corruption (any flipped byte), not tampering. Pure.
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace podperf {

class Checksum {
 public:
  // Bytes must be fed in order; any split of the same bytes into calls gives the same value when
  // every call but the last has a length that is a multiple of 8.
  void update(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      mix(w);
    }
    if (i < bytes) {
      std::uint64_t w = 0;
      std::memcpy(&w, p + i, bytes - i);
      mix(w);
    }
    length_ += bytes;
  }
  [[nodiscard]] std::uint64_t value() const {
    std::uint64_t h = state_ ^ (length_ * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    return h;
  }

 private:
  void mix(std::uint64_t w) {
    state_ ^= w * 0x87C37B91114253D5ULL;
    state_ = (state_ << 31) | (state_ >> 33);
    state_ *= 0x4CF5AD432745937FULL;
  }
  std::uint64_t state_ = 0x6A09E667F3BCC908ULL;
  std::uint64_t length_ = 0;
};

}  // namespace podperf

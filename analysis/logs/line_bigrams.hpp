#pragma once
// A prefilter for substring searches on multi-GiB logs, where almost no line holds what is searched:
// the set of a line's adjacent byte pairs (bigrams), hashed into 4096 bits. A needle with a bigram the
// line lacks cannot be in it (no false negatives), so its search is skipped. Internal to
// analysis/logs (the pattern table, the line grammar). Pure.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace podperf::logs {

inline constexpr std::size_t kBigramBits = 4096;

constexpr std::size_t bigram_hash(char a, char b) {
  return (static_cast<unsigned char>(a) * 131u + static_cast<unsigned char>(b)) % kBigramBits;
}

struct BigramSet {
  std::array<std::uint64_t, kBigramBits / 64> words{};
  void add(std::size_t h) { words[h / 64] |= std::uint64_t{1} << (h % 64); }
  [[nodiscard]] bool has(std::size_t h) const { return (words[h / 64] >> (h % 64)) & 1u; }

  static BigramSet of(std::string_view text) {
    BigramSet s;
    for (std::size_t i = 0; i + 1 < text.size(); ++i) s.add(bigram_hash(text[i], text[i + 1]));
    return s;
  }

  // False when `needle` cannot be in the line (a bigram of it, first, middle or last, is missing).
  [[nodiscard]] bool may_contain(std::string_view needle) const {
    if (needle.size() < 2) return true;
    const std::size_t last = needle.size() - 2;
    return has(bigram_hash(needle[0], needle[1])) && has(bigram_hash(needle[last], needle[last + 1])) &&
           has(bigram_hash(needle[last / 2], needle[last / 2 + 1]));
  }
};

}  // namespace podperf::logs

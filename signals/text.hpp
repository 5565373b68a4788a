#pragma once
// Small text helpers shared by the signal readers and parsers.
#include <charconv>
#include <string_view>

namespace podperf::text {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// The whole of `s` (surrounding blanks ignored) as a number; false when it is not exactly one.
template <class T>
bool to_number(std::string_view s, T& out) {
  s = trim(s);
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace podperf::text

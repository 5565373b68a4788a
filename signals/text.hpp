#pragma once
// Small text helpers shared by the signal readers and parsers.
#include <charconv>
#include <string>
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

// Printable ASCII only (others become '?'), surrounding blanks dropped, at most `max_bytes`
// (followed by "..." when `mark_cut`): values that end up in reports.
inline std::string printable(std::string_view s, std::size_t max_bytes, bool mark_cut) {
  s = trim(s);
  std::string out;
  for (char c : s) {
    if (out.size() >= max_bytes) {
      if (mark_cut) out += "...";
      break;
    }
    const auto b = static_cast<unsigned char>(c);
    out += (b < 0x20 || b >= 0x7F) ? '?' : c;
  }
  return out;
}

}  // namespace podperf::text

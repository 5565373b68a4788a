#pragma once
// Small text helpers shared by the parsers, readers and printers: trimming, lines, numbers, joining,
// printable values. One copy for the whole tree (analysis/ is the lowest floor that uses them).
#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace podperf::text {

inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// The lines of `text` without their line ends (LF or CRLF); line i is text line i + 1.
inline std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

// The whole of `s` (surrounding blanks ignored) as a number; false when it is not exactly one.
template <class T>
bool to_number(std::string_view s, T& out) {
  s = trim(s);
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

// The items of any range of strings, `sep` between them: {"a", "b"} -> "a, b".
template <class Range>
std::string join(const Range& items, std::string_view sep = ", ") {
  std::string out;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += sep;
    out += item;
    first = false;
  }
  return out;
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

#include "analysis/topology/hostlist.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {

// A name with bracket groups is at most this many hosts (a typo like [1-99999999] must not exhaust memory).
constexpr std::uint64_t kMaxHosts = 1'000'000;

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

std::uint64_t to_number(std::string_view s, std::string_view expression) {
  if (!all_digits(s) || s.size() > 18) {
    throw InputError(fmt::format("hostlist '{}': '{}' is not a number", expression, s));
  }
  std::uint64_t v = 0;
  for (char c : s) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  return v;
}

// The values of one bracket group's body ("01-03,7"), formatted with their padding.
std::vector<std::string> expand_ranges(std::string_view body, std::string_view expression) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= body.size()) {
    const std::size_t comma = body.find(',', start);
    const std::string_view item =
        body.substr(start, comma == std::string_view::npos ? body.size() - start : comma - start);
    if (item.empty()) throw InputError(fmt::format("hostlist '{}': empty range in '[{}]'", expression, body));
    const std::size_t dash = item.find('-');
    if (dash == std::string_view::npos) {
      (void)to_number(item, expression);
      out.emplace_back(item);
    } else {
      const std::string_view lo_text = item.substr(0, dash);
      const std::string_view hi_text = item.substr(dash + 1);
      const std::uint64_t lo = to_number(lo_text, expression);
      const std::uint64_t hi = to_number(hi_text, expression);
      if (hi < lo) throw InputError(fmt::format("hostlist '{}': range '{}' runs backwards", expression, item));
      if (hi - lo >= kMaxHosts)
        throw InputError(fmt::format("hostlist '{}': range '{}' is too large", expression, item));
      const std::size_t width = lo_text.size();
      for (std::uint64_t v = lo; v <= hi; ++v) out.push_back(fmt::format("{:0{}}", v, width));
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

// One name, possibly with bracket groups.
void expand_name(std::string_view name, std::string_view expression, std::vector<std::string>& out) {
  std::vector<std::string> partial{""};
  std::size_t i = 0;
  while (i < name.size()) {
    const std::size_t open = name.find('[', i);
    const std::size_t close_stray = name.find(']', i);
    if (close_stray != std::string_view::npos && (open == std::string_view::npos || close_stray < open)) {
      throw InputError(fmt::format("hostlist '{}': ']' without '['", expression));
    }
    const std::string_view literal = name.substr(i, open == std::string_view::npos ? name.size() - i : open - i);
    for (std::string& p : partial) p += literal;
    if (open == std::string_view::npos) break;
    const std::size_t close = name.find(']', open);
    if (close == std::string_view::npos)
      throw InputError(fmt::format("hostlist '{}': '[' is never closed", expression));
    const std::vector<std::string> values = expand_ranges(name.substr(open + 1, close - open - 1), expression);
    if (static_cast<std::uint64_t>(partial.size()) * values.size() > kMaxHosts) {
      throw InputError(fmt::format("hostlist '{}': more than {} hosts", expression, kMaxHosts));
    }
    std::vector<std::string> next;
    next.reserve(partial.size() * values.size());
    for (const std::string& p : partial) {
      for (const std::string& v : values) next.push_back(p + v);
    }
    partial = std::move(next);
    i = close + 1;
  }
  for (std::string& p : partial) out.push_back(std::move(p));
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view expression) {
  std::vector<std::string> out;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i <= expression.size(); ++i) {
    const char c = i < expression.size() ? expression[i] : ',';
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c != ',' || (depth > 0 && i < expression.size())) continue;
    const std::string_view name = expression.substr(start, i - start);
    if (name.empty()) throw InputError(fmt::format("hostlist '{}': empty host name", expression));
    for (char ch : name) {
      if (std::isspace(static_cast<unsigned char>(ch)) != 0) {
        throw InputError(fmt::format("hostlist '{}': white space in a host name", expression));
      }
    }
    expand_name(name, expression, out);
    start = i + 1;
  }
  return out;
}

}  // namespace podperf

#pragma once
// append(out, "{} of {}", a, b): fmt::format_to at the end of a string, the text printers' one way of
// building their output (analysis/report/). Floor: the printers' wing; pure; throws what fmt throws
// (a format string is checked at compile time). One definition, so printers can share a unity batch.
#include <fmt/format.h>

#include <iterator>
#include <string>
#include <utility>

namespace podperf {

template <typename... Args>
void append(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

}  // namespace podperf

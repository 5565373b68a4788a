#pragma once
// Shared by the libFuzzer targets: the input as text, and the exceptions a parser may throw on bad
// input (its documented, typed errors). Anything else escaping -- another exception, a crash, a
// sanitizer report, a hang -- is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "analysis/base/errors.hpp"

namespace podperf::fuzz {

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `body`; the typed errors podperf documents for bad input are expected results.
template <class Body>
void expect_clean(Body&& body) {
  try {
    body();
  } catch (const UsageError&) {  // also ConfigError, InputError
  } catch (const RuntimeFailure&) {
  }
}

}  // namespace podperf::fuzz

#pragma once
// The error handling every offline command shares (report, compare, sweep, signals, accept --from:
// commands that read files or launch jobs but are not an MPI job themselves): their body runs inside one
// wrapper that turns exceptions into the documented exit codes (README "Exit codes"), each printed as one
// line. Offline floor, local; throws nothing itself.
#include <exception>
#include <ostream>
#include <string_view>

#include "analysis/base/errors.hpp"

namespace podperf {

// Runs body() and returns what it returns. UsageError and its kinds (ConfigError, InputError: bad
// options, files or settings) give kExitUsage (2); any other exception kExitRuntime (3). Each is
// written to `err` as "<prefix>: error: <message>" (prefix e.g. "podperf" or "podperf compare");
// usage errors only when `print_usage_errors` (accept --from under a launcher: rank 0 alone says why).
template <typename Body>
int run_offline_command(std::string_view prefix, std::ostream& err, Body&& body, bool print_usage_errors = true) {
  try {
    return body();
  } catch (const UsageError& e) {
    if (print_usage_errors) err << prefix << ": error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    err << prefix << ": error: " << e.what() << "\n";
    return kExitRuntime;
  }
}

}  // namespace podperf

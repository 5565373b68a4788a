#pragma once
// Typed errors shared by every part of podperf. Each maps to a documented exit code.
#include <stdexcept>
#include <string>

namespace podperf {

// Exit codes (README "Exit codes").
inline constexpr int kExitOk = 0;
inline constexpr int kExitFlagged = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitRuntime = 3;

// Bad command line or configuration, detected before any measurement: exit 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A configuration file is invalid: names the file, line and key. Exit 2.
class ConfigError : public UsageError {
 public:
  using UsageError::UsageError;
};

// Something failed while measuring (timeout, lost rank, I/O): exit 3.
class RuntimeFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An operation did not complete within its deadline (the communicator is aborted): exit 3.
class TimeoutError : public RuntimeFailure {
 public:
  using RuntimeFailure::RuntimeFailure;
};

// The backend has no in-place form of this operation: the case is recorded as skipped.
class InPlaceUnsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reading or parsing a results file failed (offline commands): exit 2.
class InputError : public UsageError {
 public:
  using UsageError::UsageError;
};

}  // namespace podperf

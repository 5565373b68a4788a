#pragma once
// Progress on rank 0 while rounds run: round k of R, elapsed, estimated time left, on stderr (fits
// logs and terminals alike). One line per step when there are few steps (kEveryStepUpTo) or steps are
// slow; with hundreds of fast steps (a modelled fabric, small messages) at most one line a second,
// always the first and the last.
#include <chrono>
#include <cstdio>
#include <string>

namespace podperf {

class Progress {
 public:
  static constexpr int kEveryStepUpTo = 50;
  Progress(int total_steps, std::string unit, std::FILE* out = stderr, double min_interval_s = 1.0);
  // Call after step `done` (1-based) finished; `detail` is appended to the line.
  void step_done(int done, const std::string& detail);
  [[nodiscard]] double elapsed_s() const;

 private:
  int total_;
  std::string unit_;
  std::FILE* out_;
  double min_interval_s_;
  double last_printed_s_ = -1e9;
  std::chrono::steady_clock::time_point start_;
};

// "1m05s", "12.3s", "2h03m".
std::string format_duration(double seconds);

}  // namespace podperf

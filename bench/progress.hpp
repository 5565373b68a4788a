#pragma once
// Progress on rank 0 while rounds run: round k of R, elapsed, estimated time left. One line per
// round on stderr (fits logs and terminals alike).
#include <chrono>
#include <cstdio>
#include <string>

namespace podperf {

class Progress {
 public:
  Progress(int total_steps, std::string unit, std::FILE* out = stderr);
  // Call after step `done` (1-based) finished; `detail` is appended to the line.
  void step_done(int done, const std::string& detail);
  [[nodiscard]] double elapsed_s() const;

 private:
  int total_;
  std::string unit_;
  std::FILE* out_;
  std::chrono::steady_clock::time_point start_;
};

// "1m05s", "12.3s", "2h03m".
std::string format_duration(double seconds);

}  // namespace podperf

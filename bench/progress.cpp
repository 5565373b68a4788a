// Progress lines (see progress.hpp). Bench floor; local.
#include "bench/progress.hpp"

#include <fmt/format.h>

#include <cmath>

namespace podperf {

std::string format_duration(double seconds) {
  if (seconds < 0) seconds = 0;
  if (std::round(seconds * 10.0) / 10.0 < 60.0) return fmt::format("{:.1f}s", seconds);
  const auto total = static_cast<long long>(seconds + 0.5);
  if (total < 3600) return fmt::format("{}m{:02}s", total / 60, total % 60);
  return fmt::format("{}h{:02}m", total / 3600, (total % 3600) / 60);
}

Progress::Progress(int total_steps, std::string unit, std::FILE* out, double min_interval_s)
    : total_(total_steps),
      unit_(std::move(unit)),
      out_(out),
      min_interval_s_(min_interval_s),
      start_(std::chrono::steady_clock::now()) {}

double Progress::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::step_done(int done, const std::string& detail) {
  done_ = done;
  const double elapsed = elapsed_s();
  // Every line of a short phase (the plan, or one retest pass), else the phase's first, the last and at
  // most one per interval.
  const bool print = total_ - phase_start_ <= kEveryStepUpTo || done <= phase_start_ + 1 || done >= total_ ||
                     elapsed - last_printed_s_ >= min_interval_s_;
  if (!print) return;
  last_printed_s_ = elapsed;
  const double left = done > 0 ? elapsed / done * (total_ - done) : 0.0;
  fmt::print(out_, "podperf: {} {}/{} done, elapsed {}, ~{} left{}{}\n", unit_, done, total_, format_duration(elapsed),
             format_duration(left), detail.empty() ? "" : "; ", detail);
  std::fflush(out_);
}

void Progress::plan_more(int steps, const std::string& why) {
  if (steps <= 0) return;
  const int before = total_;
  phase_start_ = done_;
  total_ = done_ + steps;
  fmt::print(out_, "podperf: {}: {} more {}{}, {} in all (was {})\n", why, steps, unit_, steps == 1 ? "" : "s", total_,
             before);
  std::fflush(out_);
}

void Progress::finish(const std::string& why) {
  if (done_ == total_) return;
  fmt::print(out_, "podperf: {} {}{} in all, not {}: {}\n", done_, unit_, done_ == 1 ? "" : "s", total_, why);
  total_ = done_;
  std::fflush(out_);
}

}  // namespace podperf

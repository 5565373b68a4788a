#pragma once
// Progress on rank 0 while rounds run: step k of N, elapsed, estimated time left, on stderr (fits
// logs and terminals alike). One line per step when a phase (the plan, a retest pass) has few steps
// (kEveryStepUpTo) or steps are slow; with hundreds of fast steps (a modelled fabric, small messages)
// at most one line a second, always the phase's first and the last. The counter never runs past the total: steps that
// were not known at the start (retests of the pairs a run flags) are announced with `plan_more` before they run, and
// the total grows by them; a schedule that ends before its total (the adaptive search deciding early) says so with
// `finish`. Bench floor; local; throws nothing.
#include <chrono>
#include <cstdio>
#include <string>

namespace podperf {

class Progress {
 public:
  static constexpr int kEveryStepUpTo = 50;
  Progress(int total_steps, std::string unit, std::FILE* out = stderr, double min_interval_s = 1.0);
  // Call after step `done` (1-based) finished; `detail` (what the step was) is appended to the line.
  void step_done(int done, const std::string& detail);
  // The next step, counted here: step_done(done() + 1, detail).
  void next_step_done(const std::string& detail) { step_done(done_ + 1, detail); }
  // `steps` more steps will run after the done() so far (`why`: what they are); the total becomes
  // done() + steps, said on one line with the total it replaces.
  void plan_more(int steps, const std::string& why);
  // The schedule is over: when done() is not the total, one line says how many ran and `why`.
  void finish(const std::string& why);
  [[nodiscard]] int done() const { return done_; }
  [[nodiscard]] int total() const { return total_; }
  [[nodiscard]] double elapsed_s() const;

 private:
  int total_;
  int done_ = 0;
  int phase_start_ = 0;  // the steps done before the current phase (the plan, or a retest pass) began
  std::string unit_;
  std::FILE* out_;
  double min_interval_s_;
  double last_printed_s_ = -1e9;
  std::chrono::steady_clock::time_point start_;
};

// "1m05s", "12.3s", "2h03m".
std::string format_duration(double seconds);

}  // namespace podperf

#pragma once
// Watchdog: a thread that ends the process when a round overruns its deadline, and a thread that
// turns SIGTERM/SIGINT into an orderly end. Neither calls MPI: the handlers write what they can and
// call _exit, so a hung collective can never hang the job.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace podperf {

// Blocks SIGTERM and SIGINT in the calling thread; call first thing in main, before MPI starts its
// threads, so every thread inherits the mask and only the signal thread receives them.
void block_termination_signals();

// Waits up to `limit` for SIGTERM or SIGINT while they are blocked (after block_termination_signals);
// true when one came. For a process that has nothing to keep and must leave when its launcher says so.
bool wait_for_termination_signal(std::chrono::milliseconds limit);

class Watchdog {
 public:
  // Called on the watchdog thread with a description of what overran; must not return.
  using TimeoutHandler = std::function<void(const std::string& what, double seconds)>;
  // Called on the signal thread with the signal's name; must not return.
  using SignalHandler = std::function<void(const std::string& signal_name)>;

  Watchdog(TimeoutHandler on_timeout, SignalHandler on_signal);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // Starts a deadline `seconds` from now for `what` (replacing any earlier one).
  void arm(double seconds, std::string what);
  void disarm();

 private:
  void watch();
  void wait_signals();

  TimeoutHandler on_timeout_;
  SignalHandler on_signal_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  double armed_seconds_ = 0.0;
  std::string what_;
  bool stopping_ = false;
  std::thread watcher_;
  std::thread signals_;
};

}  // namespace podperf

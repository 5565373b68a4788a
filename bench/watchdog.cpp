#include "bench/watchdog.hpp"

#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <cstring>
#include <ctime>

namespace podperf {
namespace {
sigset_t termination_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}
}  // namespace

void block_termination_signals() {
  sigset_t set = termination_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

bool wait_for_termination_signal(std::chrono::milliseconds limit) {
  const sigset_t set = termination_signals();
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    timespec wait{static_cast<time_t>(left.count() / 1000000000), static_cast<long>(left.count() % 1000000000)};
    if (sigtimedwait(&set, nullptr, &wait) >= 0) return true;
    if (errno != EINTR) return false;
  }
}

Watchdog::Watchdog(TimeoutHandler on_timeout, SignalHandler on_signal)
    : on_timeout_(std::move(on_timeout)), on_signal_(std::move(on_signal)) {
  watcher_ = std::thread([this] { watch(); });
  signals_ = std::thread([this] { wait_signals(); });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  watcher_.join();
  signals_.join();
}

void Watchdog::arm(double seconds, std::string what) {
  {
    std::lock_guard lock(mutex_);
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    armed_seconds_ = seconds;
    what_ = std::move(what);
  }
  changed_.notify_all();
}

void Watchdog::disarm() {
  {
    std::lock_guard lock(mutex_);
    deadline_.reset();
  }
  changed_.notify_all();
}

void Watchdog::watch() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (!deadline_) {
      changed_.wait(lock);
      continue;
    }
    const auto deadline = *deadline_;
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && deadline_ && *deadline_ == deadline &&
        !stopping_) {
      const std::string what = what_;
      const double seconds = armed_seconds_;
      lock.unlock();
      on_timeout_(what, seconds);  // does not return
      lock.lock();
    }
  }
}

void Watchdog::wait_signals() {
  const sigset_t set = termination_signals();
  const timespec poll{0, 50'000'000};
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    const int sig = sigtimedwait(&set, nullptr, &poll);
    if (sig == SIGTERM || sig == SIGINT) on_signal_(sig == SIGTERM ? "SIGTERM" : "SIGINT");  // does not return
  }
}

}  // namespace podperf

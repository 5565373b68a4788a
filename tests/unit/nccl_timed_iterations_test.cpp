// The NCCL backend's timed iterations (bench/nccl_timing: nccl_timed_iterations) on a simulated GPU
// stream, and run_case's warm-up (bench/runner: warm_up_then_time): each sample is the GPU time of its
// own operation, from the start event to the stop event, never NCCL's host launch (the gate holds the
// stream while the operation is enqueued), one sample per timed iteration, warm-up dropped. The
// simulation has two clocks, so a wrong order of the steps changes the numbers: an event recorded
// before the gate, or a gate released before the operation is enqueued, adds the launch time to the
// sample; the events subtracted the other way round give a negative time (refused); a warm-up
// counted adds samples of the warm-up's (slower) operations.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "bench/collectives.hpp"
#include "bench/nccl_timing.hpp"
#include "bench/runner.hpp"

namespace podperf {
namespace {

// A CUDA stream with a host clock and a GPU clock (seconds). The host clock moves in barrier() and
// in enqueue_operation() (NCCL's host launch, `launch_s`); the GPU runs the stream's entries in order,
// each no earlier than the host enqueued it: the gate until the host releases it (or its limit passes:
// expired), an event takes the GPU's time, an operation takes its own GPU time from `op_s` (in enqueue
// order). Every call is logged.
class SimulatedStream final : public NcclTimedStream {
 public:
  struct Settings {
    double barrier_s = 0.002;
    double launch_s = 0.00025;
    double gate_limit_s = 1.0;
    std::vector<double> op_s;
    std::optional<std::size_t> throw_on_op;  // enqueue_operation throws for this operation (0-based)
  };
  explicit SimulatedStream(Settings settings) : s_(std::move(settings)) {}

  void barrier() override {
    log_.emplace_back("barrier");
    host_ += s_.barrier_s;
  }
  void hold_gate() override {
    log_.emplace_back("hold");
    push({Kind::kGate, host_, 0.0, NcclEvent::kStart});
  }
  void record(NcclEvent event) override {
    log_.emplace_back(event == NcclEvent::kStart ? "start" : "stop");
    push({Kind::kEvent, host_, 0.0, event});
  }
  void enqueue_operation(std::uint64_t window_offset) override {
    log_.emplace_back("op");
    offsets_.push_back(window_offset);
    const std::size_t index = ops_enqueued_++;
    if (s_.throw_on_op == index) throw std::runtime_error("NCCL refused the operation");
    host_ += s_.launch_s;  // NCCL's launch and polls: on the host, before the operation is on the stream
    push({Kind::kOp, host_, s_.op_s.at(index), NcclEvent::kStart});
  }
  void release_gate() noexcept override {
    log_.emplace_back("release");
    released_at_ = host_;
    run();
  }
  void wait() override {
    log_.emplace_back("wait");
    run(/*until_done=*/true);
    host_ = std::max(host_, gpu_);
  }
  [[nodiscard]] bool gate_expired() const override { return expired_; }
  [[nodiscard]] float elapsed_ms(NcclEvent from, NcclEvent to) const override {
    log_.emplace_back(std::string("elapsed ") + name(from) + "->" + name(to));
    const auto& f = recorded_[static_cast<int>(from)];
    const auto& t = recorded_[static_cast<int>(to)];
    if (!f || !t) throw std::logic_error("elapsed_ms on an event the stream has not reached");
    return static_cast<float>((*t - *f) * 1e3);
  }

  [[nodiscard]] const std::vector<std::string>& log() const { return log_; }
  [[nodiscard]] const std::vector<std::uint64_t>& offsets() const { return offsets_; }
  [[nodiscard]] std::size_t ops_run() const { return ops_run_; }
  [[nodiscard]] bool gate_pending() const { return !queue_.empty() && queue_.front().kind == Kind::kGate; }

 private:
  enum class Kind { kGate, kEvent, kOp };
  struct Entry {
    Kind kind;
    double enqueued_s;  // host time at which the GPU may start it
    double duration_s;  // kOp
    NcclEvent event;    // kEvent
  };
  static const char* name(NcclEvent e) { return e == NcclEvent::kStart ? "start" : "stop"; }

  void push(const Entry& e) {
    if (e.kind == Kind::kGate) released_at_.reset();
    queue_.push_back(e);
    run();
  }
  // Runs the GPU over the queue as far as it can: a gate not yet released blocks it, unless
  // `until_done` (a wait: the gate then expires at its limit, as the real one gives up).
  void run(bool until_done = false) {
    while (!queue_.empty()) {
      const Entry e = queue_.front();
      const double start = std::max(gpu_, e.enqueued_s);
      switch (e.kind) {
        case Kind::kGate:
          if (released_at_ && *released_at_ - start <= s_.gate_limit_s) {
            gpu_ = std::max(start, *released_at_);
          } else if (released_at_ || until_done) {
            gpu_ = start + s_.gate_limit_s;
            expired_ = true;
          } else {
            return;  // held
          }
          break;
        case Kind::kEvent:
          gpu_ = start;
          recorded_[static_cast<int>(e.event)] = gpu_;
          break;
        case Kind::kOp:
          gpu_ = start + e.duration_s;
          ++ops_run_;
          break;
      }
      queue_.erase(queue_.begin());
    }
  }

  Settings s_;
  double host_ = 0.0;
  double gpu_ = 0.0;
  std::vector<Entry> queue_;
  std::optional<double> released_at_;
  bool expired_ = false;
  std::optional<double> recorded_[2];
  std::size_t ops_enqueued_ = 0;
  std::size_t ops_run_ = 0;
  std::vector<std::uint64_t> offsets_;
  mutable std::vector<std::string> log_;
};

constexpr double kMs = 1e-3;

SimulatedStream::Settings ops_of(std::vector<double> op_s) {
  SimulatedStream::Settings s;
  s.op_s = std::move(op_s);
  return s;
}

void expect_samples(const std::vector<double>& samples, const std::vector<double>& expected_s) {
  ASSERT_EQ(samples.size(), expected_s.size());
  for (std::size_t i = 0; i < samples.size(); ++i) EXPECT_NEAR(samples[i], expected_s[i], 1e-9) << "iteration " << i;
}

TEST(NcclTimedIterations, EachSampleIsItsOwnOperationsGpuTimeWithoutTheLaunch) {
  // The launch (0.25 ms) and the barrier (2 ms) are host time: neither is in any sample.
  SimulatedStream stream(ops_of({1 * kMs, 2 * kMs, 3 * kMs, 4 * kMs, 5 * kMs}));
  expect_samples(nccl_timed_iterations(stream, 5, "all_reduce of 8 bytes", 1.0),
                 {1 * kMs, 2 * kMs, 3 * kMs, 4 * kMs, 5 * kMs});
  EXPECT_EQ(stream.ops_run(), 5U);
}

TEST(NcclTimedIterations, StepsInOrderAndStartSubtractedFromStop) {
  SimulatedStream stream(ops_of({1 * kMs, 1 * kMs}));
  (void)nccl_timed_iterations(stream, 2, "all_reduce of 8 bytes", 1.0);
  const std::vector<std::string> one{"barrier", "hold", "start", "op", "stop", "release", "wait", "elapsed start->stop"};
  std::vector<std::string> two = one;
  two.insert(two.end(), one.begin(), one.end());
  EXPECT_EQ(stream.log(), two);
}

TEST(NcclTimedIterations, WindowsRotatePerIteration) {
  SimulatedStream stream(ops_of(std::vector<double>(6, kMs)));
  (void)nccl_timed_iterations(stream, 6, "all_reduce of 8 bytes", 1.0);
  EXPECT_EQ(stream.offsets(), (std::vector<std::uint64_t>{0, kNcclWindowBytes, 2 * kNcclWindowBytes,
                                                          3 * kNcclWindowBytes, 0, kNcclWindowBytes}));
}

TEST(NcclTimedIterations, AnOperationFasterThanTheEventsReadsAsTheirResolution) {
  SimulatedStream stream(ops_of({0.0, 1e-8}));
  expect_samples(nccl_timed_iterations(stream, 2, "all_reduce of 8 bytes", 1.0),
                 {kCudaEventResolutionSeconds, kCudaEventResolutionSeconds});
}

TEST(NcclTimedIterations, NoIterationsNoStep) {
  SimulatedStream stream(ops_of({}));
  EXPECT_TRUE(nccl_timed_iterations(stream, 0, "all_reduce of 8 bytes", 1.0).empty());
  EXPECT_TRUE(stream.log().empty());
}

TEST(NcclTimedIterations, AGateThatExpiredFailsTheCase) {
  // NCCL takes 3 s to accept the operation; the gate gives up after 1 s, so the start event ran
  // before the operation was on the stream and the sample would include the launch: refused.
  SimulatedStream::Settings s = ops_of({kMs});
  s.launch_s = 3.0;
  s.gate_limit_s = 1.0;
  SimulatedStream stream(s);
  try {
    (void)nccl_timed_iterations(stream, 1, "all_reduce of 1048576 bytes", 1.0);
    FAIL() << "no error";
  } catch (const RuntimeFailure& e) {
    EXPECT_STREQ(e.what(), "all_reduce of 1048576 bytes: NCCL took longer than 1 s to enqueue (timing gate expired)");
  }
}

TEST(NcclTimedIterations, AFailedEnqueueStillReleasesTheGate) {
  SimulatedStream::Settings s = ops_of({kMs, kMs});
  s.throw_on_op = 1;
  SimulatedStream stream(s);
  EXPECT_THROW((void)nccl_timed_iterations(stream, 2, "all_reduce of 8 bytes", 1.0), std::runtime_error);
  EXPECT_EQ(stream.log().back(), "release");
  EXPECT_FALSE(stream.gate_pending());
}

// A Group on the simulated stream, as NcclGroup::run is on CUDA.
class SimulatedNcclGroup final : public Group {
 public:
  explicit SimulatedNcclGroup(SimulatedStream& stream) : stream_(stream) {}
  const Comm& comm() const override { return comm_; }
  std::vector<double> run(const Case& c, int iters) override {
    return nccl_timed_iterations(stream_, iters, std::string(c.op->name), 1.0);
  }
  std::int64_t check(const Case&) override { return 0; }

 private:
  SimulatedStream& stream_;
  Comm comm_;
};

TEST(NcclTimedIterations, WarmUpRunsButItsSamplesAreDropped) {
  // Three cold warm-up operations of 40 ms, then the timed ones: only the timed ones come back.
  SimulatedStream stream(ops_of({40 * kMs, 40 * kMs, 40 * kMs, 1 * kMs, 2 * kMs, 3 * kMs, 4 * kMs}));
  SimulatedNcclGroup group(stream);
  Case c;
  c.op = &find_op("all_reduce");
  c.size_bytes = 8;
  expect_samples(warm_up_then_time(group, c, 3, 4), {1 * kMs, 2 * kMs, 3 * kMs, 4 * kMs});
  EXPECT_EQ(stream.ops_run(), 7U) << "the warm-up ran";
}

TEST(NcclTimedIterations, NoWarmUp) {
  SimulatedStream stream(ops_of({5 * kMs, 6 * kMs}));
  SimulatedNcclGroup group(stream);
  Case c;
  c.op = &find_op("all_reduce");
  expect_samples(warm_up_then_time(group, c, 0, 2), {5 * kMs, 6 * kMs});
}

}  // namespace
}  // namespace podperf

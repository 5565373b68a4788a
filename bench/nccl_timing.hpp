#pragma once
// The arithmetic of the NCCL backend's timing, apart from CUDA so that it is unit-tested on a machine
// without a GPU (bench/backend_nccl.cpp and bench/nccl_comm.cpp use it; docs/nccl.md, "How podperf times", says
// why the timing is built so):
// - where iteration i's buffers sit (nccl-tests' rotating windows) and how large the device buffers
//   must be for a case of up to max_bytes;
// - the timing gate's spin limit in nanoseconds and the polls' deadlines, both saturating, so that
//   any --timeout the CLI accepts (every finite value above 0) gives a valid limit;
// - one sample from the two events' elapsed milliseconds;
// - the timed iterations themselves (nccl_timed_iterations): the order of the barrier, the gate, the
//   two events and the operation on the stream, and which events are subtracted, over a TimedStream
//   that the backend implements on CUDA and the unit tests on a simulated GPU clock.
// Bench floor, local (no MPI, no NCCL, no CUDA).
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace podperf {

// Rotating buffer windows (nccl-tests style): iteration i uses offset (i % kNcclWindows) *
// kNcclWindowBytes, so consecutive iterations do not hit the same cache lines at small sizes.
inline constexpr std::uint64_t kNcclWindowBytes = 16ULL << 20;
inline constexpr int kNcclWindows = 4;

// Offset in bytes of iteration `iteration`'s send and receive windows (iteration >= 0).
std::uint64_t nccl_window_offset(int iteration);

// Bytes each device buffer needs so that every window of a case of up to max_bytes fits.
std::uint64_t nccl_buffer_bytes(std::uint64_t max_bytes);

// The gate kernel's spin limit: max_s seconds in nanoseconds, at most kNcclMaxWaitSeconds.
std::uint64_t nccl_gate_spin_ns(double max_s);

// The longest wait a deadline or gate is given: 10^7 s (116 days); a longer --timeout means "no limit"
// in practice, and keeps the nanosecond arithmetic of steady_clock (int64) far from overflow.
inline constexpr double kNcclMaxWaitSeconds = 1e7;

using NcclClock = std::chrono::steady_clock;
// `now` plus `seconds` (clamped to [0, kNcclMaxWaitSeconds]).
NcclClock::time_point nccl_deadline_from(NcclClock::time_point now, double seconds);
NcclClock::time_point nccl_deadline_after(double seconds);

// One timed sample in seconds from cudaEventElapsedTime's milliseconds. The events resolve about
// 0.5 us (CUDA's documentation), so a sample is never reported below that: an operation faster than
// the events can tell reads as their resolution, not as 0 s (which would be infinite bandwidth).
inline constexpr double kCudaEventResolutionSeconds = 0.5e-6;
double nccl_event_seconds(float elapsed_ms);

// The two CUDA events of one timed iteration.
enum class NcclEvent { kStart, kStop };

// The device side of the timed iterations, one call per step (bench/backend_nccl.cpp implements it
// on a CUDA stream; tests/unit/nccl_timing_test.cpp on a simulated stream with its own clocks).
class NcclTimedStream {
 public:
  virtual ~NcclTimedStream() = default;
  // Collective over the group's ranks (MPI barrier): every rank starts the iteration together.
  virtual void barrier() = 0;
  // Puts the gate kernel on the stream: nothing enqueued behind it runs until release_gate().
  virtual void hold_gate() = 0;
  // cudaEventRecord(event, stream): the event takes the GPU's time when the stream reaches it.
  virtual void record(NcclEvent event) = 0;
  // Enqueues the operation on the send/receive windows at `window_offset` bytes and returns once NCCL
  // has accepted it (its host launch and polls happen here, on the host, while the gate holds).
  virtual void enqueue_operation(std::uint64_t window_offset) = 0;
  // Lets the stream run past the gate. Never throws (it runs on the error path too).
  virtual void release_gate() noexcept = 0;
  // Waits until the stream has run everything enqueued (the backend's deadline and abort apply).
  virtual void wait() = 0;
  // After wait(): the gate gave up on its own before release_gate() (its spin limit passed).
  [[nodiscard]] virtual bool gate_expired() const = 0;
  // cudaEventElapsedTime(&ms, from, to): the milliseconds from `from` to `to` on the GPU's clock.
  [[nodiscard]] virtual float elapsed_ms(NcclEvent from, NcclEvent to) const = 0;
};

// Runs `iters` timed iterations and returns one sample per iteration, in seconds: per iteration i, a
// barrier; the gate held; the start event, the operation on window nccl_window_offset(i) and the stop
// event enqueued behind it; the gate released (also when enqueuing throws); a wait for the stream;
// sample = nccl_event_seconds(elapsed from start to stop). The events thus bracket the GPU's work
// only, never the host's launch. Warm-up is the caller's (run_case runs it as a separate call whose
// samples it drops). Throws RuntimeFailure when the gate expired (`what` names the case, `gate_s` is
// the gate's limit) and whatever the stream's steps throw.
std::vector<double> nccl_timed_iterations(NcclTimedStream& stream, int iters, const std::string& what, double gate_s);

}  // namespace podperf

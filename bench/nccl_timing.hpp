#pragma once
// The arithmetic of the NCCL backend's timing, apart from CUDA so that it is unit-tested on a machine
// without a GPU (bench/backend_nccl.cpp and bench/nccl_comm.cpp use it; docs/nccl.md, "How podperf times", says
// why the timing is built so):
// - where iteration i's buffers sit (nccl-tests' rotating windows) and how large the device buffers
//   must be for a case of up to max_bytes;
// - the timing gate's spin limit in nanoseconds and the polls' deadlines, both saturating, so that
//   any --timeout the CLI accepts (every finite value above 0) gives a valid limit;
// - one sample from the two events' elapsed milliseconds.
// Bench floor, local (no MPI, no NCCL, no CUDA).
#include <chrono>
#include <cstdint>

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

}  // namespace podperf

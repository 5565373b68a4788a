// The NCCL backend's timing arithmetic (see nccl_timing.hpp). Bench floor, local.
#include "bench/nccl_timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analysis/base/errors.hpp"

namespace podperf {

std::uint64_t nccl_window_offset(int iteration) {
  if (iteration < 0) throw std::invalid_argument("nccl_window_offset: negative iteration");
  return static_cast<std::uint64_t>(iteration % kNcclWindows) * kNcclWindowBytes;
}

std::uint64_t nccl_buffer_bytes(std::uint64_t max_bytes) {
  return max_bytes + kNcclWindowBytes * static_cast<std::uint64_t>(kNcclWindows - 1);
}

namespace {
double clamp_wait(double seconds) {
  if (std::isnan(seconds)) return kNcclMaxWaitSeconds;  // no limit rather than none at all
  return std::clamp(seconds, 0.0, kNcclMaxWaitSeconds);
}
}  // namespace

std::uint64_t nccl_gate_spin_ns(double max_s) {
  return static_cast<std::uint64_t>(std::llround(clamp_wait(max_s) * 1e9));
}

NcclClock::time_point nccl_deadline_from(NcclClock::time_point now, double seconds) {
  return now + std::chrono::duration_cast<NcclClock::duration>(std::chrono::duration<double>(clamp_wait(seconds)));
}

NcclClock::time_point nccl_deadline_after(double seconds) {
  return nccl_deadline_from(NcclClock::now(), seconds);
}

double nccl_event_seconds(float elapsed_ms) {
  const double s = static_cast<double>(elapsed_ms) / 1e3;
  if (!std::isfinite(s) || s < 0.0) throw RuntimeFailure("cudaEventElapsedTime gave a negative or non-finite time");
  return std::max(s, kCudaEventResolutionSeconds);
}

std::vector<double> nccl_timed_iterations(NcclTimedStream& stream, int iters, const std::string& what, double gate_s) {
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(std::max(iters, 0)));
  for (int i = 0; i < iters; ++i) {
    const std::uint64_t offset = nccl_window_offset(i);
    stream.barrier();
    stream.hold_gate();
    try {
      stream.record(NcclEvent::kStart);
      stream.enqueue_operation(offset);
      stream.record(NcclEvent::kStop);
    } catch (...) {
      stream.release_gate();
      throw;
    }
    stream.release_gate();
    stream.wait();
    if (stream.gate_expired()) {
      throw RuntimeFailure(fmt::format("{}: NCCL took longer than {} s to enqueue (timing gate expired)", what, gate_s));
    }
    samples.push_back(nccl_event_seconds(stream.elapsed_ms(NcclEvent::kStart, NcclEvent::kStop)));
  }
  return samples;
}

}  // namespace podperf

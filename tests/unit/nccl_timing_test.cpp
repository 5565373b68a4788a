// The NCCL backend's timing arithmetic (bench/nccl_timing), which runs without a GPU: the rotating
// windows stay inside the device buffers at every size, the gate's spin limit and the deadlines
// saturate instead of overflowing for any --timeout the CLI accepts, and event times convert to
// seconds with the events' resolution as the floor.
#include "bench/nccl_timing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {

TEST(NcclTiming, WindowsRotateAndStayInsideTheBuffers) {
  EXPECT_EQ(nccl_window_offset(0), 0U);
  EXPECT_EQ(nccl_window_offset(1), kNcclWindowBytes);
  EXPECT_EQ(nccl_window_offset(kNcclWindows), 0U);  // the fifth iteration reuses the first window
  EXPECT_THROW(nccl_window_offset(-1), std::invalid_argument);
  // Sizes from 1 byte to the 8 GiB nccl-tests users run (-e 8G): every iteration's window of the
  // largest case ends inside the buffer, and the last window ends exactly at its end.
  for (const std::uint64_t max_bytes :
       {std::uint64_t{1}, std::uint64_t{4096}, kNcclWindowBytes, std::uint64_t{3} << 30, std::uint64_t{8} << 30}) {
    const std::uint64_t buffer = nccl_buffer_bytes(max_bytes);
    std::uint64_t furthest = 0;
    for (int i = 0; i < 3 * kNcclWindows; ++i) furthest = std::max(furthest, nccl_window_offset(i) + max_bytes);
    EXPECT_EQ(furthest, buffer) << max_bytes;
  }
}

TEST(NcclTiming, GateSpinLimitSaturatesForAnyAcceptedTimeout) {
  EXPECT_EQ(nccl_gate_spin_ns(1.5), 1'500'000'000U);
  EXPECT_EQ(nccl_gate_spin_ns(1e-9), 1U);
  // --timeout accepts every finite value above 0: 1e300 s would overflow a cast to 64 bits.
  const auto most = static_cast<std::uint64_t>(kNcclMaxWaitSeconds * 1e9);
  EXPECT_EQ(nccl_gate_spin_ns(1e300), most);
  EXPECT_EQ(nccl_gate_spin_ns(std::numeric_limits<double>::infinity()), most);
  EXPECT_EQ(nccl_gate_spin_ns(-1.0), 0U);
}

TEST(NcclTiming, DeadlinesSaturateAndNeverLieInThePast) {
  const NcclClock::time_point now = NcclClock::now();
  EXPECT_EQ(nccl_deadline_from(now, 2.0) - now, std::chrono::seconds(2));
  // Unclamped, 1e300 s would wrap the int64 nanoseconds of steady_clock and put the deadline before
  // now: every wait would time out at once.
  const auto far = nccl_deadline_from(now, 1e300);
  EXPECT_GT(far, now);
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::seconds>(far - now).count(),
            static_cast<long long>(kNcclMaxWaitSeconds));
  EXPECT_EQ(nccl_deadline_from(now, -5.0), now);
  EXPECT_GT(nccl_deadline_from(now, std::numeric_limits<double>::quiet_NaN()), now);
}

TEST(NcclTiming, EventMillisecondsBecomeSecondsWithTheResolutionAsFloor) {
  EXPECT_DOUBLE_EQ(nccl_event_seconds(12.5F), 0.0125);
  EXPECT_DOUBLE_EQ(nccl_event_seconds(0.0F), kCudaEventResolutionSeconds);  // never 0 s: infinite busbw
  EXPECT_DOUBLE_EQ(nccl_event_seconds(0.0001F), kCudaEventResolutionSeconds);
  EXPECT_THROW(nccl_event_seconds(-1.0F), RuntimeFailure);
  EXPECT_THROW(nccl_event_seconds(std::numeric_limits<float>::quiet_NaN()), RuntimeFailure);
}

}  // namespace
}  // namespace podperf

// procfs text parsers of the host snapshot: /proc/stat, /proc/meminfo, /proc/self/mountinfo,
// /proc/driver/nvidia/version (signals/snapshot).
#include "signals/snapshot.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  podperf::fuzz::expect_clean([&] {
    const std::string text(podperf::fuzz::text_of(data, size));
    (void)podperf::parse_proc_stat(text);
    (void)podperf::parse_meminfo(text);
    (void)podperf::parse_mountinfo(text);
    (void)podperf::parse_nvidia_driver_version(text);
  });
  return 0;
}

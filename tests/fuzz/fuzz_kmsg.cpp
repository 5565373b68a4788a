// /dev/kmsg records or dmesg text -> Xid/SXid events (signals/kmsg).
#include "signals/kmsg.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  podperf::fuzz::expect_clean([&] {
    const std::string_view text = podperf::fuzz::text_of(data, size);
    (void)podperf::parse_kmsg_xids(text, 0);
    (void)podperf::parse_kmsg_xids(text, 1000000);
    (void)podperf::parse_xid_message(text);
  });
  return 0;
}

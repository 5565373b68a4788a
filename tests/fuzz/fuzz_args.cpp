// Command-line values: sizes (K/M/G), size sweeps, pair lists (sweep/sizes, sweep/pair_schedule).
#include "analysis/base/units.hpp"
#include "sweep/pair_schedule.hpp"
#include "sweep/sizes.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = podperf::fuzz::text_of(data, size);
  podperf::fuzz::expect_clean([&] {
    const std::uint64_t a = podperf::parse_size(text, "-b");
    const std::uint64_t b = podperf::parse_size(text.substr(text.size() / 2), "-e");
    if (b / (a == 0 ? 1 : a) < (1ULL << 40)) (void)podperf::size_sweep(a, b, 2, 0, 4);
  });
  podperf::fuzz::expect_clean([&] {
    const std::vector<std::string> labels{"h0", "h1", "h2", "h3", "ip-10-0-0-1"};
    (void)podperf::pack_rounds(podperf::parse_pair_list(text, labels));
  });
  return 0;
}

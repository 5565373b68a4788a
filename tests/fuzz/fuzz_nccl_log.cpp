// NCCL / aws-ofi-nccl debug log text -> facts -> findings (analysis/nccl_log).
#include "analysis/nccl_log.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  podperf::fuzz::expect_clean([&] {
    const podperf::NcclLogSummary s = podperf::parse_nccl_log(podperf::fuzz::text_of(data, size));
    (void)podperf::nccl_log_findings(s, 4);
    for (const auto& p : s.processes) (void)podperf::describe_transport(p);
  });
  return 0;
}

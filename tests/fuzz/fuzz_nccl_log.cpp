// podperf's captured NCCL / aws-ofi-nccl debug log text -> triage reader -> captured-log findings
// (analysis/logs/nccl_log over analysis/logs).
#include "analysis/logs/nccl_log.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  podperf::fuzz::expect_clean([&] {
    const podperf::logs::TriageResult r = podperf::parse_nccl_log(podperf::fuzz::text_of(data, size));
    (void)podperf::nccl_log_findings(r, 4);
    for (const auto& t : r.transport) (void)podperf::describe_transport(t);
  });
  return 0;
}

// podperf triage's reader on any bytes: the line grammar (launcher wrappers, NCCL prefix, return
// chains), the pattern table, the accumulator (ranking, watchdog comparison, RAS and flight-recorder
// JSON, transport table) and the three printers (analysis/logs, analysis/report/triage_report). The
// input is split in two "files" at its first 0xff byte so cross-file ordering runs too.
#include <algorithm>

#include "analysis/logs/log_reader.hpp"
#include "analysis/logs/triage.hpp"
#include "analysis/report/triage_report.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  podperf::fuzz::expect_clean([&] {
    const std::string_view all = podperf::fuzz::text_of(data, size);
    const std::size_t split = std::min(all.find('\xff'), all.size());
    podperf::logs::TriageAccumulator acc;
    std::size_t order = 0;
    const auto sink = [&acc](const podperf::logs::LogEvent& ev) { acc.add(ev); };
    acc.add_file(podperf::logs::read_log_text(all.substr(0, split), "a.log", order, sink));
    if (split < all.size()) {
      acc.add_file(
          podperf::logs::read_log_text(all.substr(split + 1), "b.json", order, sink, podperf::logs::CutLastLine::drop));
    }
    const podperf::logs::TriageResult r = acc.finish();
    (void)podperf::triage_text(r);
    (void)podperf::triage_markdown(r);
    (void)podperf::triage_json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  });
  return 0;
}

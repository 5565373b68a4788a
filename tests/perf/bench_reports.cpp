// Report writing at scale, on an analyzed synthetic full pair matrix: run.json (what ResultsDir
// writes: the Run as JSON, indent 2), the terminal summary, HTML, Markdown and CSV. Each reports the
// output's size ("bytes") and the memory its writing added (peak over the resident size before).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "analysis/config/thresholds.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/pairs/correlate.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/report/csv.hpp"
#include "analysis/report/html.hpp"
#include "analysis/report/markdown.hpp"
#include "analysis/report/run_text.hpp"
#include "tests/perf/bench_common.hpp"

namespace podperf::perf {

// The Run of n nodes, analyzed as podperf pairs leaves it before writing.
Run& analyzed_run(int n) {
  static int analyzed_n = 0;
  Run& run = cached_run(n);
  if (analyzed_n != n) {
    judge_pairs(run, load_thresholds("").pairs);
    correlate(run);
    analyzed_n = n;
  }
  return run;
}

template <typename Render>
void measure_writer(benchmark::State& state, int n, Render render) {
  Run& run = analyzed_run(n);
  const std::uint64_t before = rss_bytes();
  const bool reset = reset_peak_rss();
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string text = render(run);
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  const std::uint64_t peak = peak_rss_bytes();
  set_pair_counters(state, run.pairs.size());
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["extra_MiB"] = reset && peak > before ? mib(peak - before) : -1.0;
}

// run.json as ResultsDir writes it (write_run_json, streamed in 1 MiB pieces; here counted, not
// kept, as the file takes them): "bytes" is the file's size.
void BM_RunJson(benchmark::State& state, int n) {
  Run& run = analyzed_run(n);
  const std::uint64_t before = rss_bytes();
  const bool reset = reset_peak_rss();
  std::size_t bytes = 0;
  for (auto _ : state) {
    bytes = 1;  // the final newline
    write_run_json(run, [&bytes](std::string_view text) { bytes += text.size(); });
  }
  const std::uint64_t peak = peak_rss_bytes();
  set_pair_counters(state, run.pairs.size());
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["extra_MiB"] = reset && peak > before ? mib(peak - before) : -1.0;
}

// The same text through a JSON tree of the whole Run (what podperf did before write_run_json): about
// 4 KiB of memory per pair, so not at 4096 nodes (tens of GiB).
void BM_RunJsonTree(benchmark::State& state, int n) {
  if (n > 1024) {
    state.SkipWithError("skipped above 1024 nodes: the tree would need tens of GiB");
    for (auto _ : state) {
    }
    return;
  }
  measure_writer(state, n, [](const Run& run) {
    return nlohmann::json(run).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  });
}
void BM_Summary(benchmark::State& state, int n) {
  measure_writer(state, n, [](const Run& run) { return render_summary(run, "/results/perf-scale"); });
}
// Reading run.json back (podperf report, compare, accept --from): the file written once to /var/tmp
// (about 1.1 KB a pair), then read_run_json, whose parser hands each pair over as it is parsed instead
// of building one JSON tree of the whole file. "extra_MiB" includes the Run it returns (what the input
// Run holds: about 416 bytes a pair with 10 samples). Skipped when /var/tmp has too little room.
void BM_ReadRunJson(benchmark::State& state, int n) {
  Run& run = analyzed_run(n);
  const std::filesystem::path file = std::filesystem::path("/var/tmp") / fmt::format("podperf-bench-{}.json", n);
  std::error_code ec;
  const std::filesystem::space_info space = std::filesystem::space(file.parent_path(), ec);
  const std::uintmax_t needed = run.pairs.size() * 1200 + (64U << 20);
  if (ec || space.available < 2 * needed) {
    static std::string why;  // SkipWithError keeps the pointer
    why = fmt::format("skipped: {} needs about {} MiB free, has {}", file.parent_path().string(), 2 * needed >> 20,
                      ec ? 0 : space.available >> 20);
    state.SkipWithError(why.c_str());
    for (auto _ : state) {
    }
    return;
  }
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    write_run_json(run, [&out](std::string_view text) { out.write(text.data(), static_cast<std::streamsize>(text.size())); });
    out << "\n";
  }
  const std::uintmax_t bytes = std::filesystem::file_size(file, ec);
  const std::uint64_t before = rss_bytes();
  const bool reset = reset_peak_rss();
  std::size_t pairs = 0;
  for (auto _ : state) {
    Run read = read_run_json(file.string());
    pairs = read.pairs.size();
    benchmark::DoNotOptimize(read.pairs.data());
  }
  const std::uint64_t peak = peak_rss_bytes();
  std::filesystem::remove(file, ec);
  if (pairs != run.pairs.size()) state.SkipWithError("read back a different number of pairs");
  set_pair_counters(state, run.pairs.size());
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["extra_MiB"] = reset && peak > before ? mib(peak - before) : -1.0;
}

void BM_Html(benchmark::State& state, int n) {
  measure_writer(state, n, [](const Run& run) { return render_html(run); });
}
void BM_Markdown(benchmark::State& state, int n) {
  measure_writer(state, n, [](const Run& run) { return render_markdown(run); });
}
void BM_Csv(benchmark::State& state, int n) {
  measure_writer(state, n, [](const Run& run) { return render_csv(run); });
}

}  // namespace podperf::perf

PODPERF_SCALE_BENCHMARK_MAIN({"BM_Summary", podperf::perf::BM_Summary}, {"BM_Html", podperf::perf::BM_Html},
                             {"BM_Markdown", podperf::perf::BM_Markdown}, {"BM_Csv", podperf::perf::BM_Csv},
                             {"BM_RunJson", podperf::perf::BM_RunJson},
                             {"BM_RunJsonTree", podperf::perf::BM_RunJsonTree},
                             {"BM_ReadRunJson", podperf::perf::BM_ReadRunJson})

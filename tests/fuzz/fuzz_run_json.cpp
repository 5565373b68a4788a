// run.json as `podperf compare`, `report` and `accept --from` read it, then the pure analysis and the
// terminal projections on whatever it holds (analysis/io/run_json, pair_flags, fs_analysis, summary), and
// podperf compare of the run against itself and against its analyzed copy (text, JSON, HTML).
#include "analysis/compare/compare.hpp"
#include "analysis/config/thresholds.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "analysis/io/run_events.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/pairs/correlate.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/report/compare_html.hpp"
#include "analysis/report/comparison_json.hpp"
#include "analysis/report/comparison_text.hpp"
#include "analysis/report/run_text.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  podperf::fuzz::expect_clean([&] {
    podperf::Run run = podperf::parse_run_json(podperf::fuzz::text_of(data, size), "fuzz.json");
    if (run.nodes.size() > 256 || run.pairs.size() > 4096) return;  // keep each input fast
    const podperf::Run read = run;
    static const podperf::Thresholds t = podperf::load_thresholds("");
    podperf::judge_pairs(run, t.pairs);
    podperf::judge_fs(run, t.fs);
    podperf::correlate(run);
    (void)podperf::render_summary(run, "");
    (void)podperf::pairs_exit_code(run);
    static const podperf::CompareSettings settings = podperf::load_compare_settings("");
    for (const podperf::Comparison& c :
         {podperf::compare_runs(read, run, settings), podperf::compare_runs({read, read}, {run, run}, settings)}) {
      (void)podperf::comparison_text(podperf::at_fail_on(c, 0.0));
      (void)podperf::comparison_json(c).dump();
      (void)podperf::render_compare_html(podperf::at_fail_on(c, 0.0));
      (void)podperf::regressed_beyond(c, 0.0);
    }
  });
  // The same bytes as events.jsonl (podperf report rebuilding a crashed run).
  podperf::fuzz::expect_clean([&] {
    podperf::RebuiltRun r = podperf::run_from_events(podperf::fuzz::text_of(data, size), "fuzz.jsonl");
    if (r.run.nodes.size() > 256 || r.run.pairs.size() > 4096) return;
    static const podperf::Thresholds t = podperf::load_thresholds("");
    podperf::judge_pairs(r.run, t.pairs);
    (void)podperf::render_summary(r.run, "");
  });
  return 0;
}

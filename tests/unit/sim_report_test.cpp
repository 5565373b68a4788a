// Every output of a run from the modelled fabric says SIMULATED, and an adaptive run says how many
// rounds it used against the full schedule; a real run's outputs say neither.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/pairs/pair_judge.hpp"
#include "analysis/report/csv.hpp"
#include "analysis/report/html.hpp"
#include "analysis/report/junit.hpp"
#include "analysis/report/markdown.hpp"
#include "analysis/report/run_text.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

Run simulated_adaptive_run(bool simulated) {
  Run run = synthetic::make_run(8, [](int, int) { return 100.0; });
  run.backend = simulated ? "sim" : "host";
  run.simulated = simulated;
  run.sim_model = simulated ? "configs/sim/healthy.toml (built in)" : "";
  run.options.schedule = simulated ? "adaptive" : "all";
  run.options.seed = 7;
  run.rounds_completed = run.rounds_planned = 4;
  run.rounds_full_schedule = 7;
  run.verdict.status = "PASS";
  run.verdict.checks.push_back({"", "busbw_min", "PASS", "ok"});
  return run;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

TEST(SimReport, EveryOutputSaysSimulated) {
  const podperf::Run run = simulated_adaptive_run(true);
  const std::string summary = render_summary(run, "/tmp/x");
  EXPECT_TRUE(has(summary, "\nSIMULATED (model configs/sim/healthy.toml (built in)): every number comes from a model"))
      << summary;
  EXPECT_TRUE(has(summary, "adaptive schedule (seed 7): 4 rounds instead of 7 for every pair")) << summary;
  // What the adaptive schedule cannot tell, and what settles it.
  EXPECT_TRUE(has(summary, "a node 5-15% slow may be missed")) << summary;
  EXPECT_TRUE(has(summary, "with --schedule all")) << summary;
  EXPECT_TRUE(has(render_markdown(run), "with --schedule all"));
  const std::string html = render_html(run);
  EXPECT_TRUE(has(html, "id=\"simulated\"")) << html.substr(0, 2000);
  EXPECT_TRUE(has(html, "adaptive schedule (seed 7): 4 rounds instead of 7 for every pair"));
  const std::string md = render_markdown(run);
  EXPECT_TRUE(has(md, "> **SIMULATED (model")) << md;
  const std::string csv = render_csv(run);
  const std::string header = csv.substr(0, csv.find("\r\n"));
  EXPECT_TRUE(header.size() > 10 && header.substr(header.size() - 10) == ",simulated") << header;
  const std::string row = csv.substr(header.size() + 2, csv.find("\r\n", header.size() + 2) - header.size() - 2);
  EXPECT_TRUE(row.size() > 5 && row.substr(row.size() - 5) == ",true") << row;
  EXPECT_TRUE(has(render_junit(run), "<property name=\"simulated\" value=\"SIMULATED (model")) << render_junit(run);
}

TEST(SimReport, RealRunsSayNeither) {
  const podperf::Run run = simulated_adaptive_run(false);
  for (const std::string& out :
       std::vector<std::string>{render_summary(run, "/tmp/x"), render_html(run), render_markdown(run), render_csv(run),
                                render_junit(run)}) {
    EXPECT_FALSE(has(out, "SIMULATED")) << out.substr(0, 300);
    EXPECT_FALSE(has(out, "simulated")) << out.substr(0, 300);
    EXPECT_FALSE(has(out, "adaptive schedule")) << out.substr(0, 300);
  }
}

}  // namespace
}  // namespace podperf

// podperf compare on runs with failed measurements: a pair, collective case or filesystem probe that
// failed (error, wrong, timeout) has no value in that run; a failure in AFTER that no BEFORE run had is
// a regression whatever --fail-on says (it would otherwise be "only in BEFORE" and exit 0), one on both
// sides is not new, one only in BEFORE is fixed, and a run that did not complete is a failure of its side.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/compare/compare.hpp"
#include "analysis/report/compare_html.hpp"
#include "analysis/report/comparison_json.hpp"
#include "analysis/report/comparison_text.hpp"
#include "noisy_runs.hpp"

namespace podperf {
namespace {

using noisy::ClusterSpec;
using noisy::kM;
using noisy::make_noisy_run;
using Runs = std::vector<podperf::Run>;

Runs runs_of(std::uint64_t seed, int k) {
  Runs out;
  for (int i = 0; i < k; ++i) out.push_back(make_noisy_run(ClusterSpec{}, seed + static_cast<std::uint64_t>(i)));
  return out;
}

// The pair node1<->node4 at 64M of `run` fails with `status`.
void fail_pair(podperf::Run& run, const std::string& status) {
  for (PairResult& p : run.pairs) {
    if (p.size_bytes == 64 * kM && run.nodes[p.nodes[0]].label == "node1" && run.nodes[p.nodes[1]].label == "node4") {
      p.status = status;
      p.error = "ncclCommInitRank: unhandled system error (h1 rank 3)";
      p.samples_s.clear();
    }
  }
}

const std::string kPair = "pair node1<->node4 all_reduce float 64M busbw";

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(CompareFailures, APairFailedInOneAfterRunIsARegressionWhateverFailOn) {
  Runs after = runs_of(4, 3);
  fail_pair(after[1], "error");
  const Comparison c = compare_runs(runs_of(1, 3), after, load_compare_settings(""));
  ASSERT_EQ(c.failures_after.size(), 1U);
  EXPECT_EQ(c.failures_after[0].what, kPair);
  EXPECT_EQ(c.failures_after[0].status, "error");
  EXPECT_EQ(c.failures_after[0].runs, std::vector<std::string>{"run-5"});
  EXPECT_FALSE(c.failures_after[0].other_side_too);
  EXPECT_EQ(c.summary.failures_new, 1);
  EXPECT_TRUE(c.failures_before.empty());
  EXPECT_TRUE(regressed_beyond(c, 1000.0));
  // The other two AFTER runs still measured it: it is compared on them, and not "only in BEFORE".
  EXPECT_FALSE(contains(c.only_before, kPair));
  const std::string text = comparison_text(at_fail_on(c, 10.0));
  EXPECT_NE(text.find("REGRESSION: 1 failure in AFTER that no BEFORE run had"), std::string::npos) << text;
  EXPECT_NE(text.find(kPair + ": error in run run-5 (ncclCommInitRank: unhandled system error"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("No regression"), std::string::npos) << text;
  const nlohmann::json j = comparison_json(c);
  EXPECT_EQ(j["summary"]["failures_new"], 1);
  EXPECT_EQ(j["failures"]["after"][0]["what"], kPair);
  EXPECT_EQ(j["failures"]["after"][0]["runs"][0], "run-5");
  const std::string html = render_compare_html(at_fail_on(c, 10.0));
  EXPECT_NE(html.find("failure in AFTER that no BEFORE run had"), std::string::npos);
  EXPECT_NE(html.find("class=\"verdict fail\""), std::string::npos);
}

TEST(CompareFailures, FailedInEveryAfterRunIsNotOnlyInBefore) {
  Runs after = runs_of(4, 3);
  for (podperf::Run& r : after) fail_pair(r, "timeout");
  const Comparison c = compare_runs(runs_of(1, 3), after, load_compare_settings(""));
  EXPECT_EQ(c.summary.failures_new, 1);
  EXPECT_EQ(c.failures_after[0].runs, (std::vector<std::string>{"run-4", "run-5", "run-6"}));
  EXPECT_EQ(c.failures_after[0].status, "timeout");
  EXPECT_FALSE(contains(c.only_before, kPair));
  EXPECT_EQ(c.summary.only_before, 0);
  for (const MetricComparison& m : c.metrics) EXPECT_NE(m.name(), kPair);
  EXPECT_TRUE(regressed_beyond(c, 0.0));
}

TEST(CompareFailures, FailedOnBothSidesIsNotNewAndFixedIsNotARegression) {
  Runs before = runs_of(1, 3), after = runs_of(4, 3);
  fail_pair(before[0], "wrong");
  fail_pair(after[2], "wrong");
  Comparison c = compare_runs(before, after, load_compare_settings(""));
  EXPECT_EQ(c.summary.failures_new, 0);
  EXPECT_EQ(c.summary.failures_both, 1);
  EXPECT_EQ(c.summary.failures_fixed, 0);
  EXPECT_TRUE(c.failures_after[0].other_side_too);
  EXPECT_TRUE(c.failures_before[0].other_side_too);
  EXPECT_FALSE(regressed_beyond(c, 10.0));
  EXPECT_NE(comparison_text(at_fail_on(c, 10.0)).find("1 failure on both sides"), std::string::npos);
  // Fixed: failed in BEFORE only.
  for (podperf::Run& r : before) fail_pair(r, "error");
  c = compare_runs(before, runs_of(4, 3), load_compare_settings(""));
  EXPECT_EQ(c.summary.failures_fixed, 1);
  EXPECT_EQ(c.summary.failures_new, 0);
  EXPECT_FALSE(contains(c.only_after, kPair));
  EXPECT_FALSE(regressed_beyond(c, 10.0));
  EXPECT_NE(comparison_text(at_fail_on(c, 10.0)).find("Fixed: 1 failure of BEFORE that no AFTER run had"),
            std::string::npos);
}

TEST(CompareFailures, CollectivesAndFilesystemProbes) {
  auto with_collective = [](podperf::Run run, const std::string& status) {
    CollectiveResult col;
    col.op = "all_reduce";
    col.dtype = "float";
    col.group = "all";
    col.size_bytes = 64 * kM;
    col.samples_s = {0.01, 0.0101, 0.0099};
    col.median_s = 0.01;
    col.busbw_gbps = 10.0;
    col.status = status;
    run.collectives.push_back(col);
    return run;
  };
  Runs before, after;
  for (podperf::Run& r : runs_of(1, 2)) before.push_back(with_collective(r, "ok"));
  for (podperf::Run& r : runs_of(4, 2)) after.push_back(with_collective(r, "ok"));
  after[0].collectives.back().status = "wrong";
  after[1].collectives.back().status = "skipped";  // no such form on this backend: not a failure
  after[1].fs.probes[0].ranks[3].status = "error";
  after[1].fs.probes[0].ranks[3].error = "node node0 rank 3: write: No space left on device";
  const Comparison c = compare_runs(before, after, load_compare_settings(""));
  std::vector<std::string> what;
  for (const ComparedFailure& f : c.failures_after) what.push_back(f.what + " " + f.status + " " + f.runs[0]);
  ASSERT_EQ(what.size(), 2U) << testing::PrintToString(what);
  EXPECT_NE(what[0].find("all_reduce"), std::string::npos) << what[0];
  EXPECT_NE(what[0].find(" wrong run-4"), std::string::npos) << what[0];
  EXPECT_NE(what[1].find("seq-write"), std::string::npos) << what[1];
  EXPECT_NE(what[1].find(" error run-5"), std::string::npos) << what[1];
  EXPECT_EQ(c.failures_after[1].error, "node node0 rank 3: write: No space left on device");
  EXPECT_TRUE(regressed_beyond(c, 0.0));
}

TEST(CompareFailures, ARunThatDidNotCompleteIsAFailureOfItsSide) {
  Runs after = runs_of(4, 2);
  after[1].status = "aborted";
  after[1].error = "watchdog: pair h1 <-> h4 hung for 300 s in round 3";
  Comparison c = compare_runs(runs_of(1, 2), after, load_compare_settings(""));
  ASSERT_EQ(c.failures_after.size(), 1U);
  EXPECT_EQ(c.failures_after[0].what, "run run-5 did not complete");
  EXPECT_EQ(c.failures_after[0].status, "aborted");
  EXPECT_TRUE(regressed_beyond(c, 100.0));
  // Incomplete on both sides: not new.
  Runs before = runs_of(1, 2);
  before[0].status = "timeout";
  c = compare_runs(before, after, load_compare_settings(""));
  EXPECT_EQ(c.summary.failures_new, 0);
  EXPECT_EQ(c.summary.failures_both, 1);
  EXPECT_FALSE(regressed_beyond(c, 100.0));
}

}  // namespace
}  // namespace podperf

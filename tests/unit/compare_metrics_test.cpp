// podperf compare at scale: the metric registry and per-run summaries (analysis/compare/compare_metrics) and
// the t quantile's shortcut. A run's summary is the same for any number of threads; a pair is one metric
// whatever the order or index of its nodes in each run; entries of one metric in one run are summarized
// together; the quantile gives the same bits as the plain bisection; comparisons built one run at a time
// (RunComparison, as podperf compare reads runs) equal compare_runs.
#include "analysis/compare/compare_metrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/compare/compare.hpp"
#include "analysis/report/comparison_json.hpp"
#include "analysis/stats/change_stats.hpp"
#include "noisy_runs.hpp"

namespace podperf {
namespace {

using noisy::ClusterSpec;
using noisy::make_noisy_run;

// student_t_quantile is Boost.Math's quantile of Student's t (issue 32: no hand-written quantile search):
// it inverts the cdf to 1e-10 over the grid the hand-written bisection was checked on, and it is not
// clamped at +-1e4 as that bisection was (df 0.3 at p 1e-9 lies near -3e28).
TEST(StudentTQuantile, InvertsTheCdfWithoutAClamp) {
  int checked = 0;
  for (double df : {0.3, 1.0, 1.0000001, 1.7, 2.0, 2.5, 3.9, 4.0, 7.31, 12.0, 33.3, 150.0, 1e4, 1e6}) {
    for (double p : {1e-9, 0.001, 0.025, 0.05, 0.2, 0.5, 0.8, 0.9, 0.95, 0.975, 0.995, 0.999999}) {
      const double q = student_t_quantile(p, df);
      const double back = student_t_cdf(q, df);
      EXPECT_NEAR(back, p, 1e-10 * std::min(p, 1.0 - p) + 1e-15) << "p " << p << " df " << df << " q " << q;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 14 * 12);
  EXPECT_LT(student_t_quantile(1e-9, 0.3), -1e20);
  EXPECT_EQ(student_t_quantile(0.0, 3.0), -INFINITY);
  EXPECT_EQ(student_t_quantile(1.0, 3.0), INFINITY);
}

PairResult pair(int a, int b, std::uint64_t size, std::vector<double> samples_s) {
  PairResult p;
  p.nodes = {a, b};
  p.size_bytes = size;
  p.samples_s = std::move(samples_s);
  std::vector<double> copy = p.samples_s;
  p.median_s = sample_median(copy);
  p.busbw_gbps = 100.0;
  return p;
}

podperf::Run three_nodes(const std::vector<std::string>& labels) {
  podperf::Run run;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    NodeInfo n;
    n.index = static_cast<int>(i);
    n.label = labels[i];
    run.nodes.push_back(n);
  }
  return run;
}

TEST(MetricRegistry, PairIsOneMetricWhateverTheOrderOfItsNodes) {
  MetricRegistry registry;
  podperf::Run first = three_nodes({"a", "b", "c"});
  first.pairs.push_back(pair(0, 1, 1 << 20, {1.0, 2.0, 3.0}));
  // The other run lists its nodes in another order and measured the pair the other way round.
  podperf::Run second = three_nodes({"c", "b", "a"});
  second.pairs.push_back(pair(1, 2, 1 << 20, {1.0, 1.0}));
  const RunMetricSummary s1 = summarize_run_metrics(first, registry);
  const RunMetricSummary s2 = summarize_run_metrics(second, registry);
  ASSERT_EQ(s1.metrics.size(), 1u);
  ASSERT_EQ(s2.metrics.size(), 1u);
  EXPECT_EQ(s1.metrics[0], s2.metrics[0]);
  EXPECT_EQ(registry.size(), 1u);
  EXPECT_EQ(registry.name(s1.metrics[0]), "pair a<->b all_reduce float 1M busbw");
  const MetricKey key = registry.key(s1.metrics[0]);
  EXPECT_EQ(key.kind, "pair");
  EXPECT_EQ(key.nodes, "a<->b");
  EXPECT_EQ(key.size_bytes, 1u << 20);
  // busbw per iteration = busbw * median / t: 100 * 2 / {1, 2, 3}, median 100.
  EXPECT_DOUBLE_EQ(s1.values[0], 100.0);
  EXPECT_EQ(s1.samples[0], 3u);
  EXPECT_EQ(s2.samples[0], 2u);
}

TEST(MetricRegistry, EntriesOfOneMetricInOneRunAreSummarizedTogether) {
  MetricRegistry registry;
  podperf::Run run = three_nodes({"a", "b", "c"});
  run.pairs.push_back(pair(0, 1, 1 << 20, {1.0, 1.0, 1.0}));  // busbw 100 x3
  run.pairs.push_back(pair(0, 2, 1 << 20, {1.0}));
  run.pairs.push_back(pair(1, 0, 1 << 20, {2.0, 2.0}));  // the same pair again: busbw 100 * 2 / 2 = 100 x2
  run.pairs.back().busbw_gbps = 50.0;                    // now 50 * 2 / 2 = 50 x2: median of 5 values = 100
  run.pairs.push_back(pair(5, 1, 1 << 20, {1.0}));       // a node the run does not list
  run.pairs.back().status = "ok";
  PairResult failed = pair(1, 2, 1 << 20, {1.0});
  failed.status = "timeout";
  run.pairs.push_back(failed);
  const RunMetricSummary s = summarize_run_metrics(run, registry);
  ASSERT_EQ(s.metrics.size(), 3u);  // a<->b, a<->c, b<->node5; the timeout is no metric
  EXPECT_EQ(s.samples[0], 5u);
  EXPECT_DOUBLE_EQ(s.values[0], 100.0);
  EXPECT_EQ(registry.name(s.metrics[2]), "pair b<->node5 all_reduce float 1M busbw");
}

TEST(MetricRegistry, SummaryIsTheSameForAnyNumberOfThreads) {
  const podperf::Run run = make_noisy_run(ClusterSpec{}, 7);
  MetricRegistry r1, r4;
  const RunMetricSummary one = summarize_run_metrics(run, r1, 1);
  const RunMetricSummary four = summarize_run_metrics(run, r4, 4);
  ASSERT_GT(one.metrics.size(), 40u);
  EXPECT_EQ(one.metrics, four.metrics);
  EXPECT_EQ(one.values, four.values);
  EXPECT_EQ(one.samples, four.samples);
  for (std::size_t i = 0; i < one.metrics.size(); ++i) EXPECT_EQ(r1.name(one.metrics[i]), r4.name(four.metrics[i]));
}

// podperf compare adds a run, drops its pairs and reads the next: the same comparison as compare_runs
// with every run whole.
TEST(RunComparison, RunsAddedOneAtATimeWithTheirPairsDroppedEqualCompareRuns) {
  const ClusterSpec spec;
  ClusterSpec slow = spec;
  slow.time_factor = [](const std::string& a, const std::string& b, std::uint64_t) {
    return a == "node1" && b == "node4" ? 1.25 : 1.0;
  };
  std::vector<podperf::Run> before, after;
  for (std::uint64_t s = 1; s <= 3; ++s) before.push_back(make_noisy_run(spec, s));
  for (std::uint64_t s = 4; s <= 6; ++s) after.push_back(make_noisy_run(slow, s));
  const Comparison whole = compare_runs(before, after, CompareSettings{});
  RunComparison built{CompareSettings{}};
  for (podperf::Run& r : before) {
    built.add_before(r);
    r.pairs.clear();
  }
  for (podperf::Run& r : after) {
    built.add_after(r);
    r.pairs.clear();
  }
  const Comparison stepwise = built.finish();
  EXPECT_EQ(comparison_json(stepwise).dump(), comparison_json(whole).dump());
  EXPECT_EQ(whole.summary.slower, 3);
}

}  // namespace
}  // namespace podperf

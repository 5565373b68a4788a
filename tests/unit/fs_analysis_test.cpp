// Filesystem probe analysis (summarize_fs_probe, judge_fs, fs_exit_code), the FSx capacity table
// (configs/filesystems.toml, fsx_expected) and the filesystem section of the terminal summary.
#include "analysis/fs/fs_analysis.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/config/fs_capacity.hpp"
#include "analysis/config/thresholds.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/report/fs_text.hpp"
#include "signals/rules.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

FsThresholds thresholds() {
  return load_thresholds("").fs;
}

FsRankResult rank_result(int rank, int node, std::uint64_t bytes, double start_s, double end_s) {
  FsRankResult r;
  r.rank = rank;
  r.node = node;
  r.file = fmt::format("rank{}.dat", rank);
  r.bytes = bytes;
  r.start_s = start_s;
  r.end_s = end_s;
  return r;
}

// A probe over nodes at the given MB/s: each node's 2 ranks (make_nodes) move 1 GB each, from 0 s.
FsProbeResult probe_at(const std::string& name, const std::vector<double>& node_mb_s) {
  FsProbeResult p;
  p.probe = name;
  p.block_size_bytes = 1 << 20;
  p.file_size_bytes = 1ULL << 30;
  p.files_per_rank = 1;
  for (std::size_t i = 0; i < node_mb_s.size(); ++i) {
    const int node = static_cast<int>(i);
    const double end_s = 2.0e9 / (node_mb_s[i] * 1e6);
    for (int k = 0; k < 2; ++k) {
      FsRankResult r = rank_result(2 * node + k, node, 1'000'000'000ULL, 0.0, end_s);
      if (fs_probe_is_meta(name)) {
        r.bytes = 0;
        r.ops = static_cast<std::uint64_t>(std::llround(node_mb_s[i] * end_s / 2.0));  // node_mb_s read as ops/s
      }
      p.ranks.push_back(r);
    }
  }
  return p;
}

Run fs_run(const std::vector<double>& node_mb_s, const std::string& probe = "seq-read") {
  podperf::Run run;
  run.command = "fs";
  run.run_id = "fs-test";
  run.nodes = synthetic::make_nodes(static_cast<int>(node_mb_s.size()));
  run.ranks = 2 * static_cast<int>(node_mb_s.size());
  run.fs.path = "/fsx/podperf";
  run.fs.probe_dir = "/fsx/podperf/podperf-fs-test";
  run.fs.fs_type = "lustre";
  run.fs.shared = true;
  run.fs.probes.push_back(probe_at(probe, node_mb_s));
  return run;
}

Finding host_finding(Tag tag, const std::string& check, const std::string& host, const std::string& observed) {
  Finding f;
  f.tag = tag;
  f.source = "signals";
  f.check = check;
  f.host = host;
  f.observed = observed;
  f.next_step = "look at " + check;
  // Ranked as the rule table ranks what the check writes (as evaluate() stamps it).
  if (const std::optional<CauseRanks> rank = signal_cause_ranks(check)) {
    f.pair_cause_rank = rank->pair;
    f.fs_cause_rank = rank->fs;
  }
  return f;
}

std::vector<const Finding*> findings_with(const Run& run, const std::string& check) {
  std::vector<const Finding*> out;
  for (const Finding& f : run.findings) {
    if (f.check == check) out.push_back(&f);
  }
  return out;
}

// ---- summarize_fs_probe ----

TEST(FsAnalysis, AggregateIsIorStyleOnAFixedTable) {
  FsProbeResult p;
  p.probe = "seq-write";
  p.ranks = {rank_result(0, 0, 100'000'000, 0.0, 1.0), rank_result(1, 0, 200'000'000, 0.1, 2.0),
             rank_result(2, 1, 300'000'000, 0.05, 4.0)};
  summarize_fs_probe(p, synthetic::make_nodes(2));
  EXPECT_EQ(p.bytes, 600'000'000U);
  EXPECT_DOUBLE_EQ(p.duration_s, 4.0);    // last end - first start
  EXPECT_DOUBLE_EQ(p.first_done_s, 1.0);  // rank 0 finished first
  EXPECT_DOUBLE_EQ(p.mb_per_s, 150.0);    // 600 MB / 4 s: not the sum of the ranks' rates
  EXPECT_NEAR(p.ranks[1].mb_per_s, 200.0 / 1.9, 1e-9);
  EXPECT_NEAR(p.ranks[2].mb_per_s, 300.0 / 3.95, 1e-9);
  EXPECT_EQ(p.status, "ok");
  EXPECT_DOUBLE_EQ(p.cached_fraction_max, -1.0);  // nothing measured it
}

TEST(FsAnalysis, FirstDoneAndLastDoneShowTheTail) {
  FsProbeResult p;
  p.probe = "seq-read";
  // Three ranks done by 2 s, one straggler at 10 s: the aggregate counts it, first done does not.
  p.ranks = {rank_result(0, 0, 1'000'000'000, 0.0, 2.0), rank_result(1, 0, 1'000'000'000, 0.0, 2.0),
             rank_result(2, 1, 1'000'000'000, 0.0, 1.5), rank_result(3, 1, 1'000'000'000, 0.0, 10.0)};
  summarize_fs_probe(p, synthetic::make_nodes(2));
  EXPECT_DOUBLE_EQ(p.first_done_s, 1.5);
  EXPECT_DOUBLE_EQ(p.duration_s, 10.0);
  EXPECT_DOUBLE_EQ(p.mb_per_s, 400.0);
}

TEST(FsAnalysis, NodesAggregateTheirRanks) {
  FsProbeResult p;
  p.probe = "seq-write";
  p.ranks = {rank_result(3, 1, 300'000'000, 0.5, 2.5), rank_result(0, 0, 100'000'000, 0.0, 1.0),
             rank_result(1, 0, 200'000'000, 0.2, 2.0), rank_result(2, 1, 100'000'000, 0.25, 1.0)};
  summarize_fs_probe(p, synthetic::make_nodes(2));
  ASSERT_EQ(p.nodes.size(), 2U);
  EXPECT_EQ(p.nodes[0].node, 0);  // ascending, whatever the rank order
  EXPECT_EQ(p.nodes[0].label, "node0");
  EXPECT_EQ(p.nodes[0].ranks, 2);
  EXPECT_EQ(p.nodes[0].bytes, 300'000'000U);
  EXPECT_DOUBLE_EQ(p.nodes[0].start_s, 0.0);
  EXPECT_DOUBLE_EQ(p.nodes[0].end_s, 2.0);
  EXPECT_DOUBLE_EQ(p.nodes[0].mb_per_s, 150.0);
  EXPECT_EQ(p.nodes[1].label, "node1");
  EXPECT_EQ(p.nodes[1].bytes, 400'000'000U);
  EXPECT_DOUBLE_EQ(p.nodes[1].start_s, 0.25);
  EXPECT_DOUBLE_EQ(p.nodes[1].end_s, 2.5);
  EXPECT_NEAR(p.nodes[1].mb_per_s, 400.0 / 2.25, 1e-9);
}

TEST(FsAnalysis, ErrorRankCountsOnlyTowardsTheStatus) {
  FsProbeResult p;
  p.probe = "seq-write";
  p.ranks = {rank_result(0, 0, 100'000'000, 0.0, 1.0), rank_result(1, 1, 100'000'000, 0.0, 1.0),
             rank_result(2, 1, 900'000'000, 0.0, 30.0)};
  p.ranks[2].status = "error";
  p.ranks[2].error = "node node1 rank 2: write rank2.dat at offset 0: No space left on device";
  summarize_fs_probe(p, synthetic::make_nodes(2));
  EXPECT_EQ(p.bytes, 200'000'000U);
  EXPECT_DOUBLE_EQ(p.duration_s, 1.0);
  EXPECT_EQ(p.status, "error");
  EXPECT_EQ(p.error, p.ranks[2].error);
  EXPECT_EQ(p.nodes[1].ranks, 2);
  EXPECT_EQ(p.nodes[1].bytes, 100'000'000U);
}

TEST(FsAnalysis, WorstStatusWinsAndMismatchesMeanWrong) {
  FsProbeResult p;
  p.probe = "ckpt-load";
  p.ranks = {rank_result(0, 0, 10, 0.0, 1.0), rank_result(1, 0, 10, 0.0, 1.0)};
  p.ranks[1].checksum_mismatches = 2;  // reported ok, but did not verify
  summarize_fs_probe(p, synthetic::make_nodes(1));
  EXPECT_EQ(p.status, "wrong");
  p.ranks[0].status = "error";
  p.ranks[0].error = "open failed";
  summarize_fs_probe(p, synthetic::make_nodes(1));
  EXPECT_EQ(p.status, "error");
  EXPECT_EQ(p.error, "open failed");
}

TEST(FsAnalysis, LatencyPercentilesNearestRank) {
  FsProbeResult p;
  p.probe = "rand-read";
  p.ranks = {rank_result(0, 0, 4096 * 100, 0.0, 1.0), rank_result(1, 1, 4096 * 100, 0.0, 1.0),
             rank_result(2, 1, 4096, 0.0, 1.0)};
  for (int i = 1; i <= 100; ++i) {
    p.ranks[0].latency_us.push_back(i);
    p.ranks[1].latency_us.push_back(100 + i);
  }
  std::reverse(p.ranks[1].latency_us.begin(), p.ranks[1].latency_us.end());  // order does not matter
  p.ranks[2].status = "error";
  p.ranks[2].latency_us = {1e9};  // a failed rank's samples are not counted
  summarize_fs_probe(p, synthetic::make_nodes(2));
  EXPECT_DOUBLE_EQ(p.ranks[0].lat_p50_us, 50.0);
  EXPECT_DOUBLE_EQ(p.ranks[0].lat_p90_us, 90.0);
  EXPECT_DOUBLE_EQ(p.ranks[0].lat_p99_us, 99.0);
  EXPECT_DOUBLE_EQ(p.ranks[0].lat_p999_us, 100.0);
  EXPECT_DOUBLE_EQ(p.ranks[1].lat_p50_us, 150.0);
  // All ranks: 1..200.
  EXPECT_DOUBLE_EQ(p.lat_p50_us, 100.0);
  EXPECT_DOUBLE_EQ(p.lat_p90_us, 180.0);
  EXPECT_DOUBLE_EQ(p.lat_p99_us, 198.0);
  EXPECT_DOUBLE_EQ(p.lat_p999_us, 200.0);
}

TEST(FsAnalysis, LatencyPercentilesSurviveARunReadBack) {
  // run.json has no samples: analysing a run read back keeps the percentiles it was written with.
  FsProbeResult p;
  p.probe = "rand-read";
  p.ranks = {rank_result(0, 0, 4096, 0.0, 1.0)};
  p.ranks[0].lat_p99_us = 700.0;
  p.lat_p50_us = 120.0;
  p.lat_p999_us = 900.0;
  summarize_fs_probe(p, synthetic::make_nodes(1));
  EXPECT_DOUBLE_EQ(p.lat_p50_us, 120.0);
  EXPECT_DOUBLE_EQ(p.lat_p999_us, 900.0);
  EXPECT_DOUBLE_EQ(p.ranks[0].lat_p99_us, 700.0);
}

TEST(FsAnalysis, MetaPhasesAreJudgedOnOpsPerSecond) {
  EXPECT_TRUE(fs_probe_is_meta("meta-create"));
  EXPECT_TRUE(fs_probe_is_meta("meta-unlink"));
  EXPECT_FALSE(fs_probe_is_meta("seq-read"));
  podperf::Run run = fs_run({5000, 5100, 4900, 1000}, "meta-stat");
  judge_fs(run, thresholds());  // node 3 takes 1.6 s longer than the others' 0.4 s: resolved
  const FsProbeResult& p = run.fs.probes[0];
  EXPECT_STREQ(fs_metric_unit(p), "ops/s");
  EXPECT_DOUBLE_EQ(fs_node_metric(p, p.nodes[0]), p.nodes[0].ops_per_s);
  EXPECT_NEAR(p.nodes[0].ops_per_s, 5000.0, 1e-6);
  EXPECT_DOUBLE_EQ(fs_probe_metric(p), p.ops_per_s);
  EXPECT_TRUE(p.nodes[3].flagged);
  EXPECT_EQ(p.slowest_node, "node3");
  EXPECT_STREQ(fs_metric_unit(fs_run({1, 1, 1}).fs.probes[0]), "MB/s");
}

// ---- judge_fs: judging nodes ----

TEST(FsAnalysis, SlowNodeAmongFourIsFlaggedAndNamedSlowest) {
  podperf::Run run = fs_run({1000, 980, 1010, 500});
  judge_fs(run, thresholds());
  const FsProbeResult& p = run.fs.probes[0];
  EXPECT_NEAR(p.baseline, (1000.0 + 980.0 + 1010.0) / 3.0, 1e-6);  // the slow node is not in the baseline
  EXPECT_EQ(p.slowest_node, "node3");
  EXPECT_TRUE(p.nodes[3].flagged);
  EXPECT_NEAR(p.nodes[3].ratio, 500.0 / p.baseline, 1e-9);
  EXPECT_FALSE(p.nodes[0].flagged || p.nodes[1].flagged || p.nodes[2].flagged);
  ASSERT_EQ(run.fs.slow_nodes.size(), 1U);
  const FsSlowNode& s = run.fs.slow_nodes[0];
  EXPECT_EQ(s.label, "node3");
  EXPECT_EQ(s.node, 3);
  EXPECT_EQ(s.probes, std::vector<std::string>{"seq-read"});
  EXPECT_NEAR(s.worst_ratio, p.nodes[3].ratio, 1e-12);
  EXPECT_TRUE(has(s.evidence, "seq-read: 500.0 MB/s, 50% of the nodes' baseline")) << s.evidence;
  EXPECT_EQ(fs_exit_code(run), kExitFlagged);
}

// Every rank's start and end times `factor` times theirs (the same MB/s ratios, a shorter probe).
void scale_times(Run& run, double factor) {
  for (FsRankResult& r : run.fs.probes[0].ranks) r.start_s *= factor, r.end_s *= factor;
}

TEST(FsAnalysis, ADifferenceWithinTheProbesResolutionIsNotJudgedAndSaysSo) {
  // The nodes take 10 ms, node 3 (at 50%) 20 ms: 10 ms more, under what the probe resolves (4 x the
  // 0.1 s resolution): cannot tell, and the finding says which node and by how much.
  podperf::Run run = fs_run({1000, 980, 1010, 500});
  scale_times(run, 0.005);
  judge_fs(run, thresholds());
  const FsProbeResult& p = run.fs.probes[0];
  EXPECT_FALSE(p.nodes[3].flagged);
  EXPECT_EQ(p.slowest_node, "node3");  // still named, not judged
  EXPECT_TRUE(run.fs.slow_nodes.empty());
  ASSERT_EQ(findings_with(run, "fs.short_probe").size(), 1U);
  const std::string observed = findings_with(run, "fs.short_probe")[0]->observed;
  EXPECT_TRUE(has(observed, "seq-read: node3 +10 ms")) << observed;
  EXPECT_TRUE(has(observed, "resolves 400 ms")) << observed;
  EXPECT_TRUE(has(findings_with(run, "fs.short_probe")[0]->meaning, "cannot tell"));
  EXPECT_EQ(fs_exit_code(run), kExitOk);
  // A timer that resolves 1 ms (and nodes that agree within it) resolves 10 ms: judged, flagged.
  FsThresholds fine = thresholds();
  fine.resolution_seconds = 0.001;
  judge_fs(run, fine);
  EXPECT_TRUE(run.fs.probes[0].nodes[3].flagged);
  EXPECT_TRUE(findings_with(run, "fs.short_probe").empty());
}

TEST(FsAnalysis, AShortProbeStillNamesANodeManyTimesSlower) {
  // Issue 20: the median node took 0.26 s, one node's I/O throttled to 4% of the others (25 times
  // slower, 6.5 s). Its 6.2 s more is far beyond the probe's resolution: flagged, named, exit 1.
  podperf::Run run = fs_run({1000, 980, 1010, 40});
  scale_times(run, 0.13);
  judge_fs(run, thresholds());
  const FsProbeResult& p = run.fs.probes[0];
  EXPECT_NEAR(p.nodes[0].end_s - p.nodes[0].start_s, 0.26, 1e-9);
  EXPECT_TRUE(p.nodes[3].flagged);
  ASSERT_EQ(run.fs.slow_nodes.size(), 1U);
  EXPECT_EQ(run.fs.slow_nodes[0].label, "node3");
  EXPECT_EQ(fs_exit_code(run), kExitFlagged);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(p.nodes[static_cast<std::size_t>(i)].flagged);
  EXPECT_TRUE(findings_with(run, "fs.short_probe").empty());
  // The same node at 70% of the others in that probe is 0.11 s slower: within the resolution, said.
  podperf::Run mild = fs_run({1000, 980, 1010, 700});
  scale_times(mild, 0.13);
  judge_fs(mild, thresholds());
  EXPECT_FALSE(mild.fs.probes[0].nodes[3].flagged);
  ASSERT_EQ(findings_with(mild, "fs.short_probe").size(), 1U);
  EXPECT_TRUE(has(findings_with(mild, "fs.short_probe")[0]->observed, "node3"))
      << findings_with(mild, "fs.short_probe")[0]->observed;
}

TEST(FsAnalysis, TheNodesSpreadOfTimesCountsAtMostTenPercent) {
  // Nodes that disagree by a second among themselves (a busy shared filesystem: 1.5, 2.0 and 2.9 s):
  // their spread of times (about 1 s) counts at most as max_spread_fraction (10%) of the median time
  // (2.4 s), so node 3 at half the others' speed (4 s, 1.6 s more) is still judged.
  podperf::Run run = fs_run({1000, 700, 1300, 500});
  judge_fs(run, thresholds());
  EXPECT_TRUE(run.fs.probes[0].nodes[3].flagged);
  EXPECT_FALSE(run.fs.probes[0].nodes[1].flagged);
  EXPECT_TRUE(findings_with(run, "fs.short_probe").empty());
}

TEST(FsAnalysis, SlowInSeveralProbesListsThemAndTheWorstRatio) {
  podperf::Run run = fs_run({1000, 980, 1010, 600}, "seq-write");
  run.fs.probes.push_back(probe_at("seq-read", {2000, 2050, 1990, 600}));
  judge_fs(run, thresholds());
  ASSERT_EQ(run.fs.slow_nodes.size(), 1U);
  const FsSlowNode& s = run.fs.slow_nodes[0];
  EXPECT_EQ(s.probes, (std::vector<std::string>{"seq-write", "seq-read"}));
  EXPECT_NEAR(s.worst_ratio, run.fs.probes[1].nodes[3].ratio, 1e-12);
  EXPECT_LT(s.worst_ratio, 0.31);
  EXPECT_TRUE(has(s.evidence, "seq-write") && has(s.evidence, "; seq-read")) << s.evidence;
}

TEST(FsAnalysis, HealthyNoisyNodesAreNotFlagged) {
  // +-12% around 1000 MB/s: a noisy but healthy filesystem, within the 15% threshold.
  podperf::Run run = fs_run({1000, 1120, 880, 1050, 950, 1100, 900, 1000});
  judge_fs(run, thresholds());
  const FsProbeResult& p = run.fs.probes[0];
  for (const FsNodeResult& n : p.nodes) EXPECT_FALSE(n.flagged) << n.label << " ratio " << n.ratio;
  EXPECT_TRUE(run.fs.slow_nodes.empty());
  EXPECT_EQ(p.slowest_node, "node2");  // still named, not flagged
  EXPECT_EQ(fs_exit_code(run), kExitOk);
}

TEST(FsAnalysis, NodeBelowThresholdButWithinTheSpreadIsNotFlagged) {
  // Healthy nodes spread widely (sd ~ 100 MB/s, capped at 10% of the baseline): a node 20% below is
  // within 4 x that cap (40%) and not flagged; one at 40% of the baseline is.
  const FsThresholds t = thresholds();
  podperf::Run run = fs_run({1000, 1150, 850, 1100, 900, 1000, 800});
  judge_fs(run, t);
  EXPECT_FALSE(run.fs.probes[0].nodes[6].flagged);
  podperf::Run slow = fs_run({1000, 1150, 850, 1100, 900, 1000, 400});
  judge_fs(slow, t);
  EXPECT_TRUE(slow.fs.probes[0].nodes[6].flagged);
}

TEST(FsAnalysis, FewerThanThreeNodesAreNotJudged) {
  podperf::Run run = fs_run({1000, 100});
  judge_fs(run, thresholds());
  const FsProbeResult& p = run.fs.probes[0];
  EXPECT_FALSE(p.nodes[0].flagged);
  EXPECT_FALSE(p.nodes[1].flagged);  // 10% of the other, but two nodes are no baseline
  EXPECT_TRUE(run.fs.slow_nodes.empty());
  EXPECT_EQ(fs_exit_code(run), kExitOk);
  const auto single = findings_with(run, "fs.single_node");
  ASSERT_EQ(single.size(), 1U);
  EXPECT_EQ(single[0]->tag, Tag::kInfo);
  EXPECT_TRUE(has(single[0]->observed, "2 node(s)")) << single[0]->observed;

  podperf::Run three = fs_run({1000, 1000, 1000});
  judge_fs(three, thresholds());
  EXPECT_TRUE(findings_with(three, "fs.single_node").empty());
}

TEST(FsAnalysis, NodeWithAFailedRankIsNotJudged) {
  podperf::Run run = fs_run({1000, 1000, 1000, 1000});
  run.fs.probes[0].ranks[7].status = "error";
  run.fs.probes[0].ranks[7].error = "node node3 rank 7: read: Input/output error";
  judge_fs(run, thresholds());
  const FsProbeResult& p = run.fs.probes[0];
  EXPECT_FALSE(p.nodes[3].flagged);  // half its data is missing: reported as an error, not as slow
  EXPECT_EQ(p.status, "error");
  EXPECT_EQ(fs_exit_code(run), kExitRuntime);
}

// ---- judge_fs: findings ----

TEST(FsAnalysis, SaturationAtEightyPercentAndNotBelow) {
  // 4 nodes x 250 MB/s, all ranks over the same 8 s: the aggregate is 1000 MB/s.
  podperf::Run run = fs_run({250, 250, 250, 250});
  run.fs.expected_read_mb_s = 1250.0;  // 1000 is exactly 80%
  run.fs.expected_write_mb_s = 100.0;  // not for a read probe
  run.fs.expected_source = "FSx PERSISTENT_2-250 x 5 TiB";
  judge_fs(run, thresholds());
  ASSERT_DOUBLE_EQ(run.fs.probes[0].mb_per_s, 1000.0);
  const auto sat = findings_with(run, "fs.saturation");
  ASSERT_EQ(sat.size(), 1U);
  const Finding& f = *sat[0];
  EXPECT_EQ(f.tag, Tag::kConcern);
  EXPECT_EQ(f.source, "fs");
  EXPECT_TRUE(has(f.observed, "seq-read aggregate 1000 MB/s is 80% of the expected read 1250 MB/s")) << f.observed;
  EXPECT_TRUE(has(f.observed, "PERSISTENT_2-250")) << f.observed;
  EXPECT_TRUE(has(f.meaning, "the filesystem itself is the limit")) << f.meaning;
  EXPECT_TRUE(has(f.effect, "more nodes will not go faster")) << f.effect;
  EXPECT_TRUE(has(f.next_step, "lfs setstripe")) << f.next_step;
  EXPECT_FALSE(f.expected.empty());
  EXPECT_TRUE(findings_with(run, "fs.expected").empty());  // it was given

  run.fs.expected_read_mb_s = 1251.0;  // 79.9%
  judge_fs(run, thresholds());
  EXPECT_TRUE(findings_with(run, "fs.saturation").empty());
}

TEST(FsAnalysis, SaturationOfWritesUsesTheWriteThroughput) {
  podperf::Run run = fs_run({250, 250, 250, 250}, "seq-write");
  run.fs.expected_read_mb_s = 100.0;    // reads would saturate; this probe writes
  run.fs.expected_write_mb_s = 2000.0;  // 50%
  judge_fs(run, thresholds());
  EXPECT_TRUE(findings_with(run, "fs.saturation").empty());
  run.fs.expected_write_mb_s = 1100.0;  // 91%
  judge_fs(run, thresholds());
  ASSERT_EQ(findings_with(run, "fs.saturation").size(), 1U);
  EXPECT_TRUE(has(findings_with(run, "fs.saturation")[0]->observed, "expected write 1100 MB/s"));
  EXPECT_DOUBLE_EQ(fs_expected_mb_s(run.fs, "ckpt-save"), 1100.0);
  EXPECT_DOUBLE_EQ(fs_expected_mb_s(run.fs, "ckpt-load"), 100.0);
  EXPECT_DOUBLE_EQ(fs_expected_mb_s(run.fs, "meta-create"), 0.0);
}

TEST(FsAnalysis, NoExpectedThroughputSaysHowToGiveIt) {
  podperf::Run run = fs_run({250, 250, 250, 250});
  judge_fs(run, thresholds());
  const auto info = findings_with(run, "fs.expected");
  ASSERT_EQ(info.size(), 1U);
  EXPECT_EQ(info[0]->tag, Tag::kInfo);
  EXPECT_TRUE(has(info[0]->next_step, "--fsx-deployment TYPE --fsx-capacity-tib N")) << info[0]->next_step;
  EXPECT_TRUE(has(info[0]->next_step, "--expected-mb-s")) << info[0]->next_step;
}

TEST(FsAnalysis, CachedReadWarnsAndNamesTheHost) {
  podperf::Run run = fs_run({1000, 1000, 1000, 1000});
  run.fs.probes[0].ranks[5].cached_fraction = 0.30;  // node2
  run.fs.probes[0].ranks[0].cached_fraction = 0.01;
  judge_fs(run, thresholds());
  EXPECT_DOUBLE_EQ(run.fs.probes[0].cached_fraction_max, 0.30);
  const auto cache = findings_with(run, "fs.cache");
  ASSERT_EQ(cache.size(), 1U);
  EXPECT_EQ(cache[0]->tag, Tag::kConcern);
  EXPECT_EQ(cache[0]->host, "node2");
  EXPECT_TRUE(has(cache[0]->observed, "30%")) << cache[0]->observed;
  EXPECT_TRUE(has(cache[0]->meaning, "page cache")) << cache[0]->meaning;
  EXPECT_TRUE(has(cache[0]->next_step, "--direct")) << cache[0]->next_step;

  run.fs.probes[0].ranks[5].cached_fraction = 0.05;  // at the limit: fine
  judge_fs(run, thresholds());
  EXPECT_TRUE(findings_with(run, "fs.cache").empty());
}

TEST(FsAnalysis, ErrorAndWrongFindingsAndExitCodes) {
  podperf::Run run = fs_run({1000, 1000, 1000, 1000}, "ckpt-load");
  judge_fs(run, thresholds());
  EXPECT_EQ(fs_exit_code(run), kExitOk);

  run.fs.probes[0].ranks[3].status = "wrong";
  run.fs.probes[0].ranks[3].checksum_mismatches = 1;
  judge_fs(run, thresholds());
  EXPECT_EQ(run.fs.probes[0].status, "wrong");
  EXPECT_EQ(fs_exit_code(run), kExitFlagged);
  const auto wrong = findings_with(run, "fs.checksum");
  ASSERT_EQ(wrong.size(), 1U);
  EXPECT_EQ(wrong[0]->host, "node1");
  EXPECT_TRUE(has(wrong[0]->observed, "ckpt-load: 1 shard(s) did not verify")) << wrong[0]->observed;

  run.fs.probes.push_back(probe_at("seq-write", {1000, 1000, 1000, 1000}));
  run.fs.probes[1].ranks[6].status = "error";
  run.fs.probes[1].ranks[6].error = "node node3 rank 6: write rank6.dat at offset 0: No space left on device";
  judge_fs(run, thresholds());
  EXPECT_EQ(fs_exit_code(run), kExitRuntime);  // an error outranks wrong
  const auto error = findings_with(run, "fs.error");
  ASSERT_EQ(error.size(), 1U);
  EXPECT_EQ(error[0]->host, "node3");
  EXPECT_TRUE(has(error[0]->observed, "seq-write: 1 of 8 rank(s) failed: node node3 rank 6")) << error[0]->observed;
  // Every field of the findings podperf fs adds is filled (host only where one host is concerned).
  for (const Finding& f : run.findings) {
    if (f.source != "fs") continue;
    EXPECT_FALSE(f.check.empty() || f.observed.empty() || f.expected.empty() || f.meaning.empty() || f.effect.empty() ||
                 f.next_step.empty())
        << f.check;
  }
}

TEST(FsAnalysis, AnalyzeTwiceGivesTheSameFindings) {
  podperf::Run run = fs_run({1000, 980, 1010, 500});
  run.findings.push_back(host_finding(Tag::kConcern, "signals.iowait", "node3", "iowait 35%"));
  run.fs.probes[0].ranks[0].cached_fraction = 0.5;
  judge_fs(run, thresholds());
  const std::size_t findings = run.findings.size();
  const std::size_t slow = run.fs.slow_nodes.size();
  EXPECT_GE(findings, 3U);  // the host's own, fs.cache, fs.expected
  judge_fs(run, thresholds());
  EXPECT_EQ(run.findings.size(), findings);
  EXPECT_EQ(run.fs.slow_nodes.size(), slow);
  EXPECT_EQ(run.fs.slow_nodes[0].likely_causes.size(), 1U);  // its own fs findings are not causes
  EXPECT_EQ(findings_with(run, "signals.iowait").size(), 1U);
}

TEST(FsAnalysis, LikelyCausesPutFilesystemConcernsFirst) {
  podperf::Run run = fs_run({1000, 980, 1010, 500});
  run.findings.push_back(host_finding(Tag::kConcern, "signals.cpu_governor", "node3", "powersave"));
  run.findings.push_back(host_finding(Tag::kConcern, "signals.xid", "node3", "Xid 79"));
  run.findings.push_back(host_finding(Tag::kConcern, "signals.iowait", "node3", "iowait 35% over the run"));
  run.findings.push_back(host_finding(Tag::kOk, "signals.root_fs", "node3", "root 40% full"));   // not a concern
  run.findings.push_back(host_finding(Tag::kConcern, "signals.iowait", "node1", "iowait 20%"));  // another host
  judge_fs(run, thresholds());
  ASSERT_EQ(run.fs.slow_nodes.size(), 1U);
  const FsSlowNode& s = run.fs.slow_nodes[0];
  ASSERT_EQ(s.likely_causes.size(), 3U);
  EXPECT_EQ(s.likely_causes[0], "signals.iowait: iowait 35% over the run (next: look at signals.iowait)");
  EXPECT_TRUE(has(s.likely_causes[1], "signals.cpu_governor")) << s.likely_causes[1];  // then in their order
  EXPECT_TRUE(has(s.likely_causes[2], "signals.xid")) << s.likely_causes[2];
  EXPECT_EQ(s.next_step, "act on the first likely cause, then rerun podperf fs");
}

TEST(FsAnalysis, SlowNodeWithoutConcernGetsAReadOnlyNextStep) {
  podperf::Run run = fs_run({1000, 980, 1010, 500});
  judge_fs(run, thresholds());
  ASSERT_EQ(run.fs.slow_nodes.size(), 1U);
  const std::string& next = run.fs.slow_nodes[0].next_step;
  EXPECT_TRUE(run.fs.slow_nodes[0].likely_causes.empty());
  EXPECT_TRUE(has(next, "no host concern found on node3")) << next;
  EXPECT_TRUE(has(next, "healthy node (node0)")) << next;
  EXPECT_TRUE(has(next, "lfs df -h /fsx/podperf")) << next;  // Lustre
  EXPECT_TRUE(has(next, "iostat -x 1")) << next;

  run.fs.fs_type = "ext4";
  judge_fs(run, thresholds());
  EXPECT_FALSE(has(run.fs.slow_nodes[0].next_step, "lfs")) << run.fs.slow_nodes[0].next_step;
  EXPECT_TRUE(has(run.fs.slow_nodes[0].next_step, "findmnt -T /fsx/podperf")) << run.fs.slow_nodes[0].next_step;
}

TEST(FsAnalysis, NoProbesNoFindings) {
  podperf::Run run;
  run.findings.push_back(host_finding(Tag::kConcern, "signals.iowait", "h1", "iowait 35%"));
  judge_fs(run, thresholds());
  EXPECT_EQ(run.findings.size(), 1U);
  EXPECT_EQ(fs_exit_code(run), kExitOk);
  EXPECT_EQ(render_fs_section(run), "");
}

TEST(FsAnalysis, RunJsonRoundTripKeepsTheAnalysis) {
  podperf::Run run = fs_run({1000, 980, 1010, 500}, "rand-read");
  for (FsRankResult& r : run.fs.probes[0].ranks) r.latency_us = {100, 200, 300, 400};
  run.fs.probes[0].ranks[0].source_node = 1;
  run.fs.expected_read_mb_s = 4000.0;
  run.fs.expected_source = "--expected-mb-s";
  // Enough of a run for docs/run.schema.json (PODPERF_FS_RUN_JSON=path writes it for check_run-style checks).
  run.podperf_version = "0.1.0";
  run.started_at = run.finished_at = "2026-01-01T00:00:00.000Z";
  run.launcher.kind = "singleton";
  run.backend = "host";
  run.options.sizes_bytes = {1};
  run.options.iters = 1;
  run.options.timeout_s = 1.0;
  judge_fs(run, thresholds());
  const nlohmann::json json = run;
  if (const char* out = std::getenv("PODPERF_FS_RUN_JSON"); out != nullptr) std::ofstream(out) << json.dump(2);
  EXPECT_FALSE(json["fs"]["probes"][0]["ranks"][0].contains("latency_us"));  // samples stay out of run.json
  podperf::Run back = json.get<podperf::Run>();
  ASSERT_EQ(back.fs.probes.size(), 1U);
  EXPECT_DOUBLE_EQ(back.fs.probes[0].lat_p99_us, 400.0);
  EXPECT_EQ(back.fs.slow_nodes.size(), 1U);
  const std::size_t findings = back.findings.size();
  judge_fs(back, thresholds());  // podperf report on a run.json: same conclusions without the samples
  EXPECT_EQ(back.findings.size(), findings);
  EXPECT_DOUBLE_EQ(back.fs.probes[0].lat_p99_us, 400.0);
  EXPECT_DOUBLE_EQ(back.fs.probes[0].mb_per_s, run.fs.probes[0].mb_per_s);
  EXPECT_TRUE(back.fs.probes[0].nodes[3].flagged);
}

// ---- fs_capacity ----

TEST(FsCapacity, EveryDeploymentOfTheEmbeddedTable) {
  const FsCapacityTable table = load_fs_capacity("");
  EXPECT_TRUE(has(table.source, "filesystems.toml")) << table.source;
  struct Case {
    const char* name;
    double tib;
    double read_mb_s;
    double write_mb_s;
  };
  // capacity x min(network, disk) per TiB (IOR practice and the FSx documentation).
  const std::vector<Case> cases{
      {"SCRATCH_2", 2.4, 480.0, 240.0},           {"PERSISTENT_2-125", 1.2, 150.0, 150.0},
      {"PERSISTENT_2-250", 4.0, 1000.0, 1000.0},  {"PERSISTENT_2-500", 2.0, 1000.0, 1000.0},
      {"PERSISTENT_2-1000", 1.5, 1500.0, 1500.0}, {"PERSISTENT_1-50", 2.4, 120.0, 120.0},
      {"PERSISTENT_1-100", 2.4, 240.0, 240.0},    {"PERSISTENT_1-200", 2.4, 480.0, 480.0},
  };
  EXPECT_EQ(table.fsx.size(), cases.size());
  for (const Case& c : cases) {
    const FsExpected e = fsx_expected(table, c.name, c.tib);
    EXPECT_NEAR(e.read_mb_s, c.read_mb_s, 1e-9) << c.name;
    EXPECT_NEAR(e.write_mb_s, c.write_mb_s, 1e-9) << c.name;
    EXPECT_TRUE(has(e.source, c.name)) << e.source;
  }
  const auto scratch =
      std::find_if(table.fsx.begin(), table.fsx.end(), [](const FsxDeployment& d) { return d.name == "SCRATCH_2"; });
  ASSERT_NE(scratch, table.fsx.end());
  EXPECT_DOUBLE_EQ(scratch->network_mb_s_per_tib, 200.0);
  EXPECT_DOUBLE_EQ(scratch->disk_read_mb_s_per_tib, 200.0);
  EXPECT_DOUBLE_EQ(scratch->disk_write_mb_s_per_tib, 100.0);
}

TEST(FsCapacity, DeploymentNameIsCaseInsensitive) {
  const FsCapacityTable table = load_fs_capacity("");
  const FsExpected e = fsx_expected(table, "persistent_2-250", 4.8);
  EXPECT_NEAR(e.read_mb_s, 1200.0, 1e-9);
  EXPECT_TRUE(has(e.source, "FSx PERSISTENT_2-250 x 4.8 TiB")) << e.source;
}

TEST(FsCapacity, UnknownDeploymentListsTheKnownOnes) {
  const FsCapacityTable table = load_fs_capacity("");
  try {
    (void)fsx_expected(table, "PERSISTENT_3-9000", 1.2);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(has(what, "'PERSISTENT_3-9000'")) << what;
    EXPECT_TRUE(has(what, "SCRATCH_2")) << what;
    EXPECT_TRUE(has(what, "PERSISTENT_1-200")) << what;
    EXPECT_TRUE(has(what, "PERSISTENT_2-1000")) << what;
  }
  EXPECT_THROW((void)fsx_expected(table, "SCRATCH_2", 0.0), UsageError);
  EXPECT_THROW((void)fsx_expected(table, "SCRATCH_2", -1.2), UsageError);
}

std::string capacity_error(const std::string& text) {
  try {
    (void)parse_fs_capacity(text, "fs.toml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << text;
  return "";
}

TEST(FsCapacity, BadTomlErrorsNameLineAndKey) {
  const std::string entry = "[fsx.MINE]\nnetwork_mb_s_per_tib = 100\ndisk_read_mb_s_per_tib = 100\n";
  const FsCapacityTable ok = parse_fs_capacity(entry + "disk_write_mb_s_per_tib = 50\n", "fs.toml");
  ASSERT_EQ(ok.fsx.size(), 1U);
  EXPECT_DOUBLE_EQ(fsx_expected(ok, "mine", 2.0).write_mb_s, 100.0);

  std::string what = capacity_error(entry + "disk_write_mb_s_per_tib = = 50\n");
  EXPECT_TRUE(has(what, "fs.toml:4")) << what;  // syntax error
  what = capacity_error(entry);
  EXPECT_TRUE(has(what, "missing key 'fsx.MINE.disk_write_mb_s_per_tib'")) << what;
  what = capacity_error(entry + "disk_write_mb_s_per_tib = 50\ndisk_write = 3\n");
  EXPECT_TRUE(has(what, "fs.toml:5")) << what;
  EXPECT_TRUE(has(what, "unknown key 'fsx.MINE.disk_write'")) << what;
  what = capacity_error(entry + "disk_write_mb_s_per_tib = \"fast\"\n");
  EXPECT_TRUE(has(what, "fs.toml:4")) << what;
  EXPECT_TRUE(has(what, "must be a number")) << what;
  what = capacity_error(entry + "disk_write_mb_s_per_tib = 0\n");
  EXPECT_TRUE(has(what, "out of range")) << what;
  EXPECT_TRUE(has(capacity_error("[fsx]\nMINE = 3\n"), "fs.toml:2")) << capacity_error("[fsx]\nMINE = 3\n");
  EXPECT_TRUE(has(capacity_error("[other]\n"), "unknown key 'other'"));
  EXPECT_TRUE(has(capacity_error("# empty\n"), "missing table [fsx]"));
  what = capacity_error(entry +
                        "disk_write_mb_s_per_tib = 50\n[fsx.mine]\nnetwork_mb_s_per_tib = 1\n"
                        "disk_read_mb_s_per_tib = 1\ndisk_write_mb_s_per_tib = 1\n");
  EXPECT_TRUE(has(what, "listed twice")) << what;
}

TEST(FsCapacity, LoadsAFileAndNamesAMissingOne) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "podperf_fs_capacity_test.toml";
  {
    std::ofstream out(path);
    out << "[fsx.LOCAL]\nnetwork_mb_s_per_tib = 10\ndisk_read_mb_s_per_tib = 20\ndisk_write_mb_s_per_tib = 5\n";
  }
  const FsCapacityTable table = load_fs_capacity(path.string());
  EXPECT_EQ(table.source, path.string());
  EXPECT_DOUBLE_EQ(fsx_expected(table, "LOCAL", 1.0).read_mb_s, 10.0);  // network is the lower
  EXPECT_DOUBLE_EQ(fsx_expected(table, "LOCAL", 1.0).write_mb_s, 5.0);
  std::filesystem::remove(path);
  EXPECT_THROW((void)load_fs_capacity("/nonexistent/podperf/filesystems.toml"), ConfigError);
}

// ---- render_fs_section ----

Run analyzed_text_run() {
  podperf::Run run = fs_run({1000, 980, 1010, 500});
  run.fs.probes.push_back(probe_at("meta-create", {5000, 5000, 5000, 5000}));
  run.fs.probes[1].files_per_rank = 1000;
  run.fs.probes[1].file_size_bytes = 4096;
  run.fs.probes[1].block_size_bytes = 0;
  FsProbeResult rr = probe_at("rand-read", {100, 100, 100, 100});
  rr.block_size_bytes = 4096;
  for (FsRankResult& r : rr.ranks) {
    for (int i = 1; i <= 1000; ++i) r.latency_us.push_back(i);
  }
  run.fs.probes.push_back(rr);
  run.fs.probes[0].ranks[2].cached_fraction = 0.4;  // node1
  run.fs.expected_read_mb_s = 2000.0;
  run.fs.expected_write_mb_s = 1000.0;
  run.fs.expected_source = "FSx PERSISTENT_2-250 x 8 TiB, per configs/filesystems.toml (built in)";
  run.fs.free_bytes = 3ULL << 40;
  run.fs.needed_bytes = 16ULL << 30;
  run.findings.push_back(host_finding(Tag::kConcern, "signals.iowait", "node3", "iowait 35% over the run"));
  judge_fs(run, thresholds());
  return run;
}

TEST(FsText, ShowsProbesSlowestNodeAndUnits) {
  const podperf::Run run = analyzed_text_run();
  const std::string text = render_fs_section(run);
  EXPECT_TRUE(has(text, "Filesystem /fsx/podperf (lustre, shared by every node)")) << text;
  EXPECT_TRUE(has(text, "probe directory /fsx/podperf/podperf-fs-test (removed after the probes)")) << text;
  EXPECT_TRUE(has(text, "free at start 3.0 TiB; the probes write at most 16.0 GiB at once")) << text;
  EXPECT_TRUE(has(text, "expected throughput: read 2000 MB/s, write 1000 MB/s (FSx PERSISTENT_2-250")) << text;
  EXPECT_TRUE(has(text, "first done")) << text;
  EXPECT_TRUE(has(text, "last done")) << text;
  // seq-read row: aggregate of 4 nodes over the slowest node's 4 s.
  EXPECT_TRUE(has(text, fmt::format("{:.1f} MB/s", run.fs.probes[0].mb_per_s))) << text;
  EXPECT_TRUE(has(text, "node3 (50%)")) << text;  // slowest node and its ratio
  EXPECT_TRUE(has(text, "1000x4K")) << text;      // meta: files x size per rank
  EXPECT_TRUE(has(text, "ops/s")) << text;
  EXPECT_TRUE(has(text,
                  "rand-read latency per read call (all ranks): p50 500 us, p90 900 us, p99 990 us, "
                  "p99.9 999 us"))
      << text;
  EXPECT_TRUE(has(text, "cache (node1): seq-read: 40% of the file rank 2 read")) << text;
  EXPECT_TRUE(has(text, "--direct")) << text;
  EXPECT_TRUE(has(text, fmt::format("seq-read: {:.0f}% of the expected 2000 MB/s", run.fs.probes[0].mb_per_s / 20.0)))
      << text;
  EXPECT_TRUE(has(text, "Slow filesystem nodes (1):")) << text;
  EXPECT_TRUE(has(text, "node3 (node 3)")) << text;
  EXPECT_TRUE(has(text, "likely cause 1: signals.iowait: iowait 35% over the run")) << text;
  EXPECT_TRUE(has(text, "next: act on the first likely cause")) << text;
  EXPECT_FALSE(has(text, "Probe failures")) << text;
}

TEST(FsText, SaturationAndErrorsAreShown) {
  podperf::Run run = fs_run({250, 250, 250, 250}, "seq-write");
  run.fs.expected_write_mb_s = 1000.0;
  run.fs.probes.push_back(probe_at("ckpt-save", {100, 100, 100, 100}));
  run.fs.probes[1].ranks[1].status = "error";
  run.fs.probes[1].ranks[1].error = "node node0 rank 1: write shard at offset 0: No space left on device";
  judge_fs(run, thresholds());
  const std::string text = render_fs_section(run);
  EXPECT_TRUE(has(text, "seq-write: 100% of the expected 1000 MB/s — SATURATED")) << text;
  EXPECT_TRUE(has(text, "Probe failures:")) << text;
  EXPECT_TRUE(has(text, "ckpt-save error: node node0 rank 1: write shard at offset 0: No space left")) << text;
  EXPECT_TRUE(has(text, "Slow filesystem nodes: none")) << text;
}

TEST(FsText, FewNodesAndNoExpectedThroughputSaySo) {
  podperf::Run run = fs_run({1000});
  run.fs.shared = false;
  run.fs.kept = true;
  judge_fs(run, thresholds());
  const std::string text = render_fs_section(run);
  EXPECT_TRUE(has(text, "node-local")) << text;
  EXPECT_TRUE(has(text, "kept: --keep")) << text;
  EXPECT_TRUE(has(text, "expected throughput: not given (--fsx-deployment TYPE --fsx-capacity-tib N")) << text;
  EXPECT_TRUE(has(text, "not judged (fewer than 3 nodes")) << text;
}

}  // namespace
}  // namespace podperf

// render_summary: the terminal summary of an analyzed Run.
#include "analysis/report/run_text.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "analysis/config/thresholds.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "analysis/logs/nccl_log.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

using synthetic::make_run;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// 6 nodes; node 4 runs at 60%.
Run analyzed_run_with_straggler() {
  auto run = make_run(6, [](int a, int b) { return a == 4 || b == 4 ? 60.0 : 100.0; });
  run.rounds_planned = 5;
  run.rounds_completed = 5;
  run.launcher.kind = "slurm";
  run.launcher.job_id = "4242";
  judge_pairs(run, load_thresholds("").pairs);
  return run;
}

TEST(SummaryText, ShowsMatrixStragglerFlaggedPairsAndResults) {
  const podperf::Run run = analyzed_run_with_straggler();
  ASSERT_EQ(run.stragglers.size(), 1U);
  const std::string text = render_summary(run, "results/test-run");

  EXPECT_TRUE(has(text, "podperf pairs")) << text;
  EXPECT_TRUE(has(text, "run test-run")) << text;
  EXPECT_TRUE(has(text, "12 ranks on 6 nodes")) << text;
  EXPECT_TRUE(has(text, "job 4242")) << text;
  EXPECT_TRUE(has(text, "5 of 5 rounds")) << text;
  EXPECT_TRUE(has(text, "Pair busbw (GB/s) at 1G")) << text;
  EXPECT_TRUE(has(text, "4 node4")) << text;  // a matrix row header
  EXPECT_TRUE(has(text, "60.000!")) << text;  // a flagged cell
  EXPECT_TRUE(has(text, "100.000")) << text;  // a healthy cell
  // What is applied is printed (issue 31): the plain mean and the pairs below it, the baseline, the cuts
  // and why, the reference; the straggler on one line with its interval, its flagged pairs folded under it.
  EXPECT_TRUE(has(text, "plain mean 86.667 GB/s; 5 of 15 pairs more than 5% below it")) << text;
  EXPECT_TRUE(has(text, "baseline 100.000 GB/s")) << text;
  EXPECT_TRUE(has(text, "node cut 5.0%: the threshold")) << text;
  EXPECT_TRUE(has(text, "reference: relative judgement only")) << text;
  EXPECT_TRUE(has(text, "Straggler nodes (1), slowest first:")) << text;
  EXPECT_TRUE(has(text, "node4  60.0% (")) << text;
  EXPECT_TRUE(has(text, "5 of 5 pairs flagged")) << text;
  EXPECT_TRUE(has(text, "Flagged pairs at 1G: 5 (pair cut")) << text;
  EXPECT_TRUE(has(text, "5 of named nodes (folded under them), 0 links, 0 unexplained")) << text;
  EXPECT_TRUE(has(text, "Results: results/test-run/run.json")) << text;
  EXPECT_FALSE(has(text, "VIRTUAL")) << text;
}

TEST(SummaryText, HealthyRunSaysNone) {
  auto run = make_run(4, [](int, int) { return 100.0; });
  judge_pairs(run, load_thresholds("").pairs);
  const std::string text = render_summary(run, "");
  EXPECT_TRUE(has(text, "Flagged pairs at 1G: 0 (pair cut")) << text;
  EXPECT_TRUE(has(text, "node cut ")) << text;  // the cut applied, with why
  EXPECT_TRUE(has(text, "Straggler nodes: none")) << text;
  EXPECT_FALSE(has(text, "Results:")) << "an empty results dir is not printed\n" << text;
}

TEST(SummaryText, LinkFindingIsListed) {
  auto run = make_run(6, [](int a, int b) { return a == 1 && b == 2 ? 50.0 : 100.0; });
  judge_pairs(run, load_thresholds("").pairs);
  ASSERT_EQ(run.links.size(), 1U);
  const std::string text = render_summary(run, "r");
  EXPECT_TRUE(has(text, "Slow links between healthy nodes (1):")) << text;
  EXPECT_TRUE(has(text, run.links[0].evidence)) << text;
}

TEST(SummaryText, VirtualNodesAreNoted) {
  auto run = make_run(4, [](int, int) { return 100.0; });
  run.nodes = synthetic::make_nodes(4, /*is_virtual=*/true);
  judge_pairs(run, load_thresholds("").pairs);
  const std::string text = render_summary(run, "r");
  EXPECT_TRUE(has(text, "VIRTUAL nodes")) << text;
  EXPECT_TRUE(has(text, "box/v3")) << text;
}

TEST(SummaryText, TimeoutShowsErrorAndUnfinishedPairs) {
  auto run = make_run(4, [](int, int) { return 100.0; });
  run.rounds_planned = 3;
  run.rounds_completed = 2;
  run.status = "timeout";
  run.error = "round 3 exceeded --timeout 60 s";
  run.unfinished = {"round 3: node0 <-> node1", "round 3: node2 <-> node3"};
  run.pairs.resize(4);  // rounds 1 and 2 only
  run.pairs[3].status = "timeout";
  run.pairs[3].error = "did not finish";
  judge_pairs(run, load_thresholds("").pairs);
  const std::string text = render_summary(run, "r");

  EXPECT_TRUE(has(text, "2 of 3 rounds; status timeout")) << text;
  EXPECT_TRUE(has(text, "error: round 3 exceeded --timeout 60 s")) << text;
  EXPECT_TRUE(has(text, "unfinished: round 3: node0 <-> node1")) << text;
  EXPECT_TRUE(has(text, "unfinished: round 3: node2 <-> node3")) << text;
  EXPECT_TRUE(has(text, "timeout: did not finish")) << text;  // the failed pair in the flagged list
  EXPECT_TRUE(has(text, "        x")) << text;                // and 'x' in the matrix
}

TEST(SummaryText, WrongPairShowsItsCount) {
  auto run = make_run(4, [](int, int) { return 100.0; });
  run.pairs[0].status = "wrong";
  run.pairs[0].wrong = 17;
  judge_pairs(run, load_thresholds("").pairs);
  const std::string text = render_summary(run, "r");
  EXPECT_TRUE(has(text, "node0 <-> node1 1G wrong: 17 wrong elements")) << text;
}

TEST(SummaryText, LargeRunsOmitTheMatrix) {
  auto run = make_run(30, [](int, int) { return 100.0; });
  judge_pairs(run, load_thresholds("").pairs);
  const std::string text = render_summary(run, "r");
  EXPECT_TRUE(has(text, "(30 nodes: the pair matrix is in report.html")) << text;
  EXPECT_FALSE(has(text, "Pair busbw (GB/s)")) << text;
}

}  // namespace
}  // namespace podperf

namespace podperf {
namespace {

// The straggler's NCCL log shows the Socket transport (the TCP fallback): the summary says so next
// to its slow pairs and lists the finding with its next step.
TEST(SummaryText, SlowPairWhoseLogShowsSocketSaysSo) {
  podperf::Run run = analyzed_run_with_straggler();
  std::string log;
  const std::string path = std::string(PODPERF_FIXTURES_DIR) + "/nccl_logs/socket_fallback.log";
  FILE* f = std::fopen(path.c_str(), "rb");
  ASSERT_NE(f, nullptr) << path;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) log.append(buf, n);
  std::fclose(f);
  run.findings = nccl_log_findings(parse_nccl_log(log), 0);
  ASSERT_FALSE(run.findings.empty());
  // The fixture's host becomes the straggler's hostname.
  const std::string fixture_host = run.findings.front().host;
  for (Finding& finding : run.findings) {
    if (finding.host == fixture_host) finding.host = "node4";
  }
  run.nccl_log = "captured in nccl.<host>.<pid>";
  const std::string text = render_summary(run, "");
  EXPECT_TRUE(has(text, "CONCERN node4 [nccl.tcp_fallback]: NET/Socket")) << text;
  EXPECT_TRUE(has(text, "Socket")) << text;
  EXPECT_TRUE(has(text, "CONCERN node4 [nccl.tcp_fallback]")) << text;
  EXPECT_TRUE(has(text, "next:")) << text;
  EXPECT_TRUE(has(text, "NCCL log: captured")) << text;
}

// A filesystem probe over 4 nodes, node 3 at half speed: each node's 2 ranks move 1 GB each.
FsProbeResult fs_probe(const std::string& name) {
  FsProbeResult p;
  p.probe = name;
  p.block_size_bytes = 1 << 20;
  p.file_size_bytes = 1ULL << 30;
  p.files_per_rank = 1;
  for (int node = 0; node < 4; ++node) {
    for (int k = 0; k < 2; ++k) {
      FsRankResult r;
      r.rank = 2 * node + k;
      r.node = node;
      r.bytes = 1'000'000'000;
      r.end_s = node == 3 ? 4.0 : 2.0;
      p.ranks.push_back(r);
    }
  }
  return p;
}

TEST(SummaryText, FsOnlyRunShowsTheFilesystemAndNoPairSection) {
  podperf::Run run;
  run.command = "fs";
  run.run_id = "fs-run";
  run.backend = "host";
  run.ranks = 8;
  run.launcher.kind = "slurm";
  run.nodes = synthetic::make_nodes(4);
  run.fs.path = "/fsx/x";
  run.fs.fs_type = "lustre";
  run.fs.shared = true;
  run.fs.probes.push_back(fs_probe("seq-write"));
  judge_fs(run, load_thresholds("").fs);
  const std::string text = render_summary(run, "results/fs-run");
  EXPECT_TRUE(has(text, "podperf fs")) << text;
  EXPECT_TRUE(has(text, "Filesystem /fsx/x (lustre, shared by every node)")) << text;
  EXPECT_TRUE(has(text, "node3 (50%)")) << text;
  EXPECT_TRUE(has(text, "Slow filesystem nodes (1):")) << text;
  EXPECT_TRUE(has(text, "Results: results/fs-run/run.json")) << text;
  EXPECT_FALSE(has(text, "rounds")) << text;
  EXPECT_FALSE(has(text, "Flagged pairs")) << text;
  EXPECT_FALSE(has(text, "Straggler nodes")) << text;
}

TEST(SummaryText, RunWithPairsAndFsShowsBoth) {
  podperf::Run run = analyzed_run_with_straggler();
  run.fs.path = "/fsx/x";
  run.fs.probes.push_back(fs_probe("seq-read"));
  judge_fs(run, load_thresholds("").fs);
  const std::string text = render_summary(run, "");
  EXPECT_TRUE(has(text, "Straggler nodes (1), slowest first:")) << text;
  EXPECT_TRUE(has(text, "Filesystem /fsx/x")) << text;
  EXPECT_TRUE(has(text, "seq-read")) << text;
  EXPECT_LT(text.find("Straggler nodes"), text.find("Filesystem /fsx/x")) << text;

  podperf::Run pairs_only = analyzed_run_with_straggler();
  EXPECT_FALSE(has(render_summary(pairs_only, ""), "Filesystem")) << render_summary(pairs_only, "");
}

}  // namespace
}  // namespace podperf

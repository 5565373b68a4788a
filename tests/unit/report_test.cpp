// Report writers (HTML, Markdown, CSV) on fixed runs: golden files under tests/golden/ and
// assertions (one CSV row per measurement, a self-contained HTML, escaping). Regenerate the goldens
// after an intended change with PODPERF_UPDATE_GOLDEN=1 (then review the diff):
//   PODPERF_UPDATE_GOLDEN=1 build/tests/unit/podperf_unit_tests --gtest_filter='Report*'
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "analysis/config/thresholds.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/pairs/correlate.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/report/common.hpp"
#include "analysis/report/csv.hpp"
#include "analysis/report/formats.hpp"
#include "analysis/report/html.hpp"
#include "analysis/report/markdown.hpp"
#include "analysis/report/svg.hpp"
#include "golden.hpp"
#include "offline/report_command.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

namespace fs = std::filesystem;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

using golden::expect_golden;

void stamp(podperf::Run& run, const std::string& command, const std::string& run_id) {
  run.podperf_version = "0.1.0";
  run.run_id = run_id;
  run.command = command;
  run.argv = {"podperf", command, "--out", "results"};
  run.started_at = "2025-01-02T03:04:05.678Z";
  run.finished_at = "2025-01-02T03:09:10.123Z";
  run.launcher.kind = "slurm";
  run.launcher.job_id = "4242";
  run.launcher.step_id = "0";
  run.options.iters = 7;
  run.options.warmup = 2;
  run.options.concurrency = "round";
  run.options.retest = 1;
  run.thresholds.source = "built-in configs/thresholds.toml";
}

Finding finding(Tag tag, const std::string& check, const std::string& host, const std::string& observed) {
  Finding f;
  f.tag = tag;
  f.source = "signals";
  f.check = check;
  f.host = host;
  f.observed = observed;
  f.expected = "healthy";
  f.meaning = "what " + check + " means";
  f.effect = "slower collectives";
  f.next_step = "check " + check + " on " + (host.empty() ? "every host" : host);
  return f;
}

// 6 nodes, 3 sizes; node4 runs at 60% (a straggler with a PCIe concern), the link node1 <-> node2 at 50%.
podperf::Run pairs_run() {
  podperf::Run run;
  stamp(run, "pairs", "pairs-fixed");
  run.backend = "nccl";
  run.ranks = 12;
  run.nodes = synthetic::make_nodes(6);
  for (NodeInfo& n : run.nodes) {
    n.instance_type = "p5.48xlarge";
    n.instance_id = fmt::format("i-0{}", n.index);
  }
  Thresholds thresholds = load_thresholds("");
  thresholds.pairs.threshold = 0.05;
  thresholds.source = "built-in configs/thresholds.toml";
  record_thresholds(run, thresholds);
  const std::uint64_t sizes[] = {256ULL << 20, 512ULL << 20, 1ULL << 30};
  run.options.sizes_bytes.assign(std::begin(sizes), std::end(sizes));
  run.rounds_planned = 5;
  run.rounds_completed = 5;
  for (std::uint64_t size : sizes) {
    const double scale = size == sizes[0] ? 0.8 : size == sizes[1] ? 0.92 : 1.0;
    for (int a = 0; a < 6; ++a) {
      for (int b = a + 1; b < 6; ++b) {
        double busbw = 100.0 * scale;
        if (a == 4 || b == 4) busbw *= 0.6;
        if (a == 1 && b == 2) busbw *= 0.5;
        PairResult p = synthetic::make_pair(a, b, size, busbw, synthetic::symmetric_samples(1.0, 0.01, 3));
        p.round = (a + b) % 5 + 1;
        if (a == 1 && b == 2 && size == sizes[2]) {  // the link, measured three times: a link confirmed
          p.retest_samples_s = p.samples_s;
          p.retest_busbw_gbps = p.busbw_gbps;
          p.later_retest_busbw_gbps = {p.busbw_gbps};
        }
        run.pairs.push_back(p);
      }
    }
  }
  run.findings.push_back(finding(Tag::kConcern, "signals.gpu_pcie", "node4", "GPU 3 PCIe x8 of x16"));
  run.findings.push_back(finding(Tag::kInfo, "signals.nccl_env", "", "NCCL_ALGO unset"));
  run.findings.push_back(finding(Tag::kOk, "signals.cpu_governor", "node0", "performance"));
  run.nccl_log = "captured in nccl.<host>.<pid>";
  judge_pairs(run, load_thresholds("").pairs);
  correlate(run);
  return run;
}

// podperf collective on 2 nodes: all_reduce and all_gather, 1K..1M, out-of-place and in-place; one
// all_gather case has wrong results.
podperf::Run collective_run() {
  podperf::Run run;
  stamp(run, "collective", "collective-fixed");
  run.backend = "host";
  run.ranks = 4;
  run.nodes = synthetic::make_nodes(2);
  run.options.op = "all_reduce,all_gather";
  run.options.group_by = "world";
  for (std::uint64_t size = 1024; size <= (1ULL << 20); size *= 4) run.options.sizes_bytes.push_back(size);
  for (const char* op : {"all_reduce", "all_gather"}) {
    for (bool in_place : {false, true}) {
      for (std::uint64_t size : run.options.sizes_bytes) {
        CollectiveResult r;
        r.group = "world";
        r.op = op;
        r.dtype = "float";
        r.in_place = in_place;
        r.size_bytes = size;
        r.count = size / 4;
        r.ranks = 4;
        const double factor = r.op == "all_reduce" ? 1.5 : 0.75;
        r.median_s = 20e-6 + static_cast<double>(size) / 10e9;
        r.min_s = r.median_s * 0.98;
        r.max_s = r.median_s * 1.1;
        r.p99_s = r.median_s * 1.09;
        r.cv = 0.02;
        r.samples_s = {r.min_s, r.median_s, r.max_s};
        r.algbw_gbps = static_cast<double>(size) / r.median_s / 1e9;
        r.busbw_gbps = r.algbw_gbps * factor;
        if (r.op == "all_gather" && in_place && size == 65536) {
          r.status = "wrong";
          r.wrong = 12;
          r.error = "12 wrong elements";
        }
        run.collectives.push_back(r);
      }
    }
  }
  return run;
}

FsProbeResult fs_probe(const std::string& name, const std::vector<double>& node_rate) {
  FsProbeResult p;
  p.probe = name;
  p.block_size_bytes = 1 << 20;
  p.file_size_bytes = fs_probe_is_meta(name) ? 4096 : 1ULL << 30;
  p.files_per_rank = fs_probe_is_meta(name) ? 1000 : 1;
  for (std::size_t i = 0; i < node_rate.size(); ++i) {
    const int node = static_cast<int>(i);
    const double end_s = 2.0e9 / (node_rate[i] * 1e6);
    for (int k = 0; k < 2; ++k) {
      FsRankResult r;
      r.rank = 2 * node + k;
      r.node = node;
      r.file = fmt::format("rank{}.dat", r.rank);
      r.bytes = 1'000'000'000ULL;
      r.start_s = 0.0;
      r.end_s = end_s;
      if (fs_probe_is_meta(name)) {
        r.bytes = 0;
        r.ops = static_cast<std::uint64_t>(node_rate[i] * end_s / 2.0);
      }
      p.ranks.push_back(r);
    }
  }
  return p;
}

// podperf fs on 4 nodes of a shared Lustre: node3 is slow in seq-write (iowait concern) and meta-create.
podperf::Run fs_run() {
  podperf::Run run;
  stamp(run, "fs", "fs-fixed");
  run.backend = "posix";
  run.ranks = 8;
  run.nodes = synthetic::make_nodes(4);
  run.fs.path = "/fsx/scratch";
  run.fs.probe_dir = "/fsx/scratch/podperf-fs-fixed";
  run.fs.fs_type = "lustre";
  run.fs.shared = true;
  run.fs.free_bytes = 5ULL << 40;
  run.fs.needed_bytes = 8ULL << 30;
  run.fs.expected_read_mb_s = 6000.0;
  run.fs.expected_write_mb_s = 6000.0;
  run.fs.expected_source = "--expected-mb-s";
  run.fs.probes.push_back(fs_probe("seq-write", {1000, 980, 1010, 500}));
  run.fs.probes.push_back(fs_probe("seq-read", {1200, 1190, 1210, 1180}));
  run.fs.probes.push_back(fs_probe("meta-create", {500, 510, 490, 200}));
  run.findings.push_back(finding(Tag::kConcern, "signals.iowait", "node3", "iowait 38%"));
  judge_fs(run, load_thresholds("").fs);
  return run;
}

// podperf run: the pairs and the filesystem in one run (the browser test's fixture).
podperf::Run combined_run() {
  podperf::Run run = pairs_run();
  const podperf::Run fs = fs_run();
  run.command = "run";
  run.run_id = "run-fixed";
  run.argv = {"podperf", "run", "--fs-path", "/fsx/scratch"};
  run.fs = fs.fs;
  for (const Finding& f : fs.findings) run.findings.push_back(f);
  return run;
}

// pairs_run judged by podperf accept.
podperf::Run judged_run() {
  podperf::Run run = pairs_run();
  run.run_id = "judged-fixed";
  run.verdict.status = "FAIL";
  run.verdict.profile = "quick";
  run.verdict.sku = "p5.48xlarge";
  // Published figures as accept records them: one inside the measured 256M..1G, two outside.
  run.verdict.sku_busbw = {{"all_reduce", 128ULL << 20, 289.0}, {"all_reduce", 1ULL << 30, 437.0},
                           {"all_reduce", 2ULL << 30, 444.0}};
  run.verdict.checks.push_back({"node4", "straggler", "FAIL", "5 of 5 pairs flagged at 1G"});
  run.verdict.checks.push_back({"", "busbw_min", "PASS", "baseline 100.0 GB/s at 1G, minimum 80"});
  run.verdict.nodes.push_back({"node4", "node4", "FAIL", {"straggler: 5 of 5 pairs flagged"}});
  run.verdict.nodes.push_back({"node0", "node0", "PASS", {}});
  run.verdict.drain = {"node4"};
  return run;
}

std::size_t csv_rows(const std::string& csv) {
  std::size_t rows = 0;
  for (std::size_t i = 0; i + 1 < csv.size(); ++i) {
    if (csv[i] == '\r' && csv[i + 1] == '\n') ++rows;
  }
  return rows - 1;  // the header
}

// ---- Goldens ----

TEST(ReportGolden, Pairs) {
  const podperf::Run run = pairs_run();
  ASSERT_EQ(run.stragglers.size(), 1U);
  ASSERT_EQ(run.links.size(), 1U);
  expect_golden("report_pairs.html", render_html(run));
  expect_golden("report_pairs.md", render_markdown(run));
  expect_golden("report_pairs.csv", render_csv(run));
}

TEST(ReportGolden, Collective) {
  const podperf::Run run = collective_run();
  expect_golden("report_collective.html", render_html(run));
  expect_golden("report_collective.md", render_markdown(run));
  expect_golden("report_collective.csv", render_csv(run));
}

TEST(ReportGolden, Filesystem) {
  const podperf::Run run = fs_run();
  ASSERT_EQ(run.fs.slow_nodes.size(), 1U);
  expect_golden("report_fs.html", render_html(run));
  expect_golden("report_fs.md", render_markdown(run));
  expect_golden("report_fs.csv", render_csv(run));
}

TEST(ReportGolden, Judged) {
  const podperf::Run run = judged_run();
  expect_golden("report_judged.md", render_markdown(run));
  const std::string html = render_html(run);
  EXPECT_TRUE(has(html, "Verdict: FAIL")) << html.substr(0, 2000);
  EXPECT_TRUE(has(html, "podperf accept (profile quick, sku p5.48xlarge)"));
  EXPECT_TRUE(has(html, "drain, reboot or replace (podperf accept prints the commands): node4"));
}

// The browser test's fixture is this combined run, as run.json; reading it back renders the same report.
TEST(ReportGolden, FixtureRunJsonMatchesTheSyntheticRun) {
  const podperf::Run run = combined_run();
  const nlohmann::json j = run;
  expect_golden("../fixtures/runs/report_run.json", j.dump(1) + "\n");
  const podperf::Run read = read_run_json(fs::path(PODPERF_FIXTURES_DIR) / "runs" / "report_run.json");
  EXPECT_EQ(render_html(read), render_html(run));
  EXPECT_EQ(render_markdown(read), render_markdown(run));
  EXPECT_EQ(render_csv(read), render_csv(run));
}

// ---- Assertions ----

TEST(ReportCsv, OneRowPerMeasurement) {
  for (const podperf::Run& run : {pairs_run(), collective_run(), fs_run(), combined_run()}) {
    std::size_t measurements = run.pairs.size() + run.collectives.size();
    for (const FsProbeResult& p : run.fs.probes) measurements += p.nodes.size() + p.ranks.size();
    const std::string csv = render_csv(run);
    EXPECT_EQ(csv_rows(csv), measurements) << run.run_id;
    EXPECT_EQ(csv.substr(0, csv.find("\r\n")),
              "kind,run_id,op,dtype,in_place,group,round,node_a,node_b,node,rank,"
              "size_bytes,count,block_size_bytes,files_per_rank,ranks,iterations,"
              "median_s,min_s,max_s,p99_s,cv,algbw_gbps,busbw_gbps,baseline_gbps,"
              "ratio,noise_gbps,flagged,cleared_by_retest,retest_busbw_gbps,bytes,"
              "ops,start_s,end_s,mb_per_s,ops_per_s,lat_p50_us,lat_p99_us,"
              "cached_fraction,wrong,status,error");
  }
}

TEST(ReportCsv, QuotesAsRfc4180) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  podperf::Run run = pairs_run();
  run.nodes[0].label = "rack,1 \"a\"";
  run.pairs[0].error = "line1\r\nline2";
  const std::string csv = render_csv(run);
  EXPECT_TRUE(has(csv, ",\"rack,1 \"\"a\"\"\",")) << csv.substr(0, 800);
  EXPECT_TRUE(has(csv, ",\"line1\r\nline2\"\r\n"));
  EXPECT_EQ(csv_rows(csv), run.pairs.size() + 1) << "the quoted CRLF adds one CRLF";
}

TEST(ReportHtml, IsSelfContained) {
  for (const podperf::Run& run : {pairs_run(), collective_run(), fs_run(), combined_run(), judged_run()}) {
    const std::string html = render_html(run);
    EXPECT_FALSE(has(html, "http://")) << run.run_id;
    EXPECT_FALSE(has(html, "https://")) << run.run_id;
    EXPECT_FALSE(has(html, "<script")) << run.run_id;
    EXPECT_FALSE(has(html, "@font-face")) << run.run_id;
    EXPECT_FALSE(has(html, "@import")) << run.run_id;
    EXPECT_FALSE(has(html, "<link")) << run.run_id;
    EXPECT_FALSE(has(html, "url(")) << run.run_id;
    EXPECT_TRUE(has(html, "<!DOCTYPE html>"));
    EXPECT_TRUE(has(html, "</html>\n"));
  }
}

TEST(ReportHtml, BusbwChartDrawsTheSkuFiguresWithinTheMeasuredSizes) {
  podperf::Run run = judged_run();
  const std::string html = render_html(run);
  EXPECT_TRUE(has(html, "published p5.48xlarge 2-node busbw"));
  EXPECT_TRUE(has(html, "published p5.48xlarge 2-node all_reduce busbw at 1G: 437.0 GB/s"));
  EXPECT_FALSE(has(html, "busbw at 128M: 289.0")) << "128M is below the smallest measured size";
  EXPECT_FALSE(has(html, "busbw at 2G: 444.0")) << "2G is above the largest measured size";
  EXPECT_FALSE(has(html, "No published SKU baseline drawn"));
  EXPECT_EQ(sku_baseline_gbps(run, "all_reduce", 1ULL << 30), 437.0);
  EXPECT_FALSE(sku_baseline_gbps(run, "all_reduce", 512ULL << 20).has_value());
  EXPECT_FALSE(sku_baseline_gbps(run, "all_gather", 1ULL << 30).has_value());
  // Only figures outside the measured range: nothing drawn, and the note says where they are.
  run.verdict.sku_busbw.erase(run.verdict.sku_busbw.begin() + 1);
  const std::string outside = render_html(run);
  EXPECT_FALSE(has(outside, "published p5.48xlarge 2-node busbw"));
  EXPECT_TRUE(has(outside, "p5.48xlarge publishes figures at 128M, 2G, outside the sizes this run measured"));
  run.verdict.sku_busbw.clear();
  run.backend = "nccl";
  EXPECT_TRUE(has(render_html(run), "p5.48xlarge publishes no 2-node busbw figure"));
  run.backend = "host";
  EXPECT_TRUE(has(render_html(run), "figures are NCCL between GPUs, and this run used the host backend"));
}

TEST(ReportHtml, HasTheChartsOfEachKindOfRun) {
  const std::string pairs = render_html(pairs_run());
  EXPECT_TRUE(has(pairs, "<svg id=\"pair-heatmap\""));
  EXPECT_TRUE(has(pairs, "<svg id=\"busbw-chart-all_reduce\""));
  EXPECT_TRUE(has(pairs, "robust baseline (this run&#39;s pairs)"));
  EXPECT_TRUE(has(pairs, "not judged against an instance type"));
  EXPECT_FALSE(has(pairs, "published p5.48xlarge"));
  EXPECT_FALSE(has(pairs, "fs-bars-"));
  const std::string coll = render_html(collective_run());
  EXPECT_TRUE(has(coll, "<svg id=\"busbw-chart-all_reduce\""));
  EXPECT_TRUE(has(coll, "<svg id=\"busbw-chart-all_gather\""));
  EXPECT_FALSE(has(coll, "pair-heatmap"));
  const std::string fsr = render_html(fs_run());
  EXPECT_TRUE(has(fsr, "<svg id=\"fs-bars-seq-write\""));
  EXPECT_TRUE(has(fsr, "<svg id=\"fs-bars-meta-create\""));
  EXPECT_TRUE(has(fsr, "<g class=\"bar marked\"><title>node3 seq-write"));
  EXPECT_FALSE(has(fsr, "pair-heatmap"));
}

TEST(ReportHtml, StragglersComeFirstInTheMatrix) {
  const podperf::Run run = pairs_run();
  const std::string html = render_html(run);
  const auto heatmap = html.find("<svg id=\"pair-heatmap\"");
  ASSERT_NE(heatmap, std::string::npos);
  // Row labels in order: the straggler, the link's nodes, then the rest.
  const auto straggler = html.find(">4 node4</text>", heatmap);
  const auto link = html.find(">1 node1</text>", heatmap);
  const auto first = html.find(">0 node0</text>", heatmap);
  EXPECT_LT(straggler, link);
  EXPECT_LT(link, first);
}

TEST(ReportEscaping, HostnameWithMarkupIsEscapedEverywhere) {
  podperf::Run run = combined_run();
  const std::string evil = "evil<&>\"'host";
  run.nodes[4].label = evil;
  run.nodes[4].hostname = evil;
  run.stragglers[0].hostname = evil;
  run.findings.push_back(finding(Tag::kConcern, "signals.x", evil, "<script>alert(1)</script> | *bold*"));
  const std::string html = render_html(run);
  EXPECT_FALSE(has(html, evil));
  EXPECT_FALSE(has(html, "<script>"));
  EXPECT_TRUE(has(html, "evil&lt;&amp;&gt;&quot;&#39;host"));
  EXPECT_TRUE(has(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
  const std::string md = render_markdown(run);
  EXPECT_FALSE(has(md, "<&>"));
  EXPECT_TRUE(has(md, "evil&lt;&amp;&gt;\"'host")) << md;
  EXPECT_TRUE(has(md, "&lt;script&gt;alert(1)&lt;/script&gt; \\| \\*bold\\*")) << md;
  const std::string csv = render_csv(run);
  EXPECT_TRUE(has(csv, "\"evil<&>\"\"'host\"")) << "CSV quotes, and does not HTML-escape";
}

TEST(ReportMarkdown, EscapesTableAndEmphasisCharacters) {
  EXPECT_EQ(escape_markdown("a|b*c_d`e[f]\\"), "a\\|b\\*c\\_d\\`e\\[f\\]\\\\");
  EXPECT_EQ(escape_markdown("# heading"), "\\# heading");
  EXPECT_EQ(escape_markdown("x # y"), "x # y");
  EXPECT_EQ(escape_markdown("two\nlines"), "two lines");
}

TEST(ReportMarkdown, SaysTheVerdictStragglersAndKeyNumbers) {
  const std::string md = render_markdown(pairs_run());
  EXPECT_TRUE(has(md, "## podperf pairs pairs-fixed: FLAGGED")) << md;
  EXPECT_TRUE(has(md, "1 straggler node(s): node4")) << md;
  EXPECT_TRUE(has(md, "| node4 (node 4) | 60.0% | 57.8-62.2% | 5 of 5 |")) << md;
  EXPECT_TRUE(has(md, "baseline **100.000 GB/s**")) << md;
  EXPECT_TRUE(has(md, "node cut 5.0%: the threshold")) << md;
  EXPECT_TRUE(has(md, "**CONCERN** signals.gpu\\_pcie on node4: GPU 3 PCIe x8 of x16")) << md;
  const std::string ok = render_markdown(synthetic::make_run(4, [](int, int) { return 100.0; }));
  EXPECT_TRUE(has(ok, ": OK")) << ok;
}

TEST(ReportVerdictText, IncompleteRunSaysSo) {
  podperf::Run run = pairs_run();
  run.status = "timeout";
  run.error = "round 3 overran --timeout 600 s";
  run.unfinished = {"round 3: node1 <-> node4"};
  const std::string md = render_markdown(run);
  EXPECT_TRUE(has(md, ": INCOMPLETE")) << md;
  EXPECT_TRUE(has(md, "run timeout: round 3 overran")) << md;
  EXPECT_TRUE(has(md, "unfinished: round 3: node1 &lt;-&gt; node4")) << md;
}

TEST(ReportDeterminism, SameRunSameBytes) {
  EXPECT_EQ(render_html(combined_run()), render_html(combined_run()));
  EXPECT_EQ(render_markdown(combined_run()), render_markdown(combined_run()));
  EXPECT_EQ(render_csv(combined_run()), render_csv(combined_run()));
}

// ---- The command (no MPI) ----

class ReportCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("podperf-report-test-{}", ::getpid());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(ReportCommand, WritesBesideRunJsonFromADirectory) {
  fs::copy_file(fs::path(PODPERF_FIXTURES_DIR) / "runs" / "report_run.json", dir_ / "run.json");
  std::ostringstream out, err;
  EXPECT_EQ(run_report_command({dir_.string(), "md", ""}, out, err), 0) << err.str();
  EXPECT_TRUE(fs::exists(dir_ / "report.md"));
  EXPECT_TRUE(out.str().empty());
  EXPECT_TRUE(has(err.str(), "report.md"));
  EXPECT_EQ(run_report_command({(dir_ / "run.json").string(), "csv", "-"}, out, err), 0);
  EXPECT_TRUE(has(out.str(), "kind,run_id,"));
  EXPECT_EQ(run_report_command({dir_.string(), "html", (dir_ / "x.html").string()}, out, err), 0);
  EXPECT_TRUE(has(read_file(dir_ / "x.html"), "pair-heatmap"));
}

TEST_F(ReportCommand, BadInputIsExit2NamingTheFile) {
  std::ostringstream out, err;
  EXPECT_EQ(run_report_command({(dir_ / "missing.json").string(), "html", ""}, out, err), 2);
  EXPECT_TRUE(has(err.str(), "missing.json: cannot open")) << err.str();
  std::ofstream(dir_ / "bad.json") << "{\"schema_version\": 1, \"nodes\": [";
  std::ostringstream err2;
  EXPECT_EQ(run_report_command({(dir_ / "bad.json").string(), "html", ""}, out, err2), 2);
  EXPECT_TRUE(has(err2.str(), "bad.json: not valid JSON at byte")) << err2.str();
  EXPECT_FALSE(fs::exists(dir_ / "report.html"));
}

TEST_F(ReportCommand, WriteReportsLeavesHtmlAndMarkdownAndOnlyWarnsOnFailure) {
  write_reports(pairs_run(), dir_.string());
  EXPECT_TRUE(fs::exists(dir_ / "report.html"));
  EXPECT_TRUE(fs::exists(dir_ / "report.md"));
  EXPECT_FALSE(fs::exists(dir_ / "report.html.tmp"));
  write_reports(pairs_run(), (dir_ / "no" / "such" / "dir").string());  // warns, does not throw
}

}  // namespace
}  // namespace podperf

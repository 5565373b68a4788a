// podperf sweep: the sweep file and its points, the launcher's argv, spawning without a shell, ranking.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "analysis/base/errors.hpp"
#include "analysis/compare/sweep_ranking.hpp"
#include "analysis/report/sweep_tables.hpp"
#include "offline/launch.hpp"
#include "sweep/sweep_points.hpp"

namespace podperf {
namespace {

const char* kProduct = R"(
[sweep]
description = "d"
command = "collective"
args = ["--backend", "host", "-n", "5"]
metric = "busbw"

[vary]
sizes = ["1K:4K", "64K"]
ops = ["all_reduce", "all_gather"]

[vary.env]
NCCL_ALGO = ["Ring", "Tree"]
NCCL_MIN_NCHANNELS = [4, 8, 16]
)";

std::string error_of(const std::string& text) {
  try {
    (void)parse_sweep(text, "s.toml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(SweepPlan, ProductExpandsEveryCombination) {
  const SweepSpec s = parse_sweep(kProduct, "s.toml");
  ASSERT_EQ(s.points.size(), 2u * 3u * 2u * 2u);
  EXPECT_EQ(s.command, "collective");
  // Names are unique, numbered and file-name safe.
  std::set<std::string> names;
  for (const SweepPoint& p : s.points) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name;
    EXPECT_EQ(p.name.find('/'), std::string::npos);
    EXPECT_EQ(p.env.size(), 2u);
    EXPECT_FALSE(p.op.empty());
    EXPECT_FALSE(p.sizes.empty());
  }
  EXPECT_EQ(s.points.front().name.substr(0, 9), "point-01-");
  // Whole numbers become strings; -b/-e and --op are appended after the base arguments.
  const SweepPoint& first = s.points.front();
  EXPECT_EQ(first.env.at("NCCL_MIN_NCHANNELS"), "4");
  const std::vector<std::string> args = point_podperf_args(s, first);
  const std::vector<std::string> want{"collective", "--backend", "host", "-n", "5", "--op",
                                      "all_reduce", "-b",        "1K",   "-e", "4K"};
  EXPECT_EQ(args, want);
  const SweepPoint& last = s.points.back();
  EXPECT_EQ(point_podperf_args(s, last).back(), "64K");  // a single size: -b 64K -e 64K
}

TEST(SweepPlan, ExplicitPointsKeepTheirOrderAndArgs) {
  const SweepSpec s = parse_sweep(R"(
[sweep]
description = "d"
command = "pairs"
args = []
metric = "busbw"
timeout_s = 60
[launch]
argv = ["/bin/launcher", "--x"]
np = 8
[[points]]
env = { FI_EFA_USE_DEVICE_RDMA = "1" }
[[points]]
[[points]]
op = "sendrecv"
sizes = "1M:8M"
args = ["--concurrency", "sequential"]
)",
                                  "s.toml");
  ASSERT_EQ(s.points.size(), 3u);
  EXPECT_EQ(s.points[1].label(), "(base command)");
  EXPECT_EQ(s.points[1].name, "point-02-base");
  EXPECT_EQ(s.timeout_s, 60.0);
  EXPECT_EQ(s.launch.argv, (std::vector<std::string>{"/bin/launcher", "--x"}));
  EXPECT_EQ(s.launch.np, 8);
  const std::vector<std::string> want{"pairs", "--op", "sendrecv",      "-b",        "1M",
                                      "-e",    "8M",   "--concurrency", "sequential"};
  EXPECT_EQ(point_podperf_args(s, s.points[2]), want);
}

TEST(SweepPlan, BadFilesNameFileLineAndKey) {
  const std::string head = "[sweep]\ndescription = \"d\"\ncommand = \"collective\"\nargs = []\nmetric = \"busbw\"\n";
  EXPECT_NE(
      error_of(head + "colour = 1\n[vary]\nops = [\"all_reduce\"]\n").find("s.toml:6: unknown key 'sweep.colour'"),
      std::string::npos);
  EXPECT_NE(error_of(head + "[vary]\nops = [\"all_reduce\"]\n[extra]\n").find("unknown key 'extra'"),
            std::string::npos);
  EXPECT_NE(error_of(head + "[vary]\nsizes = [\"big\"]\n").find("s.toml:7: 'vary.sizes' = \"big\" is not a size"),
            std::string::npos);
  EXPECT_NE(error_of(head + "[vary]\nsizes = [\"4M:1M\"]\n").find("smallest size is larger"), std::string::npos);
  EXPECT_NE(error_of(head + "[vary]\nops = [\"allreduce\"]\n").find("unknown op \"allreduce\""), std::string::npos);
  EXPECT_NE(error_of(head + "[vary.env]\n\"A-B\" = [\"1\"]\n").find("'A-B' is not a NAME"), std::string::npos);
  EXPECT_NE(error_of(head + "[vary.env]\nA = []\n").find("s.toml:7: 'vary.env.A' must be a non-empty array"),
            std::string::npos);
  EXPECT_NE(error_of(head + "[vary.env]\nA = [1.5]\n").find("must be a string or a whole number"), std::string::npos);
  EXPECT_NE(error_of(head).find("exactly one of [vary]"), std::string::npos);
  EXPECT_NE(error_of(head + "[vary]\n").find("varies nothing"), std::string::npos);
  EXPECT_NE(error_of(head + "[vary]\nops=[\"all_reduce\"]\n[[points]]\n").find("exactly one of"), std::string::npos);
  EXPECT_NE(error_of(head + "[[points]]\nenv = { A = \"1\" }\n[[points]]\nenv = { A = \"1\" }\n").find("listed twice"),
            std::string::npos);
  EXPECT_NE(error_of(head + "[launch]\nargv = []\n[vary]\nops=[\"all_reduce\"]\n").find("launcher program"),
            std::string::npos);
  const std::string pairs = "[sweep]\ndescription = \"d\"\ncommand = \"pairs\"\nargs = []\nmetric = \"busbw\"\n";
  EXPECT_NE(error_of(pairs + "[vary]\nops = [\"all_reduce,sendrecv\"]\n").find("podperf pairs takes one op"),
            std::string::npos);
  EXPECT_NE(error_of("[sweep]\ndescription = \"d\"\ncommand = \"fs\"\nargs = []\nmetric = \"busbw\"\n")
                .find("'sweep.command' = \"fs\""),
            std::string::npos);
  EXPECT_NE(error_of("[sweep]\ndescription = \"d\"\ncommand = \"pairs\"\nargs = []\nmetric = \"latency\"\n")
                .find("'sweep.metric'"),
            std::string::npos);
  EXPECT_NE(error_of("[sweep\n").find("s.toml:1:"), std::string::npos);
}

TEST(SweepPlan, BaseArgumentsTheSweepOwnsAreRefused) {
  auto with_args = [](const std::string& args, const std::string& vary) {
    return "[sweep]\ndescription = \"d\"\ncommand = \"collective\"\nargs = [" + args + "]\nmetric = \"busbw\"\n" + vary;
  };
  const std::string ops = "[vary]\nops = [\"all_reduce\"]\n";
  const std::string sizes = "[vary]\nsizes = [\"1M\"]\n";
  const std::string env = "[vary.env]\nX = [\"1\"]\n";
  EXPECT_NE(error_of(with_args("\"--out\", \"x\"", env)).find("s.toml:4: 'sweep.args' has --out"), std::string::npos);
  EXPECT_NE(error_of(with_args("\"--run-id=x\"", env)).find("has --run-id"), std::string::npos);
  EXPECT_NE(error_of(with_args("\"--op\", \"all_gather\"", ops)).find("has --op but the points set the op"),
            std::string::npos);
  EXPECT_NE(error_of(with_args("\"-b1M\"", sizes)).find("has -b but the points set the sizes"), std::string::npos);
  EXPECT_NE(error_of(with_args("\"--maxbytes=1G\"", sizes)).find("has --maxbytes"), std::string::npos);
  // The same options are fine where the points do not set them.
  EXPECT_EQ(error_of(with_args("\"--op\", \"all_gather\", \"-b\", \"1M\"", env)), "");
}

TEST(SweepPlan, BuiltInSweepsLoad) {
  const std::vector<std::string> names = builtin_sweeps();
  for (const char* want : {"efa", "host-smoke", "nccl-algo-proto"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  }
  for (const std::string& n : names) EXPECT_GT(load_sweep(n).points.size(), 1u) << n;
  EXPECT_EQ(load_sweep("nccl-algo-proto").points.size(), 6u);
  EXPECT_THROW((void)load_sweep("no-such-sweep"), ConfigError);
}

TEST(SweepPlan, JobsRunInShuffledCyclesOfEveryPoint) {
  const std::string head = "[sweep]\ndescription = \"d\"\ncommand = \"collective\"\nargs = []\nmetric = \"busbw\"\n";
  const std::string vary = "[vary.env]\nNCCL_ALGO = [\"Ring\", \"Tree\", \"CollnetDirect\", \"NVLS\"]\n";
  SweepSpec spec = parse_sweep(head + "repeats = 3\nseed = 7\n" + vary, "s.toml");
  EXPECT_EQ(spec.repeats, 3);
  const std::vector<SweepJob> jobs = sweep_job_order(spec);
  ASSERT_EQ(jobs.size(), 12u);
  std::set<std::string> ids;
  for (int cycle = 0; cycle < 3; ++cycle) {
    std::set<int> seen;
    for (int k = 0; k < 4; ++k) {
      const SweepJob& j = jobs[static_cast<std::size_t>(cycle * 4 + k)];
      EXPECT_EQ(j.repeat, cycle + 1);
      seen.insert(j.point->index);
      EXPECT_EQ(j.run_id, j.point->name + "-r" + std::to_string(cycle + 1));
      ids.insert(j.run_id);
    }
    EXPECT_EQ(seen.size(), 4u) << "every point once per cycle";
  }
  EXPECT_EQ(ids.size(), 12u);
  // Shuffled, not listed order in every cycle, and the same order for the same seed.
  bool any_shuffled = false;
  for (std::size_t i = 0; i < jobs.size(); ++i) any_shuffled |= jobs[i].point->index != static_cast<int>(i % 4) + 1;
  EXPECT_TRUE(any_shuffled);
  const std::vector<SweepJob> again = sweep_job_order(spec);
  for (std::size_t i = 0; i < jobs.size(); ++i) EXPECT_EQ(again[i].run_id, jobs[i].run_id);
  // The default: two repeats; one repeat keeps the point's own name as the run id.
  EXPECT_EQ(parse_sweep(head + vary, "s.toml").repeats, kDefaultSweepRepeats);
  spec = parse_sweep(head + "repeats = 1\n" + vary, "s.toml");
  for (const SweepJob& j : sweep_job_order(spec)) EXPECT_EQ(j.run_id, j.point->name);
  EXPECT_NE(error_of(head + "repeats = 0\n" + vary).find("s.toml:6: 'sweep.repeats'"), std::string::npos)
      << error_of(head + "repeats = 0\n" + vary);
  EXPECT_NE(error_of(head + "repeats = 101\n" + vary).find("'sweep.repeats'"), std::string::npos);
  EXPECT_NE(error_of(head + "seed = -1\n" + vary).find("'sweep.seed'"), std::string::npos);
}

TEST(SweepPlan, SafeNames) {
  EXPECT_EQ(safe_name("NCCL_ALGO=Ring_1M:4M"), "NCCL_ALGO=Ring_1M_4M");
  EXPECT_EQ(safe_name("; rm -rf /tmp/x"), "__rm_-rf__tmp_x");
  EXPECT_EQ(safe_name(".."), "x..");
  EXPECT_EQ(safe_name(std::string(200, 'a')).size(), 80u);
}

TEST(Launch, ChoosesSrunInsideSlurmElseMpirun) {
  SweepLaunch file;
  file.np = 4;
  file.mpirun_args = {"--oversubscribe"};
  file.srun_args = {"--ntasks-per-node=8"};
  LaunchChoice c = choose_launcher("auto", file, 0, "", "1234");
  EXPECT_EQ(c.kind, "srun");
  EXPECT_EQ(c.prefix, (std::vector<std::string>{"srun", "--mpi=pmix", "-n", "4", "--ntasks-per-node=8"}));
  EXPECT_FALSE(c.forward_with_x);
  EXPECT_NE(c.why.find("1234"), std::string::npos);

  c = choose_launcher("auto", file, 6, "hosts", "");
  EXPECT_EQ(c.kind, "mpirun");
  EXPECT_EQ(c.prefix, (std::vector<std::string>{"mpirun", "--hostfile", "hosts", "-np", "6", "--oversubscribe"}));
  EXPECT_TRUE(c.forward_with_x);

  file.srun_mpi = "pmi2";
  EXPECT_EQ(choose_launcher("srun", file, 0, "", "").prefix[1], "--mpi=pmi2");
  EXPECT_THROW((void)choose_launcher("srun", file, 0, "hosts", "1"), UsageError);
  EXPECT_THROW((void)choose_launcher("file", file, 0, "", ""), UsageError);
  EXPECT_TRUE(choose_launcher("none", file, 0, "", "").prefix.empty());

  file.argv = {"/opt/x/bin/mpirun", "-np", "2"};
  c = choose_launcher("auto", file, 0, "", "1234");  // the file's launcher wins over detection
  EXPECT_EQ(c.kind, "file");
  EXPECT_TRUE(c.forward_with_x);  // it is Open MPI's mpirun
}

TEST(Launch, ArgvForwardsVariablesByNameToMpirun) {
  LaunchChoice c;
  c.prefix = {"mpirun", "-np", "2"};
  c.forward_with_x = true;
  const std::vector<std::string> argv =
      launch_argv(c, "/bin/podperf", {"collective", "-b", "1K"}, {{"NCCL_ALGO", "Ring"}, {"FI_PROVIDER", "efa"}});
  const std::vector<std::string> want{"mpirun",    "-np",          "2",          "-x", "FI_PROVIDER", "-x",
                                      "NCCL_ALGO", "/bin/podperf", "collective", "-b", "1K"};
  EXPECT_EQ(argv, want);
}

TEST(Launch, ChildEnvironmentReplacesAndAdds) {
  std::string a = "A=1";
  std::string b = "B=2";
  std::vector<char*> env{a.data(), b.data(), nullptr};
  const std::vector<std::string> out = child_environment(env.data(), {{"B", "x y"}, {"C", "$(z)"}});
  EXPECT_EQ(out, (std::vector<std::string>{"A=1", "B=x y", "C=$(z)"}));
}

// Hostile values reach the child literally: no shell ever parses them.
TEST(Launch, HostileValuesArriveAsLiteralArgumentsAndEnvironment) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("podperf-spawn-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string marker = (dir / "pwned").string();
  const std::vector<std::string> hostile{"; rm -rf " + dir.string(),
                                         "$(touch " + marker + ")",
                                         "`touch " + marker + "`",
                                         "'\"quoted\"'",
                                         "two\nlines",
                                         "a && touch " + marker,
                                         "| tee " + marker,
                                         "*"};
  std::vector<std::string> argv{"printf", "%s\\0"};
  argv.insert(argv.end(), hostile.begin(), hostile.end());
  const std::string log = (dir / "argv.log").string();
  SpawnResult r = spawn_and_wait(argv, {"PATH=/usr/bin:/bin"}, log, 30);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.exit_code, 0);
  std::ifstream in(log, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string want;
  for (const std::string& h : hostile) want += h + '\0';
  EXPECT_EQ(ss.str(), want);

  const std::string env_log = (dir / "env.log").string();
  std::vector<std::string> env = child_environment(nullptr, {{"HOSTILE_A", hostile[1]}, {"HOSTILE_B", hostile[4]}});
  env.emplace_back("PATH=/usr/bin:/bin");
  r = spawn_and_wait({"env", "-0"}, env, env_log, 30);
  ASSERT_TRUE(r.started) << r.error;
  std::ifstream ein(env_log, std::ios::binary);
  std::stringstream es;
  es << ein.rdbuf();
  EXPECT_NE(es.str().find(std::string("HOSTILE_A=") + hostile[1] + '\0'), std::string::npos);
  EXPECT_NE(es.str().find(std::string("HOSTILE_B=two\nlines") + '\0'), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(marker));
  EXPECT_TRUE(std::filesystem::exists(dir));
  std::filesystem::remove_all(dir);
}

TEST(Launch, ExitCodesTimeoutAndMissingPrograms) {
  const std::string log =
      std::filesystem::temp_directory_path() / ("podperf-spawn-" + std::to_string(getpid()) + ".log");
  SpawnResult r = spawn_and_wait({"false"}, {"PATH=/usr/bin:/bin"}, log, 30);
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 1);
  r = spawn_and_wait({"sleep", "30"}, {"PATH=/usr/bin:/bin"}, log, 0.3);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.exit_code, 128 + SIGTERM);
  r = spawn_and_wait({"/nonexistent/launcher"}, {}, log, 30);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.error.find("cannot execute '/nonexistent/launcher'"), std::string::npos);
  std::filesystem::remove(log);
}

TEST(Launch, FileTail) {
  const std::string path = std::filesystem::temp_directory_path() / ("podperf-tail-" + std::to_string(getpid()));
  {
    std::ofstream f(path);
    for (int i = 1; i <= 30; ++i) f << "line " << i << "\n";
  }
  EXPECT_EQ(file_tail(path, 2, 1000), "line 29\nline 30");
  EXPECT_EQ(file_tail(path, 100, 12), " 29\nline 30");
  EXPECT_EQ(file_tail("/nonexistent", 2, 100), "");
  std::filesystem::remove(path);
}

SweepPointResult point_with(int index, double center, double spread, std::uint64_t size, std::uint32_t seed) {
  SweepPointResult p;
  p.index = index;
  p.label = "P" + std::to_string(index);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-spread, spread);
  SweepCase c{"all_reduce", "float", size, {}};
  for (int i = 0; i < 30; ++i) c.busbw_gbps.push_back(center + u(rng));
  p.cases.push_back(c);
  return p;
}

TEST(SweepRank, RanksByMedianPerSizeWithIntervals) {
  std::vector<SweepPointResult> points{point_with(1, 10.0, 0.5, 1024, 1), point_with(2, 20.0, 0.5, 1024, 2),
                                       point_with(3, 20.2, 0.5, 1024, 3)};
  points[0].cases.push_back(point_with(1, 50.0, 1.0, 4096, 4).cases[0]);  // only point 1 measured 4K
  const std::vector<SweepRankGroup> groups = rank_sweep(points);
  ASSERT_EQ(groups.size(), 2u);
  const SweepRankGroup& g = groups[0];
  EXPECT_EQ(g.size_bytes, 1024u);
  ASSERT_EQ(g.entries.size(), 3u);
  EXPECT_EQ(g.entries[0].point, 3);
  EXPECT_EQ(g.entries[1].point, 2);
  EXPECT_EQ(g.entries[2].point, 1);
  for (const SweepRankEntry& e : g.entries) {
    EXPECT_LE(e.ci_low_gbps, e.median_gbps);
    EXPECT_GE(e.ci_high_gbps, e.median_gbps);
    EXPECT_EQ(e.samples, 30u);
  }
  EXPECT_FALSE(g.best_clear);  // 20.2 vs 20.0 with +-0.5 noise: within noise
  EXPECT_EQ(groups[1].entries.size(), 1u);
  // Point 2 alone against point 1: clearly ahead.
  const std::vector<SweepRankGroup> two = rank_sweep({points[0], points[1]});
  EXPECT_EQ(two[0].entries[0].point, 2);
  EXPECT_TRUE(two[0].best_clear);
  // One job per point: ahead only beyond the single-run allowance (25%); 20 against 10 is 100%.
  EXPECT_EQ(two[0].method, "single_run");
  const std::string text = sweep_ranking_text(two, {points[0], points[1]});
  EXPECT_NE(text.find("ahead of #1 by +"), std::string::npos) << text;
  EXPECT_NE(text.find("more than the single-run allowance of 25%"), std::string::npos) << text;
  EXPECT_NE(text.find("the only point measured"), std::string::npos) << text;
  // Same input, same intervals (fixed seeds).
  EXPECT_EQ(rank_sweep(points)[0].entries[0].ci_low_gbps, groups[0].entries[0].ci_low_gbps);
  EXPECT_EQ(g.method, "single_run");  // 20.2 against 20.0: 1%, within the allowance
  EXPECT_NE(sweep_ranking_text(groups, points).find("not told apart from #2"), std::string::npos);
  const std::string csv = sweep_csv(groups);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 3 + 1);
}

// One job of a point: `iterations` per-iteration busbw around `job_center` (spread +-0.1%: iterations
// of one job agree closely, as they do on a real cluster).
SweepPointResult job_of(int point, int repeat, double job_center, std::uint32_t seed) {
  SweepPointResult j;
  j.index = point;
  j.repeat = repeat;
  j.label = "P" + std::to_string(point);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.001, 0.001);
  SweepCase c{"all_reduce", "float", 1024, {}};
  for (int i = 0; i < 20; ++i) c.busbw_gbps.push_back(job_center * (1.0 + u(rng)));
  j.cases.push_back(c);
  return j;
}

TEST(SweepRank, TheJobIsTheUnitNotTheIteration) {
  // Two points of the same true speed whose jobs move by up to 8% (the run effect): point 2's jobs
  // happened to land 4% higher. Iteration intervals are tiny and do not overlap (the old ranking
  // called #2 ahead "beyond both intervals"); at the job level the gap is within the jobs' spread.
  const std::vector<double> p1{100.0, 92.0, 104.0};
  const std::vector<double> p2{105.0, 97.0, 108.0};
  std::vector<SweepPointResult> jobs;
  for (int r = 0; r < 3; ++r) {
    jobs.push_back(job_of(1, r + 1, p1[static_cast<std::size_t>(r)], 10 + r));
    jobs.push_back(job_of(2, r + 1, p2[static_cast<std::size_t>(r)], 20 + r));
  }
  std::vector<SweepRankGroup> g = rank_sweep(jobs);
  ASSERT_EQ(g.size(), 1u);
  ASSERT_EQ(g[0].entries.size(), 2u);
  EXPECT_EQ(g[0].entries[0].point, 2);
  EXPECT_EQ(g[0].method, "runs");
  EXPECT_EQ(g[0].entries[0].run_medians_gbps.size(), 3u);
  EXPECT_EQ(g[0].entries[0].samples, 60u);
  EXPECT_FALSE(g[0].best_clear) << g[0].p_adjusted;
  EXPECT_GT(g[0].p_adjusted, 0.05);
  EXPECT_GT(g[0].mde_percent, 4.0);  // a 4% gap is below what three jobs a side can show
  // The interval is over jobs: it spans the jobs' spread, not the iterations'.
  EXPECT_LT(g[0].entries[0].ci_low_gbps, 97.0);
  EXPECT_GT(g[0].entries[0].ci_high_gbps, 108.0);
  const std::string text = sweep_ranking_text(g, jobs);
  EXPECT_NE(text.find("within run-to-run noise of #1"), std::string::npos) << text;
  // The same run effect with a real 40% gap: ahead beyond noise.
  jobs.clear();
  for (int r = 0; r < 3; ++r) {
    jobs.push_back(job_of(1, r + 1, p1[static_cast<std::size_t>(r)], 10 + r));
    jobs.push_back(job_of(2, r + 1, 1.4 * p2[static_cast<std::size_t>(r)], 20 + r));
  }
  g = rank_sweep(jobs);
  EXPECT_EQ(g[0].entries[0].point, 2);
  EXPECT_TRUE(g[0].best_clear) << g[0].p_adjusted;
  EXPECT_NE(sweep_ranking_text(g, jobs).find("ahead of #1 beyond run-to-run noise"), std::string::npos);
}

TEST(SweepRank, PValuesAreAdjustedAcrossSizes) {
  // Ten sizes, each a modest gap at p around 0.03 alone: adjusted across the ten, none is beyond noise.
  std::vector<SweepPointResult> jobs;
  const std::vector<double> a{100.0, 101.0, 99.0};
  const std::vector<double> b{103.5, 104.0, 102.0};
  for (int r = 0; r < 3; ++r) {
    SweepPointResult j1 = job_of(1, r + 1, a[static_cast<std::size_t>(r)], 1);
    SweepPointResult j2 = job_of(2, r + 1, b[static_cast<std::size_t>(r)], 2);
    const SweepCase c1 = j1.cases[0];
    const SweepCase c2 = j2.cases[0];
    for (std::uint64_t k = 1; k < 10; ++k) {
      SweepCase x = c1;
      x.size_bytes = 1024 << k;
      j1.cases.push_back(x);
      SweepCase y = c2;
      y.size_bytes = 1024 << k;
      j2.cases.push_back(y);
    }
    jobs.push_back(j1);
    jobs.push_back(j2);
  }
  const std::vector<SweepRankGroup> all = rank_sweep(jobs);
  ASSERT_EQ(all.size(), 10u);
  for (const SweepRankGroup& g : all) {
    EXPECT_EQ(g.entries[0].point, 2);
    EXPECT_LT(g.p_value, 0.05);  // alone, each would pass
    EXPECT_GE(g.p_adjusted, g.p_value);
  }
  // Adjusting identical p values across sizes keeps them equal (BH of ten equal p is p itself).
  EXPECT_DOUBLE_EQ(all[0].p_adjusted, all[0].p_value);
}

TEST(SweepRank, BootstrapIntervalCoversTheMedian) {
  std::vector<double> v;
  for (int i = 1; i <= 21; ++i) v.push_back(i);
  const auto [lo, hi] = bootstrap_median_interval(v, 0.95, 2000, 7);
  EXPECT_LT(lo, 11.0);
  EXPECT_GT(hi, 11.0);
  EXPECT_GE(lo, 6.0);  // the median of 21 values does not wander to the tails
  EXPECT_LE(hi, 16.0);
  EXPECT_EQ(bootstrap_median_interval({5.0}, 0.95, 2000, 7), std::make_pair(5.0, 5.0));
}

TEST(SweepRank, CasesFromARun) {
  podperf::Run run;
  CollectiveResult c;
  c.op = "all_reduce";
  c.dtype = "float";
  c.size_bytes = 1024;
  c.samples_s = {1.0, 2.0};
  c.median_s = 1.5;
  c.busbw_gbps = 3.0;
  run.collectives.push_back(c);
  c.in_place = true;  // in place: not ranked (out of place is nccl-tests' headline)
  run.collectives.push_back(c);
  c.in_place = false;
  c.status = "wrong";
  run.collectives.push_back(c);
  PairResult p;
  p.op = "all_reduce";
  p.dtype = "float";
  p.size_bytes = 2048;
  p.samples_s = {1.0};
  p.median_s = 1.0;
  p.busbw_gbps = 5.0;
  run.pairs.push_back(p);
  run.pairs.push_back(p);
  const std::vector<SweepCase> cases = sweep_cases(run);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].busbw_gbps, (std::vector<double>{4.5, 2.25}));
  EXPECT_EQ(cases[1].busbw_gbps, (std::vector<double>{5.0, 5.0}));  // the pairs of one size pooled
}

}  // namespace
}  // namespace podperf

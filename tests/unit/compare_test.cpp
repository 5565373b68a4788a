// podperf compare: the Mann-Whitney U test against hand-computed values, the bootstrap interval, the
// t distribution and Welch's run-level test, the two-level model (a run effect plus iteration noise:
// the iteration-level test's false-positive rate against the run-level one's), and fixed sets of
// synthetic runs (same healthy cluster, one slow pair, everything faster, runs that are not comparable,
// slower filesystem probes, one run per side).
#include "analysis/compare/compare.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/report/comparison_json.hpp"
#include "analysis/report/comparison_text.hpp"
#include "analysis/stats/stats.hpp"
#include "noisy_runs.hpp"
#include "offline/compare_command.hpp"

namespace podperf {
namespace {

using noisy::ClusterSpec;
using noisy::kM;
using noisy::make_noisy_run;
using noisy::Noise;

// ---- Mann-Whitney U ----

TEST(MannWhitney, CompleteSeparationFiveAndFiveIsExact) {
  const std::vector<double> a{1, 2, 3, 4, 5}, b{6, 7, 8, 9, 10};
  const MannWhitneyResult r = mann_whitney_u(a, b);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 0.0);
  EXPECT_NEAR(r.p_value, 2.0 / 252.0, 1e-12);  // 2 of C(10,5) arrangements are this extreme
}

TEST(MannWhitney, ThreeAndThreeCannotReachFivePercent) {
  const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
  EXPECT_NEAR(mann_whitney_u(a, b).p_value, 0.1, 1e-12);  // 2 / C(6,3)
}

TEST(MannWhitney, InterleavedFourAndFour) {
  // U = 0 + 1 + 2 + 3 = 6; P(U <= 6) = (1+1+2+3+5+5+7)/70 (partitions of u in a 4x4 box), p = 2 * 24/70.
  const std::vector<double> a{1, 3, 5, 7}, b{2, 4, 6, 8};
  const MannWhitneyResult r = mann_whitney_u(a, b);
  EXPECT_DOUBLE_EQ(r.u, 6.0);
  EXPECT_TRUE(r.exact);
  EXPECT_NEAR(r.p_value, 48.0 / 70.0, 1e-12);
}

TEST(MannWhitney, TiesUseNormalApproximationWithTieCorrection) {
  // Pooled: 1a 2a 2a 2b 3a 3b 3b 4b; ranks 1, 3, 3, 3, 6, 6, 6, 8; R_a = 13, U = 13 - 10 = 3.
  // var = 16/12 * (9 - (24 + 24) / 56) = 10.857142857; z = (|3 - 8| - 0.5) / sqrt(var) = 1.3656982;
  // p = erfc(z / sqrt 2) = 0.1720337.
  const std::vector<double> a{1, 2, 2, 3}, b{2, 3, 3, 4};
  const MannWhitneyResult r = mann_whitney_u(a, b);
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 3.0);
  EXPECT_NEAR(r.z, -1.3656982, 1e-6);
  EXPECT_NEAR(r.p_value, 0.1720337, 1e-6);
  // Symmetric in its arguments.
  const MannWhitneyResult s = mann_whitney_u(b, a);
  EXPECT_DOUBLE_EQ(s.u, 13.0);
  EXPECT_NEAR(s.p_value, r.p_value, 1e-12);
}

TEST(MannWhitney, LargeSamplesUseNormalApproximation) {
  std::vector<double> a, b, even, odd;
  for (int i = 0; i < 25; ++i) {
    a.push_back(i);
    b.push_back(25 + i);
    even.push_back(2 * i);
    odd.push_back(2 * i + 1);
  }
  // 25 x 25 = 625 > 400: normal. U = 0, z = 312 / sqrt(625 * 51 / 12).
  MannWhitneyResult r = mann_whitney_u(a, b);
  EXPECT_FALSE(r.exact);
  EXPECT_NEAR(r.p_value, 1.4156562e-09, 1e-14);
  r = mann_whitney_u(even, odd);  // U = 300
  EXPECT_DOUBLE_EQ(r.u, 300.0);
  EXPECT_NEAR(r.p_value, 0.8158902, 1e-6);
}

TEST(MannWhitney, AllEqualOrEmptyIsNoEvidence) {
  const std::vector<double> same{5, 5, 5, 5}, empty;
  EXPECT_DOUBLE_EQ(mann_whitney_u(same, same).p_value, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u(same, empty).p_value, 1.0);
}

TEST(BootstrapInterval, CoversTheTrueShiftAndIsDeterministic) {
  int covered = 0;
  constexpr int kTrials = 40;
  for (int trial = 0; trial < kTrials; ++trial) {
    Noise noise(1000 + static_cast<std::uint64_t>(trial));
    std::vector<double> before, after;
    for (int i = 0; i < 30; ++i) before.push_back(100.0 * std::exp(0.03 * noise.normal()));
    for (int i = 0; i < 30; ++i) after.push_back(110.0 * std::exp(0.03 * noise.normal()));  // true change +10%
    const PercentInterval ci = bootstrap_change_interval(before, after, 0.95, 1000, 7);
    EXPECT_LT(ci.low_percent, ci.high_percent);
    if (ci.low_percent <= 10.0 && 10.0 <= ci.high_percent) ++covered;
    const PercentInterval again = bootstrap_change_interval(before, after, 0.95, 1000, 7);
    EXPECT_EQ(ci.low_percent, again.low_percent);
    EXPECT_EQ(ci.high_percent, again.high_percent);
  }
  std::cout << "bootstrap 95% interval covered the true +10% in " << covered << " of " << kTrials << " trials\n";
  EXPECT_GE(covered, 34);  // nominal 38 of 40
}

CompareSettings defaults() {
  return load_compare_settings("");
}

// `k` runs of `spec` with seeds seed, seed + 1, ...
std::vector<Run> runs_of(const ClusterSpec& spec, std::uint64_t seed, int k) {
  std::vector<Run> out;
  for (int i = 0; i < k; ++i) out.push_back(make_noisy_run(spec, seed + static_cast<std::uint64_t>(i)));
  return out;
}

int count_verdict(const Comparison& c, const std::string& verdict) {
  int k = 0;
  for (const MetricComparison& m : c.metrics) k += m.verdict == verdict ? 1 : 0;
  return k;
}

TEST(CompareSettingsFile, EmbeddedDefaultsAndErrors) {
  const CompareSettings s = defaults();
  EXPECT_DOUBLE_EQ(s.alpha, 0.05);
  EXPECT_DOUBLE_EQ(s.min_change_percent, 2.0);
  EXPECT_DOUBLE_EQ(s.single_run_allowance_percent, 25.0);
  EXPECT_DOUBLE_EQ(s.power, 0.8);
  EXPECT_EQ(s.correction, "benjamini-hochberg");
  EXPECT_EQ(s.source, "configs/compare.toml (built in)");
  try {
    parse_compare_settings(
        "[compare]\nalpha = 0.05\nmin_change_percent = 2\nmin_samples = 4\nconfidence = 0.95\n"
        "power = 0.8\nsingle_run_allowance_percent = 10\ncorrection = \"none\"\nalhpa = 1\n",
        "x.toml");
    FAIL() << "unknown key accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("x.toml:9: unknown key 'compare.alhpa'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_compare_settings("[compare]\nalpha = 2\n", "x.toml"), ConfigError);
  EXPECT_THROW(load_compare_settings("/nonexistent/compare.toml"), ConfigError);
}

// (1) The same healthy cluster, three runs a side (other seeds, the same noise): no change, each with the
// smallest change it would have seen.
TEST(CompareRuns, SameHealthyClusterIsNoChange) {
  const ClusterSpec spec;
  const Comparison c = compare_runs(runs_of(spec, 1, 3), runs_of(spec, 4, 3), defaults());
  EXPECT_EQ(c.method, "run_level_moderated_t");
  EXPECT_EQ(c.runs_before, 3u);
  EXPECT_TRUE(c.comparability.empty());
  EXPECT_TRUE(c.only_before.empty());
  EXPECT_TRUE(c.only_after.empty());
  // 15 pairs x 3 sizes + fs: seq-write and rand-read IOPS and p99 per rank, per node MB/s and IOPS (6 each).
  EXPECT_EQ(c.metrics.size(), 45u + 3u + 12u);
  for (const MetricComparison& m : c.metrics) {
    EXPECT_EQ(m.verdict, "no_change") << m.name() << " " << m.change_percent << "% p " << m.p_value;
  }
  EXPECT_FALSE(regressed_beyond(c, 0.0));
  EXPECT_EQ(c.summary.no_change, static_cast<int>(c.metrics.size()));
  for (const MetricComparison& m : c.metrics) {
    EXPECT_EQ(m.runs_before.size(), 3u);
    EXPECT_GE(m.mde_percent, 2.0) << m.name();  // never below --min-change
    EXPECT_LT(m.mde_percent, 20.0) << m.name();
  }
  EXPECT_GT(c.summary.mde_median_percent, 0.0);
  const std::string text = comparison_text(at_fail_on(c, 0.0));
  EXPECT_NE(text.find("would have been seen"), std::string::npos) << text;
  EXPECT_NE(text.find("Runs: 3 BEFORE, 3 AFTER"), std::string::npos) << text;
}

TEST(CompareRuns, HealthyPairsFalsePositiveRateIsLow) {
  const ClusterSpec spec;
  CompareSettings s = defaults();
  CompareSettings raw = s;
  raw.correction = "none";
  int tested = 0, flagged = 0, significant = 0, flagged_raw = 0;
  constexpr int kRunPairs = 30;
  for (int k = 0; k < kRunPairs; ++k) {
    const Comparison c = compare_runs(runs_of(spec, 100 + 6 * static_cast<std::uint64_t>(k), 3),
                                      runs_of(spec, 103 + 6 * static_cast<std::uint64_t>(k), 3), s);
    for (const MetricComparison& m : c.metrics) {
      if (m.p_value < 0.0) continue;
      ++tested;
      if (m.p_value < s.alpha) ++significant;
      if (m.verdict != "no_change") ++flagged;
    }
    const Comparison r = compare_runs(runs_of(spec, 100 + 6 * static_cast<std::uint64_t>(k), 3),
                                      runs_of(spec, 103 + 6 * static_cast<std::uint64_t>(k), 3), raw);
    flagged_raw += count_verdict(r, "slower") + count_verdict(r, "faster");
  }
  const double rate = static_cast<double>(flagged) / tested;
  std::cout << "healthy pairs of runs: " << flagged << " of " << tested
            << " metrics slower/faster (false-positive rate " << 100.0 * rate << "%); p < alpha alone: " << significant
            << " (" << 100.0 * significant / tested << "%); without the Benjamini-Hochberg correction: " << flagged_raw
            << " (" << 100.0 * flagged_raw / tested << "%)\n";
  EXPECT_LT(rate, 0.01);
  EXPECT_LT(static_cast<double>(flagged_raw) / tested, 0.05);
  // The test alone is calibrated: about alpha of the metrics reach p < alpha by chance.
  EXPECT_LT(static_cast<double>(significant) / tested, 0.08);
}

// (2) One pair 20% slower after (busbw x 0.8): exactly that pair, at every size; --fail-on decides.
TEST(CompareRuns, OneSlowPairIsExactlyThatPair) {
  const ClusterSpec spec;
  ClusterSpec slow = spec;
  slow.time_factor = [](const std::string& a, const std::string& b, std::uint64_t) {
    return a == "node1" && b == "node4" ? 1.25 : 1.0;
  };
  const Comparison c = compare_runs(runs_of(spec, 1, 3), runs_of(slow, 4, 3), defaults());
  EXPECT_EQ(c.summary.slower, 3);
  EXPECT_EQ(c.summary.faster, 0);
  for (const MetricComparison& m : c.metrics) {
    if (m.key().nodes == "node1<->node4") {
      EXPECT_EQ(m.verdict, "slower") << m.name();
      EXPECT_NEAR(m.change_percent, -20.0, 3.0) << m.name();
      EXPECT_LT(m.ci_low_percent, -16.0);
      EXPECT_GT(m.ci_high_percent, -24.0);
      EXPECT_LT(m.ci_high_percent, -2.0);
      EXPECT_NEAR(regression_percent(m), -m.change_percent, 1e-12);
    } else {
      EXPECT_EQ(m.verdict, "no_change") << m.name();
    }
  }
  EXPECT_TRUE(regressed_beyond(c, 10.0));
  EXPECT_FALSE(regressed_beyond(c, 25.0));
  const std::string text = comparison_text(at_fail_on(c, 10.0));
  EXPECT_EQ(text.find("Summary: 3 slower, 0 faster"), text.find("Summary:")) << text;
  EXPECT_NE(text.find("REGRESSION: 3 metrics slower by more than 10%"), std::string::npos) << text;
  EXPECT_NE(text.find("pair node1<->node4 all_reduce float 256M busbw"), std::string::npos) << text;
}

// Four nodes (three pairs each) whose pairs differ in baseline by up to 30%, one link 20% slower in
// AFTER: only that link is slower. The node levels were once the change of the median of a node's pair
// values, so the slow link moved the median of its nodes to a pair of lower baseline: a node "3% slower"
// whose other pairs had not moved, and those pairs listed as "faster" (the cli.compare fixtures did so).
TEST(CompareRuns, OneSlowLinkAmongPairsOfUnequalBaselinesMovesNoNode) {
  ClusterSpec spec;
  spec.labels = {"node0", "node1", "node2", "node3"};
  // Pair baselines (iteration time factors) such that the slow link is the middle pair of both its nodes.
  spec.time_factor = [](const std::string& a, const std::string& b, std::uint64_t) {
    static const std::map<std::string, double> factor{{"node0node1", 1.0},  {"node0node2", 1.0},  {"node0node3", 1.05},
                                                      {"node1node2", 1.10}, {"node1node3", 1.20}, {"node2node3", 1.30}};
    return factor.at(a + b);
  };
  ClusterSpec slow = spec;
  slow.time_factor = [base = spec.time_factor](const std::string& a, const std::string& b, std::uint64_t s) {
    return base(a, b, s) * (a == "node1" && b == "node2" ? 1.25 : 1.0);
  };
  const Comparison c = compare_runs(runs_of(spec, 1, 3), runs_of(slow, 4, 3), defaults());
  ASSERT_FALSE(c.pair_levels.empty());
  for (const PairLevelTest& t : c.pair_levels) {
    EXPECT_NE(t.verdict, "slower") << t.level << " " << t.node << " " << t.change_percent;
    EXPECT_NE(t.verdict, "faster") << t.level << " " << t.node << " " << t.change_percent;
  }
  for (const MetricComparison& m : c.metrics) {
    if (m.family != std::string("pairs")) continue;
    EXPECT_EQ(m.verdict, m.key().nodes == "node1<->node2" ? "slower" : "no_change")
        << m.name() << " " << m.change_percent << " tested " << m.tested_change_percent;
  }
}

// The command on files: exit 1 with --fail-on 10, 0 with --fail-on 25, 2 for a truncated file.
TEST(CompareCommand, ExitCodesOnFiles) {
  const ClusterSpec spec;
  ClusterSpec slow = spec;
  slow.time_factor = [](const std::string& a, const std::string& b, std::uint64_t) {
    return a == "node1" && b == "node4" ? 1.25 : 1.0;
  };
  const auto dir = std::filesystem::temp_directory_path() / ("podperf-compare-test-" + std::to_string(::getpid()));
  CompareOptions o;
  for (int i = 0; i < 3; ++i) {
    const auto before = dir / fmt::format("before{}.json", i);
    const auto after = dir / fmt::format("after{}", i);  // a results directory
    std::filesystem::create_directories(after);
    std::ofstream(before) << nlohmann::json(make_noisy_run(spec, 1 + static_cast<std::uint64_t>(i))).dump();
    std::ofstream(after / "run.json") << nlohmann::json(make_noisy_run(slow, 4 + static_cast<std::uint64_t>(i))).dump();
    o.before_runs.push_back(before.string());
    o.after_runs.push_back(after.string());
  }
  std::ostringstream out, err;
  o.fail_on_percent = 10.0;
  EXPECT_EQ(run_compare_command(o, out, err), 1) << err.str();
  o.fail_on_percent = 25.0;
  EXPECT_EQ(run_compare_command(o, out, err), 0) << err.str();
  o.json = true;
  std::ostringstream json_out;
  EXPECT_EQ(run_compare_command(o, json_out, err), 0);
  const nlohmann::json j = nlohmann::json::parse(json_out.str());
  EXPECT_EQ(j["summary"]["slower"], 3);
  EXPECT_EQ(j["regressed"], false);
  EXPECT_EQ(j["method"], "run_level_moderated_t");
  EXPECT_EQ(j["before"]["runs"], 3);
  EXPECT_EQ(j["metrics"][0]["runs_after"].size(), 3u);
  // --before without --after, or both forms at once: exit 2 saying so.
  CompareOptions half = o;
  half.after_runs.clear();
  std::ostringstream err_half;
  EXPECT_EQ(run_compare_command(half, out, err_half), 2);
  EXPECT_NE(err_half.str().find("--before without --after"), std::string::npos) << err_half.str();
  half = o;
  half.before = o.before_runs[0];
  half.after = o.after_runs[0];
  std::ostringstream err_both;
  EXPECT_EQ(run_compare_command(half, out, err_both), 2);
  EXPECT_NE(err_both.str().find("not both"), std::string::npos) << err_both.str();
  // A run of other sizes among the repeats of one side: exit 2 naming both files.
  ClusterSpec other = spec;
  other.sizes = {16 * kM};
  std::ofstream(dir / "other.json") << nlohmann::json(make_noisy_run(other, 9)).dump();
  half = o;
  half.after_runs.push_back((dir / "other.json").string());
  std::ostringstream err_mix;
  EXPECT_EQ(run_compare_command(half, out, err_mix), 2);
  EXPECT_NE(err_mix.str().find("other.json are not repeats of one setup (sizes"), std::string::npos) << err_mix.str();
  // Truncated file: exit 2 naming it.
  const std::string text = nlohmann::json(make_noisy_run(spec, 3)).dump();
  const std::string truncated = (dir / "truncated.json").string();
  std::ofstream(truncated) << text.substr(0, text.size() / 2);
  o.after_runs[1] = truncated;
  std::ostringstream err2;
  EXPECT_EQ(run_compare_command(o, out, err2), 2);
  EXPECT_NE(err2.str().find("truncated.json: not valid JSON at byte"), std::string::npos) << err2.str();
  std::filesystem::remove_all(dir);
}

// (3) Everything 10% faster (times x 1/1.1, filesystem rates x 1.1, latency / 1.1): all faster.
TEST(CompareRuns, EverythingFasterIsAllFaster) {
  ClusterSpec spec;
  spec.fs_ranks_per_node = 8;  // with 4 ranks and 5% noise a node's 10% is not always outside the noise
  ClusterSpec fast = spec;
  fast.time_factor = [](const std::string&, const std::string&, std::uint64_t) { return 1.0 / 1.1; };
  fast.fs_rate_factor = 1.1;
  fast.fs_latency_factor = 1.0 / 1.1;
  // Five runs a side: with three, a node's 10% (8 ranks, 5% per-rank noise) is not always found.
  const Comparison c = compare_runs(runs_of(spec, 5, 5), runs_of(fast, 10, 5), defaults());
  for (const MetricComparison& m : c.metrics) EXPECT_EQ(m.verdict, "faster") << m.name() << " " << m.change_percent;
  EXPECT_EQ(c.summary.faster, static_cast<int>(c.metrics.size()));
  EXPECT_FALSE(regressed_beyond(c, 0.0));
}

// (4) Not comparable: other nodes, other sizes, another NCCL and environment. Warned, and the common
// metrics still compared.
TEST(CompareRuns, NonComparableRunsWarnAndCompareTheCommonPart) {
  const ClusterSpec spec;
  ClusterSpec other = spec;
  other.labels = {"node0", "node1", "node2", "node3", "node4", "node9"};
  other.sizes = {16 * kM, 64 * kM, 1024 * kM};
  other.nccl_version = "NCCL 2.18.3";
  other.environment = "FI_PROVIDER=efa, NCCL_DEBUG=INFO, NCCL_ALGO=Ring";
  const Comparison c = compare_runs(make_noisy_run(spec, 1), make_noisy_run(other, 2), defaults());
  std::map<std::string, ComparabilityNote> notes;
  for (const ComparabilityNote& n : c.comparability) notes[n.what] = n;
  ASSERT_TRUE(notes.contains("nodes"));
  EXPECT_EQ(notes["nodes"].before, "only here: node5");
  EXPECT_EQ(notes["nodes"].after, "only here: node9");
  ASSERT_TRUE(notes.contains("sizes"));
  EXPECT_EQ(notes["sizes"].before, "only here: 256M");
  EXPECT_EQ(notes["sizes"].after, "only here: 1G");
  ASSERT_TRUE(notes.contains("NCCL version"));
  EXPECT_EQ(notes["NCCL version"].before, "NCCL 2.21.5");
  EXPECT_EQ(notes["NCCL version"].after, "NCCL 2.18.3");
  ASSERT_TRUE(notes.contains("environment"));
  EXPECT_EQ(notes["environment"].after, "only here: NCCL_ALGO=Ring");
  EXPECT_FALSE(notes.contains("backend"));
  // Common: 10 pairs among node0..node4 at 16M and 64M; the seq-write and rand-read per-rank metrics
  // (3) and the per-node ones of node0..node4 (2 x 5). One run a side (issue 32): the pairs are tested
  // against the spread of their changes (none moved), the filesystem metrics are untestable (was:
  // "within_allowance" of a flat 25%, which the issue calls wrong).
  EXPECT_EQ(c.metrics.size(), 20u + 3u + 10u);
  for (const MetricComparison& m : c.metrics) {
    EXPECT_EQ(m.verdict, m.key().kind == "pair" ? "no_change" : "untestable") << m.name();
  }
  EXPECT_EQ(c.only_before.size(), 5u * 2 + 15u + 2u);  // node5's pairs at 16M/64M, 256M, node5's fs nodes
  EXPECT_EQ(c.only_after.size(), 5u * 2 + 15u + 2u);
  const std::string text = comparison_text(at_fail_on(c, 0.0));
  EXPECT_NE(text.find("WARNING: the runs are not comparable"), std::string::npos);
  EXPECT_NE(text.find("  nodes: BEFORE only here: node5; AFTER only here: node9"), std::string::npos) << text;
}

// (5) Filesystem probes slower: per-rank MB/s 30% lower and rand-read p99 latency 40% higher.
TEST(CompareRuns, SlowerFilesystemProbes) {
  ClusterSpec spec;
  spec.fs_ranks_per_node = 8;  // a p5 node: 8 GPU ranks
  ClusterSpec slow = spec;
  slow.fs_rate_factor = 0.7;
  slow.fs_latency_factor = 1.4;
  const Comparison c = compare_runs(runs_of(spec, 1, 3), runs_of(slow, 4, 3), defaults());
  int fs_metrics = 0;
  for (const MetricComparison& m : c.metrics) {
    if (m.key().kind == "pair") {
      EXPECT_EQ(m.verdict, "no_change") << m.name();
      continue;
    }
    ++fs_metrics;
    EXPECT_EQ(m.verdict, "slower") << m.name() << " " << m.change_percent << " p " << m.p_value;
    if (m.key().quantity == "lat_p99_us") {
      EXPECT_FALSE(m.higher_is_better);
      EXPECT_NEAR(m.change_percent, 40.0, 8.0);
      EXPECT_NEAR(regression_percent(m), m.change_percent, 1e-12);
    } else {
      EXPECT_NEAR(m.change_percent, -30.0, 8.0) << m.name();
    }
  }
  EXPECT_EQ(fs_metrics, 15);
  EXPECT_TRUE(regressed_beyond(c, 25.0));
}

// One run per side (issue 32): the iterations of one job are no sample of the run-to-run spread, so a
// change of everything together (the filesystem halved) cannot be told from the launch-to-launch
// difference: untestable, INCONCLUSIVE, exit 0 (it was "slower_beyond_allowance" of a flat 25%, exit 1,
// which the issue calls wrong); a pair 20% slower among 15 is tested against the spread of all the
// pairs' changes and found at every size, whatever --allowance says (it now applies to blocks only).
TEST(CompareRuns, OneRunPerSideTestsPairsAgainstTheirSpread) {
  ClusterSpec spec;
  ClusterSpec slow = spec;
  slow.fs_rate_factor = 0.5;
  Comparison c = compare_runs(make_noisy_run(spec, 1), make_noisy_run(spec, 2), defaults());
  EXPECT_EQ(c.method, "pair_spread");
  for (const MetricComparison& m : c.metrics) {
    if (m.key().kind == "pair") {
      EXPECT_EQ(std::string(m.test), "pair_spread") << m.name();
      EXPECT_EQ(m.verdict, "no_change") << m.name() << " " << m.change_percent;
      EXPECT_GE(m.p_value, 0.0);
    } else {
      EXPECT_EQ(m.verdict, "untestable") << m.name();
      EXPECT_EQ(std::string(m.untestable_why), "one_run_a_side") << m.name();
      EXPECT_LT(m.p_value, 0.0) << m.name();
    }
  }
  EXPECT_EQ(c.outcome.verdict, "inconclusive");
  EXPECT_EQ(c.outcome.exit_code, 0);
  c = compare_runs(make_noisy_run(spec, 1), make_noisy_run(slow, 2), defaults());
  EXPECT_FALSE(regressed_beyond(c, 0.0));
  EXPECT_EQ(c.outcome.verdict, "inconclusive");
  const nlohmann::json j = comparison_json(c);
  for (const auto& m : j["metrics"]) {
    if (m["key"]["kind"] != "pair") {
      EXPECT_TRUE(m["p_value"].is_null());
    }
  }
  EXPECT_EQ(j["verdict"], "INCONCLUSIVE");
  const std::string text = comparison_text(at_fail_on(c, 0.0));
  EXPECT_EQ(text.find("INCONCLUSIVE: "), 0u) << text;
  EXPECT_NE(text.find("no significance is claimed"), std::string::npos) << text;
  EXPECT_NE(text.find("untestable"), std::string::npos) << text;
  // The pair alone, 20% slower: found against the other pairs' spread, at every size.
  slow.fs_rate_factor = 1.0;
  slow.time_factor = [](const std::string& a, const std::string& b, std::uint64_t) {
    return a == "node1" && b == "node4" ? 1.25 : 1.0;
  };
  CompareSettings lenient = defaults();
  lenient.single_run_allowance_percent = 50.0;
  c = compare_runs(make_noisy_run(spec, 1), make_noisy_run(slow, 2), lenient);
  EXPECT_EQ(count_verdict(c, "slower"), 3);
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "slower") {
      EXPECT_EQ(m.key().nodes, "node1<->node4");
    }
  }
  EXPECT_TRUE(regressed_beyond(c, 0.0));
}

// A run whose pair node1<->node4 at 256M was slow at first (busbw / 1.6, a transient such as a slow first
// round) and then retested; `cleared`: the retest was at its true speed and the run's own judgment cleared
// the pair by it (cleared_by_retest), as pair_flags does when the retest is not slow; else the retest was
// as slow and confirmed it.
Run with_slow_first_measurement(Run run, bool cleared) {
  for (PairResult& p : run.pairs) {
    if (p.size_bytes != 256 * kM || run.nodes[p.nodes[0]].label != "node1" || run.nodes[p.nodes[1]].label != "node4")
      continue;
    p.retest_samples_s = p.samples_s;
    p.retest_busbw_gbps = p.busbw_gbps;
    if (!cleared) {
      for (double& t : p.retest_samples_s) t *= 1.6;
      p.retest_busbw_gbps /= 1.6;
    }
    for (double& t : p.samples_s) t *= 1.6;
    p.median_s *= 1.6;
    p.busbw_gbps /= 1.6;
    p.algbw_gbps /= 1.6;
    p.cleared_by_retest = cleared;
  }
  return run;
}

// Measured on the namespaced cluster (issue 19): 2 of 12 healthy runs had a first round 30-40% slow that
// their retest cleared; compared by the first measurement one healthy run against the next exited 1.
TEST(CompareRuns, APairClearedByItsRetestIsComparedByItsRetest) {
  ClusterSpec spec;
  const podperf::Run before = make_noisy_run(spec, 1);
  Comparison c = compare_runs(before, with_slow_first_measurement(make_noisy_run(spec, 2), true), defaults());
  EXPECT_FALSE(regressed_beyond(c, 0.0)) << comparison_text(at_fail_on(c, 0.0));
  // One run a side (issue 32): pairs against the spread of their changes, the rest untestable (was
  // "within_allowance" of a flat 25%).
  for (const MetricComparison& m : c.metrics) {
    EXPECT_EQ(m.verdict, m.key().kind == "pair" ? "no_change" : "untestable") << m.name();
  }
  ASSERT_EQ(c.from_retest_after.size(), 1u);
  EXPECT_EQ(c.from_retest_after[0], "run-2: pair node1<->node4 all_reduce float 256M busbw");
  EXPECT_TRUE(c.from_retest_before.empty());
  EXPECT_NE(comparison_text(at_fail_on(c, 0.0)).find("NOTE: 1 pair metric compared by the pair's retest"),
            std::string::npos);
  EXPECT_EQ(comparison_json(c)["from_retest"]["after"].size(), 1u);

  // A node the run itself names as slow now and then (a concern that cleared the run's test of chance)
  // keeps its first measurements: the slow first measurement is its finding, not a transient.
  for (const char* check : {"pairs.intermittent_node", "pairs.stalling_node"}) {
    podperf::Run flapping = with_slow_first_measurement(make_noisy_run(spec, 2), true);
    Finding named;
    named.check = check;
    named.host = "node4";
    flapping.findings.push_back(named);
    c = compare_runs(before, flapping, defaults());
    EXPECT_TRUE(c.from_retest_after.empty()) << check;
    EXPECT_TRUE(regressed_beyond(c, 0.0)) << check;
  }
  // The note pairs.recovered_in_retest names nothing (cleared pairs sharing a node, no test of chance:
  // transients share a node by chance): the pair is still compared by its retest.
  podperf::Run noted = with_slow_first_measurement(make_noisy_run(spec, 2), true);
  Finding note;
  note.check = "pairs.recovered_in_retest";
  note.host = "node4";
  noted.findings.push_back(note);
  c = compare_runs(before, noted, defaults());
  ASSERT_EQ(c.from_retest_after.size(), 1u);
  EXPECT_FALSE(regressed_beyond(c, 0.0)) << comparison_text(at_fail_on(c, 0.0));

  // Confirmed by its retest (the run still flags it): the first measurement stands, and is a regression.
  c = compare_runs(before, with_slow_first_measurement(make_noisy_run(spec, 2), false), defaults());
  EXPECT_TRUE(c.from_retest_after.empty());
  int slower = 0;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "slower") {  // was slower_beyond_allowance: now tested against the pairs' spread
      ++slower;
      EXPECT_EQ(m.name(), "pair node1<->node4 all_reduce float 256M busbw");
      EXPECT_NEAR(m.change_percent, -37.5, 3.0);
    }
  }
  EXPECT_EQ(slower, 1);
  EXPECT_TRUE(regressed_beyond(c, 0.0));

  // With 3 runs a side, one transient cleared by its retest does not widen the run-to-run spread.
  std::vector<podperf::Run> b = runs_of(spec, 10, 3), a = runs_of(spec, 20, 3);
  a[1] = with_slow_first_measurement(a[1], true);
  c = compare_runs(b, a, defaults());
  for (const MetricComparison& m : c.metrics) {
    if (m.name() != "pair node1<->node4 all_reduce float 256M busbw") continue;
    EXPECT_EQ(m.verdict, "no_change");
    EXPECT_LT(m.mde_percent, 10.0) << "the retest, not the transient, is the run's value";
  }
}

// One run a side, a pair is tested by its best measurement in the job where it is slower: slow in its
// measurement and its retest (the run did not clear it) but at its speed in a later retest is what two
// transients give (the run's own link rule calls it chance), not a changed link; slow in every
// measurement is. Before, the first measurement alone was tested and the pair was slower either way
// (with transients in 2% of measurements, 34% of healthy 64-node comparisons exited 1 on such pairs).
TEST(CompareRuns, OneRunASideTestsAPairByItsBestMeasurementInTheSlowerJob) {
  ClusterSpec spec;
  const podperf::Run before = make_noisy_run(spec, 1);
  auto with_later_retest = [&](double later_factor) {
    podperf::Run run = with_slow_first_measurement(make_noisy_run(spec, 2), false);
    for (PairResult& p : run.pairs) {
      if (p.size_bytes == 256 * kM && run.nodes[p.nodes[0]].label == "node1" && run.nodes[p.nodes[1]].label == "node4")
        p.later_retest_busbw_gbps.push_back(p.retest_busbw_gbps * later_factor);
    }
    return run;
  };
  const std::string pair = "pair node1<->node4 all_reduce float 256M busbw";
  auto verdict_of = [&](const Comparison& c) {
    for (const MetricComparison& m : c.metrics) {
      if (m.name() == pair) return m.verdict;
    }
    return std::string("absent");
  };
  // A later retest at its speed: no change, and nothing regressed.
  Comparison c = compare_runs(before, with_later_retest(1.6), defaults());
  EXPECT_EQ(verdict_of(c), "no_change") << comparison_text(at_fail_on(c, 0.0));
  EXPECT_FALSE(regressed_beyond(c, 0.0));
  // Slow in every measurement: slower, by about the change of its measurements.
  c = compare_runs(before, with_later_retest(1.0), defaults());
  EXPECT_EQ(verdict_of(c), "slower");
  EXPECT_TRUE(regressed_beyond(c, 0.0));
  // The other way round (slow in every BEFORE measurement but fast in a later BEFORE retest, AFTER at its
  // speed): not faster either.
  podperf::Run slow_before = make_noisy_run(spec, 1);
  slow_before = with_slow_first_measurement(slow_before, false);
  for (PairResult& p : slow_before.pairs) {
    if (p.size_bytes == 256 * kM && slow_before.nodes[p.nodes[0]].label == "node1" &&
        slow_before.nodes[p.nodes[1]].label == "node4")
      p.later_retest_busbw_gbps.push_back(p.retest_busbw_gbps * 1.6);
  }
  c = compare_runs(slow_before, make_noisy_run(spec, 2), defaults());
  EXPECT_EQ(verdict_of(c), "no_change");
}

// ---- the t distribution and Welch's test ----

TEST(StudentT, MatchesTables) {
  EXPECT_NEAR(student_t_quantile(0.975, 4.0), 2.776445, 1e-5);
  EXPECT_NEAR(student_t_quantile(0.975, 1.0), 12.7062, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.8, 10.0), 0.879058, 1e-5);
  EXPECT_NEAR(student_t_quantile(0.975, 1e6), 1.959966, 1e-4);
  EXPECT_NEAR(student_t_cdf(0.0, 3.0), 0.5, 1e-12);
  EXPECT_NEAR(student_t_cdf(-2.015048, 5.0), 0.05, 1e-6);
}

TEST(WelchLogChange, HandComputed) {
  // logs of before {100, 110, 105} and after {90, 95, 92}.
  const std::vector<double> before{100.0, 110.0, 105.0}, after{90.0, 95.0, 92.0};
  const RunLevelChange w = welch_log_change(before, after, 0.95, 0.05, 0.8);
  ASSERT_TRUE(w.valid);
  std::vector<double> lb, la;
  for (double v : before) lb.push_back(std::log(v));
  for (double v : after) la.push_back(std::log(v));
  const Summary sb = summarize(lb), sa = summarize(la);
  const double se = std::sqrt(sb.stddev * sb.stddev / 3 + sa.stddev * sa.stddev / 3);
  const double t = (sa.mean - sb.mean) / se;
  EXPECT_NEAR(w.change_percent, 100.0 * std::expm1(sa.mean - sb.mean), 1e-9);
  const double df = std::pow(se, 4) / (std::pow(sb.stddev, 4) / 18 + std::pow(sa.stddev, 4) / 18);
  EXPECT_NEAR(w.df, df, 1e-9);
  EXPECT_NEAR(w.p_value, 2.0 * student_t_cdf(-std::fabs(t), df), 1e-12);
  EXPECT_LT(w.p_value, 0.05);
  EXPECT_LT(w.ci_high_percent, 0.0);
  EXPECT_GT(w.ci_low_percent, -30.0);
  EXPECT_FALSE(welch_log_change(std::vector<double>{1.0}, after, 0.95, 0.05, 0.8).valid);
}

// ---- the two-level model: a run effect plus iteration noise ----

// Each pair and size of a run gets a run effect of 5% (cv), iterations 2% on top. The iteration-level
// Mann-Whitney test of one run against another calls far more than 5% of unchanged metrics significant;
// Welch's t on per-run medians, 3 runs a side, holds its nominal rate; with the FDR correction a
// comparison of healthy runs flags nothing in at least 95% of the comparisons.
TEST(TwoLevelModel, RunLevelTestHoldsItsFalsePositiveRate) {
  ClusterSpec spec;
  spec.run_cv = 0.05;
  spec.sizes = {64 * kM};
  spec.fs_ranks_per_node = 1;
  constexpr int kComparisons = 60;
  int iteration_tested = 0, iteration_significant = 0, run_tested = 0, run_significant = 0, flagged_comparisons = 0;
  CompareSettings raw = defaults();
  raw.correction = "none";
  for (int k = 0; k < kComparisons; ++k) {
    const std::uint64_t seed = 5000 + 6 * static_cast<std::uint64_t>(k);
    const std::vector<podperf::Run> before = runs_of(spec, seed, 3), after = runs_of(spec, seed + 3, 3);
    // The old unit: the iterations of one run against those of another.
    for (std::size_t p = 0; p < before[0].pairs.size(); ++p) {
      const MannWhitneyResult u = mann_whitney_u(before[0].pairs[p].samples_s, after[0].pairs[p].samples_s);
      ++iteration_tested;
      iteration_significant += u.p_value < 0.05 ? 1 : 0;
    }
    const Comparison r = compare_runs(before, after, raw);
    for (const MetricComparison& m : r.metrics) {
      if (m.key().kind != "pair") continue;
      ++run_tested;
      run_significant += m.p_value < 0.05 ? 1 : 0;
    }
    const Comparison c = compare_runs(before, after, defaults());
    flagged_comparisons += c.summary.slower + c.summary.faster > 0 ? 1 : 0;
  }
  const double iteration_rate = static_cast<double>(iteration_significant) / iteration_tested;
  const double run_rate = static_cast<double>(run_significant) / run_tested;
  std::cout << "two-level model (run effect 5%, iterations 2%): iteration-level Mann-Whitney p < 0.05 in "
            << 100.0 * iteration_rate << "% of unchanged metrics; run-level Welch (3 vs 3) in " << 100.0 * run_rate
            << "%; comparisons with any slower/faster verdict: " << flagged_comparisons << " of " << kComparisons
            << "\n";
  EXPECT_GT(iteration_rate, 0.3);  // the old test: most unchanged metrics look changed
  EXPECT_LT(run_rate, 0.075);      // nominal 0.05
  EXPECT_LE(flagged_comparisons, kComparisons * 5 / 100 + 1);
}

// A real 20% slowdown of every pair (four run-effect standard deviations) is found by the run-level
// test in most metrics with 3 runs a side (measured 61%: the spread of 3 runs is itself uncertain)
// and in at least 90% with 5 a side; its interval covers it.
TEST(TwoLevelModel, RealShiftIsFound) {
  ClusterSpec spec;
  spec.run_cv = 0.05;
  spec.sizes = {64 * kM};
  spec.fs_ranks_per_node = 1;
  ClusterSpec slow = spec;
  slow.time_factor = [](const std::string&, const std::string&, std::uint64_t) { return 1.25; };
  for (const int runs : {3, 5}) {
    int pairs = 0, found = 0, covered = 0;
    for (int k = 0; k < 20; ++k) {
      const std::uint64_t seed = 9000 + 10 * static_cast<std::uint64_t>(k);
      const Comparison c = compare_runs(runs_of(spec, seed, runs), runs_of(slow, seed + 5, runs), defaults());
      for (const MetricComparison& m : c.metrics) {
        if (m.key().kind != "pair") continue;
        ++pairs;
        found += m.verdict == "slower" ? 1 : 0;
        covered += m.ci_low_percent <= -20.0 && -20.0 <= m.ci_high_percent ? 1 : 0;
      }
    }
    std::cout << "two-level model, every pair 20% slower, " << runs << " runs a side: found in " << found << " of "
              << pairs << " metrics; interval covered -20% in " << covered << "\n";
    EXPECT_GE(found, pairs * (runs == 3 ? 50 : 90) / 100) << runs << " runs";
    EXPECT_GE(covered, pairs * 90 / 100) << runs << " runs";
  }
}

// Where the spread between runs comes from, on the two-level model: with no run effect the iterations
// explain it all (more iterations per run would shrink it); with a run effect four times the iterations'
// standard error they explain little (only more runs would). Measured on real runs (tests/perf/README.md):
// 73-100% on the namespaced cluster with -n 10, 14-16% for 4 virtual nodes under mpirun.
TEST(TwoLevelModel, IterationShareTellsIterationNoiseFromRunToRun) {
  ClusterSpec spec;
  spec.cv = 0.05;
  spec.outlier_fraction = 0.0;
  spec.sizes = {64 * kM};
  spec.fs_ranks_per_node = 1;
  auto share_of = [&](double run_cv) {
    spec.run_cv = run_cv;
    const Comparison c = compare_runs(runs_of(spec, 300, 5), runs_of(spec, 310, 5), defaults());
    for (const MetricComparison& m : c.metrics) {
      if (m.key().kind == "pair") {
        EXPECT_GE(m.iteration_share, 0.0) << m.name();
      } else {
        EXPECT_EQ(m.iteration_share, -1.0) << m.name() << ": no per-iteration samples";
      }
    }
    EXPECT_EQ(c.summary.iteration_share_metrics, 15);
    return c;
  };
  // 20 iterations of 5% noise: the median's standard error is about 1.4%.
  const Comparison iterations_only = share_of(0.0);
  EXPECT_GT(iterations_only.summary.iteration_share_median, 0.6);
  EXPECT_NE(comparison_text(at_fail_on(iterations_only, 0.0)).find("Spread: iterations explain about"),
            std::string::npos);
  const Comparison run_effect = share_of(0.06);
  std::cout << "iteration share, 5 runs a side: no run effect " << iterations_only.summary.iteration_share_median
            << ", run effect 6% " << run_effect.summary.iteration_share_median << "\n";
  EXPECT_LT(run_effect.summary.iteration_share_median, 0.2);
  EXPECT_NE(comparison_text(at_fail_on(run_effect, 0.0)).find("mostly from launch to launch"), std::string::npos);
  const nlohmann::json j = comparison_json(run_effect);
  EXPECT_LT(j["summary"]["iteration_share_median"].get<double>(), 0.2);
  // One run a side: not estimated.
  const Comparison single = compare_runs(make_noisy_run(spec, 1), make_noisy_run(spec, 2), defaults());
  EXPECT_EQ(single.summary.iteration_share_metrics, 0);
  EXPECT_EQ(spread_words(single), "");
  EXPECT_TRUE(comparison_json(single)["summary"]["iteration_share_median"].is_null());
}

TEST(IterationShare, StandardErrorOfAMedianAndTheShare) {
  // 1000 log-normal samples of sigma 0.1: the median's standard error is 1.2533 * 0.1 / sqrt(1000).
  Noise noise(7);
  std::vector<double> samples, scratch;
  for (int i = 0; i < 1000; ++i) samples.push_back(std::exp(0.1 * noise.normal()));
  EXPECT_NEAR(log_median_standard_error(samples, scratch), 1.2533 * 0.1 / std::sqrt(1000.0), 0.0004);
  std::vector<double> two{1.0, 2.0};
  EXPECT_TRUE(std::isnan(log_median_standard_error(two, scratch)));
  // Per-run values e^-0.1, 1, e^0.1 on each side: pooled variance of the logs 0.01.
  const std::vector<double> side{std::exp(-0.1), 1.0, std::exp(0.1)};
  auto share = [](const std::vector<double>& before, const std::vector<double>& after, double mean_se2) {
    return iteration_share(welch_log_change(before, after, 0.95, 0.05, 0.8).pooled_log_variance, mean_se2);
  };
  EXPECT_NEAR(welch_log_change(side, side, 0.95, 0.05, 0.8).pooled_log_variance, 0.01, 1e-12);
  EXPECT_NEAR(share(side, side, 0.0025), 0.25, 1e-12);
  EXPECT_DOUBLE_EQ(share(side, side, 0.05), 1.0) << "capped";
  EXPECT_EQ(share(side, std::vector<double>{1.0}, 0.0025), -1.0) << "one run on a side";
  EXPECT_EQ(share(std::vector<double>{1.0, 1.0}, std::vector<double>{2.0, 2.0}, 0.0025), -1.0) << "no spread";
  EXPECT_EQ(share(side, side, std::nan("")), -1.0);
}

}  // namespace
}  // namespace podperf

namespace podperf {
namespace {

// --topology on compare: pairs crossing the spine 15% slower after (each of those pairs also slower on
// its own); the per-class metric says so for "crosses spine" and no change for "same leaf".
TEST(CompareCommand, TopologyGivesPairBusbwPerClass) {
  const ClusterSpec spec;
  const auto spine = [](const std::string& label) { return label < "node3" ? 0 : 1; };
  ClusterSpec slow = spec;
  slow.time_factor = [spine](const std::string& a, const std::string& b, std::uint64_t) {
    return spine(a) != spine(b) ? 1.0 / 0.85 : 1.0;
  };
  const auto dir = std::filesystem::temp_directory_path() / ("podperf-compare-topo-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "racks.csv") << "node,spine\nnode0,s1\nnode1,s1\nnode2,s1\nnode3,s2\nnode4,s2\nnode5,s2\n";
  CompareOptions o;
  for (int i = 0; i < 3; ++i) {
    const auto b = dir / fmt::format("before{}.json", i), a = dir / fmt::format("after{}.json", i);
    std::ofstream(b) << nlohmann::json(make_noisy_run(spec, 1 + static_cast<std::uint64_t>(i))).dump();
    std::ofstream(a) << nlohmann::json(make_noisy_run(slow, 4 + static_cast<std::uint64_t>(i))).dump();
    o.before_runs.push_back(b.string());
    o.after_runs.push_back(a.string());
  }
  o.json = true;
  o.topology = (dir / "racks.csv").string();
  std::ostringstream out, err;
  EXPECT_EQ(run_compare_command(o, out, err), 1) << err.str();
  const nlohmann::json j = nlohmann::json::parse(out.str());
  int classes = 0;
  for (const nlohmann::json& m : j["metrics"]) {
    if (m["key"]["kind"] != "topology_class") continue;
    ++classes;
    const std::string group = m["key"]["group"];
    if (group == "crosses spine") {
      EXPECT_EQ(m["verdict"], "slower") << m.dump();
      EXPECT_NEAR(m["change_percent"].get<double>(), -15.0, 3.0) << m.dump();
      EXPECT_EQ(m["n_before"], 3 * 9) << m.dump();
    } else {
      EXPECT_EQ(group, "same leaf") << m.dump();
      EXPECT_EQ(m["verdict"], "no_change") << m.dump();
      EXPECT_EQ(m["n_before"], 3 * 6) << m.dump();
    }
  }
  EXPECT_EQ(classes, 2 * 3);  // two classes at three sizes
  // Without --topology (the runs carry none): no class metrics.
  o.topology.clear();
  std::ostringstream out2;
  run_compare_command(o, out2, err);
  EXPECT_EQ(out2.str().find("topology_class"), std::string::npos);
  // A bad topology file: exit 2 naming it, before anything is compared.
  std::ofstream(dir / "bad.csv") << "node,spine\nnode0\n";
  o.topology = (dir / "bad.csv").string();
  std::ostringstream out3, err3;
  EXPECT_EQ(run_compare_command(o, out3, err3), 2);
  EXPECT_NE(err3.str().find("bad.csv"), std::string::npos) << err3.str();
  EXPECT_EQ(out3.str(), "");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace podperf

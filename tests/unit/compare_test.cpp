// podperf compare: the Mann-Whitney U test against hand-computed values, the bootstrap interval, and
// fixed pairs of synthetic runs (same healthy cluster twice, one slow pair, everything faster, runs
// that are not comparable, slower filesystem probes).
#include "analysis/compare.hpp"

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

#include "analysis/errors.hpp"
#include "analysis/report/comparison_json.hpp"
#include "analysis/report/comparison_text.hpp"
#include "analysis/run_json.hpp"
#include "analysis/stats.hpp"
#include "offline/compare_command.hpp"
#include "noisy_runs.hpp"

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

int count_verdict(const Comparison& c, const std::string& verdict) {
  int k = 0;
  for (const MetricComparison& m : c.metrics) k += m.verdict == verdict ? 1 : 0;
  return k;
}

TEST(CompareSettingsFile, EmbeddedDefaultsAndErrors) {
  const CompareSettings s = defaults();
  EXPECT_DOUBLE_EQ(s.alpha, 0.05);
  EXPECT_DOUBLE_EQ(s.min_change_percent, 2.0);
  EXPECT_EQ(s.min_samples, 4);
  EXPECT_EQ(s.correction, "benjamini-hochberg");
  EXPECT_EQ(s.source, "configs/compare.toml (built in)");
  try {
    parse_compare_settings(
        "[compare]\nalpha = 0.05\nmin_change_percent = 2\nmin_samples = 4\nconfidence = 0.95\n"
        "bootstrap_resamples = 1000\ncorrection = \"none\"\nalhpa = 1\n",
        "x.toml");
    FAIL() << "unknown key accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("x.toml:8: unknown key 'compare.alhpa'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_compare_settings("[compare]\nalpha = 2\n", "x.toml"), ConfigError);
  EXPECT_THROW(load_compare_settings("/nonexistent/compare.toml"), ConfigError);
}

// (1) The same healthy cluster twice (other seeds, the same noise): no change.
TEST(CompareRuns, SameHealthyClusterIsNoChange) {
  const ClusterSpec spec;
  const Comparison c = compare_runs(make_noisy_run(spec, 1), make_noisy_run(spec, 2), defaults());
  EXPECT_TRUE(c.comparability.empty());
  EXPECT_TRUE(c.only_before.empty());
  EXPECT_TRUE(c.only_after.empty());
  // 15 pairs x 3 sizes + fs: seq-write and rand-read IOPS and p99 per rank, per node MB/s and IOPS (6 each).
  EXPECT_EQ(c.metrics.size(), 45u + 3u + 12u);
  for (const MetricComparison& m : c.metrics) {
    EXPECT_EQ(m.verdict, "no_change") << m.name << " " << m.change_percent << "% p " << m.p_value;
  }
  EXPECT_FALSE(regressed_beyond(c, 0.0));
  EXPECT_EQ(c.summary.no_change, static_cast<int>(c.metrics.size()));
}

TEST(CompareRuns, HealthyPairsFalsePositiveRateIsLow) {
  const ClusterSpec spec;
  CompareSettings s = defaults();
  CompareSettings raw = s;
  raw.correction = "none";
  int tested = 0, flagged = 0, significant = 0, flagged_raw = 0;
  constexpr int kRunPairs = 50;
  for (int k = 0; k < kRunPairs; ++k) {
    const Comparison c = compare_runs(make_noisy_run(spec, 100 + 2 * static_cast<std::uint64_t>(k)),
                                      make_noisy_run(spec, 101 + 2 * static_cast<std::uint64_t>(k)), s);
    for (const MetricComparison& m : c.metrics) {
      if (m.p_value < 0.0) continue;
      ++tested;
      if (m.p_value < s.alpha) ++significant;
      if (m.verdict != "no_change") ++flagged;
    }
    const Comparison r = compare_runs(make_noisy_run(spec, 100 + 2 * static_cast<std::uint64_t>(k)),
                                      make_noisy_run(spec, 101 + 2 * static_cast<std::uint64_t>(k)), raw);
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
  const Comparison c = compare_runs(make_noisy_run(spec, 1), make_noisy_run(slow, 2), defaults());
  EXPECT_EQ(c.summary.slower, 3);
  EXPECT_EQ(c.summary.faster, 0);
  for (const MetricComparison& m : c.metrics) {
    if (m.key.nodes == "node1<->node4") {
      EXPECT_EQ(m.verdict, "slower") << m.name;
      EXPECT_NEAR(m.change_percent, -20.0, 3.0) << m.name;
      EXPECT_LT(m.ci_low_percent, -16.0);
      EXPECT_GT(m.ci_high_percent, -24.0);
      EXPECT_LT(m.ci_high_percent, -2.0);
      EXPECT_NEAR(regression_percent(m), -m.change_percent, 1e-12);
    } else {
      EXPECT_EQ(m.verdict, "no_change") << m.name;
    }
  }
  EXPECT_TRUE(regressed_beyond(c, 10.0));
  EXPECT_FALSE(regressed_beyond(c, 25.0));
  const std::string text = comparison_text(c, 10.0);
  EXPECT_EQ(text.find("Summary: 3 slower, 0 faster"), text.find("Summary:")) << text;
  EXPECT_NE(text.find("REGRESSION: 3 metrics slower by more than 10%"), std::string::npos) << text;
  EXPECT_NE(text.find("pair node1<->node4 all_reduce float 256M busbw"), std::string::npos) << text;
}

// The command on files: exit 1 with --fail-on 10, 0 with --fail-on 25, 2 for a truncated file.
TEST(CompareCommand, ExitCodesOnFiles) {
  const ClusterSpec spec;
  ClusterSpec slow = spec;
  slow.time_factor = [](const std::string& a, const std::string& b, std::uint64_t) {
    return a == "node1" && b == "node4" ? 1.25 : 1.0;
  };
  const auto dir = std::filesystem::temp_directory_path() / ("podperf-compare-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "after");
  const std::string before = (dir / "before.json").string();
  std::ofstream(before) << nlohmann::json(make_noisy_run(spec, 1)).dump();
  std::ofstream(dir / "after" / "run.json") << nlohmann::json(make_noisy_run(slow, 2)).dump();
  std::ostringstream out, err;
  CompareOptions o;
  o.before = before;
  o.after = (dir / "after").string();  // a results directory
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
  // Truncated file: exit 2 naming it.
  const std::string text = nlohmann::json(make_noisy_run(spec, 3)).dump();
  const std::string truncated = (dir / "truncated.json").string();
  std::ofstream(truncated) << text.substr(0, text.size() / 2);
  o.after = truncated;
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
  const Comparison c = compare_runs(make_noisy_run(spec, 5), make_noisy_run(fast, 6), defaults());
  for (const MetricComparison& m : c.metrics) EXPECT_EQ(m.verdict, "faster") << m.name << " " << m.change_percent;
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
  // (3) and the per-node ones of node0..node4 (2 x 5).
  EXPECT_EQ(c.metrics.size(), 20u + 3u + 10u);
  for (const MetricComparison& m : c.metrics) EXPECT_EQ(m.verdict, "no_change") << m.name;
  EXPECT_EQ(c.only_before.size(), 5u * 2 + 15u + 2u);  // node5's pairs at 16M/64M, 256M, node5's fs nodes
  EXPECT_EQ(c.only_after.size(), 5u * 2 + 15u + 2u);
  const std::string text = comparison_text(c, 0.0);
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
  const Comparison c = compare_runs(make_noisy_run(spec, 1), make_noisy_run(slow, 2), defaults());
  int fs_metrics = 0;
  for (const MetricComparison& m : c.metrics) {
    if (m.key.kind == "pair") {
      EXPECT_EQ(m.verdict, "no_change") << m.name;
      continue;
    }
    ++fs_metrics;
    EXPECT_EQ(m.verdict, "slower") << m.name << " " << m.change_percent << " p " << m.p_value;
    if (m.key.quantity == "lat_p99_us") {
      EXPECT_FALSE(m.higher_is_better);
      EXPECT_NEAR(m.change_percent, 40.0, 8.0);
      EXPECT_NEAR(regression_percent(m), m.change_percent, 1e-12);
    } else {
      EXPECT_NEAR(m.change_percent, -30.0, 8.0) << m.name;
    }
  }
  EXPECT_EQ(fs_metrics, 15);
  EXPECT_TRUE(regressed_beyond(c, 25.0));
}

// One rank per node: per-node numbers are single values (change reported, no test); two per node:
// too few samples.
TEST(CompareRuns, FewSamplesAreNotTested) {
  ClusterSpec spec;
  spec.fs_ranks_per_node = 1;
  ClusterSpec slow = spec;
  slow.fs_rate_factor = 0.5;
  Comparison c = compare_runs(make_noisy_run(spec, 1), make_noisy_run(slow, 2), defaults());
  int single = 0;
  for (const MetricComparison& m : c.metrics) {
    if (m.key.kind != "fs_node") continue;
    EXPECT_EQ(m.verdict, "single_value");
    EXPECT_LT(m.p_value, 0.0);
    EXPECT_NEAR(m.change_percent, -50.0, 15.0);
    ++single;
  }
  EXPECT_EQ(single, 12);
  const nlohmann::json j = comparison_json(c);
  for (const auto& m : j["metrics"]) {
    if (m["verdict"] == "single_value") {
      EXPECT_TRUE(m["p_value"].is_null());
    }
  }
  spec.fs_ranks_per_node = 2;
  slow.fs_ranks_per_node = 2;
  c = compare_runs(make_noisy_run(spec, 1), make_noisy_run(slow, 2), defaults());
  EXPECT_EQ(count_verdict(c, "not_enough_samples"), 12);
  EXPECT_EQ(c.summary.untested, 12);
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
  std::ofstream(dir / "before.json") << nlohmann::json(make_noisy_run(spec, 1)).dump();
  std::ofstream(dir / "after.json") << nlohmann::json(make_noisy_run(slow, 2)).dump();
  std::ofstream(dir / "racks.csv") << "node,spine\nnode0,s1\nnode1,s1\nnode2,s1\nnode3,s2\nnode4,s2\nnode5,s2\n";
  CompareOptions o;
  o.before = (dir / "before.json").string();
  o.after = (dir / "after.json").string();
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
      EXPECT_EQ(m["n_before"], 9) << m.dump();
    } else {
      EXPECT_EQ(group, "same leaf") << m.dump();
      EXPECT_EQ(m["verdict"], "no_change") << m.dump();
      EXPECT_EQ(m["n_before"], 6) << m.dump();
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

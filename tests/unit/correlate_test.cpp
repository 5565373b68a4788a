// correlate: slow results joined with the findings of their hosts.
#include "analysis/pairs/correlate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "signals/rules.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

Finding concern(const std::string& host, const std::string& check, const std::string& observed) {
  Finding f;
  f.tag = Tag::kConcern;
  f.source = "signals";
  f.check = check;
  f.host = host;
  f.observed = observed;
  f.next_step = "fix it";
  // Ranked as the rule table ranks what the check writes (as evaluate() stamps it).
  if (const std::optional<CauseRanks> rank = signal_cause_ranks(check)) {
    f.pair_cause_rank = rank->pair;
    f.fs_cause_rank = rank->fs;
  }
  return f;
}

// 6 nodes, node 3 slow; its host has a governor concern and an EFA counter rise; another host has
// an unrelated concern.
podperf::Run straggler_run() {
  podperf::Run run = synthetic::make_run(6, [](int a, int b) { return a == 3 || b == 3 ? 55.0 : 100.0; });
  judge_pairs(run, load_thresholds("").pairs);
  return run;
}

TEST(Correlate, StragglerConcernsRankedAsLikelyCauses) {
  podperf::Run run = straggler_run();
  ASSERT_EQ(run.stragglers.size(), 1U);
  const std::string host = run.nodes[3].hostname;
  run.findings = {concern(host, "signals.cpu_governor", "powersave on 96 CPUs"),
                  concern(host, "signals.efa_counters", "retrans_timeout_events rose by 1200"),
                  concern(run.nodes[0].hostname, "signals.root_fs", "95% used"),
                  Finding{Tag::kInfo, "signals", "signals.lustre_ost", host, "no Lustre", "", "", "", ""}};
  correlate(run);
  const Straggler& s = run.stragglers[0];
  ASSERT_EQ(s.likely_causes.size(), 2U);
  EXPECT_NE(s.likely_causes[0].find("retrans_timeout_events"), std::string::npos) << s.likely_causes[0];
  EXPECT_NE(s.likely_causes[1].find("powersave"), std::string::npos) << s.likely_causes[1];
  EXPECT_NE(s.next_step.find("first likely cause"), std::string::npos);
}

TEST(Correlate, StragglerWithoutConcernGetsTheNextDiagnosticStep) {
  podperf::Run run = straggler_run();
  correlate(run);
  const Straggler& s = run.stragglers[0];
  EXPECT_TRUE(s.likely_causes.empty());
  EXPECT_NE(s.next_step.find("podperf pairs --backend host -b 1G -e 1G --pairs node3:node0"), std::string::npos)
      << s.next_step;
  EXPECT_NE(s.next_step.find("--baseline-from "), std::string::npos) << s.next_step;
}

TEST(Correlate, SlowLinkGetsTheConcernsOfBothHosts) {
  podperf::Run run = synthetic::make_run(6, [](int a, int b) { return a == 1 && b == 2 ? 50.0 : 100.0; });
  judge_pairs(run, load_thresholds("").pairs);
  ASSERT_EQ(run.links.size(), 1U);
  run.findings = {concern(run.nodes[2].hostname, "nccl.tcp_fallback", "NET/Socket")};
  correlate(run);
  ASSERT_EQ(run.links[0].likely_causes.size(), 1U);
  EXPECT_NE(run.links[0].likely_causes[0].find("node2: nccl.tcp_fallback"), std::string::npos);
}

}  // namespace
}  // namespace podperf

#include "bench/efa_rounds.hpp"

namespace podperf {
namespace {

TEST(EfaRounds, RisesSummedOverDevicesOnlyForWatchedCountersAndNotOnReset) {
  const std::vector<EfaDevice> before = {{"rdmap0", {{"retrans_pkts", 10}, {"rx_drops", 5}, {"tx_bytes", 100}}},
                                         {"rdmap1", {{"retrans_pkts", 1}, {"retrans_timeout_events", 7}}}};
  const std::vector<EfaDevice> after = {{"rdmap0", {{"retrans_pkts", 30}, {"rx_drops", 5}, {"tx_bytes", 900}}},
                                        {"rdmap1", {{"retrans_pkts", 1}, {"retrans_timeout_events", 2}}}};
  const auto rises = efa_counter_rises(before, after, {"retrans_pkts", "rx_drops", "retrans_timeout_events"});
  EXPECT_EQ(rises, (std::map<std::string, std::uint64_t>{{"retrans_pkts", 20}}));
}

TEST(EfaRounds, RoundRiseIsACauseRankedAboveTheGovernor) {
  podperf::Run run = straggler_run();
  const std::string host = run.nodes[3].hostname;
  run.findings = {concern(host, "signals.cpu_governor", "powersave"),
                  efa_round_finding(host, {"retrans_timeout_events +1200 during round 2 (pair node3 <-> node1)"})};
  EXPECT_EQ(run.findings[1].tag, Tag::kConcern);
  EXPECT_FALSE(run.findings[1].next_step.empty());
  correlate(run);
  ASSERT_EQ(run.stragglers[0].likely_causes.size(), 2U);
  EXPECT_NE(run.stragglers[0].likely_causes[0].find("signals.efa_round: retrans_timeout_events +1200 during round 2"),
            std::string::npos)
      << run.stragglers[0].likely_causes[0];
}

}  // namespace
}  // namespace podperf

namespace podperf {
namespace {

TEST(Spearman, Table) {
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {40, 30, 20, 10}), -1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 1, 1, 1}, {1, 2, 3, 4}), 0.0);  // constant: no relation
  EXPECT_DOUBLE_EQ(spearman({1, 2}, {2, 1}), 0.0);              // too short
  EXPECT_NEAR(spearman({1, 2, 2, 3}, {1, 2, 3, 4}), 0.9487, 1e-3);  // ties get average ranks
}

// 8 nodes whose busbw falls with their EFA error counter rise: a run-wide correlation finding.
TEST(Correlate, HostSignalTrackingBusbwIsReported) {
  podperf::Run run = synthetic::make_run(8, [](int a, int b) { return 100.0 - 1.5 * (a + b); });
  judge_pairs(run, load_thresholds("").pairs);
  for (const NodeInfo& n : run.nodes) {
    run.node_metrics.push_back(NodeMetric{n.hostname, "efa_error_counter_rise", 10.0 * n.index});
    run.node_metrics.push_back(NodeMetric{n.hostname, "iowait_percent", n.index % 2 == 0 ? 1.0 : 1.1});
  }
  correlate(run);
  int found = 0;
  for (const Finding& f : run.findings) {
    if (f.check == "correlation.efa_error_counter_rise") {
      ++found;
      EXPECT_EQ(f.tag, Tag::kConcern);
      EXPECT_NE(f.observed.find("Spearman rho -0.9"), std::string::npos) << f.observed;
      EXPECT_NE(f.observed.find("over 8 hosts"), std::string::npos) << f.observed;
    }
    EXPECT_NE(f.check, "correlation.iowait_percent") << "iowait does not track busbw here";
  }
  EXPECT_EQ(found, 1);
  // Too few hosts: nothing reported.
  correlate(run, 9);
  for (const Finding& f : run.findings) EXPECT_NE(f.check.rfind("correlation.", 0), 0U);
}

// The hosts' median ratios the straightforward way: per host every ratio, sorted, element size/2.
std::map<std::string, double> sorted_host_ratios(const Run& run) {
  std::map<std::string, std::vector<double>> ratios;
  for (const PairResult& p : run.pairs) {
    if (p.size_bytes != run.judged_size_bytes || p.status != "ok") continue;
    for (int node : p.nodes) {
      const bool known = node >= 0 && static_cast<std::size_t>(node) < run.nodes.size();
      ratios[known ? run.nodes[static_cast<std::size_t>(node)].hostname : ""].push_back(p.ratio);
    }
  }
  std::map<std::string, double> out;
  for (auto& [host, r] : ratios) {
    std::sort(r.begin(), r.end());
    out[host] = r[r.size() / 2];
  }
  return out;
}

// At scale correlate gathers the hosts' ratios in chunks of pairs on separate threads and takes each
// host's median over all chunks: the same medians as one sorted list per host, for any number of
// threads (more threads than hosts too), with failed pairs, pairs at another size, a node out of
// range and two nodes sharing a hostname; and the same findings.
TEST(Correlate, ChunkedHostMediansMatchOneSortedListPerHost) {
  podperf::Run run = synthetic::make_run(30, [](int a, int b) { return 100.0 - 0.7 * a - 0.3 * b + (a * b) % 5; });
  run.nodes[5].hostname = run.nodes[4].hostname;
  run.pairs[7].status = "error";
  run.pairs[40].status = "timeout";
  podperf::PairResult small = run.pairs[3];
  small.size_bytes = 1024;
  run.pairs.insert(run.pairs.begin() + 100, small);
  run.pairs[200].nodes[1] = 99;  // no such node: counts for the host ""
  JudgedPairs judged_one;
  JudgedPairs judged_three;
  {
    podperf::Run copy = run;
    judge_pairs(copy, load_thresholds("").pairs, 3, &judged_three);
  }
  judge_pairs(run, load_thresholds("").pairs, 1, &judged_one);
  for (const NodeInfo& n : run.nodes) {
    run.node_metrics.push_back(NodeMetric{n.hostname, "efa_error_counter_rise", 3.0 * n.index});
  }
  const std::map<std::string, double> expected = sorted_host_ratios(run);
  ASSERT_EQ(expected.size(), 30u);  // 29 hostnames and ""
  for (std::size_t threads : {1u, 2u, 3u, 7u, 64u}) {
    EXPECT_EQ(host_busbw_ratio(run, threads), expected) << threads << " threads";
  }
  // From the pairs judge_pairs judged (one chunk, or three), without reading the pairs again.
  ASSERT_TRUE(judged_one.filled);
  ASSERT_EQ(judged_three.chunks.size(), 1u);  // the node model is one fit: one chunk whatever the threads
  EXPECT_EQ(host_busbw_ratio(run, 1, &judged_one), expected);
  EXPECT_EQ(host_busbw_ratio(run, 1, &judged_three), expected);
  const JudgedPairs unfilled;  // not from judge_pairs: the sweep over the pairs
  EXPECT_EQ(host_busbw_ratio(run, 2, &unfilled), expected);
  podperf::Run one = run;
  podperf::Run four = run;
  podperf::Run handed_on = run;
  correlate(one, 6, 1);
  correlate(four, 6, 4);
  correlate(handed_on, 6, 0, &judged_three);
  ASSERT_FALSE(one.findings.empty());
  EXPECT_EQ(nlohmann::json(four.findings).dump(), nlohmann::json(one.findings).dump());
  EXPECT_EQ(nlohmann::json(four.stragglers).dump(), nlohmann::json(one.stragglers).dump());
  EXPECT_EQ(nlohmann::json(handed_on.findings).dump(), nlohmann::json(one.findings).dump());
}

}  // namespace
}  // namespace podperf

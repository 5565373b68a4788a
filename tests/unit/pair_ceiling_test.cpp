// The spread the pair verdicts leave unexplained (analysis/pairs/pair_ceiling.hpp): a slow majority of
// unequal slow nodes (each 10-40% slower), missed silently before, is never an OK run: the run names
// them or says it cannot tell, and names no healthy node. Healthy and singly faulty runs get no such
// finding.
#include "analysis/pairs/pair_ceiling.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>

#include "analysis/config/thresholds.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

using synthetic::make_run;

const PairThresholds& config() { return synthetic::builtin_pair_thresholds(); }

const Finding* lagging_finding(const Run& run) {
  const auto it = std::find_if(run.findings.begin(), run.findings.end(), [](const Finding& f) {
    return f.check == "pairs.ambiguous" && f.observed.starts_with("no consistent fast group");
  });
  return it == run.findings.end() ? nullptr : &*it;
}

// n nodes at 100 GB/s with +-`noise` per pair (seeded); `speed` gives each slow node's factor; a pair
// runs at its slower node's speed.
Run unequal_run(int n, const std::map<int, double>& speed, std::uint32_t seed, double noise = 0.01) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(-noise, noise);
  const auto of = [&](int node) { return speed.contains(node) ? speed.at(node) : 1.0; };
  return make_run(n, [&](int a, int b) { return 100.0 * std::min(of(a), of(b)) * (1.0 + jitter(rng)); });
}

TEST(PairCeiling, UnequalSlowMajorityIsNamedOrSaidUndecidedNeverMissed) {
  for (int n : {8, 12, 16}) {
    for (std::uint32_t seed = 1; seed <= 5; ++seed) {
      // Half the nodes slow, 10-40% slower each (0.9, 0.8, 0.7, 0.6, ...), at seeded positions.
      std::mt19937 pick(seed);
      std::vector<int> order(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
      std::shuffle(order.begin(), order.end(), pick);
      std::map<int, double> speed;
      for (int i = 0; i < n / 2; ++i) speed[order[static_cast<std::size_t>(i)]] = 0.9 - 0.3 * i / (n / 2 - 1);
      podperf::Run run = unequal_run(n, speed, seed);
      judge_pairs(run, config());
      const std::string what = "n=" + std::to_string(n) + " seed=" + std::to_string(seed);
      std::set<int> accounted;
      for (const Straggler& s : run.stragglers) {
        EXPECT_TRUE(speed.contains(s.node)) << what << ": healthy node " << s.node << " named";
        accounted.insert(s.node);
      }
      const Finding* f = lagging_finding(run);
      for (const auto& [node, factor] : speed) {
        if (accounted.contains(node)) continue;
        ASSERT_NE(f, nullptr) << what << ": node " << node << " at " << factor << " missed silently";
        EXPECT_NE(f->observed.find(run.nodes[static_cast<std::size_t>(node)].label + " "), std::string::npos)
            << what << ": node " << node << " not listed: " << f->observed;
      }
      if (f != nullptr) {
        for (int healthy = 0; healthy < n; ++healthy) {
          if (speed.contains(healthy)) continue;
          // Listed as lagging ("node3 80%"), not as one of the reference nodes.
          const std::regex listed(run.nodes[static_cast<std::size_t>(healthy)].label + " [0-9]+%");
          EXPECT_FALSE(std::regex_search(f->observed, listed)) << what << ": " << f->observed;
        }
        EXPECT_NE(f->next_step.find("--pairs "), std::string::npos) << f->next_step;
        EXPECT_NE(f->next_step.find("--sku"), std::string::npos) << f->next_step;
      }
      EXPECT_EQ(pairs_exit_code(run), 1) << what << ": never an OK run";
    }
  }
}

TEST(PairCeiling, HealthyAndSinglyFaultyRunsGetNoSuchFinding) {
  for (int n : {4, 6, 8, 16, 32}) {
    for (std::uint32_t seed = 1; seed <= 5; ++seed) {
      podperf::Run healthy = unequal_run(n, {}, seed, 0.03);
      judge_pairs(healthy, config());
      EXPECT_EQ(lagging_finding(healthy), nullptr) << "healthy n=" << n << " seed=" << seed;
      EXPECT_EQ(pairs_exit_code(healthy), 0) << "healthy n=" << n << " seed=" << seed;
      podperf::Run one_slow = unequal_run(n, {{1, 0.7}}, seed, 0.02);
      judge_pairs(one_slow, config());
      EXPECT_EQ(lagging_finding(one_slow), nullptr) << "one slow n=" << n << " seed=" << seed;
      ASSERT_EQ(one_slow.stragglers.size(), 1U) << "one slow n=" << n << " seed=" << seed;
      EXPECT_EQ(one_slow.stragglers[0].node, 1);
    }
  }
}

TEST(PairCeiling, ARetestCountsInTheNodesFavour) {
  // Node 7 slow against every partner (85%): named a straggler, so not lagging (explained). Unexplained
  // (no inference given) it would lag, until a retest of one of its pairs at full speed lifts its
  // ceiling.
  podperf::Run run = unequal_run(8, {{7, 0.85}}, 3);
  judge_pairs(run, config());
  EXPECT_EQ(lagging_finding(run), nullptr);
  ASSERT_EQ(run.stragglers.size(), 1U);
  const PairInference none;
  const LaggingNodes lagging = find_lagging_nodes(run, none, config());
  ASSERT_EQ(lagging.nodes, (std::vector<int>{7})) << "unexplained, node 7 would lag";
  for (PairResult& p : run.pairs) {
    if (p.nodes[0] == 0 && p.nodes[1] == 7) {
      p.retest_busbw_gbps = 100.0;
      p.retest_samples_s = p.samples_s;
    }
  }
  EXPECT_TRUE(find_lagging_nodes(run, none, config()).nodes.empty());
}

}  // namespace
}  // namespace podperf

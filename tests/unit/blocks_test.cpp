// Blocks inside one job (--repeat K): the interleaved order (sweep/block_order), the schedule driver
// running every step once per block, a later block joining its pair's result (analysis/model/run_blocks),
// run.json and pairs.bin keeping the blocks (and old run.json without them still reading), and podperf
// compare using blocks as units (analysis/compare/compare_units): a real shift found, none where there is none.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "analysis/compare/compare.hpp"
#include "analysis/compare/compare_units.hpp"
#include "analysis/io/run_events.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/io/run_json_pairs_file.hpp"
#include "analysis/model/run_blocks.hpp"
#include "analysis/report/comparison_json.hpp"
#include "analysis/report/comparison_text.hpp"
#include "bench/schedule_driver.hpp"
#include "noisy_runs.hpp"
#include "sweep/block_order.hpp"
#include "sweep/pair_schedule.hpp"

namespace podperf {
namespace {

using noisy::ClusterSpec;
using noisy::make_noisy_run;

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(BlockOrder, EveryBlockHoldsEveryCaseOnceInItsOwnShuffledOrder) {
  const auto order = block_order(12, 4, 7);
  ASSERT_EQ(order.size(), 4u);
  std::vector<int> identity(12);
  std::iota(identity.begin(), identity.end(), 0);
  std::set<std::vector<int>> distinct;
  for (const auto& block : order) {
    EXPECT_EQ(sorted(block), identity);  // each case once
    distinct.insert(block);
  }
  EXPECT_EQ(distinct.size(), 4u);           // not K back-to-back copies of one order
  EXPECT_EQ(distinct.count(identity), 0u);  // shuffled (12! orders: identity by chance is ~2e-9)
  EXPECT_EQ(block_order(12, 4, 7), order);  // the same on every rank
  EXPECT_NE(block_order(12, 4, 8), order);  // the seed matters
  // Block b depends on (seed, b) only: more blocks keep the first ones.
  const auto more = block_order(12, 6, 7);
  EXPECT_TRUE(std::equal(order.begin(), order.end(), more.begin()));
}

TEST(BlockOrder, OneBlockIsThePlanOrder) {
  EXPECT_EQ(block_order(5, 1, 99), (std::vector<std::vector<int>>{{0, 1, 2, 3, 4}}));
  EXPECT_EQ(block_order(0, 3, 1).size(), 3u);
  EXPECT_TRUE(block_order(0, 3, 1)[0].empty());
}

struct StepCall {
  int block;
  int round;
  Round pairs;
  bool complete;
};

// drive_schedule on a plan of `steps` with a fake measuring step; returns every step call in order.
std::vector<StepCall> drive(const std::vector<Round>& steps, const std::vector<int>& round_of_step, int blocks,
                            ScheduleOutcome& outcome, std::vector<int>& blocks_begun) {
  std::vector<StepCall> calls;
  int block = 0;
  ScheduleHooks hooks;
  hooks.step = [&](const Round& pairs, int round, const std::vector<std::uint64_t>& sizes, bool retest, bool complete) {
    EXPECT_FALSE(retest);
    calls.push_back({block, round, pairs, complete});
    std::vector<PairResult> out(pairs.size() * sizes.size());
    return out;
  };
  hooks.suspects = [] { return std::vector<NodePair>{}; };
  hooks.begin_block = [&](int b, int k) {
    EXPECT_EQ(k, blocks);
    block = b;
    blocks_begun.push_back(b);
  };
  ScheduleOptions o;
  o.blocks = blocks;
  o.seed = 3;
  PairThresholds t;
  outcome = drive_schedule(6, steps, round_of_step, {1024, 4096}, t, o, hooks);
  return calls;
}

TEST(ScheduleBlocks, EveryStepOncePerBlockBlockAfterBlockInTheShuffledOrder) {
  const std::vector<Round> steps = circle_schedule(6);  // 5 rounds of 3 pairs
  std::vector<int> round_of_step;
  for (std::size_t r = 0; r < steps.size(); ++r) round_of_step.push_back(static_cast<int>(r) + 1);
  ScheduleOutcome outcome;
  std::vector<int> begun;
  const std::vector<StepCall> calls = drive(steps, round_of_step, 3, outcome, begun);
  ASSERT_EQ(calls.size(), 15u);
  EXPECT_EQ(begun, (std::vector<int>{1, 2, 3}));
  const auto order = block_order(5, 3, 3);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const std::size_t b = i / 5;
    EXPECT_EQ(calls[i].block, static_cast<int>(b) + 1);
    const int step = order[b][i % 5];
    EXPECT_EQ(calls[i].round, step + 1);
    EXPECT_EQ(calls[i].pairs, steps[static_cast<std::size_t>(step)]);
    EXPECT_TRUE(calls[i].complete);
  }
  EXPECT_EQ(outcome.rounds, 15);
  EXPECT_EQ(outcome.rounds_planned, 15);
}

TEST(ScheduleBlocks, SequentialStepsCompleteTheirRoundOncePerBlock) {
  const std::vector<Round> rounds = circle_schedule(4);  // 3 rounds of 2 pairs
  std::vector<Round> steps;
  std::vector<int> round_of_step;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    for (const NodePair& p : rounds[r]) {
      steps.push_back({p});
      round_of_step.push_back(static_cast<int>(r) + 1);
    }
  }
  ScheduleOutcome outcome;
  std::vector<int> begun;
  const std::vector<StepCall> calls = drive(steps, round_of_step, 2, outcome, begun);
  ASSERT_EQ(calls.size(), 12u);
  for (int b = 1; b <= 2; ++b) {
    std::map<int, int> seen, completed;
    for (const StepCall& c : calls) {
      if (c.block != b) continue;
      ++seen[c.round];
      if (c.complete) {
        EXPECT_EQ(seen[c.round], 2) << "round " << c.round << " complete before its last step, block " << b;
        ++completed[c.round];
      }
    }
    EXPECT_EQ(completed, (std::map<int, int>{{1, 1}, {2, 1}, {3, 1}}));
  }
  EXPECT_EQ(outcome.rounds, 6);
}

TEST(ScheduleBlocks, OneBlockRunsThePlanInOrderWithoutBlockCalls) {
  const std::vector<Round> steps = circle_schedule(4);
  ScheduleOutcome outcome;
  std::vector<int> begun;
  const std::vector<StepCall> calls = drive(steps, {1, 2, 3}, 1, outcome, begun);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_TRUE(begun.empty());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(calls[static_cast<std::size_t>(i)].round, i + 1);
  EXPECT_EQ(outcome.rounds, 3);
  EXPECT_EQ(outcome.rounds_planned, 3);
}

PairResult timed_pair(std::vector<double> samples) {
  PairResult p;
  p.nodes = {0, 1};
  p.size_bytes = 1000000000;
  p.samples_s = std::move(samples);
  std::vector<double> s = p.samples_s;
  std::sort(s.begin(), s.end());
  p.median_s = s[s.size() / 2];
  p.algbw_gbps = 1.0 / p.median_s;
  p.busbw_gbps = 2.0 * p.algbw_gbps;
  return p;
}

TEST(RunBlocks, ALaterBlockJoinsItsPairsResult) {
  podperf::Run run;
  PairBlockIndex index;
  index.add(run, timed_pair({1.0, 1.0, 1.0}), 1);
  PairResult other = timed_pair({0.5, 0.5, 0.5});
  other.nodes = {0, 2};
  index.add(run, other, 1);
  index.add(run, timed_pair({3.0, 3.0, 3.0}), 2);
  index.add(run, timed_pair({3.0, 3.0, 3.0}), 3);
  ASSERT_EQ(run.pairs.size(), 2u);
  const PairResult& p = run.pairs[0];
  EXPECT_EQ(p.samples_s, (std::vector<double>{1, 1, 1, 3, 3, 3, 3, 3, 3}));
  EXPECT_DOUBLE_EQ(p.median_s, 3.0);
  EXPECT_DOUBLE_EQ(p.min_s, 1.0);
  EXPECT_DOUBLE_EQ(p.algbw_gbps, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(p.busbw_gbps, 2.0 / 3.0);  // the pair's bus factor kept
  EXPECT_EQ(run.pairs[1].samples_s.size(), 3u);
  // A failed block: the samples stay, the pair says which block failed.
  PairResult failed = timed_pair({9.0});
  failed.status = "timeout";
  failed.error = "round 2 overran";
  index.add(run, failed, 4);
  EXPECT_EQ(run.pairs[0].status, "timeout");
  EXPECT_EQ(run.pairs[0].error, "block 4: round 2 overran");
  EXPECT_EQ(run.pairs[0].samples_s.size(), 9u);
}

// A run of `blocks` blocks: each block's samples from its own noisy run (a block effect of run_cv on
// every pair), block after block, as a --repeat job records them.
podperf::Run blocked_run(const ClusterSpec& spec, int blocks, std::uint64_t seed) {
  podperf::Run run = make_noisy_run(spec, seed * 1000);
  run.fs.probes.clear();
  PairBlockIndex index;
  run.pairs.clear();
  for (int b = 1; b <= blocks; ++b) {
    podperf::Run block = make_noisy_run(spec, seed * 1000 + static_cast<std::uint64_t>(b));
    for (PairResult& p : block.pairs) index.add(run, p, b);
  }
  run.blocks.count = blocks;
  run.blocks.seed = seed;
  run.blocks.cases = "steps";
  run.blocks.order = block_order(5, blocks, seed);
  return run;
}

TEST(CompareBlocks, BlocksAreTheUnitsOfOneRunPerSide) {
  ClusterSpec spec;
  spec.run_cv = 0.01;
  const podperf::Run before = blocked_run(spec, 4, 1);
  const podperf::Run after = blocked_run(spec, 4, 2);
  const Comparison c = compare_runs(before, after, CompareSettings{});
  EXPECT_EQ(c.units, "blocks");
  EXPECT_EQ(c.method, "block_level_moderated_t");
  EXPECT_EQ(c.units_before, 4u);
  EXPECT_EQ(c.units_after, 4u);
  ASSERT_FALSE(c.metrics.empty());
  for (const MetricComparison& m : c.metrics) {
    EXPECT_EQ(m.runs_before.size(), 4u) << m.name();
    EXPECT_EQ(m.runs_after.size(), 4u) << m.name();
    EXPECT_GE(m.p_value, 0.0) << m.name() << ": tested";
    EXPECT_EQ(m.n_before, 4u * 20u) << m.name();
  }
  EXPECT_EQ(c.summary.slower + c.summary.faster, 0) << "healthy against healthy";
  ASSERT_FALSE(c.unit_warnings.empty());
  EXPECT_NE(c.unit_warnings[0].find("launch-to-launch"), std::string::npos);
  const std::string text = comparison_text(at_fail_on(c, 5.0));
  EXPECT_NE(text.find("the block is the unit"), std::string::npos) << text;
  EXPECT_NE(text.find("WARNING: the units are blocks of one job"), std::string::npos) << text;
  const nlohmann::json j = comparison_json(c);
  EXPECT_EQ(j.at("units"), "blocks");
  EXPECT_EQ(j.at("units_before"), 4);
}

// The verdicts of a one-against-one comparison of blocked runs in which pair node1<->node4 is slower by
// `slowdown` (time factor) and nothing else changed: how many of its sizes are "slower", and how many
// verdicts other metrics got.
struct SlowPairVerdicts {
  int slower_pair = 0;
  int other = 0;
  Comparison c;
};
SlowPairVerdicts slow_pair_verdicts(double slowdown, const CompareSettings& settings) {
  ClusterSpec spec;
  spec.run_cv = 0.01;
  ClusterSpec slow = spec;
  slow.time_factor = [slowdown](const std::string& a, const std::string& b, std::uint64_t) {
    return a == "node1" && b == "node4" ? slowdown : 1.0;
  };
  SlowPairVerdicts v;
  v.c = compare_runs(blocked_run(spec, 4, 3), blocked_run(slow, 4, 4), settings);
  for (const MetricComparison& m : v.c.metrics) {
    if (m.verdict == "slower" && m.key().nodes == "node1<->node4") ++v.slower_pair;
    if ((m.verdict == "slower" || m.verdict == "faster") && m.key().nodes != "node1<->node4") ++v.other;
  }
  return v;
}

TEST(CompareBlocks, ARealShiftIsFoundFromTheBlocksOfOneRun) {
  const SlowPairVerdicts v = slow_pair_verdicts(1.6, CompareSettings{});  // busbw 37.5% lower
  EXPECT_EQ(v.slower_pair, 3) << "every size of the slow pair";
  EXPECT_EQ(v.other, 0);
}

// Blocks of one job cannot measure launch-to-launch variance, so between two single blocked runs a
// change counts only beyond the run-to-run allowance (issue 19: healthy --repeat 8 runs of the
// namespaced cluster differ by 4-6% between jobs while their blocks agree to 1-2%).
TEST(CompareBlocks, AChangeWithinTheRunToRunAllowanceIsNotClaimedFromBlocks) {
  const SlowPairVerdicts within = slow_pair_verdicts(1.25, CompareSettings{});  // busbw 20% lower
  EXPECT_EQ(within.slower_pair, 0) << "20% is within the default 25% allowance";
  EXPECT_EQ(within.other, 0);
  EXPECT_EQ(within.c.settings.min_change_percent, 25.0) << "the allowance is the smallest change claimed";
  for (const MetricComparison& m : within.c.metrics) {
    EXPECT_GE(m.mde_percent, 25.0) << m.name() << ": nothing smaller is said to be detectable";
    if (m.key().nodes == "node1<->node4") {
      EXPECT_LT(m.p_adjusted, 0.05) << m.name() << ": the blocks do show the shift";
    }
  }
  CompareSettings tight;
  tight.single_run_allowance_percent = 10.0;  // --allowance 10: a quiet dedicated cluster
  const SlowPairVerdicts found = slow_pair_verdicts(1.25, tight);
  EXPECT_EQ(found.slower_pair, 3) << "beyond a 10% allowance";
  EXPECT_EQ(found.other, 0);
}

// A run with blocks keeps a pair's first measurement (its blocks) even where the retest cleared the pair:
// the retest is no block of its own, and the per-block medians already outvote one transient block.
TEST(CompareBlocks, ARetestDoesNotReplaceTheBlocks) {
  ClusterSpec spec;
  spec.run_cv = 0.01;
  podperf::Run after = blocked_run(spec, 4, 2);
  for (PairResult& p : after.pairs) {
    p.retest_samples_s.assign(20, p.median_s / 2.0);  // a retest twice as fast: would be +100%
    p.retest_busbw_gbps = 2.0 * p.busbw_gbps;
    p.cleared_by_retest = true;
  }
  const Comparison c = compare_runs(blocked_run(spec, 4, 1), after, CompareSettings{});
  EXPECT_TRUE(c.from_retest_after.empty());
  for (const MetricComparison& m : c.metrics) {
    EXPECT_EQ(m.runs_after.size(), 4u) << m.name();
    EXPECT_LT(std::fabs(m.change_percent), 15.0) << m.name();
  }
}

// podperf fs --repeat: the chain of probes once per block, each result tagged with its block; no pairs.
podperf::Run blocked_fs_run(const ClusterSpec& spec, int blocks, std::uint64_t seed) {
  podperf::Run run = make_noisy_run(spec, seed * 1000);
  run.pairs.clear();
  run.fs.probes.clear();
  for (int b = 1; b <= blocks; ++b) {
    podperf::Run block = make_noisy_run(spec, seed * 1000 + static_cast<std::uint64_t>(b));
    for (FsProbeResult& p : block.fs.probes) {
      p.block = b;
      run.fs.probes.push_back(p);
    }
  }
  run.blocks.count = blocks;
  run.blocks.cases = "probes";
  run.blocks.order.assign(static_cast<std::size_t>(blocks), {0, 1, 2});
  return run;
}

TEST(CompareBlocks, FilesystemProbesInBlocksAreComparedBlockByBlock) {
  ClusterSpec spec;
  spec.run_cv = 0.01;
  spec.fs_ranks_per_node = 8;
  ASSERT_FALSE(make_noisy_run(spec, 1).fs.probes.empty());
  const Comparison same = compare_runs(blocked_fs_run(spec, 4, 1), blocked_fs_run(spec, 4, 2), CompareSettings{});
  EXPECT_EQ(same.units, "blocks");
  EXPECT_EQ(same.method, "block_level_moderated_t");
  ASSERT_FALSE(same.metrics.empty());
  for (const MetricComparison& m : same.metrics) {
    EXPECT_EQ(m.runs_before.size(), 4u) << m.name() << ": one value per block (the median of its ranks)";
    EXPECT_GE(m.p_value, 0.0) << m.name() << ": tested";
  }
  EXPECT_EQ(same.summary.slower + same.summary.faster, 0) << "healthy against healthy";
  ClusterSpec slow = spec;
  slow.fs_rate_factor = 0.7;
  const Comparison c = compare_runs(blocked_fs_run(spec, 4, 3), blocked_fs_run(slow, 4, 4), CompareSettings{});
  int slower = 0;
  for (const MetricComparison& m : c.metrics) {
    if (m.key().quantity == "lat_p99_us") continue;  // the rate factor leaves latency as it is
    slower += m.verdict == "slower" ? 1 : 0;
    EXPECT_EQ(m.verdict, "slower") << m.name() << " " << m.change_percent << " p " << m.p_value;
  }
  EXPECT_GT(slower, 0);
}

TEST(CompareBlocks, MixedOrReplicatedRunsKeepTheRunAsUnit) {
  ClusterSpec spec;
  const podperf::Run blocked = blocked_run(spec, 3, 5);
  const podperf::Run plain = make_noisy_run(spec, 6);
  const Comparison mixed = compare_runs(blocked, plain, CompareSettings{});
  EXPECT_EQ(mixed.units, "runs");
  EXPECT_EQ(mixed.method, "pair_spread");  // one run a side: pairs against their spread (issue 32)
  ASSERT_EQ(mixed.unit_warnings.size(), 1u);
  EXPECT_NE(mixed.unit_warnings[0].find("blocks pooled: BEFORE has blocks and AFTER does not"), std::string::npos);
  for (const MetricComparison& m : mixed.metrics) EXPECT_EQ(m.runs_before.size(), 1u);
  const Comparison replicated = compare_runs({blocked, blocked_run(spec, 3, 7)},
                                             {blocked_run(spec, 3, 8), blocked_run(spec, 3, 9)}, CompareSettings{});
  EXPECT_EQ(replicated.units, "runs");
  EXPECT_EQ(replicated.method, "run_level_moderated_t");
  EXPECT_EQ(replicated.units_before, 2u);
  for (const MetricComparison& m : replicated.metrics) EXPECT_EQ(m.runs_before.size(), 2u);
  // Different block counts across sides: blocks, with a warning.
  const Comparison uneven = compare_runs(blocked, blocked_run(spec, 5, 10), CompareSettings{});
  EXPECT_EQ(uneven.units, "blocks");
  EXPECT_EQ(uneven.units_after, 5u);
  ASSERT_EQ(uneven.unit_warnings.size(), 2u);
  EXPECT_NE(uneven.unit_warnings[1].find("BEFORE has 3 blocks per run and AFTER 5"), std::string::npos);
  // One side's runs must agree on their blocks.
  EXPECT_EQ(blocks_mismatch({blocked, blocked_run(spec, 3, 11)}, {"a", "b"}), "");
  EXPECT_EQ(blocks_mismatch({blocked, plain}, {"a/run.json", "b/run.json"}),
            "a/run.json and b/run.json are not repeats of one setup (3 blocks (--repeat 3) vs no blocks); the runs "
            "of one side must all have the same --repeat");
}

std::string dump(const podperf::Run& run) {
  return nlohmann::json(run).dump();
}

TEST(RunJsonBlocks, BlocksRoundTripAndOldRunsReadWithout) {
  const podperf::Run run = blocked_run(ClusterSpec{}, 3, 12);
  const podperf::Run back = parse_run_json(nlohmann::json(run).dump(), "blocked.json");
  EXPECT_EQ(back.blocks.count, 3);
  EXPECT_EQ(back.blocks.seed, 12u);
  EXPECT_EQ(back.blocks.cases, "steps");
  EXPECT_EQ(back.blocks.order, run.blocks.order);
  EXPECT_EQ(dump(back), dump(run));
  nlohmann::json old = nlohmann::json(make_noisy_run(ClusterSpec{}, 13));
  old.erase("blocks");  // a run.json written before --repeat
  const podperf::Run old_back = parse_run_json(old.dump(), "old.json");
  EXPECT_EQ(old_back.blocks.count, 0);
  EXPECT_FALSE(has_blocks(old_back));
}

TEST(RunJsonBlocks, PairsFileKeepsTheBlocksSamples) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("podperf_blocks_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  podperf::Run run = blocked_run(ClusterSpec{}, 2, 14);
  run.schema_version = kSchemaVersionPairsFile;
  {
    std::ofstream bin(dir / kPairsFileName, std::ios::binary);
    write_pairs_file(run.pairs,
                     [&](std::string_view piece) { bin.write(piece.data(), std::streamsize(piece.size())); });
  }
  std::string text;
  write_run_json(
      run, [&](std::string_view piece) { text += piece; }, kPairsFileName);
  std::ofstream(dir / "run.json", std::ios::binary) << text;
  const podperf::Run back = read_run_json((dir / "run.json").string());
  fs::remove_all(dir);
  EXPECT_EQ(back.blocks.count, 2);
  EXPECT_EQ(dump(back), dump(run));
  const Comparison c = compare_runs(back, back, CompareSettings{});
  ASSERT_FALSE(c.metrics.empty());
  EXPECT_EQ(c.metrics[0].runs_before.size(), 2u);
}

TEST(RunEventsBlocks, LaterBlocksRoundEventsJoinTheirPairs) {
  podperf::Run start = blocked_run(ClusterSpec{}, 2, 15);
  std::vector<PairResult> pairs = start.pairs;
  start.pairs.clear();
  nlohmann::json head = nlohmann::json(start);
  head["event"] = "start";
  std::vector<PairResult> first, second;
  for (PairResult p : pairs) {
    PairResult a = p, b = p;
    a.samples_s.assign(p.samples_s.begin(), p.samples_s.begin() + 20);
    b.samples_s.assign(p.samples_s.begin() + 20, p.samples_s.end());
    first.push_back(a);
    second.push_back(b);
  }
  const std::string jsonl =
      head.dump() + "\n" + nlohmann::json{{"event", "round"}, {"round", 1}, {"block", 1}, {"pairs", first}}.dump() +
      "\n" + nlohmann::json{{"event", "round"}, {"round", 1}, {"block", 2}, {"pairs", second}}.dump() + "\n";
  const RebuiltRun rebuilt = run_from_events(jsonl, "events.jsonl");
  ASSERT_EQ(rebuilt.run.pairs.size(), pairs.size());
  EXPECT_EQ(rebuilt.run.pairs[0].samples_s, pairs[0].samples_s);
  EXPECT_EQ(rebuilt.run.rounds_completed, 2);
}

}  // namespace
}  // namespace podperf

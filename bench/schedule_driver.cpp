// The schedule driver (see schedule_driver.hpp). Floor: bench; local.
#include "bench/schedule_driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/base/units.hpp"
#include "sweep/block_order.hpp"

namespace podperf {
namespace {

std::vector<Round> split(const std::vector<Round>& rounds, bool sequential_steps) {
  return sequential_steps ? sequential(rounds) : rounds;
}

void step_done(const ScheduleHooks& hooks, StepKind kind, const std::string& what) {
  if (hooks.done) hooks.done(kind, what);
}

// "retest 1, step 3/15: 3 flagged pairs 3:17, 42:100, 5:6": which pass, which of its steps, which pairs
// (node indices; the first kShownPairs of them).
std::string retest_step_text(int pass, int step, std::size_t steps, const Round& pairs) {
  constexpr std::size_t kShownPairs = 4;
  std::string shown;
  for (std::size_t i = 0; i < pairs.size() && i < kShownPairs; ++i) {
    shown += fmt::format("{}{}:{}", i == 0 ? "" : ", ", pairs[i][0], pairs[i][1]);
  }
  if (pairs.size() > kShownPairs) shown += fmt::format(", +{} more", pairs.size() - kShownPairs);
  return fmt::format("retest {}, step {}/{}: {} flagged pair{} {}", pass, step, steps, pairs.size(),
                     pairs.size() == 1 ? "" : "s", shown);
}

// Retest passes over what the analysis still flags (pairs touching `skip` nodes, or leaving a group in
// `slow_groups`, are left alone: the adaptive search already confirmed those slow). `count_rounds`
// (adaptive): retest rounds numbered after `first_round`; otherwise from 1 in each pass. Returns the
// rounds of steps measured.
int retest_passes(const std::vector<std::uint64_t>& sizes, const ScheduleOptions& o, const ScheduleHooks& hooks,
                  const std::set<int>& skip, const std::vector<SlowGroup>& slow_groups, int first_round,
                  bool count_rounds) {
  int rounds = 0;
  // --retest passes, then (when the run retests at all) up to kConfirmPasses more while the judge asks
  // for pairs it cannot confirm yet (slow like a link in every measurement, measured fewer times than a
  // link needs at the run's rate of low measurements: analysis/pairs/pair_verdicts.hpp): a handful of
  // pairs, so that a link is confirmed against the evidence rather than named on too little.
  constexpr int kConfirmPasses = 3;
  for (int pass = 1; o.retest > 0 && pass <= o.retest + kConfirmPasses; ++pass) {
    std::vector<NodePair> flagged;
    for (const NodePair& p : hooks.suspects()) {
      if (skip.count(p[0]) == 0 && skip.count(p[1]) == 0 && !leaves_slow_group(slow_groups, p[0], p[1])) {
        flagged.push_back(p);
      }
    }
    if (flagged.empty()) break;
    const std::vector<Round> packed = pack_rounds(flagged);
    const std::size_t pass_steps = split(packed, o.sequential).size();
    if (hooks.retest_pass) hooks.retest_pass(pass, flagged.size(), pass_steps);
    int steps = 0;
    for (std::size_t r = 0; r < packed.size(); ++r) {
      for (const Round& s : split({packed[r]}, o.sequential)) {
        ++steps;
        const int number = count_rounds                ? first_round + rounds + 1
                           : o.retest_numbered_by_step ? steps
                                                       : static_cast<int>(r) + 1;
        hooks.step(s, number, {sizes.back()}, true, false);
        step_done(hooks, StepKind::kRetest, retest_step_text(pass, steps, pass_steps, s));
      }
      ++rounds;
    }
  }
  return rounds;
}

// --schedule all: the plan's steps in order (with blocks: block after block, each in its shuffled
// order; a round is complete in a block when its last step there is), then the retest passes.
ScheduleOutcome run_plan(const std::vector<Round>& steps, const std::vector<int>& round_of_step,
                         const std::vector<std::uint64_t>& sizes, const ScheduleOptions& o,
                         const ScheduleHooks& hooks) {
  ScheduleOutcome out;
  const int blocks = std::max(1, o.blocks);
  const std::vector<std::vector<int>> order = block_order(static_cast<int>(steps.size()), blocks, o.seed);
  for (int b = 0; b < blocks; ++b) {
    if (blocks > 1 && hooks.begin_block) hooks.begin_block(b + 1, blocks);
    std::map<int, int> steps_left;
    for (int round : round_of_step) ++steps_left[round];
    for (int s : order[static_cast<std::size_t>(b)]) {
      const Round& step = steps[static_cast<std::size_t>(s)];
      const int round = round_of_step[static_cast<std::size_t>(s)];
      const bool complete = --steps_left[round] == 0;
      hooks.step(step, round, sizes, false, complete);
      const std::string what = fmt::format("{} pair{} in round {}", step.size(), step.size() == 1 ? "" : "s", round);
      step_done(hooks, StepKind::kRound, blocks > 1 ? fmt::format("block {}/{}: {}", b + 1, blocks, what) : what);
      if (complete) ++out.rounds;
    }
  }
  out.rounds_planned = (round_of_step.empty() ? 0 : round_of_step.back()) * blocks;
  retest_passes(sizes, o, hooks, {}, {}, out.rounds, false);
  return out;
}

// One round of the adaptive search: its new pairs at every size (in steps as --concurrency says), its
// repeats (link checks, pairs met before) as retests at the judged size. Returns each pair's busbw at
// the judged size (NaN: failed or not measured), in the round's order.
std::vector<double> measure_search_round(const SearchRound& r, int number, const std::vector<std::uint64_t>& sizes,
                                         const ScheduleOptions& o, const ScheduleHooks& hooks) {
  Round fresh, repeat;
  for (std::size_t i = 0; i < r.pairs.size(); ++i) (r.repeat[i] ? repeat : fresh).push_back(r.pairs[i]);
  auto judged_busbw = [](const PairResult& res) { return status_ok(res.status) ? res.busbw_gbps : std::nan(""); };
  std::vector<std::pair<NodePair, double>> values;
  const std::vector<Round> fresh_steps = split({fresh}, o.sequential);
  for (std::size_t s = 0; s < fresh_steps.size(); ++s) {
    if (fresh_steps[s].empty()) continue;
    const std::vector<PairResult> res =
        hooks.step(fresh_steps[s], number, sizes, false, repeat.empty() && s + 1 == fresh_steps.size());
    for (std::size_t k = 0; k < fresh_steps[s].size(); ++k) {
      values.emplace_back(fresh_steps[s][k], judged_busbw(res[k * sizes.size() + sizes.size() - 1]));
    }
  }
  for (const Round& s : split({repeat}, o.sequential)) {
    if (s.empty()) continue;
    const std::vector<PairResult> res = hooks.step(s, number, {sizes.back()}, true, true);
    for (std::size_t k = 0; k < s.size(); ++k) values.emplace_back(s[k], judged_busbw(res[k]));
  }
  std::vector<double> busbw;
  for (const NodePair& pair : r.pairs) {
    const auto it = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == pair; });
    busbw.push_back(it != values.end() ? it->second : std::nan(""));
  }
  step_done(hooks, StepKind::kSearch,
            fmt::format("adaptive round {}: {} pair{}", number, r.pairs.size(), r.pairs.size() == 1 ? "" : "s"));
  return busbw;
}

// --schedule adaptive: the search, then the retest passes over what the analysis still flags.
ScheduleOutcome run_adaptive_schedule(int nodes, const std::vector<std::uint64_t>& sizes,
                                      const PairThresholds& thresholds, const ScheduleOptions& o,
                                      const ScheduleHooks& hooks) {
  ScheduleOutcome out;
  out.adaptive = true;
  AdaptiveParams p;
  p.threshold = thresholds.threshold;
  p.spread_factor = thresholds.spread_factor;
  p.max_spread_fraction = thresholds.max_spread_fraction;
  p.seed = o.seed;
  p.scope = o.scope;
  p.level = o.level;
  out.search = adaptive_search(
      nodes, p, [&](const SearchRound& r, int number) { return measure_search_round(r, number, sizes, o, hooks); },
      o.groups.empty() ? nullptr : &o.groups);
  out.rounds = out.search.rounds;
  const std::set<int> slow(out.search.slow_nodes.begin(), out.search.slow_nodes.end());
  out.rounds += retest_passes(sizes, o, hooks, slow, out.search.slow_groups, out.rounds, true);
  out.rounds_planned = out.rounds;
  return out;
}

}  // namespace

ScheduleOutcome drive_schedule(int nodes, const std::vector<Round>& steps, const std::vector<int>& round_of_step,
                               const std::vector<std::uint64_t>& sizes, const PairThresholds& thresholds,
                               const ScheduleOptions& o, const ScheduleHooks& hooks) {
  if (o.schedule != "adaptive") return run_plan(steps, round_of_step, sizes, o, hooks);
  return run_adaptive_schedule(nodes, sizes, thresholds, o, hooks);
}

void publish_progress(ScheduleHooks& hooks, Progress& progress, std::uint64_t judged_bytes) {
  hooks.done = [&progress](StepKind, const std::string& what) { progress.next_step_done(what); };
  hooks.retest_pass = [&progress, judged_bytes](int pass, std::size_t pairs, std::size_t steps) {
    // An adaptive search that decided before its budget: said before its retests are planned (the total
    // they replace is then what ran, not the budget).
    if (pass == 1 && progress.done() < progress.total()) {
      progress.finish(
          fmt::format("the adaptive search decided in {} of its {} rounds", progress.done(), progress.total()));
    }
    progress.plan_more(static_cast<int>(steps), fmt::format("retest {}: {} flagged pair{} at {}, measured again", pass,
                                                            pairs, pairs == 1 ? "" : "s", format_size(judged_bytes)));
  };
}

void finish_progress(Progress& progress, const ScheduleOutcome& outcome) {
  if (!outcome.adaptive) return;
  progress.finish(fmt::format("the adaptive search decided in {} of its {} rounds", outcome.search.rounds,
                              outcome.search.max_rounds));
}

Finding adaptive_search_finding(const ScheduleOutcome& s, const std::vector<NodeInfo>& nodes, int full_rounds) {
  auto label = [&](int n) {
    return n >= 0 && static_cast<std::size_t>(n) < nodes.size() ? nodes[static_cast<std::size_t>(n)].label
                                                                : fmt::format("node {}", n);
  };
  std::vector<std::string> slow, links;
  for (int n : s.search.slow_nodes) slow.push_back(label(n));
  for (const NodePair& p : s.search.slow_links) links.push_back(fmt::format("{}<->{}", label(p[0]), label(p[1])));
  Finding f;
  f.tag = Tag::kInfo;
  f.source = "adaptive-search";
  f.check = "pairs.adaptive_search";
  f.observed = fmt::format(
      "{} rounds ({} in the search, budget {}) instead of {} for every pair; {} pair measurements; {} suspects, "
      "{} confirmed slow ({}), {} cleared; slow links: {}{}",
      s.rounds, s.search.rounds, s.search.max_rounds, full_rounds, s.search.measurements, s.search.suspects,
      s.search.slow_nodes.size(), slow.empty() ? "none" : fmt::format("{}", fmt::join(slow, ", ")),
      s.search.cleared.size(), links.empty() ? "none" : fmt::format("{}", fmt::join(links, ", ")),
      s.search.converged ? "" : "; the budget ran out with suspects undecided (counted as slow)");
  if (s.search.scope != "flat") {
    std::vector<std::string> groups;
    for (const SlowGroup& g : s.search.slow_groups) groups.push_back(fmt::format("{} {}", g.level_name, g.name));
    f.observed += fmt::format(
        "; scope {} at level {}: {} screening rounds inside groups, {} across groups, {} retest rounds, {} after the "
        "search; {} suspect groups, slow groups (uplinks): {}",
        s.search.scope, s.search.level_name, s.search.screen_rounds, s.search.across_rounds, s.search.retest_rounds,
        s.rounds - s.search.rounds, s.search.group_suspects,
        groups.empty() ? "none" : fmt::format("{}", fmt::join(groups, ", ")));
  }
  f.expected = "suspects confirmed or cleared by retests against nodes known to be good";
  f.meaning = "stragglers and links below come from the pairs measured by the search, judged as every run is";
  return f;
}

}  // namespace podperf

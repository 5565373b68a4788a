// run_from_events: a Run rebuilt from events.jsonl alone, as `podperf report` does after a crash.
#include "analysis/io/run_events.hpp"

#include <gtest/gtest.h>

#include <string>

#include "analysis/base/errors.hpp"
#include "analysis/config/thresholds.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "tests/unit/synthetic_run.hpp"

namespace podperf {
namespace {

// events.jsonl of a pairs run of 4 nodes (node 3 slow), one line per round as pairs_command writes it.
std::string events_of(const Run& full, bool with_end) {
  Run plan = full;
  plan.pairs.clear();
  nlohmann::json start = plan;
  start["event"] = "start";
  std::string text = start.dump() + "\n";
  int round = 0;
  for (const PairResult& p : full.pairs) {
    nlohmann::json pairs = nlohmann::json::array();
    PairResult r = p;
    r.round = ++round;
    pairs.push_back(r);
    text += nlohmann::json({{"event", "round"}, {"round", round}, {"pairs", pairs}}).dump() + "\n";
  }
  if (with_end) text += R"({"event":"end","status":"complete","finished_at":"2026-12-03T08:08:38.195Z"})" "\n";
  return text;
}

Run slow_node_run() {
  return synthetic::make_run(4, [](int a, int b) { return a == 3 || b == 3 ? 50.0 : 100.0; });
}

TEST(RunEvents, CompleteRunRebuildsEveryPair) {
  const RebuiltRun r = run_from_events(events_of(slow_node_run(), true), "events.jsonl");
  EXPECT_TRUE(r.ended);
  EXPECT_FALSE(r.cut);
  EXPECT_EQ(r.events, 8U);  // start, 6 rounds, end
  EXPECT_EQ(r.run.pairs.size(), 6U);
  EXPECT_EQ(r.run.status, "complete");
  EXPECT_EQ(r.run.finished_at, "2026-12-03T08:08:38.195Z");
  EXPECT_EQ(r.run.rounds_completed, 6);
  podperf::Run run = r.run;
  judge_pairs(run, load_thresholds("").pairs);
  ASSERT_EQ(run.stragglers.size(), 1U);
  EXPECT_EQ(run.stragglers[0].node, 3);
}

TEST(RunEvents, CrashedRunKeepsWhatWasWrittenAndIgnoresACutLastLine) {
  std::string text = events_of(slow_node_run(), false);
  text += R"({"event":"round","round":7,"pairs":[{"round":7,"nodes":[0,)";  // died mid-line
  const RebuiltRun r = run_from_events(text, "events.jsonl");
  EXPECT_FALSE(r.ended);
  EXPECT_TRUE(r.cut);
  EXPECT_EQ(r.run.pairs.size(), 6U);
  EXPECT_EQ(r.run.status, "aborted");
  EXPECT_NE(r.run.error.find("rebuilt from events.jsonl"), std::string::npos) << r.run.error;
}

TEST(RunEvents, BadInputNamesFileAndLine) {
  std::string text = events_of(slow_node_run(), true);
  const std::size_t second = text.find('\n') + 1;
  text.insert(second, "{not json}\n");
  try {
    run_from_events(text, "x/events.jsonl");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("x/events.jsonl:2:"), std::string::npos) << e.what();
  }
  EXPECT_THROW(run_from_events("", "e.jsonl"), InputError);
  EXPECT_THROW(run_from_events(R"({"event":"round","round":1,"pairs":[]})" "\n", "e.jsonl"), InputError);
  EXPECT_THROW(run_from_events(R"({"event":"start","schema_version":99})" "\n", "e.jsonl"), InputError);
  std::string unknown = events_of(slow_node_run(), true);
  unknown += R"({"event":"party"})" "\n";
  EXPECT_THROW(run_from_events(unknown, "e.jsonl"), InputError);
}

}  // namespace
}  // namespace podperf

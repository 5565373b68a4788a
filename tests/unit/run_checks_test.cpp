// The readers refuse what docs/run.schema.json forbids (analysis/io/run_checks): one class of damage per
// test, each an InputError naming the file, the field and the value; and the thresholds a run records
// are the ones every rebuild judges with (older files: the built-in ones with their options.threshold).
#include "analysis/io/run_checks.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/base/errors.hpp"
#include "analysis/io/run_events.hpp"
#include "analysis/io/run_json.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

// A valid 6-node run as run.json text, edited by `damage`.
template <class Damage>
std::string damaged(Damage damage) {
  podperf::Run run = synthetic::make_run(6, [](int, int) { return 100.0; });
  nlohmann::json j = run;
  damage(j);
  return j.dump();
}

// The reader's error on `text` ("" when it reads).
std::string error_of(const std::string& text) {
  try {
    (void)parse_run_json(text, "damaged/run.json");
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

void expect_refused(const std::string& text, const std::string& field, const std::string& value) {
  const std::string what = error_of(text);
  ASSERT_FALSE(what.empty()) << "read without error: " << field;
  EXPECT_NE(what.find("damaged/run.json"), std::string::npos) << what;
  EXPECT_NE(what.find(field), std::string::npos) << what;
  EXPECT_NE(what.find(value), std::string::npos) << what;
  EXPECT_EQ(what.find('\n'), std::string::npos) << "one line: " << what;
}

TEST(RunChecks, AValidRunReads) { EXPECT_EQ(error_of(damaged([](nlohmann::json&) {})), ""); }

TEST(RunChecks, NegativeBusbwIsRefused) {
  expect_refused(damaged([](nlohmann::json& j) { j["pairs"][3]["busbw_gbps"] = -12.5; }), "pairs[3].busbw_gbps",
                 "-12.5");
  expect_refused(damaged([](nlohmann::json& j) { j["pairs"][0]["samples_s"][1] = -0.001; }),
                 "pairs[0].samples_s[1]", "-0.001");
}

TEST(RunChecks, APairNamingANodeTheRunDoesNotHaveIsRefused) {
  expect_refused(damaged([](nlohmann::json& j) { j["pairs"][2]["nodes"][1] = 99999999; }), "pairs[2].nodes[1]",
                 "99999999");
  expect_refused(damaged([](nlohmann::json& j) { j["pairs"][2]["nodes"] = {3, 3}; }), "pairs[2].nodes", "itself");
}

TEST(RunChecks, AnImpossibleSizeIsRefused) {
  // 1e30 is not an integer: read as the largest the conversion gives, far beyond any message.
  expect_refused(damaged([](nlohmann::json& j) { j["pairs"][1]["size_bytes"] = 1e30; }), "pairs[1].size_bytes",
                 "out of range");
  expect_refused(damaged([](nlohmann::json& j) { j["options"]["sizes_bytes"][0] = 0; }), "options.sizes_bytes[0]",
                 "= 0");
}

TEST(RunChecks, ANodeListedTwiceIsRefused) {
  expect_refused(damaged([](nlohmann::json& j) { j["nodes"][4] = j["nodes"][2]; }), "nodes[4]", "2");
  expect_refused(damaged([](nlohmann::json& j) {
                   j["nodes"][4]["label"] = j["nodes"][2]["label"];
                 }),
                 "nodes[4].label", "listed twice");
}

// The scheduler's node names go into commands people paste: only node names are read.
TEST(RunChecks, ANodeNameThatIsNotOneIsRefused) {
  EXPECT_EQ(error_of(damaged([](nlohmann::json& j) {
              j["nodes"][0]["slurm_node_name"] = "ip-10-1-2-3";
              j["nodes"][0]["kubernetes_node_name"] = "ip-10-1-2-3.us-west-2.compute.internal";
            })),
            "");
  expect_refused(damaged([](nlohmann::json& j) { j["nodes"][1]["slurm_node_name"] = "h1;reboot"; }),
                 "nodes[1].slurm_node_name", "is not a node name");
  expect_refused(damaged([](nlohmann::json& j) { j["nodes"][2]["kubernetes_node_name"] = "-a b"; }),
                 "nodes[2].kubernetes_node_name", "is not a node name");
}

TEST(RunChecks, AFileWithOnlyASchemaVersionIsNotARun) {
  expect_refused(R"({"schema_version": 1})", "run_id", "missing");
  expect_refused(damaged([](nlohmann::json& j) { j.erase("nodes"); }), "nodes", "empty");
  expect_refused(damaged([](nlohmann::json& j) { j["status"] = "fine"; }), "status", "fine");
}

TEST(RunChecks, RecordedThresholdsAreCheckedByTheFilesRules) {
  expect_refused(damaged([](nlohmann::json& j) { j["thresholds"]["pairs"]["threshold"] = 2.0; }),
                 "pairs.threshold", "2");
}

TEST(RunChecks, ARunWithoutRecordedThresholdsGetsTheBuiltInOnesWithItsThreshold) {
  const std::string text = damaged([](nlohmann::json& j) {
    j.erase("thresholds");
    j["options"]["threshold"] = 0.12;
  });
  const podperf::Run run = parse_run_json(text, "old/run.json");
  const Thresholds built_in = load_thresholds("");
  EXPECT_DOUBLE_EQ(run.thresholds.pairs.threshold, 0.12);
  EXPECT_DOUBLE_EQ(run.thresholds.pairs.spread_factor, built_in.pairs.spread_factor);
  EXPECT_DOUBLE_EQ(run.thresholds.fs.threshold, built_in.fs.threshold);
  EXPECT_NE(run.thresholds.source.find("records no thresholds"), std::string::npos) << run.thresholds.source;
}

TEST(RunChecks, RecordedThresholdsAreReadBack) {
  const std::string text = damaged([](nlohmann::json& j) {
    j["thresholds"]["pairs"]["threshold"] = 0.1;
    j["thresholds"]["source"] = "my.toml, --threshold 0.1";
  });
  const podperf::Run run = parse_run_json(text, "run.json");
  EXPECT_DOUBLE_EQ(run.thresholds.pairs.threshold, 0.1);
  EXPECT_EQ(run.thresholds.source, "my.toml, --threshold 0.1");
}

TEST(RunChecks, EventsAreCheckedLikeRunJson) {
  podperf::Run run = synthetic::make_run(4, [](int, int) { return 100.0; });
  nlohmann::json pair = run.pairs.front();
  pair["busbw_gbps"] = -1.0;
  run.pairs.clear();
  nlohmann::json start = run;
  start["event"] = "start";
  const nlohmann::json round = {{"event", "round"}, {"round", 1}, {"pairs", {pair}}};
  try {
    (void)run_from_events(start.dump() + "\n" + round.dump() + "\n", "damaged/events.jsonl");
    FAIL() << "an events file with a negative busbw was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("damaged/events.jsonl"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("pairs[0].busbw_gbps = -1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace podperf

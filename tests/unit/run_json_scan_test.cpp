// The fast reader of run.json and events.jsonl (analysis/io/run_json_scan.hpp): on what the writer writes
// it takes the input itself (no fallback) and gives exactly the Run nlohmann's reader gives; on odd
// input it gives the same Run or leaves the input to nlohmann's reader, so errors stay the same.
#include "analysis/io/run_json_scan.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/io/run_events.hpp"
#include "analysis/io/run_checks.hpp"
#include "analysis/io/run_json.hpp"
#include "tests/unit/synthetic_run.hpp"

namespace podperf {
namespace {

namespace fs = std::filesystem;

// A run of 6 nodes whose pairs use every field, with odd values where the text gets odd.
Run varied_run() {
  podperf::Run run = synthetic::make_run(6, [](int a, int b) { return a == 2 || b == 2 ? 61.25 : 100.0; });
  run.run_id = "scan";
  run.stragglers.push_back(Straggler{2, "node2", 5, 5, 0.61, 0.55, 0.66, "slow", {"cause"}, "drain"});
  for (std::size_t i = 0; i < run.pairs.size(); ++i) {
    PairResult& p = run.pairs[i];
    p.round = static_cast<int>(i) + 1;
    p.flagged = i % 3 == 0;
    p.cleared_by_retest = i % 5 == 0;
    p.baseline_gbps = 99.123456789012345;
    p.ratio = p.busbw_gbps / p.baseline_gbps;
    p.noise_gbps = 1.0 / 3.0;
    p.retest_samples_s = i % 2 == 0 ? std::vector<double>{0.25, 1e-9, 7.0} : std::vector<double>{};
    p.retest_busbw_gbps = i % 2 == 0 ? 98.5 : 0.0;
    p.wrong = i == 1 ? 3 : 0;  // signed in the struct, >= 0 in a valid file (docs/run.schema.json)
    p.count = i == 2 ? std::numeric_limits<std::uint64_t>::max() : p.count;
    p.dtype = i == 3 ? "bfloat16" : "float";
  }
  PairResult& odd = run.pairs.back();
  odd.status = "error";
  odd.error = "rank 3: \"quoted\", tab\t, newline\n, back\\slash, \x01 control, caf\xc3\xa9";
  odd.samples_s = {-0.0, 3.0, 1e-300, 1.7976931348623157e308, 0.1, 123456789.125, 5e-324};
  return run;
}

std::string text_of(Run run) {
  std::string text;
  write_run_json(run, [&text](std::string_view piece) { text += piece; });
  return text;
}

std::string dump(const Run& run) {
  return nlohmann::json(run).dump();
}

// The fast reader alone (no fallback): throws ScanUnsupported where it would fall back.
Run scan_only(std::string_view text) {
  JsonCursor in(text);
  ScannedObject s = scan_object_with_pairs(in, true);
  return run_from_tree(s.rest, std::move(s.pairs), "", "t.json");
}

class TempFile {
 public:
  explicit TempFile(const std::string& text)
      : path_(fs::temp_directory_path() /
              ("podperf_scan_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++) + ".json")) {
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { fs::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

TEST(RunJsonScan, KnowsEveryPairFieldNlohmannWrites) {
  const nlohmann::json pair = PairResult{};
  for (const auto& [name, value] : pair.items()) {
    EXPECT_TRUE(scan_reads_pair_field(name)) << name << ": add it to analysis/io/run_json_scan.cpp";
  }
  EXPECT_FALSE(scan_reads_pair_field("no_such_field"));
}

TEST(RunJsonScan, WritersTextIsReadWithoutFallbackAsNlohmannReadsIt) {
  const podperf::Run run = varied_run();
  const std::string text = text_of(run);
  const podperf::Run fast = scan_only(text);
  const podperf::Run reference = parse_run_json_reference(text, "t.json");
  EXPECT_EQ(dump(fast), dump(reference));
  EXPECT_EQ(dump(fast), dump(run));
  // Bit for bit, -0 and the smallest subnormal included.
  ASSERT_EQ(fast.pairs.size(), run.pairs.size());
  for (std::size_t i = 0; i < run.pairs.size(); ++i) {
    ASSERT_EQ(fast.pairs[i].samples_s.size(), run.pairs[i].samples_s.size());
    for (std::size_t k = 0; k < run.pairs[i].samples_s.size(); ++k) {
      EXPECT_EQ(std::signbit(fast.pairs[i].samples_s[k]), std::signbit(run.pairs[i].samples_s[k]));
      EXPECT_EQ(fast.pairs[i].samples_s[k], run.pairs[i].samples_s[k]);
    }
  }
  // Compact text (no indent) too, as events.jsonl holds it.
  EXPECT_EQ(dump(scan_only(nlohmann::json(run).dump())), dump(run));
}

// A fixture written by an earlier podperf (today's form, indent 2) is read by the fast reader.
TEST(RunJsonScan, ReadsTheCommittedFixtureAsNlohmannDoes) {
  const std::string path = std::string(PODPERF_FIXTURES_DIR) + "/runs/report_run.json";
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(text.empty());
  const podperf::Run fast = scan_only(text);
  EXPECT_FALSE(fast.pairs.empty());
  EXPECT_EQ(dump(fast), dump(read_run_json_reference(path)));
  EXPECT_EQ(dump(read_run_json(path)), dump(fast));
}

// What a reader makes of `text`: the Run's JSON, or its error.
std::string outcome(std::string_view text, bool reference) {
  try {
    return dump(reference ? parse_run_json_reference(text, "t.json") : parse_run_json(text, "t.json"));
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

// Odd but valid input: the fast reader either takes it and agrees with nlohmann's, or leaves it.
TEST(RunJsonScan, OddInputGivesNlohmannsRunOrFallsBack) {
  const std::vector<std::string> texts = {
      R"({"schema_version":1,"pairs":[]})",
      R"({"schema_version":1,"pairs":[{}]})",
      R"( { "pairs" : [ { "nodes" : [ 3 , 4 ] , "samples_s" : [ ] } ] , "schema_version" : 1 } )",
      R"({"schema_version":1,"pairs":[{"round":1,"round":2,"samples_s":[1],"samples_s":[2,3E2,4e-1]}]})",
      R"({"schema_version":1,"pairs":[{"median_s":5,"cv":-7,"ratio":18446744073709551615,"busbw_gbps":1e2}]})",
      R"({"schema_version":1,"pairs":[{"error":"\u00e9\ud83d\ude00 \/ ok","op":"all_gather","future":{"a":[1]}}]})",
      R"({"schema_version":1,"pairs":[{"nodes":[1,2,3]}]})",
      R"({"schema_version":1,"pairs":[{"round":1.0}]})",
      R"({"schema_version":1,"pairs":[{"size_bytes":-1}]})",
      R"({"schema_version":1,"pairs":[{"\u0072ound":7}]})",
      R"({"schema_version":1,"pairs":[{"round":1}],"pairs":[{"round":2}]})",
      R"({"schema_version":1,"run_id":"a","run_id":"b","pairs":[{"ratio":123456789012345678901234567890}]})",
  };
  for (const std::string& text : texts) {
    const std::string reference = outcome(text, true);
    EXPECT_EQ(outcome(text, false), reference) << text;
    try {
      // The fast reader's Run, then the readers' field checks (analysis/io/run_checks), as read_run_json does.
      podperf::Run scanned = scan_only(text);
      std::string checked;
      try {
        check_run_fields(scanned, "t.json");
        checked = dump(scanned);
      } catch (const InputError& e) {
        checked = std::string("error: ") + e.what();
      }
      EXPECT_EQ(checked, reference) << text;
    } catch (const ScanUnsupported&) {
      // left to nlohmann's reader: fine
    }
  }
}

// Bad input: the same error as nlohmann's reader, whatever the fast reader met first.
TEST(RunJsonScan, BadInputGivesNlohmannsError) {
  const std::string good = text_of(varied_run());
  const std::vector<std::string> texts = {
      "",
      "[1]",
      R"({"schema_version":2,"pairs":[]})",
      R"({"pairs":[{"round":1}]})",
      R"({"schema_version":1,"pairs":[{"round":"three"}]})",
      R"({"schema_version":1,"pairs":[{"cv":null}]})",
      R"({"schema_version":1,"pairs":[{"flagged":1}]})",
      R"({"schema_version":1,"pairs":[{"samples_s":[1,,2]}]})",
      R"({"schema_version":1,"pairs":[{"samples_s":[01]}]})",
      R"({"schema_version":1,"pairs":[{"samples_s":[1e400]}]})",
      R"({"schema_version":1,"pairs":[7]})",
      R"({"schema_version":1,"pairs":{}})",
      R"({"schema_version":1,"pairs":[{"error":"bad )"
      "\xff"
      R"("}]})",
      R"({"schema_version":1,"pairs":[{"round":1}]} trailing)",
      R"({"schema_version":1,"ranks":"four","pairs":[]})",
      good.substr(0, good.size() / 2),
      good.substr(0, good.size() - 3),
  };
  for (const std::string& text : texts) {
    const std::string reference = outcome(text, true);
    EXPECT_EQ(reference.rfind("error: ", 0), 0U) << text.substr(0, 200);
    EXPECT_EQ(outcome(text, false), reference) << text.substr(0, 200);
  }
}

// From a file in 1 MiB pieces: values cut by a piece boundary, and a string needing nlohmann (escapes)
// longer than a piece, which the mark keeps whole while the buffer grows.
TEST(RunJsonScan, FileReadInPiecesAcrossBoundaries) {
  podperf::Run run = varied_run();
  const PairResult model = run.pairs.front();
  for (int i = 0; i < 6000; ++i) {
    PairResult p = model;
    p.round = 100 + i;
    p.busbw_gbps = 40.0 + i * 1.0e-3;
    p.samples_s = {0.001 * i, 0.002, 0.0031, 0.0042, 0.0053};
    run.pairs.push_back(p);
  }
  run.pairs[3000].error = std::string(3 << 20, 'x') + "\"end\n";
  run.pairs[3000].status = "error";
  const std::string text = text_of(run);
  ASSERT_GT(text.size(), 8U << 20);
  const TempFile file(text);
  JsonCursor in(::open(file.path().c_str(), O_RDONLY | O_CLOEXEC), file.path());
  ScannedObject s = scan_object_with_pairs(in, true);  // no fallback
  EXPECT_EQ(s.pairs.size(), run.pairs.size());
  const podperf::Run fast = run_from_tree(s.rest, std::move(s.pairs), "", file.path());
  EXPECT_TRUE(dump(fast) == dump(run));  // not EXPECT_EQ: its diff of megabytes takes minutes
  EXPECT_TRUE(dump(read_run_json(file.path())) == dump(run));
}

std::string events_text(const Run& run, bool with_end) {
  podperf::Run plan = run;
  plan.pairs.clear();
  nlohmann::json start = plan;
  start["event"] = "start";
  std::string text = start.dump() + "\n";
  for (std::size_t i = 0; i < run.pairs.size(); i += 4) {
    nlohmann::json pairs = nlohmann::json::array();
    for (std::size_t k = i; k < std::min(run.pairs.size(), i + 4); ++k) pairs.push_back(run.pairs[k]);
    text += nlohmann::json({{"event", "round"}, {"round", i / 4 + 1}, {"pairs", pairs}}).dump() + "\n";
  }
  if (with_end)
    text += R"({"event":"end","status":"complete"})"
            "\n";
  return text;
}

// events.jsonl read from its file line by line gives what the text gives, cut last lines included.
TEST(RunJsonScan, EventsFileReadLineByLine) {
  const podperf::Run run = varied_run();
  for (const bool with_end : {true, false}) {
    std::string text = events_text(run, with_end);
    if (!with_end)
      text += R"({"event":"round","round":9,"pairs":[{"round":9,"nodes":[0,)"
              "\n\n";
    const TempFile file(text);
    const RebuiltRun from_file = run_from_events_file(file.path());
    const RebuiltRun from_text = run_from_events(text, file.path());
    EXPECT_EQ(dump(from_file.run), dump(from_text.run));
    EXPECT_EQ(from_file.events, from_text.events);
    EXPECT_EQ(from_file.cut, !with_end);
    EXPECT_EQ(from_file.ended, with_end);
    EXPECT_EQ(from_file.run.pairs.size(), run.pairs.size());
    if (with_end) {
      podperf::Run expected = run;
      expected.rounds_completed = std::max(run.rounds_completed, static_cast<int>((run.pairs.size() + 3) / 4));
      EXPECT_EQ(dump(from_file.run), dump(expected));
    }
  }
  // A line that is not JSON with more after it: the error names the file, the line and its byte.
  std::string text = events_text(run, true);
  const std::size_t second = text.find('\n') + 1;
  text.insert(second, "{not json}\n");
  const TempFile file(text);
  try {
    (void)run_from_events_file(file.path());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(file.path() + ":2: not valid JSON (byte " + std::to_string(second)),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(run_from_events_file("/nonexistent/podperf/events.jsonl"), InputError);
}

}  // namespace
}  // namespace podperf

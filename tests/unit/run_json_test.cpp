// run.json: the Run round-trips through nlohmann::json field by field; read_run_json errors.
#include "analysis/io/run_json.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {

podperf::Run full_run() {
  podperf::Run run;
  run.podperf_version = "0.1.0";
  run.run_id = "20250101T000000Z-abc";
  run.command = "pairs";
  run.argv = {"podperf", "pairs", "-b", "1M", "-e", "1G"};
  run.started_at = "2025-01-01T00:00:00Z";
  run.finished_at = "2025-01-01T00:10:00Z";
  run.launcher = {"slurm", "1234", "0"};
  run.backend = "nccl";
  run.ranks = 16;
  run.options.op = "all_gather";
  run.options.sizes_bytes = {1ULL << 20, 1ULL << 30, 1ULL << 40};
  run.options.iters = 20;
  run.options.warmup = 5;
  run.options.check = false;
  run.options.concurrency = "sequential";
  run.options.timeout_s = 600.5;
  run.options.virtual_nodes = 2;
  Thresholds thresholds = load_thresholds("");
  thresholds.pairs.threshold = 0.07;
  thresholds.fs.saturation_fraction = 0.625;
  thresholds.topology.min_pairs = 5;
  thresholds.source = "configs/thresholds.toml (built in), --threshold 0.07";
  record_thresholds(run, thresholds);

  NodeInfo a;
  a.index = 0;
  a.hostname = "gpu-a";
  a.label = "gpu-a/v0";
  a.instance_id = "i-0123";
  a.instance_type = "p5.48xlarge";
  a.ranks = {0, 1, 2, 3};
  a.is_virtual = true;
  NodeInfo b = a;
  b.index = 1;
  b.label = "gpu-a/v1";
  b.ranks = {4, 5, 6, 7};
  run.nodes = {a, b};
  run.rounds_planned = 3;
  run.rounds_completed = 2;

  PairResult p;
  p.round = 2;
  p.nodes = {0, 1};
  p.op = "all_gather";
  p.dtype = "float";
  p.size_bytes = 1ULL << 40;
  p.count = 1ULL << 36;
  p.ranks = 8;
  p.samples_s = {0.1, 0.30000000000000004, 1e-7};
  p.median_s = 0.1;
  p.min_s = 1e-7;
  p.max_s = 0.30000000000000004;
  p.p99_s = 0.296;
  p.cv = 1.0 / 3.0;
  p.algbw_gbps = 12.345678901234567;
  p.busbw_gbps = 10.8;
  p.wrong = 7;
  p.status = "wrong";
  p.error = "7 mismatches \"quoted\" \n newline ü";
  p.flagged = true;
  p.baseline_gbps = 400.25;
  p.ratio = 0.027;
  p.noise_gbps = 0.5;
  run.pairs = {p};

  run.judged_size_bytes = 1ULL << 40;
  run.baselines = {SizeBaseline{1ULL << 40, 400.25, 5, 6}};
  run.stragglers = {Straggler{1,
                              "gpu-a/v1",
                              3,
                              3,
                              0.42,
                              0.3,
                              0.55,
                              "3 of 3 pairs flagged",
                              {"signals.cpu_governor: powersave"},
                              "act on the first likely cause"}};
  LinkFinding l;
  l.nodes = {0, 1};
  l.hostnames = {"gpu-a/v0", "gpu-a/v1"};
  l.ratio = 0.8;
  l.evidence = "pair gpu-a/v0 <-> gpu-a/v1 at 80%";
  run.links = {l};
  run.status = "timeout";
  run.error = "round 3 did not finish within 600 s";
  run.unfinished = {"round 3: gpu-a/v0 <-> gpu-a/v1"};
  return run;
}

void expect_equal(const NodeInfo& a, const NodeInfo& b) {
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.hostname, b.hostname);
  EXPECT_EQ(a.label, b.label);
  EXPECT_EQ(a.instance_id, b.instance_id);
  EXPECT_EQ(a.instance_type, b.instance_type);
  EXPECT_EQ(a.ranks, b.ranks);
  EXPECT_EQ(a.is_virtual, b.is_virtual);
}

void expect_equal(const PairResult& a, const PairResult& b) {
  EXPECT_EQ(a.round, b.round);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.op, b.op);
  EXPECT_EQ(a.dtype, b.dtype);
  EXPECT_EQ(a.size_bytes, b.size_bytes);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.ranks, b.ranks);
  EXPECT_EQ(a.samples_s, b.samples_s);  // doubles round-trip exactly
  EXPECT_EQ(a.median_s, b.median_s);
  EXPECT_EQ(a.min_s, b.min_s);
  EXPECT_EQ(a.max_s, b.max_s);
  EXPECT_EQ(a.p99_s, b.p99_s);
  EXPECT_EQ(a.cv, b.cv);
  EXPECT_EQ(a.algbw_gbps, b.algbw_gbps);
  EXPECT_EQ(a.busbw_gbps, b.busbw_gbps);
  EXPECT_EQ(a.wrong, b.wrong);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.flagged, b.flagged);
  EXPECT_EQ(a.baseline_gbps, b.baseline_gbps);
  EXPECT_EQ(a.ratio, b.ratio);
  EXPECT_EQ(a.noise_gbps, b.noise_gbps);
}

void expect_equal(const Run& a, const Run& b) {
  EXPECT_EQ(a.schema_version, b.schema_version);
  EXPECT_EQ(a.podperf_version, b.podperf_version);
  EXPECT_EQ(a.run_id, b.run_id);
  EXPECT_EQ(a.command, b.command);
  EXPECT_EQ(a.argv, b.argv);
  EXPECT_EQ(a.started_at, b.started_at);
  EXPECT_EQ(a.finished_at, b.finished_at);
  EXPECT_EQ(a.launcher.kind, b.launcher.kind);
  EXPECT_EQ(a.launcher.job_id, b.launcher.job_id);
  EXPECT_EQ(a.launcher.step_id, b.launcher.step_id);
  EXPECT_EQ(a.backend, b.backend);
  EXPECT_EQ(a.ranks, b.ranks);
  EXPECT_EQ(a.options.op, b.options.op);
  EXPECT_EQ(a.options.sizes_bytes, b.options.sizes_bytes);
  EXPECT_EQ(a.options.iters, b.options.iters);
  EXPECT_EQ(a.options.warmup, b.options.warmup);
  EXPECT_EQ(a.options.check, b.options.check);
  EXPECT_EQ(a.options.concurrency, b.options.concurrency);
  EXPECT_EQ(a.options.threshold, b.options.threshold);
  EXPECT_EQ(a.options.timeout_s, b.options.timeout_s);
  EXPECT_EQ(a.options.virtual_nodes, b.options.virtual_nodes);
  EXPECT_EQ(a.options.thresholds_source, b.options.thresholds_source);
  EXPECT_EQ(thresholds_toml(a.thresholds), thresholds_toml(b.thresholds));
  EXPECT_EQ(a.thresholds.source, b.thresholds.source);
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) expect_equal(a.nodes[i], b.nodes[i]);
  EXPECT_EQ(a.rounds_planned, b.rounds_planned);
  EXPECT_EQ(a.rounds_completed, b.rounds_completed);
  ASSERT_EQ(a.pairs.size(), b.pairs.size());
  for (std::size_t i = 0; i < a.pairs.size(); ++i) expect_equal(a.pairs[i], b.pairs[i]);
  EXPECT_EQ(a.judged_size_bytes, b.judged_size_bytes);
  ASSERT_EQ(a.baselines.size(), b.baselines.size());
  for (std::size_t i = 0; i < a.baselines.size(); ++i) {
    EXPECT_EQ(a.baselines[i].size_bytes, b.baselines[i].size_bytes);
    EXPECT_EQ(a.baselines[i].baseline_gbps, b.baselines[i].baseline_gbps);
    EXPECT_EQ(a.baselines[i].pairs_kept, b.baselines[i].pairs_kept);
    EXPECT_EQ(a.baselines[i].pairs_total, b.baselines[i].pairs_total);
  }
  ASSERT_EQ(a.stragglers.size(), b.stragglers.size());
  for (std::size_t i = 0; i < a.stragglers.size(); ++i) {
    EXPECT_EQ(a.stragglers[i].node, b.stragglers[i].node);
    EXPECT_EQ(a.stragglers[i].hostname, b.stragglers[i].hostname);
    EXPECT_EQ(a.stragglers[i].flagged_pairs, b.stragglers[i].flagged_pairs);
    EXPECT_EQ(a.stragglers[i].total_pairs, b.stragglers[i].total_pairs);
    EXPECT_EQ(a.stragglers[i].median_ratio, b.stragglers[i].median_ratio);
    EXPECT_EQ(a.stragglers[i].evidence, b.stragglers[i].evidence);
    EXPECT_EQ(a.stragglers[i].likely_causes, b.stragglers[i].likely_causes);
    EXPECT_EQ(a.stragglers[i].next_step, b.stragglers[i].next_step);
  }
  ASSERT_EQ(a.links.size(), b.links.size());
  for (std::size_t i = 0; i < a.links.size(); ++i) {
    EXPECT_EQ(a.links[i].nodes, b.links[i].nodes);
    EXPECT_EQ(a.links[i].hostnames, b.links[i].hostnames);
    EXPECT_EQ(a.links[i].ratio, b.links[i].ratio);
    EXPECT_EQ(a.links[i].evidence, b.links[i].evidence);
  }
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.unfinished, b.unfinished);
}

// A file in the temp directory, removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    path_ = std::filesystem::temp_directory_path() /
            ("podperf_run_json_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".json");
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

std::string input_error_of(const std::string& path) {
  try {
    (void)read_run_json(path);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for " << path;
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(RunJson, RoundTripsFieldByField) {
  const podperf::Run original = full_run();
  const nlohmann::json j = original;
  const podperf::Run back = j.get<podperf::Run>();
  expect_equal(original, back);
  EXPECT_EQ(nlohmann::json(back), j);
}

TEST(RunJson, RoundTripsThroughText) {
  const podperf::Run original = full_run();
  const podperf::Run back = nlohmann::json::parse(nlohmann::json(original).dump(2)).get<podperf::Run>();
  expect_equal(original, back);
}

// write_run_json formats the pairs itself (no JSON tree at scale): its text must be byte for byte
// what nlohmann prints for the whole Run, for every field, odd numbers (NaN, infinity, -0, integral
// doubles, extremes), strings that need escaping or are not UTF-8, and more than one 1 MiB piece.
std::string streamed(Run& run, std::size_t* pieces = nullptr) {
  std::string text;
  write_run_json(run, [&](std::string_view piece) {
    text += piece;
    if (pieces != nullptr) ++*pieces;
  });
  return text;
}
std::string dumped(const Run& run) {
  return nlohmann::json(run).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

TEST(RunJson, StreamedTextIsNlohmannsDump) {
  podperf::Run run = full_run();
  EXPECT_EQ(streamed(run), dumped(run));
  PairResult odd = run.pairs.front();
  odd.samples_s = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), -0.0, 3.0,
                   1e-300, 1.7976931348623157e308, 0.1, 123456789.125};
  odd.retest_samples_s = {2.0, 5e-7};
  odd.median_s = -std::numeric_limits<double>::infinity();
  odd.error = "rank 3: \"quoted\", tab\t, newline\n, back\\slash, \x01 control, caf\xc3\xa9, bad \xff byte";
  odd.status = "error";
  odd.op = "all_reduce";
  odd.wrong = -5;
  odd.count = 18446744073709551615ULL;
  odd.flagged = true;
  odd.cleared_by_retest = true;
  run.pairs.push_back(odd);
  EXPECT_EQ(streamed(run), dumped(run));
  // Many pairs: several pieces, the same text.
  for (int i = 0; i < 3000; ++i) {
    PairResult p = run.pairs.front();
    p.nodes = {i, i + 1};
    p.busbw_gbps = 40.0 + i * 1e-3;
    run.pairs.push_back(p);
  }
  std::size_t pieces = 0;
  const std::string text = streamed(run, &pieces);
  EXPECT_GT(pieces, 1u);
  EXPECT_TRUE(text == dumped(run));  // not EXPECT_EQ: its diff of megabytes takes minutes
  EXPECT_EQ(run.pairs.size(), full_run().pairs.size() + 3001);  // the Run got its pairs back
  // No pairs: the head alone.
  podperf::Run empty = full_run();
  empty.pairs.clear();
  EXPECT_EQ(streamed(empty), dumped(empty));
}

TEST(RunJson, FieldNamesAreTheMembers) {
  const nlohmann::json j = full_run();
  EXPECT_EQ(j.at("schema_version"), kSchemaVersion);
  EXPECT_EQ(j.at("pairs").at(0).at("busbw_gbps"), 10.8);
  EXPECT_EQ(j.at("pairs").at(0).at("nodes"), nlohmann::json::array({0, 1}));
  EXPECT_EQ(j.at("nodes").at(1).at("label"), "gpu-a/v1");
  EXPECT_EQ(j.at("stragglers").at(0).at("hostname"), "gpu-a/v1");
  EXPECT_EQ(j.at("links").at(0).at("hostnames"), nlohmann::json::array({"gpu-a/v0", "gpu-a/v1"}));
  EXPECT_EQ(j.at("options").at("timeout_s"), 600.5);
}

TEST(RunJson, MissingFieldsTakeDefaults) {
  const podperf::Run run = nlohmann::json{{"schema_version", 1}, {"run_id", "x"}, {"pairs", {{{"size_bytes", 8}}}}}.get<podperf::Run>();
  EXPECT_EQ(run.run_id, "x");
  EXPECT_EQ(run.status, "complete");
  ASSERT_EQ(run.pairs.size(), 1U);
  EXPECT_EQ(run.pairs[0].size_bytes, 8U);
  EXPECT_EQ(run.pairs[0].op, "all_reduce");
  EXPECT_EQ(run.pairs[0].status, "ok");
}

TEST(RunJson, ReadsAFile) {
  const podperf::Run original = full_run();
  const TempFile file(nlohmann::json(original).dump(2));
  expect_equal(original, read_run_json(file.path()));
}

TEST(RunJson, MissingFileIsAnInputError) {
  const std::string path = "/nonexistent/podperf/run.json";
  EXPECT_TRUE(has(input_error_of(path), path));
}

TEST(RunJson, TruncatedJsonNamesFileAndByte) {
  const std::string text = nlohmann::json(full_run()).dump();
  const std::string truncated = text.substr(0, 100);
  const TempFile file(truncated);
  const std::string what = input_error_of(file.path());
  EXPECT_TRUE(has(what, file.path())) << what;
  EXPECT_TRUE(has(what, "byte 101")) << what;  // nlohmann counts the end of input as byte size + 1
}

TEST(RunJson, EmptyFileIsAnInputError) {
  const TempFile file("");
  const std::string what = input_error_of(file.path());
  EXPECT_TRUE(has(what, file.path())) << what;
}

TEST(RunJson, NoSchemaVersion) {
  for (const std::string text : {R"({"run_id": "x"})", "[1, 2]", "3"}) {
    const TempFile file(text);
    const std::string what = input_error_of(file.path());
    EXPECT_TRUE(has(what, file.path())) << what;
    EXPECT_TRUE(has(what, "no schema_version")) << text << ": " << what;
  }
}

TEST(RunJson, UnsupportedSchemaVersion) {
  for (const std::string version : {"2", "0", "\"1\"", "1.5"}) {
    const TempFile file(R"({"schema_version": )" + version + "}");
    const std::string what = input_error_of(file.path());
    EXPECT_TRUE(has(what, file.path())) << what;
    EXPECT_TRUE(has(what, "schema_version " + version + " is not supported")) << what;
  }
}

// Pairs are converted one by one while parsing (no tree of the whole file): a bad one is named by its
// index, and a "pairs" that is not an array of objects is refused.
TEST(RunJson, BadPairIsNamedByItsIndex) {
  try {
    parse_run_json(R"({"schema_version": 1, "pairs": [{"round": 1}, {"round": 2}, {"round": "three"}]})", "p.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_TRUE(has(e.what(), "p.json: bad field: pairs[2]")) << e.what();
  }
  EXPECT_THROW(parse_run_json(R"({"schema_version": 1, "pairs": {"round": 1}})", "x.json"), InputError);
  EXPECT_THROW(parse_run_json(R"({"schema_version": 1, "pairs": [{"round": 1}, 7]})", "x.json"), InputError);
  EXPECT_THROW(parse_run_json(R"({"schema_version": 1, "pairs": [[]]})", "x.json"), InputError);
}

// Only the top-level "pairs" holds pairs; objects at the same depth elsewhere stay as they are, and the
// pairs keep their order and every field (the writer's text read back gives the same JSON).
TEST(RunJson, StreamedPairsKeepOrderAndFields) {
  podperf::Run run = full_run();
  // Enough pairs for a file of several 1 MiB pieces (read_run_json reads the file piece by piece).
  for (int i = 0; i < 5000; ++i) {
    PairResult p = run.pairs.front();
    p.round = 100 + i;
    p.samples_s = {0.001 * i, 0.002, 0.0031, 0.0042, 0.0053};
    p.error = i % 7 == 0 ? "a \"quoted\" error, with a comma" : "";
    run.pairs.push_back(p);
  }
  std::string text;
  write_run_json(run, [&text](std::string_view piece) { text += piece; });
  ASSERT_GT(text.size(), 3U << 20);
  const podperf::Run read = parse_run_json(text, "s.json");
  ASSERT_EQ(read.pairs.size(), run.pairs.size());
  EXPECT_EQ(nlohmann::json(read).dump(), nlohmann::json(run).dump());
  EXPECT_EQ(read.nodes.size(), run.nodes.size());
  const TempFile file(text);
  const podperf::Run from_file = read_run_json(file.path());
  EXPECT_EQ(nlohmann::json(from_file).dump(), nlohmann::json(run).dump());
  // Cut inside the last piece: the error names the file and a byte past the first pieces.
  const TempFile cut(text.substr(0, text.size() - 100));
  const std::string what = input_error_of(cut.path());
  EXPECT_TRUE(has(what, cut.path())) << what;
  EXPECT_TRUE(has(what, fmt::format("at byte {}", text.size() - 99))) << what;
}

TEST(RunJson, BadFieldTypeIsAnInputError) {
  const TempFile file(R"({"schema_version": 1, "ranks": "sixteen"})");
  const std::string what = input_error_of(file.path());
  EXPECT_TRUE(has(what, file.path())) << what;
  EXPECT_TRUE(has(what, "bad field")) << what;
}

}  // namespace
}  // namespace podperf

namespace podperf {
namespace {

// Found by fuzz_run_json: a number too large for a double escaped as nlohmann's out_of_range.
TEST(RunJson, HugeNumberIsAnInputErrorNamingTheFile) {
  try {
    parse_run_json(R"({"schema_version": 1, "ranks": 660.40175e6456226})", "huge.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("huge.json"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_run_json(R"({"schema_version": 1, "ranks": "four"})", "x.json"), InputError);
  EXPECT_THROW(parse_run_json("", "empty.json"), InputError);
}

}  // namespace
}  // namespace podperf

// pairs.bin (analysis/io/run_json_pairs_file.hpp): a large run's pairs beside run.json, every field and
// sample kept bit for bit; ResultsDir writes it from kPairsFileMinPairs pairs on; a missing, cut or
// foreign pairs file is an InputError naming it.
#include "analysis/io/run_json_pairs_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "analysis/base/errors.hpp"
#include "analysis/io/run_json.hpp"
#include "bench/results_dir.hpp"
#include "tests/unit/synthetic_run.hpp"

namespace podperf {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir()
      : path_(fs::temp_directory_path() /
              ("podperf_pairs_file_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

podperf::Run odd_run() {
  podperf::Run run = synthetic::make_run(5, [](int a, int b) { return a == 1 || b == 1 ? 70.0 : 100.0; });
  for (std::size_t i = 0; i < run.pairs.size(); ++i) {
    PairResult& p = run.pairs[i];
    p.round = static_cast<int>(i) - 2;
    p.flagged = i % 2 == 0;
    p.cleared_by_retest = i % 3 == 0;
    p.ratio = 1.0 / 3.0;
    p.retest_samples_s = i % 2 == 0 ? std::vector<double>{0.5, 1e-300} : std::vector<double>{};
    p.wrong = static_cast<std::int64_t>(i) * 1000003;
    p.error = i == 3 ? "rank 3: \"quoted\"\n, caf\xc3\xa9" : "";
    p.status = i == 3 ? "error" : "ok";
    p.op = i == 4 ? "all_gather" : "all_reduce";
  }
  run.pairs[0].samples_s = {-0.0, std::numeric_limits<double>::denorm_min(), 1.7976931348623157e308};
  run.pairs[1].count = std::numeric_limits<std::uint64_t>::max();
  return run;
}

std::string dump(const podperf::Run& run) {
  return nlohmann::json(run).dump();
}

// run.json and pairs.bin of `run` in `dir`, as ResultsDir writes them.
std::string write_both(podperf::Run& run, const fs::path& dir) {
  run.schema_version = kSchemaVersionPairsFile;
  std::ofstream bin(dir / kPairsFileName, std::ios::binary);
  write_pairs_file(run.pairs, [&](std::string_view piece) { bin.write(piece.data(), std::streamsize(piece.size())); });
  bin.close();
  std::string text;
  write_run_json(
      run, [&](std::string_view piece) { text += piece; }, kPairsFileName);
  std::ofstream(dir / "run.json", std::ios::binary) << text;
  return (dir / "run.json").string();
}

std::string error_of(const std::string& path) {
  try {
    (void)read_run_json(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PairsFile, RoundTripKeepsEveryFieldAndSampleBitForBit) {
  const TempDir dir;
  podperf::Run run = odd_run();
  const std::string path = write_both(run, dir.path());
  const nlohmann::json head = nlohmann::json::parse(std::ifstream(path));
  EXPECT_EQ(head.at("schema_version"), 2);
  EXPECT_TRUE(head.at("pairs").empty());
  EXPECT_EQ(head.at("pairs_file").at("path"), "pairs.bin");
  EXPECT_EQ(head.at("pairs_file").at("pairs"), run.pairs.size());
  const podperf::Run back = read_run_json(path);
  EXPECT_EQ(dump(back), dump(run));
  EXPECT_TRUE(std::signbit(back.pairs[0].samples_s[0]));
  EXPECT_EQ(back.pairs[0].samples_s[1], std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(dump(read_run_json_reference(path)), dump(run));  // nlohmann's reader reads it too
  // 232 bytes a pair of 10 samples (the synthetic pairs hold 21): header, strings, records, samples.
  std::uint64_t samples = 0;
  for (const PairResult& p : run.pairs) samples += p.samples_s.size() + p.retest_samples_s.size();
  EXPECT_GT(fs::file_size(dir.path() / kPairsFileName), run.pairs.size() * 152 + samples * 8);
  EXPECT_LT(fs::file_size(dir.path() / kPairsFileName), run.pairs.size() * 152 + samples * 8 + 200);
}

// The record has a slot for each of PairResult's 26 members: a member added to PairResult (and to
// its JSON) needs one in pairs.bin too (encode/decode, docs/schema.md), then this count.
TEST(PairsFile, HasASlotForEveryPairField) {
  const nlohmann::json pair = PairResult{};
  EXPECT_EQ(pair.size(), 26U) << "a PairResult member was added or removed: give it a slot in pairs.bin";
}

TEST(PairsFile, ResultsDirWritesItForLargeRunsOnly) {
  const TempDir dir;
  {
    podperf::Run small = odd_run();
    ResultsDir out(dir.path().string(), "small");
    out.write_run(small);
    EXPECT_FALSE(fs::exists(dir.path() / "small" / kPairsFileName));
    EXPECT_EQ(small.schema_version, 1);
    EXPECT_EQ(dump(read_run_json((dir.path() / "small" / "run.json").string())), dump(small));
  }
  podperf::Run large = odd_run();
  const PairResult model = large.pairs.front();
  while (large.pairs.size() < kPairsFileMinPairs) {
    PairResult p = model;
    p.nodes = {static_cast<int>(large.pairs.size() % 4), 4};  // 4 nodes paired with node 4, never itself
    p.busbw_gbps = 1.0 + static_cast<double>(large.pairs.size()) * 1e-6;
    large.pairs.push_back(p);
  }
  ResultsDir out(dir.path().string(), "large");
  out.write_run(large);
  EXPECT_EQ(large.schema_version, kSchemaVersionPairsFile);
  ASSERT_TRUE(fs::exists(dir.path() / "large" / kPairsFileName));
  EXPECT_LT(fs::file_size(dir.path() / "large" / "run.json"), 64U << 10);
  const podperf::Run back = read_run_json((dir.path() / "large" / "run.json").string());
  EXPECT_TRUE(dump(back) == dump(large));  // not EXPECT_EQ: a diff of megabytes
}

TEST(PairsFile, MissingCutOrForeignFileIsAnInputErrorNamingIt) {
  const TempDir dir;
  podperf::Run run = odd_run();
  const std::string path = write_both(run, dir.path());
  const fs::path bin = dir.path() / kPairsFileName;
  std::string bytes;
  {
    std::ifstream in(bin, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const auto put = [&](const std::string& b) { std::ofstream(bin, std::ios::binary | std::ios::trunc) << b; };
  put(bytes.substr(0, bytes.size() - 8));
  EXPECT_NE(error_of(path).find("pairs.bin: "), std::string::npos) << error_of(path);
  EXPECT_NE(error_of(path).find("cut"), std::string::npos) << error_of(path);
  put("not a pairs file at all, longer than a header of 48 bytes, yes");
  EXPECT_NE(error_of(path).find("not a podperf pairs file"), std::string::npos) << error_of(path);
  put(bytes.substr(0, 20));
  EXPECT_NE(error_of(path).find("pairs.bin"), std::string::npos) << error_of(path);
  put(bytes + "extra");
  EXPECT_NE(error_of(path).find("cut or not its pairs file"), std::string::npos) << error_of(path);
  fs::remove(bin);
  EXPECT_NE(error_of(path).find("cannot open the pairs file"), std::string::npos) << error_of(path);
  put(bytes);
  EXPECT_EQ(error_of(path), "no error");
}

TEST(PairsFile, SchemaVersionAndMemberMustAgree) {
  const TempDir dir;
  const auto write = [&](const std::string& text) {
    std::ofstream(dir.path() / "r.json") << text;
    return error_of((dir.path() / "r.json").string());
  };
  EXPECT_NE(write(R"({"schema_version": 2, "pairs": []})").find("schema_version 2 is not supported"),
            std::string::npos);
  EXPECT_NE(
      write(R"({"schema_version": 1, "pairs_file": {"path": "pairs.bin", "format": "podperf-pairs-1", "pairs": 0}})")
          .find("pairs_file in a run.json of schema_version 1"),
      std::string::npos);
  EXPECT_NE(write(R"({"schema_version": 2, "pairs_file": {"path": "../x", "format": "podperf-pairs-1", "pairs": 0}})")
                .find("a file name beside run.json"),
            std::string::npos);
  EXPECT_NE(write(R"({"schema_version": 2, "pairs_file": {"path": "p.bin", "format": "other", "pairs": 0}})")
                .find("format \"other\" is not supported"),
            std::string::npos);
  EXPECT_NE(write(R"({"schema_version": 2, "pairs_file": 5})").find("bad field: pairs_file"), std::string::npos);
}

}  // namespace
}  // namespace podperf

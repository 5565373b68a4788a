// Thresholds config: the embedded configs/thresholds.toml and the validation errors of
// parse_thresholds (file, line, key, what was expected).
#include "analysis/config/thresholds.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {

const std::string kPairs = R"([pairs]
threshold = 0.07
noise_factor = 2
spread_factor = 2.5
max_spread_fraction = 0.2
baseline_max_passes = 20
baseline_min_kept_fraction = 0.4
intermittent_min_links = 4
link_family_alpha = 0.01
node_family_alpha = 0.01
class_family_alpha = 0.02
noise_prior = 0.04
noise_prior_df = 3
min_pair_noise = 0.01
half_split_max_ratio = 0.3
min_cleared_partners = 2
stall_factor = 4
stall_min_iterations = 3
)";
const std::string kFs = R"([fs]
threshold = 0.2
spread_factor = 3
max_spread_fraction = 0.15
baseline_max_passes = 30
baseline_min_kept_fraction = 0.6
saturation_fraction = 0.75
cache_warn_fraction = 0.02
resolution_seconds = 0.25
)";
const std::string kTopology = R"([topology]
slower_fraction = 0.2
min_pairs = 5
)";
const std::string kValid = kPairs + kFs + kTopology;

// kValid with the first line of `key` from `from` on replaced (or removed, when `replacement` is empty).
std::string with_line(const std::string& key, const std::string& replacement, const std::string& from = "[pairs]") {
  std::string text = kValid;
  const std::size_t at = text.find(key + " =", text.find(from));
  const std::size_t end = text.find('\n', at);
  text.replace(at, end - at + 1, replacement.empty() ? "" : replacement + "\n");
  return text;
}

std::string error_of(const std::string& text, const std::string& source = "my.toml") {
  try {
    (void)parse_thresholds(text, source);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << text;
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Thresholds, EmbeddedConfigLoads) {
  const Thresholds t = load_thresholds("");
  EXPECT_DOUBLE_EQ(t.pairs.threshold, 0.05);
  EXPECT_DOUBLE_EQ(t.pairs.noise_factor, 1.0);
  EXPECT_DOUBLE_EQ(t.pairs.spread_factor, 4.0);
  EXPECT_EQ(t.pairs.baseline_max_passes, 50);
  EXPECT_DOUBLE_EQ(t.pairs.baseline_min_kept_fraction, 0.5);
  EXPECT_EQ(t.pairs.intermittent_min_links, 3);
  EXPECT_DOUBLE_EQ(t.pairs.node_family_alpha, 0.001);
  EXPECT_DOUBLE_EQ(t.pairs.class_family_alpha, 0.01);
  EXPECT_DOUBLE_EQ(t.pairs.half_split_max_ratio, 0.35);
  EXPECT_DOUBLE_EQ(t.pairs.stall_factor, 5.0);
  EXPECT_EQ(t.pairs.stall_min_iterations, 2);
  EXPECT_DOUBLE_EQ(t.fs.threshold, 0.15);
  EXPECT_DOUBLE_EQ(t.fs.spread_factor, 4.0);
  EXPECT_DOUBLE_EQ(t.fs.max_spread_fraction, 0.10);
  EXPECT_EQ(t.fs.baseline_max_passes, 50);
  EXPECT_DOUBLE_EQ(t.fs.baseline_min_kept_fraction, 0.5);
  EXPECT_DOUBLE_EQ(t.fs.saturation_fraction, 0.8);
  EXPECT_DOUBLE_EQ(t.fs.cache_warn_fraction, 0.05);
  EXPECT_DOUBLE_EQ(t.fs.resolution_seconds, 0.1);
  EXPECT_DOUBLE_EQ(t.topology.slower_fraction, 0.10);
  EXPECT_EQ(t.topology.min_pairs, 2);
  EXPECT_TRUE(has(t.source, "thresholds.toml")) << t.source;
}

TEST(Thresholds, ParsesEveryKey) {
  const Thresholds t = parse_thresholds(kValid, "my.toml");
  EXPECT_DOUBLE_EQ(t.pairs.threshold, 0.07);
  EXPECT_DOUBLE_EQ(t.pairs.noise_factor, 2.0);  // an integer is a number too
  EXPECT_DOUBLE_EQ(t.pairs.spread_factor, 2.5);
  EXPECT_DOUBLE_EQ(t.pairs.max_spread_fraction, 0.2);
  EXPECT_EQ(t.pairs.baseline_max_passes, 20);
  EXPECT_DOUBLE_EQ(t.pairs.baseline_min_kept_fraction, 0.4);
  EXPECT_EQ(t.pairs.intermittent_min_links, 4);
  EXPECT_DOUBLE_EQ(t.pairs.link_family_alpha, 0.01);
  EXPECT_DOUBLE_EQ(t.pairs.node_family_alpha, 0.01);
  EXPECT_DOUBLE_EQ(t.pairs.class_family_alpha, 0.02);
  EXPECT_DOUBLE_EQ(t.pairs.noise_prior, 0.04);
  EXPECT_DOUBLE_EQ(t.pairs.noise_prior_df, 3.0);
  EXPECT_DOUBLE_EQ(t.pairs.min_pair_noise, 0.01);
  EXPECT_DOUBLE_EQ(t.pairs.half_split_max_ratio, 0.3);
  EXPECT_DOUBLE_EQ(t.pairs.stall_factor, 4.0);
  EXPECT_EQ(t.pairs.stall_min_iterations, 3);
  EXPECT_DOUBLE_EQ(t.fs.threshold, 0.2);
  EXPECT_DOUBLE_EQ(t.fs.spread_factor, 3.0);
  EXPECT_DOUBLE_EQ(t.fs.max_spread_fraction, 0.15);
  EXPECT_EQ(t.fs.baseline_max_passes, 30);
  EXPECT_DOUBLE_EQ(t.fs.baseline_min_kept_fraction, 0.6);
  EXPECT_DOUBLE_EQ(t.fs.saturation_fraction, 0.75);
  EXPECT_DOUBLE_EQ(t.fs.cache_warn_fraction, 0.02);
  EXPECT_DOUBLE_EQ(t.fs.resolution_seconds, 0.25);
  EXPECT_DOUBLE_EQ(t.topology.slower_fraction, 0.2);
  EXPECT_EQ(t.topology.min_pairs, 5);
  EXPECT_EQ(t.source, "my.toml");
}

TEST(Thresholds, LoadsAFile) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "podperf_thresholds_test.toml";
  {
    std::ofstream out(path);
    out << kValid;
  }
  const Thresholds t = load_thresholds(path.string());
  EXPECT_DOUBLE_EQ(t.pairs.threshold, 0.07);
  EXPECT_EQ(t.source, path.string());
  std::filesystem::remove(path);
}

TEST(Thresholds, MissingFileNamesThePath) {
  const std::string path = "/nonexistent/podperf/thresholds.toml";
  try {
    (void)load_thresholds(path);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_TRUE(has(e.what(), path)) << e.what();
  }
}

TEST(Thresholds, UnknownKeyNamesKeyAndSource) {
  const std::string what = error_of(kPairs + "treshold = 0.1\n" + kFs);
  EXPECT_TRUE(has(what, "my.toml:19")) << what;
  EXPECT_TRUE(has(what, "pairs.treshold")) << what;
  EXPECT_TRUE(has(what, "threshold")) << what;  // the expected keys are listed

  const std::string top = error_of(std::string("[pair]\nthreshold = 0.1\n") + kValid);
  EXPECT_TRUE(has(top, "my.toml:1")) << top;
  EXPECT_TRUE(has(top, "'pair'")) << top;

  const std::string fs = error_of(kPairs + kFs + "saturation = 0.9\n" + kTopology);
  EXPECT_TRUE(has(fs, "my.toml:28")) << fs;
  EXPECT_TRUE(has(fs, "'fs.saturation'")) << fs;
  EXPECT_TRUE(has(fs, "cache_warn_fraction")) << fs;  // the expected keys are listed
}

TEST(Thresholds, MissingFsKeyTable) {
  for (const std::string key :
       {"threshold", "spread_factor", "max_spread_fraction", "baseline_max_passes", "baseline_min_kept_fraction",
        "saturation_fraction", "cache_warn_fraction", "resolution_seconds"}) {
    const std::string what = error_of(with_line(key, "", "[fs]"));
    EXPECT_TRUE(has(what, "my.toml")) << what;
    EXPECT_TRUE(has(what, "missing key 'fs." + key + "'")) << what;
  }
  // A file written before [fs] existed is rejected with a clear message, not read with zeros.
  EXPECT_TRUE(has(error_of(kPairs), "missing table [fs]"));
  EXPECT_TRUE(has(error_of("fs = 1\n" + kPairs), "[fs] must be a table"));
}

TEST(Thresholds, FsOutOfRangeAndWrongType) {
  struct Case {
    const char* line;
    const char* key;
    const char* what;
  };
  const std::vector<Case> cases{
      {"threshold = 1.5", "fs.threshold", "out of range"},
      {"saturation_fraction = 1.2", "fs.saturation_fraction", "out of range"},
      {"cache_warn_fraction = -0.01", "fs.cache_warn_fraction", "out of range"},
      {"spread_factor = 101", "fs.spread_factor", "out of range"},
      {"baseline_max_passes = 0", "fs.baseline_max_passes", "out of range"},
      {"baseline_max_passes = 2.5", "fs.baseline_max_passes", "whole number"},
      {"max_spread_fraction = \"0.1\"", "fs.max_spread_fraction", "must be a number"},
  };
  for (const Case& c : cases) {
    const std::string line = c.line;
    const std::string key = line.substr(0, line.find(' '));
    const std::string what = error_of(with_line(key, line, "[fs]"));
    EXPECT_TRUE(has(what, std::string("'") + c.key + "'")) << c.line << ": " << what;
    EXPECT_TRUE(has(what, c.what)) << c.line << ": " << what;
    EXPECT_TRUE(has(what, "my.toml:1") || has(what, "my.toml:2")) << c.line << ": " << what;  // lines 14..21 of kValid
  }
}

TEST(Thresholds, TopologyTable) {
  EXPECT_TRUE(has(error_of(kPairs + kFs), "missing table [topology]"));
  EXPECT_TRUE(has(error_of(with_line("min_pairs", "", "[topology]")), "missing key 'topology.min_pairs'"));
  std::string what = error_of(with_line("slower_fraction", "slower_fraction = 1.5", "[topology]"));
  EXPECT_TRUE(has(what, "my.toml:29: 'topology.slower_fraction' = 1.5 is out of range")) << what;
  what = error_of(with_line("min_pairs", "min_pairs = 2.5", "[topology]"));
  EXPECT_TRUE(has(what, "'topology.min_pairs' must be a whole number")) << what;
  what = error_of(kValid + "max_ratio = 1\n");
  EXPECT_TRUE(has(what, "unknown key 'topology.max_ratio'")) << what;
}

TEST(Thresholds, PairsErrorsComeBeforeAMissingFsTable) {
  // bad_input.sh feeds a [pairs]-only file with a bad value: the value is what gets reported.
  const std::string what = error_of("[pairs]\nthreshold = \"high\"\n", "bad.toml");
  EXPECT_TRUE(has(what, "bad.toml:2: 'pairs.threshold' must be a number")) << what;
}

TEST(Thresholds, MissingKeyTable) {
  for (const std::string key : {"threshold", "noise_factor", "spread_factor", "max_spread_fraction",
                                "node_family_alpha", "baseline_max_passes", "baseline_min_kept_fraction"}) {
    const std::string what = error_of(with_line(key, ""));
    EXPECT_TRUE(has(what, "my.toml")) << what;
    EXPECT_TRUE(has(what, "missing key 'pairs." + key + "'")) << what;
  }
  EXPECT_TRUE(has(error_of("# nothing\n"), "missing table [pairs]"));
  EXPECT_TRUE(has(error_of("pairs = 3\n"), "[pairs] must be a table"));
}

TEST(Thresholds, WrongTypeTable) {
  const std::vector<std::string> values{"\"0.05\"", "true", "[0.05]", "{ v = 0.05 }", "2024-01-01"};
  for (const std::string& value : values) {
    const std::string what = error_of(with_line("threshold", "threshold = " + value));
    EXPECT_TRUE(has(what, "my.toml:2")) << value << ": " << what;
    EXPECT_TRUE(has(what, "'pairs.threshold' must be a number")) << value << ": " << what;
  }
}

TEST(Thresholds, OutOfRangeTable) {
  struct Case {
    const char* line;
    const char* key;
  };
  const std::vector<Case> cases{
      {"threshold = 2", "pairs.threshold"},
      {"threshold = -0.1", "pairs.threshold"},
      {"node_family_alpha = 0.9", "pairs.node_family_alpha"},
      {"half_split_max_ratio = 1.5", "pairs.half_split_max_ratio"},
      {"baseline_max_passes = 0", "pairs.baseline_max_passes"},
      {"baseline_min_kept_fraction = 1.01", "pairs.baseline_min_kept_fraction"},
      {"noise_factor = -1", "pairs.noise_factor"},
      {"threshold = nan", "pairs.threshold"},
  };
  for (const Case& c : cases) {
    const std::string line = c.line;
    const std::string key = line.substr(0, line.find(' '));
    const std::string what = error_of(with_line(key, line));
    EXPECT_TRUE(has(what, std::string("'") + c.key + "'")) << c.line << ": " << what;
    EXPECT_TRUE(has(what, "out of range")) << c.line << ": " << what;
    EXPECT_TRUE(has(what, "my.toml:")) << c.line << ": " << what;
  }
}

TEST(Thresholds, BadSyntaxNamesFileAndLine) {
  const std::string what = error_of("[pairs]\nthreshold = 0.05\nnoise_factor = = 1\n", "bad.toml");
  EXPECT_TRUE(has(what, "bad.toml:3")) << what;

  const std::string unclosed = error_of("[pairs\nthreshold = 0.05\n", "bad.toml");
  EXPECT_TRUE(has(unclosed, "bad.toml:1")) << unclosed;
}

TEST(Thresholds, BaselineMaxPassesMustBeWhole) {
  // A fractional pass count is a typo; silently truncating it to 2 would hide it.
  const std::string text = with_line("baseline_max_passes", "baseline_max_passes = 2.5");
  EXPECT_THROW((void)parse_thresholds(text, "my.toml"), ConfigError);
}

TEST(Thresholds, NulInATableHeaderIsAConfigErrorNotAnAbort) {
  // toml++ 3.3 compiled without NDEBUG asserted here (parse_key) unless its assertions are off
  // (cmake/dependencies.cmake); the sanitizer build, which has no NDEBUG, runs this test.
  const std::string text("[\0]\n", 4);
  const std::string e = error_of(text, "nul.toml");
  EXPECT_TRUE(has(e, "nul.toml:1")) << e;
}

}  // namespace
}  // namespace podperf

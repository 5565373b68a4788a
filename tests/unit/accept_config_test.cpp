// podperf accept's configs: the built-in profiles (configs/profiles) and SKUs (configs/skus) load, and
// bad files are ConfigErrors naming file:line and the key.
#include <gtest/gtest.h>

#include <string>

#include "analysis/base/errors.hpp"
#include "analysis/config/accept_profiles.hpp"
#include "analysis/config/sku.hpp"

namespace podperf {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::string kProfile = R"([profile]
description = "test"
stages = ["pairs", "fs"]

[pairs]
min_bytes = "1M"
max_bytes = "1G"
step_factor = 2
iters = 5
warmup = 1
retest = 1
concurrency = "round"

[fs]
probes = "seq-write,seq-read"
file_size = "64M"
block_size = "1M"
rand_ops = 10
meta_files = 10
ckpt_shard_size = "16M"
ckpt_shards = 1
direct = false
floor_write_mb_s = 100
floor_read_mb_s = 0

[judge]
blocking_findings = ["signals.xid"]
slow_link = "FAIL"
busbw_min_fraction = 0.85
)";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string profile_error(const std::string& text) {
  try {
    (void)parse_profile(text, "my", "my.toml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << text;
  return "";
}

TEST(Profile, BuiltInProfilesLoad) {
  EXPECT_EQ(builtin_profiles(), (std::vector<std::string>{"fs", "full", "quick"}));
  const Profile quick = load_profile("quick");
  EXPECT_TRUE(quick.pairs_stage);
  EXPECT_FALSE(quick.fs_stage);
  EXPECT_EQ(quick.pairs.max_size_bytes, 1ULL << 30);
  EXPECT_EQ(quick.slow_link, "WARN");
  EXPECT_EQ(quick.source, "configs/profiles/quick.toml (built in)");
  EXPECT_NE(std::find(quick.blocking_findings.begin(), quick.blocking_findings.end(), "signals.gpu_lost"),
            quick.blocking_findings.end());
  const Profile full = load_profile("full");
  EXPECT_TRUE(full.pairs_stage && full.fs_stage);
  EXPECT_EQ(full.slow_link, "FAIL");
  const Profile fs = load_profile("fs");
  EXPECT_FALSE(fs.pairs_stage);
  EXPECT_TRUE(fs.fs_stage);
}

TEST(Profile, ParsesEveryKey) {
  const Profile p = parse_profile(kProfile, "my", "my.toml");
  EXPECT_EQ(p.pairs.min_bytes, "1M");
  EXPECT_EQ(p.pairs.iters, 5);
  EXPECT_EQ(p.fs.probes, "seq-write,seq-read");
  EXPECT_DOUBLE_EQ(p.fs.floor_write_mb_s, 100.0);
  EXPECT_DOUBLE_EQ(p.busbw_min_fraction, 0.85);
  EXPECT_EQ(p.blocking_findings, std::vector<std::string>{"signals.xid"});
}

TEST(Profile, BadFilesNameFileLineAndKey) {
  EXPECT_EQ(profile_error(replace(kProfile, "iters = 5\n", "")), "my.toml:5: missing key 'pairs.iters'");
  EXPECT_TRUE(has(profile_error(replace(kProfile, "iters = 5", "iterz = 5")), "my.toml:9: unknown key 'pairs.iterz'"));
  EXPECT_EQ(profile_error(replace(kProfile, "iters = 5", "iters = \"5\"")),
            "my.toml:9: 'pairs.iters' must be a whole number");
  EXPECT_TRUE(has(profile_error(replace(kProfile, "max_bytes = \"1G\"", "max_bytes = \"1Q\"")),
                  "my.toml:7: 'pairs.max_bytes' = \"1Q\" is not a size"));
  EXPECT_TRUE(has(profile_error(replace(kProfile, "slow_link = \"FAIL\"", "slow_link = \"fail\"")),
                  "my.toml:28: 'judge.slow_link' = \"fail\""));
  EXPECT_TRUE(has(profile_error(replace(kProfile, "busbw_min_fraction = 0.85", "busbw_min_fraction = 85")),
                  "my.toml:29: 'judge.busbw_min_fraction' = 85 is out of range"));
  EXPECT_TRUE(has(profile_error(replace(kProfile, "[\"signals.xid\"]", "[\"xid\"]")),
                  "my.toml:27: 'judge.blocking_findings' has \"xid\""));
  EXPECT_TRUE(has(profile_error(replace(kProfile, "\"pairs\", \"fs\"", "\"pairs\"")),
                  "my.toml:14: [fs] given but 'profile.stages' does not list \"fs\""));
  EXPECT_TRUE(has(profile_error(replace(kProfile, "\"pairs\", \"fs\"", "\"pairs\", \"gpu\"")),
                  "my.toml:3: 'profile.stages' has unknown stage \"gpu\""));
  EXPECT_TRUE(has(profile_error(replace(kProfile, "probes = \"seq-write,seq-read\"", "probes = \"seqwrite\"")),
                  "my.toml:15: 'fs.probes' = \"seqwrite\""));
  EXPECT_TRUE(has(profile_error(kProfile + "extra = 1\n"), "unknown key 'judge.extra'"));
  EXPECT_TRUE(has(profile_error("[profile\n"), "my.toml:1:"));
}

TEST(Profile, UnknownNameListsTheBuiltInOnes) {
  try {
    (void)load_profile("quik");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_TRUE(has(e.what(), "unknown profile 'quik' (built in: fs, full, quick"));
  }
  EXPECT_THROW((void)load_profile("/nonexistent/p.toml"), ConfigError);
}

const std::string kSku = R"([sku]
instance_type = "x1.large"
gpus = 8
efa_devices = 4
single_node_busbw_min_gbps = 0.0
pair_busbw = [
  { size = "1G", gbps = 100.0 },
]
)";

std::string sku_error(const std::string& text) {
  try {
    (void)parse_sku(text, "sku.toml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << text;
  return "";
}

TEST(Sku, BuiltInSkusLoadWithTheirFileName) {
  const std::vector<std::string> names = builtin_skus();
  for (const char* want :
       {"p4d.24xlarge", "p4de.24xlarge", "p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge", "p6-b200.48xlarge"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  }
  for (const std::string& name : names) {
    const Sku sku = load_sku(name);
    EXPECT_EQ(sku.instance_type, name);
    EXPECT_EQ(sku.gpus, 8);
  }
  const Sku p5 = load_sku("p5.48xlarge");
  EXPECT_EQ(p5.efa_devices, 32);
  EXPECT_EQ(p5.pair_busbw_at(1ULL << 30), 437.0);
  EXPECT_EQ(p5.pair_busbw_at(2ULL << 30), 444.0);
  EXPECT_FALSE(p5.pair_busbw_at(4ULL << 20));
  EXPECT_EQ(load_sku("p4de.24xlarge").pair_busbw_at(1ULL << 30), 76.8);
  EXPECT_TRUE(load_sku("p4d.24xlarge").pair_busbw.empty());  // no published 2-node figure
  EXPECT_EQ(load_sku("p5en.48xlarge").efa_devices, 16);
  EXPECT_EQ(load_sku("p6-b200.48xlarge").efa_devices, 8);
  EXPECT_TRUE(builtin_sku_for("p5.48xlarge"));
  EXPECT_FALSE(builtin_sku_for("Standard PC (Q35 + ICH9, 2009)"));
  EXPECT_FALSE(builtin_sku_for(""));
}

TEST(Sku, BadFilesNameFileLineAndKey) {
  EXPECT_EQ(sku_error(replace(kSku, "gpus = 8\n", "")), "sku.toml:1: missing key 'sku.gpus'");
  EXPECT_TRUE(has(sku_error(replace(kSku, "gpus = 8", "gpu = 8")), "sku.toml:3: unknown key 'sku.gpu'"));
  EXPECT_TRUE(has(sku_error(replace(kSku, "gbps = 100.0", "gbps = \"fast\"")),
                  "sku.toml:7: 'sku.pair_busbw[0].gbps' must be a number"));
  EXPECT_TRUE(has(sku_error(replace(kSku, "size = \"1G\"", "size = \"big\"")),
                  "sku.toml:7: 'sku.pair_busbw[0].size' = \"big\" is not a size"));
  EXPECT_TRUE(
      has(sku_error(replace(kSku, "gbps = 100.0 }", "gbps = 1.0, min = 2 }")), "unknown key 'sku.pair_busbw[0].min'"));
  EXPECT_TRUE(has(sku_error(replace(kSku, "pair_busbw = [", "pair_busbw = 3\nx = [")), "sku.toml:"));
  try {
    (void)load_sku("p9.huge");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_TRUE(has(e.what(), "unknown SKU 'p9.huge' (built in: p4d.24xlarge"));
  }
}

}  // namespace
}  // namespace podperf

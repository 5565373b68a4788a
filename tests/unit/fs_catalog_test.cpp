// The filesystem probe catalog: its two halves agree (every trait row in analysis/config/fs_probes has
// exactly one runner in bench/fs/probe_catalog and the other way round), its rows are consistent
// (names unique, an option's rows together, a reader's writer declared before it), and the texts
// made from it (the --probes items, help and errors, profiles' fs.probes) are the ones users know.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/config/fs_probes.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "bench/fs/fs_plan.hpp"
#include "bench/fs/probe_catalog.hpp"

namespace podperf {
namespace {

TEST(FsCatalog, EveryTraitRowHasExactlyOneRunnerAndTheOtherWayRound) {
  const std::span<const FsProbeRunner> runners = fs_probe_runners();
  ASSERT_EQ(runners.size(), kFsProbes.size());
  std::set<std::string_view> traits;
  std::set<std::string_view> runs;
  for (std::size_t i = 0; i < kFsProbes.size(); ++i) {
    EXPECT_EQ(runners[i].name, kFsProbes[i].name) << "row " << i;
    EXPECT_NE(runners[i].run, nullptr) << runners[i].name;
    EXPECT_NE(runners[i].shape, nullptr) << runners[i].name;
    EXPECT_TRUE(traits.insert(kFsProbes[i].name).second) << "two trait rows named " << kFsProbes[i].name;
    EXPECT_TRUE(runs.insert(runners[i].name).second) << "two runners named " << runners[i].name;
  }
  EXPECT_EQ(traits, runs);
}

TEST(FsCatalog, RowsAreConsistent) {
  std::vector<std::string_view> seen_options;
  for (const FsProbeTraits& t : kFsProbes) {
    EXPECT_EQ(find_fs_probe(t.name), &t);
    EXPECT_FALSE(t.option.empty()) << t.name;
    // The rows of one option are together (the plan runs them in catalog order).
    if (seen_options.empty() || seen_options.back() != t.option) {
      EXPECT_EQ(std::count(seen_options.begin(), seen_options.end(), t.option), 0) << t.option << " split";
      seen_options.push_back(t.option);
    }
    if (!t.needs.empty()) {
      // A reader's writer runs before it and says what it leaves.
      EXPECT_NE(std::find(seen_options.begin(), seen_options.end(), t.needs), seen_options.end()) << t.name;
      bool leaves = false;
      for (const FsProbeTraits& w : kFsProbes) leaves = leaves || (w.option == t.needs && !w.leaves.empty());
      EXPECT_TRUE(leaves) << t.needs << " leaves nothing for " << t.name;
    }
    EXPECT_EQ(fs_probe_is_meta(t.name), t.io == FsIo::kMetadata) << t.name;
  }
  EXPECT_EQ(find_fs_probe("meta"), nullptr);  // an option, not a probe of run.json
  EXPECT_EQ(find_fs_probe("xyz-read"), nullptr);
}

TEST(FsCatalog, TheProbeItemsAndTheirTexts) {
  EXPECT_EQ(fs_probe_options(),
            (std::vector<std::string>{"seq-write", "seq-read", "rand-read", "meta", "ckpt-save", "ckpt-load"}));
  EXPECT_EQ(FsOptions{}.probes, "seq-write,seq-read,rand-read,meta,ckpt-save,ckpt-load");
  EXPECT_EQ(fs_probes_help(),
            "comma list of seq-write, seq-read, rand-read, meta, ckpt-save, ckpt-load (reads need the matching "
            "write: seq-read and rand-read read seq-write's files, ckpt-load ckpt-save's shards)");
  EXPECT_EQ(fs_missing_writer({"seq-read"}), "seq-read and rand-read read the files seq-write writes; add seq-write");
  EXPECT_EQ(fs_missing_writer({"meta", "ckpt-load"}), "ckpt-load reads the shards ckpt-save writes; add ckpt-save");
  EXPECT_EQ(fs_missing_writer({"seq-write", "rand-read", "ckpt-save", "ckpt-load"}), "");
  EXPECT_TRUE(is_fs_probe_list("seq-write,seq-read,meta"));
  EXPECT_FALSE(is_fs_probe_list(""));
  EXPECT_FALSE(is_fs_probe_list("seq-write,"));
  EXPECT_FALSE(is_fs_probe_list("seq-write, seq-read"));
  EXPECT_FALSE(is_fs_probe_list("all"));
  EXPECT_FALSE(is_fs_probe_list("meta-create"));
}

TEST(FsCatalog, ThePlanSpeaksTheCatalog) {
  FsOptions o;
  o.probes = "ckpt-load,all";
  EXPECT_EQ(make_fs_plan(o, "").options, fs_probe_options());
  o.probes = "ckpt-save,seq-write";  // any order in, catalog order out
  EXPECT_EQ(make_fs_plan(o, "").probe_names(), (std::vector<std::string>{"seq-write", "ckpt-save"}));
  o.probes = "seq-write,bogus";
  try {
    (void)make_fs_plan(o, "");
    ADD_FAILURE() << "no error for an unknown probe";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "--probes: unknown probe 'bogus' (expected seq-write, seq-read, rand-read, meta, ckpt-save, "
                 "ckpt-load or all)");
  }
  o.probes = "rand-read";
  try {
    (void)make_fs_plan(o, "");
    ADD_FAILURE() << "no error for a reader without its writer";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--probes: seq-read and rand-read read the files seq-write writes; add seq-write");
  }
}

TEST(FsCatalog, JudgesReadTheirRows) {
  FsRun fs;
  fs.expected_read_mb_s = 100.0;
  fs.expected_write_mb_s = 200.0;
  EXPECT_DOUBLE_EQ(fs_expected_mb_s(fs, "rand-read"), 100.0);
  EXPECT_DOUBLE_EQ(fs_expected_mb_s(fs, "seq-write"), 200.0);
  EXPECT_DOUBLE_EQ(fs_expected_mb_s(fs, "xyz-read"), 0.0);  // not in the catalog: no direction
  EXPECT_DOUBLE_EQ(fs_probe_floor_mb_s("ckpt-save", 5.0, 7.0), 5.0);
  EXPECT_DOUBLE_EQ(fs_probe_floor_mb_s("ckpt-load", 5.0, 7.0), 7.0);
  EXPECT_DOUBLE_EQ(fs_probe_floor_mb_s("rand-read", 5.0, 7.0), 0.0);  // IOPS-bound: no MB/s floor
  EXPECT_DOUBLE_EQ(fs_probe_floor_mb_s("meta-stat", 5.0, 7.0), 0.0);
  EXPECT_TRUE(fs_probe_has_latency("rand-read"));
  EXPECT_FALSE(fs_probe_has_latency("seq-read"));
  FsProbeResult meta;
  meta.probe = "meta-unlink";
  EXPECT_STREQ(fs_metric_unit(meta), "ops/s");
  meta.probe = "xyz-read";
  EXPECT_STREQ(fs_metric_unit(meta), "MB/s");
}

}  // namespace
}  // namespace podperf

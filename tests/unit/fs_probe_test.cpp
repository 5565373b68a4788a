// The measuring side of the filesystem probes without MPI: the checksum, who reads whose file (IOR
// -C shift), plan validation, and the probes themselves on a temporary directory (one rank).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "bench/fs/checksum.hpp"
#include "bench/fs/fs_io.hpp"
#include "bench/fs/fs_plan.hpp"
#include "bench/fs/probes.hpp"
#include "bench/node_map.hpp"

namespace podperf {
namespace {

std::uint64_t checksum_of(const std::vector<unsigned char>& bytes) {
  Checksum c;
  c.update(bytes.data(), bytes.size());
  return c.value();
}

TEST(FsChecksum, DetectsEveryFlippedByte) {
  std::vector<unsigned char> data(1000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 31 + 7);
  const std::uint64_t good = checksum_of(data);
  for (std::size_t i = 0; i < data.size(); ++i) {
    std::vector<unsigned char> bad = data;
    bad[i] ^= 0x01;
    EXPECT_NE(checksum_of(bad), good) << "flipped bit in byte " << i;
  }
}

TEST(FsChecksum, SameBytesSameValueWhateverTheBlockSplit) {
  std::vector<unsigned char> data(4096 * 3 + 5);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i ^ (i >> 8));
  Checksum split;
  split.update(data.data(), 4096);
  split.update(data.data() + 4096, 8192);
  split.update(data.data() + 12288, 5);
  EXPECT_EQ(split.value(), checksum_of(data));
}

TEST(FsChecksum, LengthMatters) {
  EXPECT_NE(checksum_of(std::vector<unsigned char>(8, 0)), checksum_of(std::vector<unsigned char>(16, 0)));
  EXPECT_NE(checksum_of(std::vector<unsigned char>(3, 0)), checksum_of(std::vector<unsigned char>(4, 0)));
}

// hosts[r] is rank r's host; ranks of a host are contiguous here.
NodeMap map_of(const std::vector<std::string>& hosts, int virtual_nodes = 0) {
  std::vector<RankRecord> records;
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    RankRecord rec;
    rec.world_rank = static_cast<int>(r);
    rec.hostname = hosts[r];
    rec.shared_leader = static_cast<int>(std::find(hosts.begin(), hosts.end(), hosts[r]) - hosts.begin());
    rec.local_rank = static_cast<int>(std::count(hosts.begin(), hosts.begin() + static_cast<long>(r), hosts[r]));
    rec.local_size = static_cast<int>(std::count(hosts.begin(), hosts.end(), hosts[r]));
    records.push_back(rec);
  }
  return build_node_map(records, virtual_nodes);
}

TEST(FsReadSource, SharedShiftsByOneNodeLikeIorMinusC) {
  // 3 nodes x 2 ranks: rank r reads rank (r + 2) mod 6.
  const NodeMap map = map_of({"a", "a", "b", "b", "c", "c"});
  for (int r = 0; r < 6; ++r) EXPECT_EQ(fs_read_source(r, map, true), (r + 2) % 6) << "rank " << r;
  // Never a file of its own node.
  for (int r = 0; r < 6; ++r) {
    EXPECT_NE(map.node_of_rank[static_cast<std::size_t>(fs_read_source(r, map, true))], map.node_of_rank[r]);
  }
}

TEST(FsReadSource, UnevenNodesWrapTheLocalIndex) {
  const NodeMap map = map_of({"a", "a", "a", "b"});
  EXPECT_EQ(fs_read_source(0, map, true), 3);
  EXPECT_EQ(fs_read_source(1, map, true), 3);
  EXPECT_EQ(fs_read_source(2, map, true), 3);
  EXPECT_EQ(fs_read_source(3, map, true), 0);
}

TEST(FsReadSource, NodeLocalStaysOnTheHost) {
  const NodeMap map = map_of({"a", "a", "b", "b", "b", "c"});
  EXPECT_EQ(fs_read_source(0, map, false), 1);
  EXPECT_EQ(fs_read_source(1, map, false), 0);
  EXPECT_EQ(fs_read_source(2, map, false), 3);
  EXPECT_EQ(fs_read_source(4, map, false), 2);
  EXPECT_EQ(fs_read_source(5, map, false), 5);  // alone on its host: its own file
}

TEST(FsReadSource, VirtualNodesOfOneHostAreOneHostWhenNodeLocal) {
  const NodeMap map = map_of({"a", "a", "a", "a"}, 2);
  ASSERT_EQ(map.nodes.size(), 2U);
  EXPECT_EQ(fs_read_source(0, map, true), 2);   // shared: the next (virtual) node
  EXPECT_EQ(fs_read_source(3, map, false), 0);  // node-local: the next rank of the host, wrapping
}

FsOptions small_options() {
  FsOptions o;
  o.path = "/tmp";
  o.block_size = "64K";
  o.file_size = "1M";
  o.rand_block_size = "4K";
  o.rand_ops = 64;
  o.meta_files = 20;
  o.meta_file_size = "1K";
  o.ckpt_shard_size = "512K";
  o.ckpt_shards = 2;
  return o;
}

TEST(FsPlanTest, DefaultsRunEveryProbe) {
  const FsPlan plan = make_fs_plan(FsOptions{}, "");
  EXPECT_EQ(plan.probe_names(),
            (std::vector<std::string>{"seq-write", "seq-read", "rand-read", "meta", "ckpt-save", "ckpt-load"}));
  EXPECT_EQ(plan.file_size_bytes, 1ULL << 30);
  EXPECT_EQ(plan.block_size_bytes, 1ULL << 20);
}

TEST(FsPlanTest, RejectsBadInputNamingTheFlag) {
  auto error_of = [](FsOptions o) -> std::string {
    try {
      make_fs_plan(o, "");
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  FsOptions o = small_options();
  o.probes = "seq-write,bogus";
  EXPECT_NE(error_of(o).find("unknown probe 'bogus'"), std::string::npos);
  o = small_options();
  o.probes = "seq-read";
  EXPECT_NE(error_of(o).find("add seq-write"), std::string::npos);
  o = small_options();
  o.probes = "ckpt-load";
  EXPECT_NE(error_of(o).find("add ckpt-save"), std::string::npos);
  o = small_options();
  o.file_size = "0";
  EXPECT_NE(error_of(o).find("--file-size"), std::string::npos);
  o = small_options();
  o.block_size = "4M";
  EXPECT_NE(error_of(o).find("larger than --file-size"), std::string::npos);
  o = small_options();
  o.direct = true;
  o.file_size = "1000K";
  o.block_size = "1000";
  EXPECT_NE(error_of(o).find("multiple of 4K"), std::string::npos);
  o = small_options();
  o.fsx_deployment = "PERSISTENT_2-250";
  EXPECT_NE(error_of(o).find("go together"), std::string::npos);
}

TEST(FsPlanTest, FsxDeploymentGivesTheExpectedThroughput) {
  FsOptions o = small_options();
  o.fsx_deployment = "PERSISTENT_2-250";
  o.fsx_capacity_tib = 4.0;
  const FsPlan plan = make_fs_plan(o, "");
  EXPECT_DOUBLE_EQ(plan.expected.read_mb_s, 1000.0);  // 4 TiB x min(640 network, 250 disk)
  EXPECT_DOUBLE_EQ(plan.expected.write_mb_s, 1000.0);
}

TEST(FsPlanTest, PeakBytesIsTheLargestProbe) {
  FsPlan plan = make_fs_plan(small_options(), "");
  EXPECT_EQ(fs_peak_bytes_per_rank(plan), 1ULL << 20);  // the 1M seq file over 2 x 512K shards, 20 x 4K
  plan.meta_files = 1000;
  EXPECT_EQ(fs_peak_bytes_per_rank(plan), 1000ULL * 4096);
}

TEST(FsCkptMetadata, RoundTripsAndRejectsGarbage) {
  const std::vector<ShardRecord> shards{{0, 0, "ckpt/shard.r0.0", 100, 0xFFFFFFFFFFFFFFFFULL},
                                        {1, 0, "ckpt/shard.r1.0", 100, 42}};
  const std::vector<ShardRecord> back = parse_ckpt_metadata(format_ckpt_metadata(shards));
  ASSERT_EQ(back.size(), 2U);
  EXPECT_EQ(back[0].checksum, 0xFFFFFFFFFFFFFFFFULL);
  EXPECT_EQ(back[1].file, "ckpt/shard.r1.0");
  EXPECT_THROW(parse_ckpt_metadata("{\"format\": \"other\"}"), InputError);
  EXPECT_THROW(parse_ckpt_metadata("{not json"), InputError);
}

// One rank on a temporary directory, reading its own files.
class FsProbesOnDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/podperf-fs-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    std::filesystem::create_directory(dir_ + "/" + kCkptDir);
    plan_ = make_fs_plan(small_options(), "");
    ctx_.dir = dir_;
    ctx_.rank = 0;
    ctx_.node = 0;
    ctx_.node_label = "h0";
    ctx_.plan = &plan_;
    ctx_.source_rank = 0;
    ctx_.source_node = 0;
    ctx_.start = std::chrono::steady_clock::now();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string dir_;
  FsPlan plan_;
  ProbeContext ctx_;
};

TEST_F(FsProbesOnDisk, SequentialAndRandomReadsMoveTheWholeFile) {
  const FsRankResult w = probe_seq_write(ctx_);
  ASSERT_EQ(w.status, "ok") << w.error;
  EXPECT_EQ(w.bytes, 1U << 20);
  EXPECT_EQ(w.ops, 16U);
  EXPECT_GT(w.end_s, w.start_s);
  EXPECT_EQ(std::filesystem::file_size(dir_ + "/seq.r0"), 1U << 20);
  const FsRankResult r = probe_seq_read(ctx_);
  ASSERT_EQ(r.status, "ok") << r.error;
  EXPECT_EQ(r.bytes, 1U << 20);
  EXPECT_GE(r.cached_fraction, 0.0);  // measured (mincore)
  EXPECT_LE(r.cached_fraction, 1.0);
  const FsRankResult rr = probe_rand_read(ctx_);
  ASSERT_EQ(rr.status, "ok") << rr.error;
  EXPECT_EQ(rr.ops, 64U);
  EXPECT_EQ(rr.latency_us.size(), 64U);
  EXPECT_LE(rr.lat_p50_us, rr.lat_p99_us);
  EXPECT_LE(rr.lat_p99_us, rr.lat_p999_us);
}

// The writers still leave their files out of this host's page cache (so a reader here misses it),
// now that the drop happens after the timed region: seq-write's end is its close, ckpt-save's shards
// are dropped by drop_saved_shards once the save is over.
TEST_F(FsProbesOnDisk, BufferedWritesLeaveNoCachedPagesBehind) {
  struct statfs sf {};
  ASSERT_EQ(::statfs(dir_.c_str(), &sf), 0);
  if (sf.f_type == TMPFS_MAGIC) GTEST_SKIP() << dir_ << " is tmpfs: its pages cannot be dropped";
  auto resident = [&](const std::string& rel) { return File(dir_ + "/" + rel, O_RDONLY, false).cached_fraction(); };

  const auto before = std::chrono::steady_clock::now();
  const FsRankResult w = probe_seq_write(ctx_);
  const double after_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - ctx_.start).count();
  ASSERT_EQ(w.status, "ok") << w.error;
  EXPECT_LE(w.end_s, after_s);
  EXPECT_GE(w.start_s, std::chrono::duration<double>(before - ctx_.start).count());
  EXPECT_LT(resident(seq_file_name(0)), 0.5);

  std::vector<ShardRecord> saved;
  const FsRankResult s = probe_ckpt_save(ctx_, saved);
  ASSERT_EQ(s.status, "ok") << s.error;
  ASSERT_EQ(saved.size(), 2U);
  drop_saved_shards(ctx_, saved);
  for (const ShardRecord& r : saved) EXPECT_LT(resident(r.file), 0.5) << r.file;
}

TEST_F(FsProbesOnDisk, MetadataPhasesCountEveryFileAndLeaveNothing) {
  for (auto* phase : {&probe_meta_create, &probe_meta_stat, &probe_meta_read, &probe_meta_unlink}) {
    const FsRankResult r = (*phase)(ctx_);
    ASSERT_EQ(r.status, "ok") << r.error;
    EXPECT_EQ(r.ops, 20U);
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/meta.r0"));
}

TEST_F(FsProbesOnDisk, CheckpointLoadVerifiesAndCatchesAFlippedByte) {
  std::vector<ShardRecord> saved;
  FsRankResult s = probe_ckpt_save(ctx_, saved);
  ASSERT_EQ(s.status, "ok") << s.error;
  ASSERT_EQ(saved.size(), 2U);
  const double commit_s = write_ckpt_metadata(ctx_, saved, s);
  ASSERT_EQ(s.status, "ok") << s.error;
  EXPECT_GE(commit_s, s.end_s);  // the rename comes after the rank's own shards
  ASSERT_TRUE(std::filesystem::exists(dir_ + "/" + kCkptMetadata));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/" + kCkptMetadata + ".tmp"));

  FsRankResult l = probe_ckpt_load(ctx_);
  ASSERT_EQ(l.status, "ok") << l.error;
  EXPECT_EQ(l.bytes, 2U * 512 * 1024);
  EXPECT_EQ(l.checksum_mismatches, 0U);

  // Flip one byte in the middle of shard 1.
  const std::string shard = dir_ + "/" + shard_file_name(0, 1);
  std::fstream f(shard, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(300000);
  char c = 0;
  f.read(&c, 1);
  c = static_cast<char>(c ^ 0x20);
  f.seekp(300000);
  f.write(&c, 1);
  f.close();
  l = probe_ckpt_load(ctx_);
  EXPECT_EQ(l.status, "wrong");
  EXPECT_EQ(l.checksum_mismatches, 1U);
  EXPECT_NE(l.error.find("shard.r0.1"), std::string::npos) << l.error;
}

TEST_F(FsProbesOnDisk, AnIoErrorBecomesDataNamingNodeRankAndFile) {
  ctx_.source_rank = 7;  // nobody wrote seq.r7
  const FsRankResult r = probe_seq_read(ctx_);
  EXPECT_EQ(r.status, "error");
  EXPECT_NE(r.error.find("node h0 rank 0"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("seq.r7"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("No such file"), std::string::npos) << r.error;
}

TEST(FsIo, DirectIoOnTmpfsSaysSo) {
  // /dev/shm is tmpfs on Linux: O_DIRECT is refused there with EINVAL.
  if (!std::filesystem::is_directory("/dev/shm")) GTEST_SKIP() << "no /dev/shm";
  const std::string path = "/dev/shm/podperf-direct-test-" + std::to_string(::getpid());
  try {
    File f(path, O_WRONLY | O_CREAT | O_TRUNC, true);
    f.close();
    std::filesystem::remove(path);
    GTEST_SKIP() << "this /dev/shm accepts O_DIRECT";
  } catch (const FsIoError& e) {
    std::filesystem::remove(path);
    EXPECT_NE(std::string(e.what()).find("does not support direct I/O"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace podperf

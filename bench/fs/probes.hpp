#pragma once
// One rank's part of each filesystem probe (IOR, fio, elbencho, DLIO and the FSx for Lustre performance documentation).
// Local: no MPI here; the stage (bench/fs/fs_stage) runs the barriers, gathers the results and removes files. Every
// function returns its FsRankResult and never throws on I/O trouble: a failure becomes status "error" with "node N rank
// R: <operation> <file>: <reason>", so the other ranks' results and the cleanup go on.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analysis/model/run.hpp"
#include "bench/fs/fs_plan.hpp"

namespace podperf {

// Rank 0's progress during a long probe: called with bytes (or operations) done and the total.
using FsProgressFn = std::function<void(std::uint64_t done, std::uint64_t total)>;

struct ProbeContext {
  std::string dir;  // the probe directory (this host's, on node-local filesystems)
  int rank = 0;
  int node = 0;
  std::string node_label;
  const FsPlan* plan = nullptr;
  int source_rank = 0;  // whose files this rank reads (fs_read_source)
  int source_node = 0;
  std::chrono::steady_clock::time_point start;  // the probe's common start (right after a barrier)
  FsProgressFn progress;                        // rank 0 only; empty elsewhere
};

// File names inside the probe directory.
std::string seq_file_name(int rank);                         // "seq.r3"
std::string meta_dir_name(int rank);                         // "meta.r3"
std::string shard_file_name(int rank, std::uint64_t shard);  // "ckpt/shard.r3.0"
inline constexpr const char* kCkptDir = "ckpt";
inline constexpr const char* kCkptMetadata = "ckpt/.metadata";

// seq-write: the rank's file, block after block, fsync and close inside the timed region (open ..
// close); then, without --direct and outside it, the file's pages are dropped from this host's cache.
FsRankResult probe_seq_write(const ProbeContext& c);
// seq-read: the source rank's file, start to end. Before the timed region it asks this host's page
// cache to drop the file (posix_fadvise DONTNEED on podperf's own file) and measures what stayed
// resident (mincore) into cached_fraction.
FsRankResult probe_seq_read(const ProbeContext& c);
// rand-read: plan.rand_ops reads of rand_block_size at random aligned offsets of the source rank's
// file; per-read latency samples (latency_us) and the rank's percentiles.
FsRankResult probe_rand_read(const ProbeContext& c);

// The metadata probe's phases (mdtest pattern): create (open O_EXCL, write meta_file_size, close) in
// the rank's own directory; stat and open-read-close of the source rank's files; unlink of its own.
FsRankResult probe_meta_create(const ProbeContext& c);
FsRankResult probe_meta_stat(const ProbeContext& c);
FsRankResult probe_meta_read(const ProbeContext& c);
FsRankResult probe_meta_unlink(const ProbeContext& c);

// One checkpoint shard as saved: what ckpt-load verifies against.
struct ShardRecord {
  int rank = 0;
  std::uint64_t shard = 0;
  std::string file;  // relative to the probe directory
  std::uint64_t bytes = 0;
  std::uint64_t checksum = 0;
};
// ckpt-save, this rank's part: its shards, each written, fsynced and closed; `saved` gets them.
FsRankResult probe_ckpt_save(const ProbeContext& c, std::vector<ShardRecord>& saved);
// After ckpt-save's timed region (every rank's results in): without --direct, asks this host's page
// cache to drop the shards the rank saved, so a reader on this host misses the cache. Errors ignored.
void drop_saved_shards(const ProbeContext& c, const std::vector<ShardRecord>& saved);
// ckpt-save, rank 0's end: the metadata file (every shard and its checksum) written to a temporary
// name, fsynced and renamed into place, the directory fsynced. Returns when that was done (seconds
// since the probe's start: the probe's commit_s); on failure sets r's error (r: rank 0's result,
// whose own timing stays its shards') and returns 0.
double write_ckpt_metadata(const ProbeContext& c, const std::vector<ShardRecord>& shards, FsRankResult& r);
// ckpt-load: reads the metadata file, then the source rank's shards, verifying each checksum.
FsRankResult probe_ckpt_load(const ProbeContext& c);

// The shards listed in a metadata file's text; throws InputError on malformed text.
std::vector<ShardRecord> parse_ckpt_metadata(const std::string& text);
std::string format_ckpt_metadata(const std::vector<ShardRecord>& shards);

}  // namespace podperf

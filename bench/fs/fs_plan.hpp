#pragma once
// The filesystem probes' plan, identical on every rank: which probes run (always in the order
// seq-write, seq-read, rand-read, meta, ckpt-save, ckpt-load), their sizes, and who reads whose
// files. Pure.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/fs_capacity.hpp"
#include "analysis/thresholds.hpp"
#include "bench/options.hpp"
#include "bench/node_map.hpp"

namespace podperf {

struct FsPlan {
  bool seq_write = false, seq_read = false, rand_read = false, meta = false, ckpt_save = false, ckpt_load = false;
  std::uint64_t block_size_bytes = 0;
  std::uint64_t file_size_bytes = 0;
  std::uint64_t rand_block_size_bytes = 0;
  std::uint64_t rand_ops = 0;
  std::uint64_t meta_files = 0;
  std::uint64_t meta_file_size_bytes = 0;
  std::uint64_t ckpt_shard_size_bytes = 0;
  std::uint64_t ckpt_shards = 0;
  bool direct = false;
  bool keep = false;
  FsExpected expected;  // zero when neither FSx nor --expected-mb-s was given
  FsThresholds thresholds;
  std::string thresholds_source;
  [[nodiscard]] std::vector<std::string> probe_names() const;  // as run, e.g. {"seq-write","seq-read"}
};

// Validates and converts the options. Throws UsageError naming the flag: an unknown probe, a read
// without its write (seq-read/rand-read need seq-write, ckpt-load needs ckpt-save), a zero size, a
// block larger than the file, or with --direct a size that is not a multiple of 4 KiB.
FsPlan make_fs_plan(const FsOptions& o, const std::string& thresholds_path);

// Bytes one rank has on the filesystem at the most (files are removed after the probes that read
// them): max(seq file, checkpoint shards, metadata files at >= 4 KiB each).
std::uint64_t fs_peak_bytes_per_rank(const FsPlan& plan);

// IOR -C: the world rank whose file `rank` reads. On a shared filesystem, the rank with the same
// local index on the next node (wrapping; modulo that node's rank count), so no rank reads what its
// own node wrote while there are two or more nodes. On node-local filesystems (each host has its
// own directory) the next rank of the same host (itself when alone).
int fs_read_source(int rank, const NodeMap& map, bool shared);

}  // namespace podperf

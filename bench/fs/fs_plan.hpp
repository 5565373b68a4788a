#pragma once
// The filesystem probes' plan, identical on every rank: which probes run (the --probes items chosen,
// always in catalog order: analysis/config/fs_probes), their sizes, and who reads whose files. Floor bench/,
// pure, local; make_fs_plan throws UsageError.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/config/fs_capacity.hpp"
#include "analysis/config/thresholds.hpp"
#include "bench/node_map.hpp"
#include "bench/options.hpp"

namespace podperf {

struct FsPlan {
  std::vector<std::string> options;  // the --probes items chosen, in catalog order ("meta", not its phases)
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
  Thresholds thresholds;  // recorded in the run (record_thresholds); the fs judge reads them there
  [[nodiscard]] std::vector<std::string> probe_names() const { return options; }  // {"seq-write","seq-read"}
  [[nodiscard]] bool runs(std::string_view option) const;                         // `option` was chosen
};

// Validates and converts the options. Throws UsageError naming the flag: an unknown probe, a read
// without its write (seq-read/rand-read need seq-write, ckpt-load needs ckpt-save: the catalog's
// `needs`), a zero size, a block larger than the file (each chosen probe's check), or with --direct a
// size that is not a multiple of 4 KiB.
FsPlan make_fs_plan(const FsOptions& o, const std::string& thresholds_path);

// Bytes one rank has on the filesystem at the most (files are removed after the probes that read
// them): the largest of the chosen probes' peaks (seq file, checkpoint shards, metadata files at
// >= 4 KiB each).
std::uint64_t fs_peak_bytes_per_rank(const FsPlan& plan);

// IOR -C: the world rank whose file `rank` reads. On a shared filesystem, the rank with the same
// local index on the next node (wrapping; modulo that node's rank count), so no rank reads what its
// own node wrote while there are two or more nodes. On node-local filesystems (each host has its
// own directory) the next rank of the same host (itself when alone).
int fs_read_source(int rank, const NodeMap& map, bool shared);

}  // namespace podperf

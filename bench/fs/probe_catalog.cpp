// The filesystem probe catalog, running half (see probe_catalog.hpp): one runner row per trait row of
// analysis/config/fs_probes, checked at compile time. Floor bench/; ckpt-save's run is collective.
#include "bench/fs/probe_catalog.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/config/fs_probes.hpp"

namespace podperf {
namespace {

constexpr std::uint64_t kMetaFileFootprint = 4096;  // a small file costs at least a block

// A probe that is this rank's business alone: its result is the whole outcome.
template <FsRankResult (*Probe)(const ProbeContext&)>
FsProbeOutcome local(const Comm&, const ProbeContext& c) {
  return FsProbeOutcome{Probe(c), 0.0, {}};
}

void unlink_quietly(const std::string& path) {
  (void)::unlink(path.c_str());
}

// --- sizes -----------------------------------------------------------------------------------------

FsProbeShape seq_shape(const FsPlan& p) {
  return {p.block_size_bytes, p.file_size_bytes, 1};
}
FsProbeShape rand_shape(const FsPlan& p) {
  return {p.rand_block_size_bytes, p.file_size_bytes, 1};
}
FsProbeShape meta_shape(const FsPlan& p) {
  return {p.meta_file_size_bytes, p.meta_file_size_bytes, p.meta_files};
}
FsProbeShape ckpt_shape(const FsPlan& p) {
  return {p.block_size_bytes, p.ckpt_shard_size_bytes, p.ckpt_shards};
}

// --- seq-write's file (read by seq-read and rand-read) ---------------------------------------------

std::uint64_t seq_peak(const FsPlan& p) {
  return p.file_size_bytes;
}
void check_seq_block(const FsPlan& p, const FsOptions& o) {
  if (p.block_size_bytes > p.file_size_bytes) {
    throw UsageError(fmt::format("--block-size {} is larger than --file-size {}", o.block_size, o.file_size));
  }
}
void check_rand_block(const FsPlan& p, const FsOptions& o) {
  if (p.rand_block_size_bytes > p.file_size_bytes) {
    throw UsageError(fmt::format("--rand-block-size {} is larger than --file-size {}", o.rand_block_size, o.file_size));
  }
}
void remove_seq_file(const ProbeContext& c) {
  unlink_quietly(c.dir + "/" + seq_file_name(c.rank));
}

// --- the metadata phases ----------------------------------------------------------------------------

std::uint64_t meta_peak(const FsPlan& p) {
  return p.meta_files * std::max(p.meta_file_size_bytes, kMetaFileFootprint);
}

// --- ckpt-save's shards and metadata (read by ckpt-load) --------------------------------------------

std::uint64_t ckpt_peak(const FsPlan& p) {
  return p.ckpt_shard_size_bytes * p.ckpt_shards;
}

std::string shards_text(const std::vector<ShardRecord>& saved) {
  nlohmann::json shards = nlohmann::json::array();
  for (const ShardRecord& s : saved) {
    shards.push_back(
        {{"rank", s.rank}, {"shard", s.shard}, {"file", s.file}, {"bytes", s.bytes}, {"checksum", s.checksum}});
  }
  return shards.dump();
}

// Rank 0: every rank's shards from their texts; false when a rank saved none (its text is "").
bool parse_shards(const std::vector<std::string>& texts, std::vector<ShardRecord>& every) {
  bool complete = true;
  for (const std::string& text : texts) {
    if (text.empty()) {
      complete = false;
      continue;
    }
    for (const nlohmann::json& s : nlohmann::json::parse(text)) {
      every.push_back(ShardRecord{s.at("rank").get<int>(), s.at("shard").get<std::uint64_t>(),
                                  s.at("file").get<std::string>(), s.at("bytes").get<std::uint64_t>(),
                                  s.at("checksum").get<std::uint64_t>()});
    }
  }
  return complete;
}

// ckpt-save, collective: this rank's shards; then every rank's shards (and whether it saved them) to
// rank 0, which writes the metadata file and renames it into place: the checkpoint exists only after
// that (commit_s). Once every result is in, the shards' cached pages are dropped (not part of the save).
FsProbeOutcome run_ckpt_save(const Comm& world, const ProbeContext& c) {
  std::vector<ShardRecord> saved;
  FsProbeOutcome out{probe_ckpt_save(c, saved), 0.0, {}};
  const std::vector<std::string> all = gather_strings(world, status_ok(out.mine.status) ? shards_text(saved) : "", 0);
  if (world.rank() == 0) {
    std::vector<ShardRecord> every;
    if (parse_shards(all, every) && status_ok(out.mine.status)) out.commit_s = write_ckpt_metadata(c, every, out.mine);
  }
  out.after = [&c, saved = std::move(saved)] { drop_saved_shards(c, saved); };
  return out;
}

void remove_ckpt_files(const ProbeContext& c) {
  for (std::uint64_t k = 0; k < c.plan->ckpt_shards; ++k) unlink_quietly(c.dir + "/" + shard_file_name(c.rank, k));
  if (c.rank == 0) unlink_quietly(c.dir + "/" + kCkptMetadata);
}

// --- the table ----------------------------------------------------------------------------------------

// A probe in a file of its own (bench/fs/probe_<name>.cpp, built on probe_kit.hpp) is declared here,
// next to its row: FsRankResult probe_xyz_read(const ProbeContext& c);

// name, progress in bytes, shape, run, peak bytes, check, subdir, remove files
constexpr std::array<FsProbeRunner, kFsProbes.size()> kRunners{{
    {"seq-write", true, seq_shape, local<probe_seq_write>, seq_peak, check_seq_block, "", remove_seq_file},
    {"seq-read", true, seq_shape, local<probe_seq_read>, nullptr, nullptr, "", nullptr},
    {"rand-read", false, rand_shape, local<probe_rand_read>, nullptr, check_rand_block, "", nullptr},
    {"meta-create", false, meta_shape, local<probe_meta_create>, meta_peak, nullptr, "", nullptr},
    {"meta-stat", false, meta_shape, local<probe_meta_stat>, nullptr, nullptr, "", nullptr},
    {"meta-read", false, meta_shape, local<probe_meta_read>, nullptr, nullptr, "", nullptr},
    {"meta-unlink", false, meta_shape, local<probe_meta_unlink>, nullptr, nullptr, "", nullptr},
    {"ckpt-save", true, ckpt_shape, run_ckpt_save, ckpt_peak, nullptr, kCkptDir, remove_ckpt_files},
    {"ckpt-load", true, ckpt_shape, local<probe_ckpt_load>, nullptr, nullptr, "", nullptr},
}};

// Every trait row has its runner, at the same index, and every runner can run.
constexpr bool runners_match_traits() {
  for (std::size_t i = 0; i < kFsProbes.size(); ++i) {
    if (kRunners[i].name != kFsProbes[i].name || kRunners[i].run == nullptr || kRunners[i].shape == nullptr) {
      return false;
    }
  }
  return true;
}
static_assert(
    runners_match_traits(),
    "bench/fs/probe_catalog.cpp: each row of kFsProbes (analysis/config/fs_probes.hpp) needs its runner, in order");

}  // namespace

std::span<const FsProbeRunner> fs_probe_runners() {
  return kRunners;
}

}  // namespace podperf

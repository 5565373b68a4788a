#pragma once
// Acceptance profiles (configs/profiles/*.toml, podperf accept --profile NAME|FILE): which stages run,
// with which sizes and iterations, and how the verdict treats what they find. Pure.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

// The pair test of a profile (podperf pairs semantics; nodes are judged at max_bytes, the acceptance
// size, where the SKU's published busbw applies).
struct ProfilePairs {
  std::string min_bytes;  // as written ("256M"), passed to -b
  std::string max_bytes;  // -e: the acceptance size
  std::uint64_t min_size_bytes = 0;
  std::uint64_t max_size_bytes = 0;
  int step_factor = 2;
  int iters = 0;
  int warmup = 0;
  int retest = 0;
  std::string concurrency;  // round | sequential
};

// The filesystem stage of a profile (podperf fs semantics) and its floors.
struct ProfileFs {
  std::string probes;  // comma list, as --probes
  std::string file_size;
  std::string block_size;
  int rand_ops = 0;
  int meta_files = 0;
  std::string ckpt_shard_size;
  int ckpt_shards = 0;
  bool direct = false;
  // Aggregate floors in MB/s (0: none): write probes (seq-write, ckpt-save) and streaming reads
  // (seq-read, ckpt-load); rand-read is not held to a MB/s floor (4K reads are IOPS-bound).
  double floor_write_mb_s = 0.0;
  double floor_read_mb_s = 0.0;
};

struct Profile {
  std::string name;    // quick | full | fs, or the file path given
  std::string source;  // "configs/profiles/quick.toml (built in)" or the path
  std::string description;
  bool pairs_stage = false;
  bool fs_stage = false;
  ProfilePairs pairs;  // valid when pairs_stage
  ProfileFs fs;        // valid when fs_stage
  // CONCERN findings whose check id is listed here fail their node (or the run, for run-wide
  // findings); other CONCERNs warn.
  std::vector<std::string> blocking_findings;
  std::string slow_link = "WARN";   // WARN | FAIL: what a slow link does to both its nodes
  double busbw_min_fraction = 0.0;  // a node's median pair busbw must reach this share of the SKU's figure
};

// Parses profile TOML. Every key is required, unknown keys are rejected; [pairs] is required exactly
// when stages lists "pairs", [fs] exactly when it lists "fs". Throws ConfigError "source:line: ... 'key'".
Profile parse_profile(std::string_view toml_text, const std::string& name, const std::string& source);

// NAME (built in: configs/profiles/NAME.toml) or FILE (a path: contains '/' or ends with .toml).
// Throws ConfigError for an unknown name (listing the built-in ones) or an unreadable/invalid file.
Profile load_profile(const std::string& name_or_file);

// The built-in profile names, sorted.
std::vector<std::string> builtin_profiles();

}  // namespace podperf

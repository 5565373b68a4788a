#pragma once
// The filesystem probe catalog, descriptive half (floor analysis/, pure, local, throws nothing): one
// row per probe as run.json names it, in the order the probes run and every output lists them. The
// plan (--probes and profiles' fs.probes), the analysis, the verdict, compare and the printers read
// these rows instead of spelling probe names. How a probe runs is bound to its row in
// bench/fs/probe_catalog.cpp, a runner per row in the same order (checked when that file compiles).
//
// A new probe: its run function in a new file under bench/fs/, one row here and its runner row there.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

// Which way a probe's data goes: what its aggregate is compared with (the filesystem's expected read
// or write throughput), whether the page-cache check applies (reads), and which profile floor holds.
enum class FsIo { kWrite, kRead, kMetadata };

// How a probe is judged and compared.
enum class FsJudge {
  kBandwidth,  // MB/s: nodes judged and runs compared on it
  kRate,       // ops/s (file operations): nodes judged and runs compared on it
  kLatency,    // per-call latency samples (p50 .. p99.9): nodes judged on MB/s, runs compared on IOPS and p99
};

struct FsProbeTraits {
  std::string_view name;    // in run.json and every output: "seq-write", "meta-stat"
  std::string_view option;  // the --probes item that runs it ("meta" runs the four metadata phases)
  std::string_view needs;   // the --probes item whose files it reads ("": none)
  std::string_view leaves;  // what its option leaves for the readers, in messages ("files"; "": nothing)
  FsIo io;
  FsJudge judge;
  bool floor;   // held to the profile's aggregate MB/s floor of its direction (fs.floor_{write,read}_mb_s)
  bool direct;  // honours --direct (O_DIRECT): the data probes do, the metadata phases do not
};

inline constexpr auto kFsProbes = std::to_array<FsProbeTraits>({
    {"seq-write", "seq-write", "", "files", FsIo::kWrite, FsJudge::kBandwidth, true, true},
    {"seq-read", "seq-read", "seq-write", "", FsIo::kRead, FsJudge::kBandwidth, true, true},
    // 4K reads are IOPS-bound: no MB/s floor.
    {"rand-read", "rand-read", "seq-write", "", FsIo::kRead, FsJudge::kLatency, false, true},
    {"meta-create", "meta", "", "", FsIo::kMetadata, FsJudge::kRate, false, false},
    {"meta-stat", "meta", "", "", FsIo::kMetadata, FsJudge::kRate, false, false},
    {"meta-read", "meta", "", "", FsIo::kMetadata, FsJudge::kRate, false, false},
    {"meta-unlink", "meta", "", "", FsIo::kMetadata, FsJudge::kRate, false, false},
    {"ckpt-save", "ckpt-save", "", "shards", FsIo::kWrite, FsJudge::kBandwidth, true, true},
    {"ckpt-load", "ckpt-load", "ckpt-save", "", FsIo::kRead, FsJudge::kBandwidth, true, true},
});

// The row of a probe; nullptr for a name this build does not know (a run.json from another version):
// such a probe is judged on MB/s, with no direction, floor or latency.
const FsProbeTraits* find_fs_probe(std::string_view name);

// The --probes items in catalog order: {"seq-write", "seq-read", "rand-read", "meta", ...}.
std::vector<std::string> fs_probe_options();
// True when `option` is one of them.
bool is_fs_probe_option(std::string_view option);
// True for a comma list of them without blanks, empty items or "all" (a profile's fs.probes).
bool is_fs_probe_list(std::string_view list);
// "seq-write, seq-read, rand-read, meta, ckpt-save, ckpt-load": the items joined by `sep`.
std::string fs_probe_options_text(std::string_view sep = ", ");
// The --probes option's help: the items and which reads need which write.
std::string fs_probes_help();
// For a --probes selection (items, catalog order) that has a reader without the writer of what it
// reads: "seq-read and rand-read read the files seq-write writes; add seq-write" (the first such
// writer's); "" when every chosen reader has its writer.
std::string fs_missing_writer(const std::vector<std::string>& chosen);

// A probe result as printers and findings name it: "seq-write", or "seq-write #2" for block 2 of
// podperf fs --repeat (`block` 0: no blocks).
std::string fs_probe_label(std::string_view probe, int block);

// Per-probe traits by name, false/0 for names not in the catalog.
bool fs_probe_is_meta(std::string_view probe);      // judged on ops/s (the metadata phases)
bool fs_probe_reads(std::string_view probe);        // io kRead
bool fs_probe_writes(std::string_view probe);       // io kWrite
bool fs_probe_has_latency(std::string_view probe);  // judge kLatency
// The profile floor a probe's aggregate is held to: `write_floor` for floored writes, `read_floor`
// for floored reads, 0 otherwise.
double fs_probe_floor_mb_s(std::string_view probe, double write_floor, double read_floor);

}  // namespace podperf

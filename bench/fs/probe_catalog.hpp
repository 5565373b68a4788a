#pragma once
// The filesystem probe catalog, running half (floor bench/): each row of analysis/config/fs_probes (kFsProbes)
// bound to how it runs on one rank (the functions of bench/fs/probes), what run.json records of its
// sizes, and what the plan and the stage need of it (its space, its checks, its directory, its
// files' removal). One runner per trait row, in the same order: probe_catalog.cpp does not compile
// otherwise. A runner's `run` is collective where its probe needs it (ckpt-save: every rank calls
// it); the other hooks are local. Nothing here throws but `check` (UsageError) and std::bad_alloc.
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "analysis/model/run.hpp"
#include "bench/fs/fs_plan.hpp"
#include "bench/fs/probes.hpp"
#include "bench/mpi.hpp"
#include "bench/options.hpp"

namespace podperf {

// What one rank's run of a probe hands the stage.
struct FsProbeOutcome {
  FsRankResult mine;
  double commit_s = 0.0;        // rank 0: when the probe's result became durable (ckpt-save), 0: n/a
  std::function<void()> after;  // once every rank's result is in, outside the timed region (or empty)
};

// A probe's sizes as run.json records them.
struct FsProbeShape {
  std::uint64_t block_size_bytes = 0;
  std::uint64_t file_size_bytes = 0;
  std::uint64_t files_per_rank = 0;
};

struct FsProbeRunner {
  std::string_view name;   // its row in kFsProbes (same index)
  bool progress_in_bytes;  // rank 0's progress line counts bytes (else operations)
  FsProbeShape (*shape)(const FsPlan&);
  // This rank's part, from right after the probe's start barrier to the gather of the results.
  FsProbeOutcome (*run)(const Comm& world, const ProbeContext& c);
  // nullptr / "" where a probe has none of these:
  std::uint64_t (*peak_bytes)(const FsPlan&);      // the bytes per rank it has on the filesystem at most
  void (*check)(const FsPlan&, const FsOptions&);  // throws UsageError naming the flag
  const char* subdir;                              // created in the probe directory before any probe
  // Removes this rank's files that the probe's option left for its readers, once none is left to run.
  void (*remove_files)(const ProbeContext&);
};

// Every runner, in catalog order.
std::span<const FsProbeRunner> fs_probe_runners();

}  // namespace podperf

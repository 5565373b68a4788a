#pragma once
// The filesystem stage inside an MPI job (podperf fs; podperf run --fs-path): prepare the probe
// directory, run the probes rank by rank between barriers, hand the results to rank 0's recorder,
// and leave nothing behind. Collective: every function is called by every rank of `world`.
#include <string>
#include <vector>

#include "analysis/model/run.hpp"
#include "bench/fs/fs_plan.hpp"
#include "bench/mpi.hpp"
#include "bench/node_map.hpp"
#include "bench/options.hpp"
#include "bench/run_recorder.hpp"
#include "bench/watchdog.hpp"

namespace podperf {

struct FsSetup {
  std::string dir;       // this rank's probe directory: <path>/podperf-<run id>
  bool shared = false;   // every node saw rank 0's directory
  bool creator = false;  // this rank created the directory (and removes it at the end)
  FsRun info;            // what run.json records (meaningful on rank 0)
};

// Checks --path on every rank (exists, a directory, writable), creates the probe directory (rank 0;
// on node-local filesystems also the first rank of every host that cannot see it), checks that the
// probes fit the free space (statvfs, with the numbers in the error), and registers the abort
// cleanup. Throws UsageError, identical on every rank, after removing what it created.
FsSetup prepare_fs_stage(const Comm& world, const NodeMap& map, const FsPlan& plan, const FsOptions& o,
                         const std::string& run_id);

// Runs the plan's probes. Rank 0 (recorder not null) records each probe's results as they arrive,
// prints progress, and summarizes each probe in one line. A rank's I/O failure stops the stage after
// the probe it happened in (every rank's files are still removed): returns the first error on every
// rank, "" when every probe ran. Each probe runs under the watchdog (timeout_s). `blocks` >= 2
// (podperf fs --repeat): the whole chain of probes runs that many times, one block after another, in
// the chain's order (a read needs its write), each probe result tagged with its block.
std::string run_fs_probes(const Comm& world, const NodeMap& map, const FsPlan& plan, FsSetup& setup,
                          RunRecorder* recorder, Watchdog& watchdog, double timeout_s, int blocks = 1);

// Removes the probe directory (unless --keep) and clears the abort cleanup.
void finish_fs_stage(const Comm& world, FsSetup& setup);

// The filesystem type of the mount that holds `path` (/proc/self/mountinfo, longest mount point
// prefix of its real path); "" when unknown.
std::string fs_type_of(const std::string& path);

}  // namespace podperf

#pragma once
// The MPI job's options: what the command line (app/cli) asks of `podperf pairs|run|collective|fs|accept`,
// nccl-tests flags where they exist. Bench floor; plain data, throws nothing. (The offline commands'
// options live in their own headers in offline/.)
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/accept/acceptance.hpp"
#include "analysis/config/fs_probes.hpp"

namespace podperf {

// Options every measuring command takes.
struct CommonOptions {
  std::string backend = "auto";
  std::string nccl_library;  // --nccl-library: the libnccl to load ("" searches, bench/nccl_api.hpp)
  std::string min_bytes;
  std::string max_bytes;
  std::uint64_t step_factor = 2;
  std::string step_bytes = "0";
  int iters = 20;
  int warmup = 5;
  int check = 1;
  int combine = 3;  // -a: 0 rank0, 1 avg, 2 min, 3 max
  double timeout_s = 600.0;
  std::string out = "results";
  std::string run_id;
  int virtual_nodes = 0;
  int repeat = 1;  // --repeat K: every case in K blocks spread over the job (pairs, collective)
  std::string signals_root = "/";  // host signals read under this prefix; %h -> the host's name
};

// Filesystem probes (podperf fs; podperf run with --fs-path). Sizes take K/M/G suffixes.
struct FsOptions {
  std::string path;  // where the probe directory podperf-<run id> is created ("" in run: no fs stage)
  std::string path_flag = "--path";  // how the command line spells it (--fs-path in podperf run), for errors
  std::string probes = fs_probe_options_text(",");  // every probe (analysis/config/fs_probes)
  std::string block_size = "1M";     // sequential and checkpoint I/O per call
  std::string file_size = "1G";      // seq-write/seq-read file per rank
  bool direct = false;               // O_DIRECT for data probes
  std::string rand_block_size = "4K";
  int rand_ops = 4096;               // random reads per rank
  int meta_files = 1000;             // small files per rank
  std::string meta_file_size = "4K";
  std::string ckpt_shard_size = "1G";
  int ckpt_shards = 1;               // shards per rank
  bool keep = false;                 // leave the probe directory in place
  bool no_space_check = false;       // start even when the probes do not fit the free space
  std::string fsx_deployment;        // FSx for Lustre deployment type, for the expected throughput
  double fsx_capacity_tib = 0.0;
  double expected_mb_s = 0.0;        // expected aggregate throughput given directly (read and write)
  std::string config;                // thresholds file (the [fs] table)
};

struct PairsOptions : CommonOptions {
  PairsOptions() {
    min_bytes = "16M";
    max_bytes = "256M";
  }
  std::string op = "all_reduce";
  std::string dtype = "float";
  std::string concurrency = "round";
  std::string pairs;  // "0:3,2:5": retest chosen pairs only
  int retest = 1;     // passes re-measuring pairs flagged at the judged size
  std::optional<double> threshold;
  std::string config;
  std::string topology;                  // --topology FILE: where each node sits (EKS labels, Slurm, CSV)
  std::string topology_format = "auto";  // eks | slurm | csv | auto
  std::string schedule = "all";  // all | adaptive
  std::uint64_t seed = 0;        // adaptive matchings and the modelled fabric
  std::string adaptive_scope = "auto";  // auto | flat | within | layered (bench/adaptive_scope.hpp)
  std::string adaptive_level;           // a topology level for within/layered; "": the innermost
  int sim_nodes = 64;            // --backend sim
  std::string sim_model = "healthy";
  std::string prometheus;  // --prometheus FILE: also write the node-exporter textfile (pairs, run)
  std::string baseline_from;  // --baseline-from RUN: judged against that run (a retest, a confirmation)
  FsOptions fs;  // podperf run: the filesystem stage when fs.path is set
};

struct CollectiveOptions : CommonOptions {
  CollectiveOptions() {
    min_bytes = "8";
    max_bytes = "128M";
  }
  std::string ops = "all_reduce";  // comma list or "all"
  std::string dtypes = "float";    // comma list
  std::string group_by = "world";  // world | node
};

struct FsCommandOptions : CommonOptions {
  FsOptions fs;
};

// podperf accept: the profile's stages, judged (or, with --from, a finished run re-judged offline).
// The measuring options are podperf run's; those on the command line override the profile's values.
struct AcceptOptions {
  AcceptanceOptions judging;  // profile, SKU, --from, --junit, --topology, the names given
  PairsOptions run;           // pairs and filesystem options (run.fs.path from --fs-path; run.topology unused)
};

// The job's command line: the command and its options, filled by app/cli.
struct Cli {
  std::string command;  // pairs | run | collective | fs | accept
  PairsOptions pairs;
  CollectiveOptions collective;
  FsCommandOptions fs;
  AcceptOptions accept;
  std::vector<std::string> argv;
};

}  // namespace podperf

// The MPI job's subcommands on the command line (pairs, run, fs, collective, accept): their options,
// help texts and defaults, bound to the structs of bench/options.hpp. App floor (above bench/ and
// offline/), local; CLI11 throws only for a bad definition (a bug), never for user input here.
#include "app/job_options.hpp"

#include "analysis/config/fs_probes.hpp"
#include "app/cli_checks.hpp"

namespace podperf {
namespace {

namespace rule = cli_checks;

// Options of every MPI command: where results go, the watchdog, signals, virtual nodes.
void add_job_options(CLI::App* app, CommonOptions& o) {
  app->add_option("-T,--timeout", o.timeout_s,
                  "seconds a round (pairs), an op's sweep (collective) or a filesystem probe may take before the "
                  "watchdog ends the run (exit 3, finished results kept)")
      ->check(rule::number_above(0, "seconds"))
      ->capture_default_str();
  app->add_option("--out", o.out, "results root; files go to OUT/RUN_ID/")
      ->check(rule::output_directory())
      ->capture_default_str();
  app->add_option("--run-id", o.run_id, "name of this run's results directory (default: time and job id)")
      ->check(rule::non_empty_text());
  app->add_option("--signals-root", o.signals_root,
                  "read host signals under this directory instead of / (%h becomes each host's name; for tests "
                  "with fixture trees)")
      ->check(rule::directory_or_host_pattern())
      ->capture_default_str();
  app->add_option("--virtual-nodes", o.virtual_nodes,
                  "split the ranks of each host into K labelled virtual nodes (local demos and tests only)")
      ->check(rule::whole_number(0, 1 << 20))
      ->capture_default_str();
}

// The filesystem probes' options; `path_flag` is --path (podperf fs) or --fs-path (podperf run).
void add_fs_options(CLI::App* app, FsOptions& o, const std::string& path_flag) {
  const std::string group = "Filesystem probes";
  const bool in_run = path_flag != "--path";
  o.path_flag = path_flag;
  app->add_option(path_flag, o.path,
                  in_run ? "also probe this filesystem after the pairs: podperf creates DIR/podperf-<run id>, "
                           "writes only there and removes it (see podperf fs --help)"
                         : "directory to probe: podperf creates DIR/podperf-<run id>, writes only there and removes "
                           "it at the end (unless --keep); on a shared filesystem every node sees one directory")
      ->check(rule::existing_directory())
      ->group(group)
      ->required(!in_run);
  app->add_option("--probes", o.probes, fs_probes_help())
      ->check(rule::non_empty_text())
      ->group(group)
      ->capture_default_str();
  app->add_option("--block-size", o.block_size, "bytes per read/write call of seq-* and ckpt-* (K/M/G)")
      ->check(rule::byte_size(1))
      ->group(group)
      ->capture_default_str();
  app->add_option("--file-size", o.file_size, "bytes each rank writes in seq-write and reads in seq-read")
      ->check(rule::byte_size(1))
      ->group(group)
      ->capture_default_str();
  app->add_flag("--direct", o.direct,
                "O_DIRECT for the data probes (aligned buffers; sizes must be multiples of 4K): no page cache "
                "on either side")
      ->group(group);
  app->add_option("--rand-block-size", o.rand_block_size, "bytes per random read (data-loader pattern)")
      ->check(rule::byte_size(1))
      ->group(group)
      ->capture_default_str();
  app->add_option("--rand-ops", o.rand_ops, "random reads per rank")
      ->check(rule::whole_number(1, 100000000))
      ->group(group)
      ->capture_default_str();
  app->add_option("--meta-files", o.meta_files, "small files per rank in the metadata probe (mdtest pattern)")
      ->check(rule::whole_number(1, 10000000))
      ->group(group)
      ->capture_default_str();
  app->add_option("--meta-file-size", o.meta_file_size, "bytes in each small file (0: empty files)")
      ->check(rule::byte_size(0))
      ->group(group)
      ->capture_default_str();
  app->add_option("--ckpt-shard-size", o.ckpt_shard_size,
                  "bytes per checkpoint shard (real clusters: 10-18G per GPU rank)")
      ->check(rule::byte_size(1))
      ->group(group)
      ->capture_default_str();
  app->add_option("--ckpt-shards", o.ckpt_shards, "checkpoint shards per rank")
      ->check(rule::whole_number(1, 1000))
      ->group(group)
      ->capture_default_str();
  app->add_flag("--keep", o.keep, "leave the probe directory and its files in place")->group(group);
  app->add_flag("--no-space-check", o.no_space_check,
                "start even when statvfs says the probes do not fit (quotas or filesystems whose free space "
                "statvfs does not show); a full filesystem then fails the probe with ENOSPC (exit 3)")
      ->group(group);
  app->add_option("--fsx-deployment", o.fsx_deployment,
                  "FSx for Lustre deployment type (SCRATCH_2, PERSISTENT_2-125/250/500/1000, PERSISTENT_1-50/100/200) "
                  "with --fsx-capacity-tib: the expected throughput, for the saturation finding")
      ->check(rule::non_empty_text())
      ->group(group);
  app->add_option("--fsx-capacity-tib", o.fsx_capacity_tib, "FSx storage capacity in TiB")
      ->check(rule::number_above(0, "TiB"))
      ->group(group);
  app->add_option("--expected-mb-s", o.expected_mb_s,
                  "the filesystem's expected aggregate throughput in MB/s, when it is not FSx")
      ->check(rule::number_above(0, "MB/s"))
      ->group(group);
}

// --repeat K: the blocks of one job (sweep/block_order); `cases` says what one case of the command is.
void add_repeat_option(CLI::App* app, CommonOptions& o, const std::string& cases) {
  app->add_option("--repeat", o.repeat,
                  "measure every case (" + cases +
                      ") in K blocks spread over the job: each block runs every case once, in its own shuffled "
                      "order, so run.json and podperf compare see drift within the job (blocks do not capture "
                      "launch-to-launch variance: only separate jobs do)")
      ->check(rule::whole_number(1, 100))
      ->capture_default_str();
}

// with_sim: the pairs commands also take --backend sim (a modelled fabric, bench/sim_pairs.hpp).
void add_common_options(CLI::App* app, CommonOptions& o, bool with_sim = false) {
  // A flag given twice: the last one wins, as with nccl-tests and getopt.
  app->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  const std::vector<std::string> backends = with_sim ? std::vector<std::string>{"auto", "host", "nccl", "sim"}
                                                     : std::vector<std::string>{"auto", "host", "nccl"};
  const std::string sim_help =
      with_sim ? "; sim: a modelled fabric of --sim-nodes nodes in one process (no mpirun)" : "";
#ifdef PODPERF_HAVE_NCCL
  app->add_option("--backend", o.backend,
                  "nccl (GPUs), host (MPI on host memory), auto (nccl when a GPU is visible)" + sim_help)
      ->check(rule::one_of(backends))
      ->capture_default_str();
#else
  app->add_option("--backend", o.backend,
                  "host (MPI on host memory) or auto (this build has no NCCL backend)" + sim_help)
      ->check(rule::one_of(backends))
      ->capture_default_str();
#endif
  app->add_option("--nccl-library", o.nccl_library,
                  "the libnccl.so to load for --backend nccl (default: libnccl.so.2 on LD_LIBRARY_PATH and the "
                  "ld.so cache, then the nvidia-nccl pip wheel under the Python site-packages)")
      ->check(rule::name_or_existing_file());
  app->add_option("-b,--minbytes", o.min_bytes, "smallest message size in bytes (K/M/G suffixes)")
      ->check(rule::byte_size(1))
      ->capture_default_str();
  app->add_option("-e,--maxbytes", o.max_bytes, "largest message size")
      ->check(rule::byte_size(1))
      ->capture_default_str();
  app->add_option("-f,--stepfactor", o.step_factor, "multiply the size by this factor between steps")
      ->check(rule::unsigned_number(1))
      ->capture_default_str();
  app->add_option("-i,--stepbytes", o.step_bytes, "add this many bytes between steps instead of -f (0: use -f)")
      ->check(rule::byte_size(0))
      ->capture_default_str();
  app->add_option("-n,--iters", o.iters, "timed iterations per size (identical on every rank)")
      ->check(rule::whole_number(1, 1000000))
      ->capture_default_str();
  app->add_option("-w,--warmup_iters", o.warmup, "untimed warm-up iterations per size")
      ->check(rule::whole_number(0, 1000000))
      ->capture_default_str();
  app->add_option("-c,--check", o.check, "check results (1) or not (0); any wrong element fails the case")
      ->check(rule::whole_number(0, 1))
      ->capture_default_str();
  app->add_option("-a,--average", o.combine,
                  "how the ranks' times of an iteration combine: 0 rank 0, 1 average, 2 min, 3 max (the slowest "
                  "rank). podperf defaults to 3, nccl-tests to 1 (the average): give -a 1 to put the numbers beside "
                  "nccl-tests'")
      ->check(rule::whole_number(0, 3))
      ->capture_default_str();
  add_job_options(app, o);
}

// podperf pairs and run (and accept, whose --topology and --prometheus are its own: `topology`,
// `topology_format`, `prometheus`).
void add_pairs_options(CLI::App* app, PairsOptions& o, std::string& topology, std::string& topology_format,
                       std::string& prometheus) {
  add_common_options(app, o, true);
  app->get_option("--maxbytes")->description("largest message size; nodes are judged at this size");
  app->add_option("--op", o.op,
                  "collective to test each pair with: all_reduce, all_gather, reduce_scatter, alltoall, broadcast, "
                  "reduce, sendrecv")
      ->check(rule::non_empty_text())
      ->capture_default_str();
  app->add_option("-d,--datatype", o.dtype, "element type: float, double, int32 (nccl: also half, bfloat16)")
      ->check(rule::non_empty_text())
      ->capture_default_str();
  app->add_option("--concurrency", o.concurrency,
                  "round: pairs of a round run at once; sequential: one pair at a time (fabrics where "
                  "concurrent pairs interfere)")
      ->check(rule::one_of({"round", "sequential"}))
      ->capture_default_str();
  app->add_option("--retest", o.retest,
                  "re-measure the pairs flagged at the largest size this many times; a pair stays flagged only when "
                  "the retest confirms it (0: no retest)")
      ->check(rule::whole_number(0, 10))
      ->capture_default_str();
  app->add_option("--pairs", o.pairs, "retest only these pairs: node indices or hostnames, e.g. 0:3,2:5 or h1:h3")
      ->check(rule::non_empty_text());
  app->add_option("--baseline-from", o.baseline_from,
                  "judge this run against an earlier run (its run.json or results directory): its levels, node "
                  "estimates and noise at the same size, as a retest or confirmation of its evidence should be (a few "
                  "pairs are never their own baseline)")
      ->check(rule::existing_path());
  app->add_option("--threshold", o.threshold,
                  "flag a pair more than this fraction below the robust baseline (default from "
                  "configs/thresholds.toml: 0.05)")
      ->check(rule::number_in(0, 1, ""));
  app->add_option("--config", o.config, "thresholds file replacing the built-in configs/thresholds.toml")
      ->check(rule::existing_file());
  add_topology_options(app, topology, topology_format);
  app->add_option(
         "--prometheus", prometheus,
         "also write the run as a Prometheus node-exporter textfile (per node: verdict, straggler, busbw at "
         "the judged size, flagged pairs, filesystem MB/s; labels host and instance_type; docs/prometheus.md), "
         "written atomically at the end")
      ->check(rule::output_file_in_existing_directory());
  app->add_option("--schedule", o.schedule,
                  "all: every pair (circle rounds); adaptive: random matchings, then suspects retested against "
                  "good nodes until confirmed or cleared (rank 0 decides each round)")
      ->check(rule::one_of({"all", "adaptive"}))
      ->capture_default_str();
  app->add_option("--seed", o.seed,
                  "random seed of the adaptive matchings, of the modelled fabric and of the --repeat blocks' order")
      ->check(rule::unsigned_number(0))
      ->capture_default_str();
  add_repeat_option(app, o, "step of the plan (a round of pairs at every size)");
  app->add_option("--adaptive-scope", o.adaptive_scope,
                  "--schedule adaptive with a topology (--topology, or the sim model's): flat: random matchings "
                  "over all nodes (topology-blind); within: matchings and retests inside each group at "
                  "--adaptive-level, so nodes are judged without crossing upper layers; layered: within, then "
                  "matchings across groups (same parent first) that find slow groups/uplinks (CONCERN "
                  "topology.slow_uplink); auto: layered with a topology, flat without")
      ->check(rule::one_of({"auto", "flat", "within", "layered"}))
      ->capture_default_str();
  app->add_option("--adaptive-level", o.adaptive_level,
                  "the topology level whose groups the within/layered search pairs inside (default: the innermost, "
                  "e.g. the rack)")
      ->check(rule::non_empty_text());
  const std::string group = "Modelled fabric (--backend sim)";
  app->add_option("--sim-nodes", o.sim_nodes, "number of simulated nodes")
      ->check(rule::whole_number(2, 1 << 20))
      ->capture_default_str()
      ->group(group);
  app->add_option(
         "--sim-model", o.sim_model,
         "model: NAME (configs/sim/NAME.toml, built in: healthy, stragglers, rack, random4, uplink) or a TOML file")
      ->check(rule::name_or_existing_file())
      ->capture_default_str()
      ->group(group);
}

void add_collective_options(CLI::App* app, CollectiveOptions& o) {
  add_common_options(app, o);
  app->add_option("--op", o.ops,
                  "comma list of ops, or all: all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce, "
                  "sendrecv")
      ->check(rule::non_empty_text())
      ->capture_default_str();
  app->add_option("-d,--datatype", o.dtypes, "comma list of element types: float, double, int32 (nccl: half, bfloat16)")
      ->check(rule::non_empty_text())
      ->capture_default_str();
  app->add_option("--group-by", o.group_by,
                  "world: one group of all ranks; node: one group per node at once (the intra-node check)")
      ->check(rule::one_of({"world", "node"}))
      ->capture_default_str();
  add_repeat_option(app, o, "one op and type at every size");
}
// podperf accept: podperf run's options, whose sizes and iterations default to the profile's.
void add_accept_options(CLI::App* app, AcceptOptions& o) {
  add_pairs_options(app, o.run, o.judging.topology, o.judging.topology_format, o.judging.prometheus);
  add_fs_options(app, o.run.fs, "--fs-path");
  app->get_option("--fs-path")
      ->description(
          "directory for the filesystem stage of profiles that have one (full, fs): podperf creates "
          "DIR/podperf-<run id>, writes only there and removes it");
  for (const char* name : {"-b", "-e", "-f", "-n", "-w", "--retest", "--concurrency", "--probes", "--file-size",
                           "--block-size", "--rand-ops", "--meta-files", "--ckpt-shard-size", "--ckpt-shards"}) {
    app->get_option(name)->default_str("the profile's");
  }
  const std::string group = "Acceptance";
  app->add_option("--profile", o.judging.profile,
                  "what to run and how to judge it: quick (pairs, minutes), full (pairs and filesystem), fs "
                  "(filesystem only), or a profile file (configs/profiles/*.toml)")
      ->check(rule::name_or_existing_file())
      ->group(group)
      ->capture_default_str();
  app->add_option("--sku", o.judging.sku,
                  "instance type whose published busbw the nodes are held to (configs/skus: p4d.24xlarge, "
                  "p4de.24xlarge, p5.48xlarge, p5e.48xlarge, p5en.48xlarge, p6-b200.48xlarge) or a SKU file "
                  "(default: the instance type every node reports)")
      ->check(rule::name_or_existing_file())
      ->group(group);
  app->add_option("--from", o.judging.from,
                  "judge a finished run offline (its run.json, or its results directory) with this profile and SKU; "
                  "no MPI, nothing measured")
      ->check(rule::existing_path())
      ->group(group);
  app->add_option("--junit", o.judging.junit, "also write the verdict as JUnit XML (one test case per node and check)")
      ->check(rule::output_file())
      ->group(group);
  app->add_option("--cluster-name", o.judging.cluster_name,
                  "the SageMaker HyperPod cluster (name or ARN) for the printed batch-reboot/replace-cluster-nodes "
                  "lines (default: the placeholder CLUSTER_NAME)")
      ->check(rule::non_empty_text())
      ->group(group);
}

}  // namespace

// --topology FILE and --topology-format: where each node sits in the network.
void add_topology_options(CLI::App* app, std::string& file, std::string& format) {
  app->add_option("--topology", file,
                  "where each node sits in the network: `kubectl get nodes -o json` output (EKS topology labels), "
                  "Slurm topology.conf or `scontrol show topology` output, or a CSV node,<level>,...; the analysis "
                  "compares pairs that cross a level with pairs inside one, the heatmap orders nodes by it")
      ->check(rule::existing_file());
  app->add_option("--topology-format", format, "format of --topology: eks, slurm, csv, or auto (from its content)")
      ->check(rule::one_of({"auto", "eks", "slurm", "csv"}))
      ->capture_default_str();
}

JobSubcommands add_job_subcommands(CLI::App& app, Cli& cli) {
  CLI::App* pairs = app.add_subcommand("pairs", "all-reduce between every pair of nodes: the slow nodes and links");
  pairs->footer(
      "Every pair of nodes in concurrent rounds (circle method), or an adaptive search; flags pairs below the "
      "robust baseline and names straggler nodes and slow links. Exit 0 nothing flagged, 1 something flagged, 2 "
      "bad usage, 3 runtime failure. Details: docs/pairs.md and docs/judging.md.");
  add_pairs_options(pairs, cli.pairs, cli.pairs.topology, cli.pairs.topology_format, cli.pairs.prometheus);
  CLI::App* run = app.add_subcommand("run", "every stage: the pairs, then the filesystem probes with --fs-path");
  run->footer(
      "The pair test of podperf pairs, then podperf fs's probes under --fs-path DIR. Details: docs/pairs.md "
      "and docs/fs.md.");
  add_pairs_options(run, cli.pairs, cli.pairs.topology, cli.pairs.topology_format, cli.pairs.prometheus);
  add_fs_options(run, cli.pairs.fs, "--fs-path");
  CLI::App* fs = app.add_subcommand("fs", "filesystem probes on every rank: bandwidth, IOPS, the slow node");
  fs->footer(
      "Sequential write/read (reads cross nodes, IOR -C), random reads with latency percentiles, metadata (mdtest "
      "pattern), checkpoint save/load with checksums; IOR-style aggregate bandwidth, first/last done, the slow "
      "node named. Details: docs/fs.md.");
  fs->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  add_job_options(fs, cli.fs);
  add_fs_options(fs, cli.fs.fs, "--path");
  fs->add_option("--repeat", cli.fs.repeat,
                 "run the whole chain of probes K times, one block after another in the chain's order (a read "
                 "needs its write), so run.json and podperf compare see drift within the job (blocks do not capture "
                 "launch-to-launch variance: only separate jobs do)")
      ->check(rule::whole_number(1, 100))
      ->capture_default_str();
  fs->add_option("--config", cli.fs.fs.config, "thresholds file replacing the built-in configs/thresholds.toml")
      ->check(rule::existing_file());
  CLI::App* collective = app.add_subcommand("collective", "size sweeps of collectives, nccl-tests flags and table");
  collective->footer(
      "Over the whole job (or one group per node): out-of-place and in-place time, algbw, busbw, #wrong, as "
      "nccl-tests prints them. Details: docs/collective.md.");
  add_collective_options(collective, cli.collective);

  CLI::App* accept = app.add_subcommand("accept", "acceptance test: PASS, WARN or FAIL per node and for the run");
  accept->footer(
      "The profile's stages (pairs, filesystem), then a verdict per node and for the run (PASS, WARN, FAIL with "
      "every reason) against the instance type's published busbw; options given override the profile's and the "
      "verdict names them. Prints the commands that drain, reboot or replace the FAIL nodes with Slurm, "
      "Kubernetes and HyperPod (never runs them). Exit 0 when no node fails, 1 a FAIL, 2 bad usage, 3 runtime "
      "failure. --from judges a finished run offline. Details: docs/accept.md.");
  add_accept_options(accept, cli.accept);
  return {pairs, run, fs, collective, accept};
}

}  // namespace podperf

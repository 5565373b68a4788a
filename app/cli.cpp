#include "bench/cli.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "analysis/errors.hpp"
#include "bench/run_metadata.hpp"

namespace podperf {
namespace {

// Options of every MPI command: where results go, the watchdog, signals, virtual nodes.
void add_job_options(CLI::App* app, CommonOptions& o) {
  app->add_option("-T,--timeout", o.timeout_s,
                  "seconds a round (pairs), an op's sweep (collective) or a filesystem probe may take before the "
                  "watchdog ends the run (exit 3, finished results kept)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app->add_option("--out", o.out, "results root; files go to OUT/RUN_ID/")->capture_default_str();
  app->add_option("--run-id", o.run_id, "name of this run's results directory (default: time and job id)");
  app->add_option("--signals-root", o.signals_root,
                  "read host signals under this directory instead of / (%h becomes each host's name; for tests "
                  "with fixture trees)")
      ->capture_default_str();
  app->add_option("--virtual-nodes", o.virtual_nodes,
                  "split the ranks of each host into K labelled virtual nodes (local demos and tests only)")
      ->check(CLI::Range(0, 1 << 20))
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
      ->group(group)
      ->required(!in_run);
  app->add_option("--probes", o.probes,
                  "comma list of seq-write, seq-read, rand-read, meta, ckpt-save, ckpt-load (reads need the "
                  "matching write: seq-read and rand-read read seq-write's files, ckpt-load ckpt-save's shards)")
      ->group(group)
      ->capture_default_str();
  app->add_option("--block-size", o.block_size, "bytes per read/write call of seq-* and ckpt-* (K/M/G)")
      ->group(group)
      ->capture_default_str();
  app->add_option("--file-size", o.file_size, "bytes each rank writes in seq-write and reads in seq-read")
      ->group(group)
      ->capture_default_str();
  app->add_flag("--direct", o.direct,
                "O_DIRECT for the data probes (aligned buffers; sizes must be multiples of 4K): no page cache "
                "on either side")
      ->group(group);
  app->add_option("--rand-block-size", o.rand_block_size, "bytes per random read (data-loader pattern)")
      ->group(group)
      ->capture_default_str();
  app->add_option("--rand-ops", o.rand_ops, "random reads per rank")
      ->check(CLI::Range(1, 100000000))
      ->group(group)
      ->capture_default_str();
  app->add_option("--meta-files", o.meta_files, "small files per rank in the metadata probe (mdtest pattern)")
      ->check(CLI::Range(1, 10000000))
      ->group(group)
      ->capture_default_str();
  app->add_option("--meta-file-size", o.meta_file_size, "bytes in each small file (0: empty files)")
      ->group(group)
      ->capture_default_str();
  app->add_option("--ckpt-shard-size", o.ckpt_shard_size,
                  "bytes per checkpoint shard (real clusters: 10-18G per GPU rank)")
      ->group(group)
      ->capture_default_str();
  app->add_option("--ckpt-shards", o.ckpt_shards, "checkpoint shards per rank")
      ->check(CLI::Range(1, 1000))
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
      ->group(group);
  app->add_option("--fsx-capacity-tib", o.fsx_capacity_tib, "FSx storage capacity in TiB")
      ->check(CLI::PositiveNumber)
      ->group(group);
  app->add_option("--expected-mb-s", o.expected_mb_s,
                  "the filesystem's expected aggregate throughput in MB/s, when it is not FSx")
      ->check(CLI::PositiveNumber)
      ->group(group);
}

// with_sim: the pairs commands also take --backend sim (a modelled fabric, bench/sim_pairs.hpp).
void add_common_options(CLI::App* app, CommonOptions& o, bool with_sim = false) {
  // A flag given twice: the last one wins, as with nccl-tests and getopt.
  app->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  const std::vector<std::string> backends =
      with_sim ? std::vector<std::string>{"auto", "host", "nccl", "sim"} : std::vector<std::string>{"auto", "host", "nccl"};
  const std::string sim_help = with_sim ? "; sim: a modelled fabric of --sim-nodes nodes in one process (no mpirun)" : "";
#ifdef PODPERF_HAVE_NCCL
  app->add_option("--backend", o.backend,
                  "nccl (GPUs), host (MPI on host memory), auto (nccl when a GPU is visible)" + sim_help)
      ->check(CLI::IsMember(backends))
      ->capture_default_str();
#else
  app->add_option("--backend", o.backend, "host (MPI on host memory) or auto (this build has no NCCL backend)" + sim_help)
      ->check(CLI::IsMember(backends))
      ->capture_default_str();
#endif
  app->add_option("-b,--minbytes", o.min_bytes, "smallest message size in bytes (K/M/G suffixes)")
      ->capture_default_str();
  app->add_option("-e,--maxbytes", o.max_bytes, "largest message size")->capture_default_str();
  app->add_option("-f,--stepfactor", o.step_factor, "multiply the size by this factor between steps")
      ->capture_default_str();
  app->add_option("-i,--stepbytes", o.step_bytes, "add this many bytes between steps instead of -f (0: use -f)")
      ->capture_default_str();
  app->add_option("-n,--iters", o.iters, "timed iterations per size (identical on every rank)")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  app->add_option("-w,--warmup_iters", o.warmup, "untimed warm-up iterations per size")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  app->add_option("-c,--check", o.check, "check results (1) or not (0); any wrong element fails the case")
      ->check(CLI::Range(0, 1))
      ->capture_default_str();
  app->add_option("-a,--average", o.combine,
                  "how the ranks' times of an iteration combine: 0 rank 0, 1 average, 2 min, 3 max (the slowest)")
      ->check(CLI::Range(0, 3))
      ->capture_default_str();
  add_job_options(app, o);
}

// --topology FILE and --topology-format: where each node sits in the network.
void add_topology_options(CLI::App* app, std::string& file, std::string& format) {
  app->add_option("--topology", file,
                  "where each node sits in the network: `kubectl get nodes -o json` output (EKS topology labels), "
                  "Slurm topology.conf or `scontrol show topology` output, or a CSV node,<level>,...; the analysis "
                  "compares pairs that cross a level with pairs inside one, the heatmap orders nodes by it");
  app->add_option("--topology-format", format, "format of --topology: eks, slurm, csv, or auto (from its content)")
      ->check(CLI::IsMember({"auto", "eks", "slurm", "csv"}))
      ->capture_default_str();
}

void add_pairs_options(CLI::App* app, PairsOptions& o) {
  add_common_options(app, o, true);
  app->get_option("--maxbytes")->description("largest message size; nodes are judged at this size");
  app->add_option("--op", o.op,
                  "collective to test each pair with: all_reduce, all_gather, reduce_scatter, alltoall, broadcast, "
                  "reduce, sendrecv")
      ->capture_default_str();
  app->add_option("-d,--datatype", o.dtype, "element type: float, double, int32 (nccl: also half, bfloat16)")
      ->capture_default_str();
  app->add_option("--concurrency", o.concurrency,
                  "round: pairs of a round run at once; sequential: one pair at a time (fabrics where "
                  "concurrent pairs interfere)")
      ->check(CLI::IsMember({"round", "sequential"}))
      ->capture_default_str();
  app->add_option("--retest", o.retest,
                  "re-measure the pairs flagged at the largest size this many times; a pair stays flagged only when "
                  "the retest confirms it (0: no retest)")
      ->check(CLI::Range(0, 10))
      ->capture_default_str();
  app->add_option("--pairs", o.pairs, "retest only these pairs: node indices or hostnames, e.g. 0:3,2:5 or h1:h3");
  app->add_option("--threshold", o.threshold,
                  "flag a pair more than this fraction below the robust baseline (default from "
                  "configs/thresholds.toml: 0.05)")
      ->check(CLI::Range(0.0, 1.0));
  app->add_option("--config", o.config, "thresholds file replacing the built-in configs/thresholds.toml");
  add_topology_options(app, o.topology, o.topology_format);
  app->add_option("--schedule", o.schedule,
                  "all: every pair (circle rounds); adaptive: random matchings, then suspects retested against "
                  "good nodes until confirmed or cleared (rank 0 decides each round)")
      ->check(CLI::IsMember({"all", "adaptive"}))
      ->capture_default_str();
  app->add_option("--seed", o.seed, "random seed of the adaptive matchings and of the modelled fabric")
      ->capture_default_str();
  app->add_option("--adaptive-scope", o.adaptive_scope,
                  "--schedule adaptive with a topology (--topology, or the sim model's): flat: random matchings "
                  "over all nodes (topology-blind); within: matchings and retests inside each group at "
                  "--adaptive-level, so nodes are judged without crossing upper layers; layered: within, then "
                  "matchings across groups (same parent first) that find slow groups/uplinks (CONCERN "
                  "topology.slow_uplink); auto: layered with a topology, flat without")
      ->check(CLI::IsMember({"auto", "flat", "within", "layered"}))
      ->capture_default_str();
  app->add_option("--adaptive-level", o.adaptive_level,
                  "the topology level whose groups the within/layered search pairs inside (default: the innermost, "
                  "e.g. the rack)");
  const std::string group = "Modelled fabric (--backend sim)";
  app->add_option("--sim-nodes", o.sim_nodes, "number of simulated nodes")
      ->check(CLI::Range(2, 1 << 20))
      ->capture_default_str()
      ->group(group);
  app->add_option("--sim-model", o.sim_model,
                  "model: NAME (configs/sim/NAME.toml, built in: healthy, stragglers, rack, random4, uplink) or a TOML file")
      ->capture_default_str()
      ->group(group);
}

void add_collective_options(CLI::App* app, CollectiveOptions& o) {
  add_common_options(app, o);
  app->add_option("--op", o.ops,
                  "comma list of ops, or all: all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce, "
                  "sendrecv")
      ->capture_default_str();
  app->add_option("-d,--datatype", o.dtypes, "comma list of element types: float, double, int32 (nccl: half, bfloat16)")
      ->capture_default_str();
  app->add_option("--group-by", o.group_by,
                  "world: one group of all ranks; node: one group per node at once (the intra-node check)")
      ->check(CLI::IsMember({"world", "node"}))
      ->capture_default_str();
}

// Strict UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + n >= s.size()) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += n + 1;
  }
  return true;
}

// "r\xff": printable ASCII as is, other bytes as \xNN.
std::string escaped(std::string_view s) {
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7F) {
      out.push_back(ch);
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  return out;
}

// podperf accept: podperf run's options, whose sizes and iterations default to the profile's.
void add_accept_options(CLI::App* app, AcceptOptions& o) {
  add_pairs_options(app, o.run);
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
  app->add_option("--profile", o.profile,
                  "what to run and how to judge it: quick (pairs, minutes), full (pairs and filesystem), fs "
                  "(filesystem only), or a profile file (configs/profiles/*.toml)")
      ->group(group)
      ->capture_default_str();
  app->add_option("--sku", o.sku,
                  "instance type whose published busbw the nodes are held to (configs/skus: p4d.24xlarge, "
                  "p4de.24xlarge, p5.48xlarge, p5e.48xlarge, p5en.48xlarge, p6-b200.48xlarge) or a SKU file "
                  "(default: the instance type every node reports)")
      ->group(group);
  app->add_option("--from", o.from,
                  "judge a finished run offline (its run.json, or its results directory) with this profile and SKU; "
                  "no MPI, nothing measured")
      ->group(group);
  app->add_option("--junit", o.junit, "also write the verdict as JUnit XML (one test case per node and check)")
      ->group(group);
}

}  // namespace

std::optional<int> parse_cli(int argc, char** argv, Cli& cli) {
  const bool print = launcher_rank_from_env() == 0;
  cli.argv.assign(argv, argv + argc);
  // Arguments end up in run.json (argv, paths, run id): they must be text.
  for (int i = 1; i < argc; ++i) {
    if (!valid_utf8(argv[i])) {
      if (print) {
        std::fprintf(stderr,
                     "podperf: error: argument %d ('%s') is not valid UTF-8: podperf records its command line, paths "
                     "and run id in run.json\n",
                     i, escaped(argv[i]).c_str());
      }
      return kExitUsage;
    }
  }
  CLI::App app{
      "podperf: which node or link is slow? Benchmarks GPU training clusters from inside an srun or mpirun "
      "job.\nExit codes: 0 nothing flagged, 1 something flagged, 2 bad usage or configuration, 3 runtime "
      "failure (timeout, lost rank).",
      "podperf"};
  app.require_subcommand(0, 1);
  bool version = false;
  app.add_flag("--version", version, "print the version and build options");

  CLI::App* pairs = app.add_subcommand(
      "pairs",
      "all-reduce between every pair of nodes in concurrent rounds (circle method); flags pairs below the "
      "robust baseline and names straggler nodes");
  add_pairs_options(pairs, cli.pairs);
  CLI::App* run = app.add_subcommand(
      "run", "the main job: every stage podperf has (pairs, then the filesystem probes when --fs-path is given)");
  add_pairs_options(run, cli.pairs);
  add_fs_options(run, cli.pairs.fs, "--fs-path");
  CLI::App* fs = app.add_subcommand(
      "fs",
      "filesystem probes on every rank: sequential write/read (reads cross nodes, IOR -C), random reads with "
      "latency percentiles, metadata (mdtest pattern), checkpoint save/load with checksums; IOR-style aggregate "
      "bandwidth, first/last done, the slow node named");
  fs->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  add_job_options(fs, cli.fs);
  add_fs_options(fs, cli.fs.fs, "--path");
  fs->add_option("--config", cli.fs.fs.config, "thresholds file replacing the built-in configs/thresholds.toml");
  CLI::App* collective = app.add_subcommand(
      "collective",
      "size sweeps of collectives over the whole job (or one group per node), nccl-tests flags and table: "
      "out-of-place and in-place time, algbw, busbw, #wrong");
  add_collective_options(collective, cli.collective);

  CLI::App* accept = app.add_subcommand(
      "accept",
      "acceptance test: the profile's stages (pairs, filesystem), then a verdict per node and for the run "
      "(PASS, WARN, FAIL with every reason) against the instance type's published busbw; prints the nodes to "
      "drain (never acts on them); exit 0 only when every node passes. --from judges a finished run offline");
  add_accept_options(accept, cli.accept);

  CLI::App* signals = app.add_subcommand(
      "signals",
      "read-only host signals of THIS host (no MPI needed: run it before a job, or one per node with srun "
      "--ntasks-per-node=1): GPU PCIe, Xid, EFA, CPU governor, memory, /dev/shm, mounts, Lustre OSTs, versions, "
      "NCCL/EFA environment, each tagged OK / CONCERN / INFO with the next step");
  signals->add_option("--root", cli.signals.root, "read every path under DIR (a fixture tree in tests)")
      ->capture_default_str();
  signals->add_flag("--json", cli.signals.json, "print the findings as JSON");
  signals->add_option("--rules", cli.signals.rules, "rules file replacing the built-in configs/rules.toml");
  signals
      ->add_option("--sample", cli.signals.sample_seconds,
                   "seconds between two snapshots (iowait, steal, EFA counter rises, new Xids); 0: one snapshot")
      ->capture_default_str();

  CLI::App* report = app.add_subcommand(
      "report",
      "render a finished run (run.json, or its results directory) as a self-contained HTML report (inline SVG "
      "charts), a Markdown summary for a ticket, or a CSV of every measurement (no MPI needed)");
  report->add_option("RUN", cli.report.run, "run.json, or the results directory holding it")->required();
  report->add_option("--format", cli.report.format,
                     "html, md, csv, or junit (the acceptance verdict as JUnit XML; a run podperf accept never judged "
                     "is judged with the quick profile)")
      ->check(CLI::IsMember({"html", "md", "csv", "junit"}))
      ->capture_default_str();
  report->add_option("--out", cli.report.out,
                     "file to write (default: report.html/.md/.csv beside run.json; - for stdout)");
  add_topology_options(report, cli.report.topology, cli.report.topology_format);
  CLI::App* compare = app.add_subcommand(
      "compare",
      "offline, no MPI: compare two runs (run.json files or results directories) metric by metric (busbw per "
      "pair or collective case and size, filesystem MB/s, IOPS and p99 latency per probe and node): change in "
      "percent with an interval, a two-sided Mann-Whitney U test on the per-iteration (per-rank) samples, and a "
      "verdict; a change counts only when p < alpha AND it is at least --min-change, so a statistically "
      "significant but tiny shift of a stable system is noise. Warns when the runs differ (nodes, sizes, backend, "
      "NCCL version, environment) and compares what they share. Exit 0 no regression, 1 a metric slower by more "
      "than --fail-on, 2 unreadable input, 3 the --html page not written");
  compare->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  compare->add_option("BEFORE", cli.compare.before, "run.json (or results directory) of the earlier run")->required();
  compare->add_option("AFTER", cli.compare.after, "run.json (or results directory) of the later run")->required();
  compare
      ->add_option("--fail-on", cli.compare.fail_on_percent,
                   "exit 1 when a metric is slower by more than PCT percent (0: any slower verdict, which already "
                   "needs p < alpha and at least --min-change)")
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
  compare
      ->add_option("--min-change", cli.compare.min_change_percent,
                   "smallest change in percent that counts as slower or faster (default from configs/compare.toml: 2)")
      ->check(CLI::Range(0.0, 1000.0));
  compare
      ->add_option("--alpha", cli.compare.alpha,
                   "significance level of the test (default from configs/compare.toml: 0.05)")
      ->check(CLI::Range(1e-6, 0.5));
  add_topology_options(compare, cli.compare.topology, cli.compare.topology_format);
  compare->add_flag("--json", cli.compare.json, "print the comparison as JSON (every metric) instead of text");
  compare->add_option("--config", cli.compare.config, "settings file replacing the built-in configs/compare.toml");
  compare->add_option("--html", cli.compare.html,
                      "also write the comparison as a self-contained HTML page (summary, a before/after chart per "
                      "metric with intervals, the slower and faster metrics) to FILE; exit 3 when it cannot be "
                      "written");

  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "try NCCL/libfabric settings, sizes and ops: one fresh job per point of a sweep file (configs/sweeps/*.toml), "
      "launched with srun inside a Slurm allocation, else mpirun (or the file's launcher), as an argument vector, "
      "never through a shell; every point's run kept; ends with the points ranked by busbw per message size with "
      "95% intervals and the best setting per size (sweep.json, sweep.csv). Run it directly, not under srun/mpirun. "
      "Exit 0 all points ran, 1 some point failed or exited non-zero, 2 bad sweep file, 3 interrupted");
  sweep->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  sweep->add_option("FILE", cli.sweep.file,
                    "sweep file, or the name of a built-in one (nccl-algo-proto, efa, host-smoke)")
      ->required();
  sweep->add_option("--out", cli.sweep.out, "results root; the sweep goes to OUT/SWEEP_ID/, each point's run below it")
      ->capture_default_str();
  sweep->add_option("--sweep-id", cli.sweep.sweep_id, "name of the sweep's directory (default: sweep-<time>-p<pid>)");
  sweep->add_option("--launcher", cli.sweep.launcher,
                    "auto (the file's launch.argv, else srun when SLURM_JOB_ID is set, else mpirun), srun, mpirun, "
                    "file (the file's launch.argv), none (podperf alone, one rank)")
      ->check(CLI::IsMember({"auto", "srun", "mpirun", "file", "none"}))
      ->capture_default_str();
  sweep->add_option("--np", cli.sweep.np, "ranks per point: mpirun -np N (srun -n N); default the file's launch.np")
      ->check(CLI::Range(1, 1 << 24));
  sweep->add_option("--hostfile", cli.sweep.hostfile, "mpirun --hostfile FILE; default the file's launch.hostfile");
  sweep->add_option("--timeout", cli.sweep.timeout_s,
                    "seconds one point may take before its launcher is stopped (default the file's timeout_s, 3600)")
      ->check(CLI::PositiveNumber);
  sweep->add_flag("--dry-run", cli.sweep.dry_run, "print every point's command and variables; run nothing");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      if (print) app.exit(e);
      return 0;
    }
    if (print) std::fprintf(stderr, "podperf: error: %s\nRun 'podperf --help' for usage.\n", e.what());
    return kExitUsage;
  }
  if (version) {
    if (print) {
#ifdef PODPERF_HAVE_NCCL
      std::printf("podperf %s (backends: host, nccl)\n", PODPERF_VERSION);
#else
      std::printf("podperf %s (backends: host)\n", PODPERF_VERSION);
#endif
    }
    return 0;
  }
  if (pairs->parsed()) {
    cli.command = "pairs";
  } else if (run->parsed()) {
    cli.command = "run";
  } else if (fs->parsed()) {
    cli.command = "fs";
  } else if (collective->parsed()) {
    cli.command = "collective";
  } else if (signals->parsed()) {
    cli.command = "signals";
  } else if (report->parsed()) {
    cli.command = "report";
  } else if (compare->parsed()) {
    cli.command = "compare";
  } else if (sweep->parsed()) {
    cli.command = "sweep";
  } else if (accept->parsed()) {
    cli.command = "accept";
    for (const CLI::Option* opt : accept->get_options()) {
      if (opt->count() == 0) continue;
      for (const std::string& n : opt->get_lnames()) cli.accept.given.insert("--" + n);
      for (const std::string& n : opt->get_snames()) cli.accept.given.insert("-" + n);
    }
  } else {
    if (print) std::fprintf(stdout, "%s", app.help().c_str());
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace podperf

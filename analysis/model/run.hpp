#pragma once
// The Run: one object holding everything a run measured and concluded. Every output (run.json,
// events.jsonl, terminal summary, later HTML/CSV/JUnit) is a projection of it; writers compute nothing.
// Schema documented in docs/schema.md; bump kSchemaVersion on incompatible changes.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/base/finding.hpp"
#include "analysis/config/thresholds.hpp"

namespace podperf {

inline constexpr int kSchemaVersion = 1;

struct NodeInfo {
  int index = 0;
  std::string hostname;       // the host's name (shared by virtual nodes of one host)
  std::string label;          // what reports print: hostname, or "hostname/v2" for virtual nodes
  std::string instance_id;    // /sys/devices/virtual/dmi/id/board_asset_tag where readable
  std::string instance_type;  // /sys/devices/virtual/dmi/id/product_name where readable
  std::vector<int> ranks;     // world ranks on this node, ascending
  bool is_virtual = false;    // a --virtual-nodes split of one host (local demos and tests)
  // Where the node sits in the network, outermost level first, one name per entry of
  // Run::topology_levels (e.g. zone, network-node-layer-1..3, or Slurm switches); empty: not known.
  std::vector<std::string> topology;
  // The scheduler's names of the node, what its commands take (accept's drain, reboot and replace lines);
  // "" when not known. slurm_node_name: SLURMD_NODENAME in a Slurm job step (Slurm's NodeName, which
  // may differ from the hostname); kubernetes_node_name: PODPERF_NODE_NAME (the MPIJob sets it from the
  // pod's spec.nodeName; a pod's hostname is the pod's name, not the node's).
  std::string slurm_node_name;
  std::string kubernetes_node_name;
};

// One message size of one pair of nodes.
struct PairResult {
  int round = 0;  // 1-based round of the schedule
  std::array<int, 2> nodes{0, 0};
  std::string op = "all_reduce";
  std::string dtype = "float";
  std::uint64_t size_bytes = 0;
  std::uint64_t count = 0;        // elements per rank
  int ranks = 0;                  // ranks in the pair's communicator
  std::vector<double> samples_s;  // per iteration, slowest rank of the pair
  double median_s = 0.0;
  double min_s = 0.0;
  double max_s = 0.0;
  double p99_s = 0.0;
  double cv = 0.0;
  double algbw_gbps = 0.0;    // from the median time
  double busbw_gbps = 0.0;    // from the median time
  std::int64_t wrong = 0;     // mismatched elements in the correctness check
  std::string status = "ok";  // ok | wrong | error | timeout
  std::string error;
  // Retest of a pair flagged at the judged size (--retest): its per-iteration times and busbw; the busbw
  // of every later retest (--retest 2 or more, or a pair retested again) in later_retest_busbw_gbps.
  // Every measurement counts: none replaces another.
  std::vector<double> retest_samples_s;
  double retest_busbw_gbps = 0.0;
  std::vector<double> later_retest_busbw_gbps;
  // Filled by analysis:
  bool flagged = false;             // its measurements (most of them) low against its class
  bool cleared_by_retest = false;  // the first measurement low, not most of them: not flagged
  double baseline_gbps = 0.0;      // at the judged size: its class level (two healthy nodes on its path)
  double ratio = 0.0;       // busbw / baseline
  double noise_gbps = 0.0;  // robust sigma of per-iteration busbw
};

// One size of one collective on one group (the whole job, or one node), nccl-tests style.
struct CollectiveResult {
  std::string group;  // "world" or the node's label
  std::string op;
  std::string dtype;
  bool in_place = false;
  std::uint64_t size_bytes = 0;  // what algbw is computed from (rounded as nccl-tests does)
  std::uint64_t count = 0;       // elements per rank (per chunk for all_gather/reduce_scatter/alltoall)
  int ranks = 0;
  std::vector<double> samples_s;
  double median_s = 0.0;
  double min_s = 0.0;
  double max_s = 0.0;
  double p99_s = 0.0;
  double cv = 0.0;
  double algbw_gbps = 0.0;
  double busbw_gbps = 0.0;
  std::int64_t wrong = 0;
  std::string status = "ok";  // ok | wrong | error | skipped (no such form on this backend)
  std::string error;
};

struct SizeBaseline {
  std::uint64_t size_bytes = 0;
  double baseline_gbps = 0.0;
  double spread_gbps = 0.0;  // standard deviation of the pairs kept in the baseline
  std::size_t pairs_kept = 0;
  std::size_t pairs_total = 0;
};

struct Straggler {
  int node = 0;
  std::string hostname;  // the node's label
  int flagged_pairs = 0;
  int total_pairs = 0;
  double median_ratio = 0.0;  // its capacity estimate: busbw against the healthy population (node model)
  double ratio_low = 0.0;     // ...its family-wise interval (NodeEstimate)
  double ratio_high = 0.0;
  std::string evidence;
  std::vector<std::string> likely_causes;  // CONCERN findings of its host, likeliest first (correlate)
  std::string next_step;
};

// A flagged pair whose two nodes are both healthy: the link (or path) between them.
struct LinkFinding {
  std::array<int, 2> nodes{0, 0};
  std::array<std::string, 2> hostnames;
  double ratio = 0.0;
  std::string evidence;
  std::vector<std::string> likely_causes;  // CONCERN findings of the two hosts (correlate)
};

// A node's capacity at the judged size, from all its pairs and retests (analysis/pairs/node_model):
// busbw against the healthy population (1: as the median node), with its family-wise interval.
struct NodeEstimate {
  int node = 0;
  std::string label;
  std::string kind;        // its comparability class: "8 ranks" or "8 ranks, p5.48xlarge"
  double ratio = 0.0;      // 0 when not estimated
  double low = 0.0;        // the interval (the node_family_alpha bound on each side)
  double high = 0.0;
  int pairs = 0;           // pairs the estimate rests on (partners not slower than it)
  int measurements = 0;    // every measurement of its pairs (first and retests)
  int low_measurements = 0;  // ...below the pair cut against what the model expects of them
  std::string verdict;     // straggler | intermittent | ambiguous | undecided | fast | healthy | not judged
};

// One class of pairs at the judged size (their nodes' kinds and where they cross the network) and its
// level: the busbw of a pair of two healthy nodes in it.
struct PairClassLevel {
  std::string name;
  std::size_t pairs = 0;
  double level_gbps = 0.0;
  double ratio = 0.0;  // against the main class (the one with the most pairs)
};

// How the pairs were judged at the judged size, as applied (analysis/pairs/pair_verdicts): every
// printer prints these, none computes them.
struct PairJudgement {
  std::string op;
  std::uint64_t size_bytes = 0;
  std::size_t pairs = 0;          // ok pairs judged
  std::size_t measurements = 0;   // their measurements (first and retests)
  double mean_gbps = 0.0;         // the plain mean of the pairs' busbw
  std::size_t pairs_below_mean = 0;  // pairs more than the threshold below that mean (the plain rule)
  double level_gbps = 0.0;        // the healthy population's level in the main class (the baseline)
  double pair_noise = 0.0;        // a pair's noise about the model (fraction)
  double noise_df = 0.0;          // its degrees of freedom (the prior's included)
  std::size_t judged_nodes = 0;
  double node_cut = 0.0;          // fraction below the population a typical node is named beyond
  std::string node_cut_reason;    // "the threshold" or "the node estimate's 99.9% bound over 16 nodes ..."
  double pair_cut = 0.0;          // a pair is flagged beyond it
  std::string pair_cut_reason;
  double link_cut = 0.0;          // a pair between healthy nodes is a link beyond it (against its nodes)
  std::string structure;          // "topology", "blocks" (found in the matrix) or ""
  std::vector<PairClassLevel> classes;
  bool relative = false;          // three judged nodes or more
  std::string reference;          // the absolute reference line: "relative judgement only: ..." or the check made
};

// The run a retest or a confirmation is judged by (podperf pairs --baseline-from RUN), never by itself:
// that run's class levels and node estimates at its judged size, and its pair noise. Empty source: none.
struct PairReference {
  std::string source;  // "results/RUN/run.json (run RUN)"
  std::string op;
  std::uint64_t size_bytes = 0;
  std::vector<PairClassLevel> classes;
  std::vector<NodeEstimate> nodes;
  double pair_noise = 0.0;
  double noise_df = 0.0;
};

// A numeric host signal measured over the run, per host (for correlation with busbw).
struct NodeMetric {
  std::string host;
  std::string name;  // efa_error_counter_rise | iowait_percent | steal_percent | gpu_temperature_c
  double value = 0.0;
};

// ---- Filesystem probes (podperf fs, and the filesystem stage of podperf run) ----

// One rank's part of one probe (or of one phase of the metadata probe). Times are seconds since the
// probe's common start: every rank takes its own clock right after a barrier, so ranks on different
// nodes share a start within the barrier's skew (microseconds to milliseconds) and no clock sync is
// needed.
struct FsRankResult {
  int rank = 0;
  int node = 0;
  std::string file;               // what it wrote or read, relative to the probe directory (meta: its directory)
  int source_node = -1;           // reads: the node that wrote what this rank read (-1: not a read)
  std::uint64_t bytes = 0;        // payload bytes moved
  std::uint64_t ops = 0;          // read calls (rand-read) or file operations (meta phases)
  double start_s = 0.0;           // open (or the first operation)
  double end_s = 0.0;             // close after fsync (or the last operation)
  double mb_per_s = 0.0;          // bytes / (end_s - start_s) / 1e6
  double ops_per_s = 0.0;         // ops / (end_s - start_s)
  double cached_fraction = -1.0;  // reads: share of the file's pages in this host's page cache just before
                                  // reading (mincore); -1: not measured (writes, O_DIRECT, meta)
  double lat_p50_us = 0.0, lat_p90_us = 0.0, lat_p99_us = 0.0, lat_p999_us = 0.0;  // rand-read, per read call
  std::vector<double> latency_us;  // rand-read samples; NOT in run.json (aggregated into the probe's percentiles)
  std::uint64_t checksum_mismatches = 0;  // ckpt-load: shards whose content did not verify
  std::string status = "ok";              // ok | wrong (checksum) | error
  std::string error;                      // "node h1 rank 3: write <file> at offset N: No space left on device"
};

// One node's share of a probe: its ranks together.
struct FsNodeResult {
  int node = 0;
  std::string label;
  int ranks = 0;
  std::uint64_t bytes = 0;
  std::uint64_t ops = 0;
  double start_s = 0.0;    // first start of its ranks
  double end_s = 0.0;      // last end of its ranks
  double mb_per_s = 0.0;   // bytes / (end_s - start_s)
  double ops_per_s = 0.0;  // ops / (end_s - start_s)
  // Filled by analysis (judged on mb_per_s, or ops_per_s for the metadata phases):
  double ratio = 0.0;  // against the probe's robust baseline over nodes
  bool flagged = false;
};

// One probe over the whole job.
struct FsProbeResult {
  std::string probe;  // seq-write | seq-read | rand-read | meta-create | meta-stat | meta-read | meta-unlink |
                      // ckpt-save | ckpt-load
  std::uint64_t block_size_bytes = 0;  // per I/O call
  std::uint64_t file_size_bytes = 0;   // per rank (ckpt: per shard; meta: per small file)
  std::uint64_t files_per_rank = 0;    // meta: files; ckpt: shards
  bool direct = false;                 // O_DIRECT
  int block = 0;                       // podperf fs --repeat K: the block (1-based) it ran in; 0: no blocks
  std::vector<FsRankResult> ranks;
  // Analysis (IOR style):
  std::vector<FsNodeResult> nodes;
  std::uint64_t bytes = 0;
  std::uint64_t ops = 0;
  double commit_s = 0.0;      // ckpt-save: when rank 0 had renamed the metadata file into place (0: n/a)
  double duration_s = 0.0;    // max(last end, commit_s) - first start
  double first_done_s = 0.0;  // first rank done, since the first start
  double mb_per_s = 0.0;      // aggregate: bytes / duration_s
  double ops_per_s = 0.0;     // aggregate: ops / duration_s
  double lat_p50_us = 0.0, lat_p90_us = 0.0, lat_p99_us = 0.0, lat_p999_us = 0.0;  // rand-read, all ranks
  double cached_fraction_max = -1.0;  // reads: the largest cached share any rank saw before reading
  double baseline = 0.0;              // robust baseline of the nodes' metric (MB/s, or ops/s for meta)
  std::string slowest_node;           // label of the node with the lowest metric
  std::string status = "ok";          // ok | wrong | error (any rank)
  std::string error;                  // the first rank error
};

// A node slower than the others in one or more probes.
struct FsSlowNode {
  int node = 0;
  std::string label;
  std::vector<std::string> probes;  // the probes that flagged it
  double worst_ratio = 0.0;
  std::string evidence;
  std::vector<std::string> likely_causes;  // CONCERN findings of its host (iowait, mount fill, OSTs)
  std::string next_step;
};

// The filesystem stage of a run.
struct FsRun {
  std::string path;                // --path as given
  std::string probe_dir;           // the fresh directory podperf created (and removes unless --keep)
  std::string fs_type;             // /proc/self/mountinfo type of the mount holding path ("ext4", "lustre", ...)
  bool shared = false;             // every node saw rank 0's directory: one shared filesystem
  bool kept = false;               // --keep: the files were left in place
  std::uint64_t free_bytes = 0;    // at the start, as rank 0 saw it (statvfs f_bavail)
  std::uint64_t needed_bytes = 0;  // what the probes write at most at once on that filesystem
  // Expected throughput (configs/filesystems.toml, --fsx-deployment and --fsx-capacity-tib, or
  // --expected-mb-s); 0 when not given.
  double expected_read_mb_s = 0.0;
  double expected_write_mb_s = 0.0;
  std::string expected_source;
  std::vector<FsProbeResult> probes;
  std::vector<FsSlowNode> slow_nodes;  // analysis
};

// ---- Acceptance verdict (podperf accept; empty status: the run was not judged) ----

// One check of one node (or of the run, node ""): what was judged and how it came out.
struct VerdictCheck {
  std::string node;    // the node's label; "" for run-wide checks
  std::string check;   // stable id: busbw_min, straggler, slow_link, wrong_results, failed, blocking_finding,
                       // fs_floor, fs_slow_node, ...
  std::string status;  // PASS | WARN | FAIL | SKIP (not applicable: host backend, no SKU, no published figure)
  std::string detail;  // "busbw 301.2 GB/s at 1G, minimum 400 (p5.48xlarge, configs/skus/p5.48xlarge.toml)"
};

struct NodeVerdict {
  std::string node;  // label
  std::string hostname;
  std::string status;                // PASS | WARN | FAIL
  std::vector<std::string> reasons;  // every FAIL and WARN reason, in words
};

// A published busbw figure of the SKU the run was judged against (configs/skus/<sku>.toml pair_busbw).
struct SkuBusbwPoint {
  std::string op = "all_reduce";
  std::uint64_t size_bytes = 0;
  double busbw_gbps = 0.0;
};

// An option of the measuring podperf accept given on the command line in place of the profile's value.
struct ProfileOverride {
  std::string option;   // "-e"
  std::string value;    // as given: "4M"
  std::string profile;  // the profile's value: "1G"
};

struct Verdict {
  std::string status;                    // "" (not judged) | PASS | WARN | FAIL
  std::string profile;                   // quick | full | fs | a path
  std::vector<ProfileOverride> overrides;  // what the command line changed of the profile (measuring accept)
  std::string sku;                       // instance type whose baseline was used ("" when none)
  std::vector<SkuBusbwPoint> sku_busbw;  // that SKU's published pair busbw per size (reports draw it)
  std::vector<NodeVerdict> nodes;
  std::vector<VerdictCheck> checks;
  std::vector<std::string> drain;  // hostnames of the FAIL nodes: to drain, reboot or replace (printed, never run)
};

struct Launcher {
  std::string kind;  // slurm | openmpi | singleton
  std::string job_id;
  std::string step_id;
};

struct RunOptions {
  std::string op = "all_reduce";     // collective: the comma list
  std::string dtype = "float";       // collective: the comma list
  std::string group_by;              // collective: world | node
  std::string time_combine = "max";  // how per-rank times of an iteration combine (-a)
  std::vector<std::uint64_t> sizes_bytes;
  int iters = 0;
  int warmup = 0;
  bool check = true;
  std::string concurrency;  // round | sequential
  int retest = 0;           // passes of retesting flagged pairs
  // The run's thresholds are Run::thresholds; these two mirror it for readers of run.json's options
  // (pairs.threshold, or fs.threshold for podperf fs; the thresholds' source), set by record_thresholds.
  double threshold = 0.0;
  double timeout_s = 0.0;
  int virtual_nodes = 0;         // 0: real nodes
  std::string schedule = "all";  // pairs: all (every pair, circle rounds) | adaptive (straggler search)
  std::uint64_t seed = 0;        // sim backend and adaptive matchings: the random seed
  std::string thresholds_source;
};

// --repeat K (pairs, collective; fs: see FsProbeResult::block): every case measured in K blocks spread over the job,
// each block holding every case once in its own shuffled order (sweep/block_order, analysis/model/run_blocks). A
// result's samples_s then holds its blocks' iterations block after block, options.iters of them per
// block measured (a block that failed or never ran adds none), so block b is
// samples_s[b*iters, (b+1)*iters). count 0 (run.json without the field) or 1: no blocks.
struct RunBlocks {
  int count = 0;                        // K
  std::uint64_t seed = 0;               // of the shuffles (the same on every rank)
  std::string cases;                    // what a case is: "steps" (pairs), "cases" (collective: op and type)
  std::vector<std::vector<int>> order;  // per block, the 0-based cases in the order they ran
};

struct Run {
  int schema_version = kSchemaVersion;
  std::string podperf_version;
  std::string run_id;
  std::string command;  // pairs | run | collective
  std::vector<std::string> argv;
  std::string started_at;   // ISO 8601 UTC
  std::string finished_at;  // ISO 8601 UTC
  Launcher launcher;
  std::string backend;     // host | nccl | sim
  bool simulated = false;  // --backend sim: every number comes from a model, not a network
  std::string sim_model;   // the model file (configs/sim/...) when simulated
  // --backend nccl: the libnccl the run measured (the file the dynamic linker opened, which may be a
  // container's or a pip wheel's NCCL, not the one podperf was built against) and its ncclGetVersion.
  std::string backend_library;
  std::string backend_library_version;  // "2.28.9"
  int ranks = 0;
  RunOptions options;
  // The thresholds this run is judged with (configs/thresholds.toml or --config, with --threshold
  // applied): recorded in run.json and the start event, so every rebuild and offline command judges
  // with them. Set by record_thresholds; read by every judge and printer.
  Thresholds thresholds;
  std::vector<NodeInfo> nodes;
  std::vector<std::string> topology_levels;  // names of NodeInfo::topology's entries, outermost first
  std::string topology_source;               // the file the topology came from ("" when none)
  int rounds_planned = 0;
  int rounds_completed = 0;
  int rounds_full_schedule = 0;  // what every pair would have cost (circle rounds); adaptive runs use fewer
  RunBlocks blocks;              // --repeat
  std::vector<PairResult> pairs;
  std::vector<CollectiveResult> collectives;  // podperf collective
  FsRun fs;                                   // podperf fs, podperf run --fs-path
  // Analysis:
  std::uint64_t judged_size_bytes = 0;  // size at which nodes are judged (the largest measured)
  std::vector<SizeBaseline> baselines;
  std::vector<Straggler> stragglers;  // slowest first
  std::vector<LinkFinding> links;
  std::vector<NodeEstimate> node_estimates;  // every node, in node order (empty: no pairs judged)
  PairJudgement pair_judgement;
  PairReference pair_reference;  // --baseline-from: recorded at the start, read by the judge
  std::vector<Finding> findings;         // NCCL's own log and host signals, tagged OK/CONCERN/INFO
  std::vector<NodeMetric> node_metrics;  // numeric host signals over the run
  Verdict verdict;                       // podperf accept
  std::string nccl_log;                  // where NCCL's debug log went: "captured in nccl.<host>.<pid>" or why not
  // Outcome:
  std::string status = "complete";  // complete | timeout | aborted
  std::string error;
  std::vector<std::string> unfinished;  // pairs that did not finish, "round 3: h1 <-> h4"
};

// Records the thresholds the run is judged with: run.thresholds and its mirrors in run.options.
inline void record_thresholds(Run& run, const Thresholds& thresholds) {
  run.thresholds = thresholds;
  run.options.threshold = run.command == "fs" ? thresholds.fs.threshold : thresholds.pairs.threshold;
  run.options.thresholds_source = thresholds.source;
}

// The status of a measurement (a pair, a collective case, a filesystem probe or rank, a sweep job)
// that finished and checked out, tested by length first ("ok" is nearly every pair at scale).
inline bool status_ok(const std::string& status) {
  return status.size() == 2 && status[0] == 'o' && status[1] == 'k';
}

// A pair (or a per-size baseline) at the size the pair judge judges the nodes at (run.judged_size_bytes).
template <class AtSize>
requires requires(const AtSize& m) {
  m.size_bytes;
}
bool at_judged_size(const Run& run, const AtSize& measured) {
  return measured.size_bytes == run.judged_size_bytes;
}

// A pair at the judged size that finished and checked out: the pairs every node judgement reads.
inline bool judged_ok(const Run& run, const PairResult& p) {
  return at_judged_size(run, p) && status_ok(p.status);
}

}  // namespace podperf

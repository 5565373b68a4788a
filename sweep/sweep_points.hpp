#pragma once
// podperf sweep FILE: the sweep file (configs/sweeps/*.toml) and the points it expands to. Pure: no
// processes, no environment. Every point is one fresh job (NCCL reads its variables once per process).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

// [launch] of a sweep file: how each point's job is started (all optional).
struct SweepLaunch {
  std::vector<std::string> argv;         // a launcher command used as is (podperf's argv is appended)
  std::string srun_mpi = "pmix";         // srun --mpi=VALUE
  int np = 0;                            // mpirun -np (0: not given)
  std::string hostfile;                  // mpirun --hostfile
  std::vector<std::string> srun_args;    // extra arguments for srun, before podperf
  std::vector<std::string> mpirun_args;  // extra arguments for mpirun, before podperf
};

// One point: the settings it changes against the base command.
struct SweepPoint {
  int index = 0;                           // 1-based
  std::string name;                        // "point-03-NCCL_ALGO=Ring_NCCL_PROTO=LL": the run id
  std::map<std::string, std::string> env;  // set in the job's environment
  std::string op;                          // --op VALUE ("" = the base command's)
  std::string sizes;                       // "MIN:MAX" or "SIZE" -> -b MIN -e MAX ("" = the base's)
  std::vector<std::string> args;           // extra podperf arguments (explicit points)
  // "NCCL_ALGO=Ring NCCL_PROTO=LL op=all_reduce sizes=1M:1G": what the tables print.
  [[nodiscard]] std::string label() const;
};

// 3: two jobs a point leave Welch's test of two points 1 to 2 degrees of freedom, so only differences of
// tens of percent can be ranked; three are the fewest that rank points a few percent apart (docs/sweep.md).
inline constexpr int kDefaultSweepRepeats = 3;
inline constexpr int kMaxSweepRepeats = 100;

struct SweepSpec {
  std::string source;  // what errors name (the file, or "configs/sweeps/x.toml (built in)")
  std::string description;
  std::string command;            // collective | pairs
  std::vector<std::string> args;  // the base podperf arguments of every point
  std::string metric = "busbw";
  double timeout_s = 3600.0;  // per point: the launcher is stopped after this
  // Each point runs `repeats` times, as separate jobs in interleaved cycles (every point once per
  // cycle, the order of each cycle shuffled by `seed`): the ranking's unit is the job, so that
  // run-to-run variance is measured, not assumed away (docs: "Sweeps repeat their points").
  int repeats = kDefaultSweepRepeats;
  std::uint64_t seed = 1;
  SweepLaunch launch;
  std::vector<SweepPoint> points;  // expanded (product of [vary], or the [[points]] as listed)
};

// Parses and validates a sweep file: unknown keys, wrong types, bad sizes, environment names that are
// not NAME (letters, digits, '_'), base arguments the sweep owns (--out, --run-id; --op/-b/-e when
// the points vary them) are ConfigErrors naming source:line and the key. Expands the points.
SweepSpec parse_sweep(std::string_view toml_text, const std::string& source);
// A name (configs/sweeps/NAME.toml, built in) or a file path.
SweepSpec load_sweep(const std::string& name_or_file);
std::vector<std::string> builtin_sweeps();

// The podperf arguments of one point: command, base args, the point's --op, -b/-e and args.
std::vector<std::string> point_podperf_args(const SweepSpec& spec, const SweepPoint& point);

// One job of a sweep: a point and which of its repeats (1-based).
struct SweepJob {
  const SweepPoint* point = nullptr;
  int repeat = 1;
  std::string run_id;  // the point's name, with "-r<repeat>" when the sweep repeats its points
};
// The order the jobs run in: `repeats` cycles, each holding every point once, each cycle's order a
// Fisher-Yates shuffle by splitmix64 seeded from (seed, cycle) (ABC CAB BCA, never AABBCC). Identical
// for the same file and seed on every machine. Pure.
std::vector<SweepJob> sweep_job_order(const SweepSpec& spec);

// "NCCL_ALGO=Ring,NCCL_PROTO=LL" -> a file-name-safe run id fragment ([A-Za-z0-9._=-], at most 80 chars).
std::string safe_name(std::string_view text);

}  // namespace podperf

#pragma once
// podperf sweep: which launcher starts each point's job, the argument vector it runs, and running it.
// Nothing here goes through a shell: the argv is executed as is (posix_spawnp) and settings reach the
// job as environment variables, so no value from a sweep file is ever parsed by a shell.
#include <map>
#include <string>
#include <vector>

#include "sweep/sweep_points.hpp"

namespace podperf {

struct LaunchChoice {
  std::string kind;                 // srun | mpirun | file (the sweep file's launch.argv) | none (podperf alone)
  std::vector<std::string> prefix;  // the launcher and its arguments, before podperf
  bool forward_with_x = false;      // Open MPI's mpirun: each point's variables also as -x NAME
  std::string why;                  // "inside Slurm job 42", "--launcher mpirun", ...
};

// `requested`: auto | srun | mpirun | file | none (--launcher). auto: the file's launch.argv when it has
// one, else srun inside a Slurm allocation (`slurm_job_id` non-empty), else mpirun. `np` and `hostfile`
// from the command line win over the file's. UsageError for --launcher file without launch.argv, and
// --hostfile with srun.
LaunchChoice choose_launcher(const std::string& requested, const SweepLaunch& file, int np, const std::string& hostfile,
                             const std::string& slurm_job_id);

// launcher prefix + (-x NAME per variable for mpirun) + podperf_exe + podperf_args.
std::vector<std::string> launch_argv(const LaunchChoice& launcher, const std::string& podperf_exe,
                                     const std::vector<std::string>& podperf_args,
                                     const std::map<std::string, std::string>& env);

// `environ` with `overrides` replacing or adding NAME=VALUE entries (values taken literally).
std::vector<std::string> child_environment(char** environ_entries, const std::map<std::string, std::string>& overrides);

struct SpawnResult {
  bool started = false;
  int exit_code = 0;         // exit status, or 128 + signal
  bool timed_out = false;    // stopped after timeout_s
  bool interrupted = false;  // SIGINT/SIGTERM reached podperf sweep while it waited
  std::string error;         // why it could not start
};

// Runs argv with `env` (complete NAME=VALUE list), stdin from /dev/null, stdout and stderr to `log_path`.
// SIGINT/SIGTERM (blocked in podperf) are waited for here: one is forwarded to the job as SIGTERM and
// reported as interrupted. After `timeout_s` the job gets SIGTERM, 10 s later SIGKILL.
SpawnResult spawn_and_wait(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                           const std::string& log_path, double timeout_s);

// Takes a SIGINT/SIGTERM that arrived (blocked) while no job was running: true when there was one.
bool take_pending_termination();

// The last `max_lines` lines (at most `max_bytes`) of a file; "" when unreadable.
std::string file_tail(const std::string& path, std::size_t max_lines, std::size_t max_bytes);

}  // namespace podperf

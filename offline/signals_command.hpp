#pragma once
// `podperf signals`: a read-only snapshot of THIS host, evaluated against the signal rules. Offline
// floor, local, no MPI.
#include <iosfwd>
#include <string>
#include <vector>

#include "analysis/base/finding.hpp"

namespace podperf {

struct SignalsOptions {
  std::string root = "/";       // --root DIR: read every path under DIR (a fixture tree in tests)
  bool json = false;            // --json: findings as a JSON array instead of the table
  std::string rules_path;       // --rules FILE: "" = the built-in configs/rules.toml
  double sample_seconds = 1.0;  // --sample SECONDS: a second snapshot this much later adds iowait/steal,
                                // EFA counter rises and new Xids (evaluate_delta); 0 = one snapshot only
  std::string fail_on = "never";  // --fail-on: concern (exit 1 on any CONCERN) | never (exit 0 whatever was found)
  bool local = false;             // --local: this host only, also under srun/mpirun (no MPI)
};

// The exit code of podperf signals for `findings`: 1 (kExitFlagged) when `fail_on` is "concern" and any
// finding is a CONCERN, else 0. What a Slurm prolog or HealthCheckProgram acts on.
int signals_exit_code(const std::vector<Finding>& findings, const std::string& fail_on);

// True when podperf signals runs as one rank of several under a launcher (srun's SLURM_STEP_NUM_TASKS,
// Open MPI's OMPI_COMM_WORLD_SIZE, PMI_SIZE above 1) and --local is not given: it then gathers every
// host's snapshot over MPI (bench/signals_job) instead of reading this host alone.
bool signals_across_hosts(const SignalsOptions& o);

// Collects, evaluates and prints as described by `o`. Returns signals_exit_code (0, or 1 for a CONCERN
// with --fail-on concern); 2 (kExitUsage) when the rules file is invalid or sample_seconds is negative /
// above 600; 3 when collecting fails (run_offline_command: a one-line error on `err`).
int run_signals_command(const SignalsOptions& o, std::ostream& out, std::ostream& err);

// Collects a snapshot of this host under `root` ("/" on a real host), evaluates it with the rules at
// `rules_path` ("" = the built-in configs/rules.toml) and prints a table (or JSON) to `out`.
// Returns 0; 2 when the rules file is invalid (one-line error on `err`). Missing signals are INFO.
// One snapshot only (sample_seconds = 0).
int run_signals_command(const std::string& root, bool json, const std::string& rules_path, std::ostream& out,
                        std::ostream& err);
// Same, on std::cout / std::cerr, with a 1 s second sample (SignalsOptions defaults).
int run_signals_command(const std::string& root, bool json, const std::string& rules_path);

}  // namespace podperf

#pragma once
// podperf signals under srun or mpirun: every host's snapshot (the lowest rank of each host takes it,
// bench/node_signals) gathered to rank 0, each host's rules, what changed over --sample, and the drift
// across hosts (signals/rules evaluate_drift), printed once by rank 0 (analysis/report/findings_table
// findings_by_host, or one JSON array of every finding). Bench floor, collective.
#include "offline/signals_command.hpp"

namespace podperf {

// Runs `o` as an MPI job; every rank returns the same exit code: signals_exit_code over every host's and
// every cross-host finding (1 for a CONCERN with --fail-on concern), 2 for a bad rules file or --sample,
// 3 when MPI fails.
int run_signals_job(int* argc, char*** argv, const SignalsOptions& o);

}  // namespace podperf

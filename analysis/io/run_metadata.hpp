#pragma once
// Facts about the launch: launcher (Slurm or Open MPI), times, run id.
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

// From the environment: SLURM_JOB_ID/SLURM_STEP_ID -> slurm; OMPI_COMM_WORLD_SIZE -> openmpi;
// else singleton.
Launcher detect_launcher();
// World rank from the launcher's environment, before MPI starts (0 when not launched by one).
int launcher_rank_from_env();
// Current UTC time, ISO 8601 with milliseconds: 2026-11-30T01:02:03.456Z.
std::string iso8601_now();
// "20261130-010203-j1234" (Slurm job) or "20261130-010203-p5678" (pid).
std::string make_run_id(const Launcher& launcher);

}  // namespace podperf

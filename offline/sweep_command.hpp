#pragma once
// podperf sweep FILE: one fresh job per point of a sweep file (NCCL reads its variables once per
// process), launched through srun or mpirun (or the file's launcher) with an argument vector, never a
// shell; each point's run kept under OUT/SWEEP_ID/; then the points ranked by busbw per message size.
// Not an MPI program itself: it never calls MPI_Init.
#include <iosfwd>
#include <string>

namespace podperf {

struct SweepOptions {
  std::string file;               // configs/sweeps NAME or a file path
  std::string out = "results";    // results root
  std::string sweep_id;           // "" = sweep-<time>-p<pid>
  std::string launcher = "auto";  // auto | srun | mpirun | file | none
  int np = 0;                     // mpirun -np (srun -n)
  std::string hostfile;           // mpirun --hostfile
  double timeout_s = 0.0;         // per point; 0 = the file's timeout_s
  bool dry_run = false;           // print each point's command and environment, run nothing
};

// Exit: 0 every point ran and exited 0; 1 some point failed, timed out or exited non-zero (recorded,
// the sweep went on); 2 bad usage or sweep file (before anything runs); 3 interrupted, or sweep.json
// could not be written.
int run_sweep_command(const SweepOptions& o, std::ostream& out, std::ostream& err);

}  // namespace podperf

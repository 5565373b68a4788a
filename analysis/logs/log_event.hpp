#pragma once
// One recognised line of a job's log (NCCL, aws-ofi-nccl, libfabric, PyTorch c10d, kernel, MPI,
// nccl-tests, ncclras, Slurm): the event every log reader produces and every triage rule consumes.
// Launcher and log-shipper wrappers are already stripped from `text`. Pure data, analysis floor.
#include <cstddef>
#include <string>
#include <string_view>

#include "analysis/logs/line_bigrams.hpp"

namespace podperf::logs {

enum class LogSource { nccl, ofi_nccl, libfabric, pytorch, kernel, mpi, nccl_tests, ras, slurm, other };

// The severity class of a line or finding: FAIL-class (the job cannot go on), WARN-class, INFO.
enum class SeverityClass { info, warn, fail };

std::string_view source_name(LogSource s);  // "nccl", "ofi-nccl", "libfabric", "pytorch", ...

struct LogEvent {
  std::string file;        // the file it came from, as given
  std::size_t line = 0;    // 1-based line number in that file
  std::size_t order = 0;   // position across every file read (cross-file order of appearance)
  std::string time;        // "2024-05-01 12:00:03" or an ISO stamp as printed; "" when unknown
  std::string host;        // the host this line names itself (NCCL prefix, pdsh/syslog/Open MPI/UCX/Ray/
                           // kubectl prefix, "srun: error: HOST:", "on node HOST"); "" when it names none
  std::string prior_host;  // the host named last before this line in the same file ("" none); only the
                           // reader of podperf's own one-process NCCL log attributes lines by it
  int rank = -1;           // srun -l / mpirun [1,N] / "[rankN]:" launcher tag; -1 unknown
  int task = -1;           // the launcher's task tag of the line (srun -l N, mpirun [1,N]); -1 none
  long pid = -1;           // NCCL prefix, Open MPI/UCX "[host:pid]", Ray "pid=N", libfabric pid; -1 unknown
  int cuda_dev = -1;       // NCCL prefix [dev]; -1 unknown
  LogSource source = LogSource::other;
  std::string level;          // "INFO", "WARN", "CALL" for NCCL lines; "" otherwise
  std::string code_location;  // "misc/socket.cc:492" (WARN prefix or return chain); "" none
  int return_code = -1;       // "file.cc:NNN -> N": N; -1 when the line is not a return chain
  std::string text;           // the message after every prefix (NCCL: after "NCCL INFO "/"NCCL WARN ")
  bool recognised = false;    // a known prefix, source, timestamp or launcher rank was found
  BigramSet pairs;            // the byte pairs of `text` (line_bigrams.hpp): the searches' prefilter
};

// ncclResult_t names and strings (nccl.h 2.30.7): 1 "ncclUnhandledCudaError", ... 8 "ncclTimeout";
// "rc N" for other values.
std::string return_code_name(int rc);

}  // namespace podperf::logs

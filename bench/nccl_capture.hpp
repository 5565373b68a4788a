#pragma once
// Captures NCCL's own debug log for the run (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET,
// NCCL_DEBUG_FILE=<run dir>/nccl.%h.%p) unless the user set those variables, and turns it into
// findings on rank 0 (analysis/logs/nccl_log: the same reader and pattern table as podperf triage). NCCL reads the
// variables once per process, at init, so prepare_nccl_log runs before the NCCL backend starts.
#include <string>
#include <string_view>
#include <vector>

#include "analysis/base/finding.hpp"
#include "bench/mpi.hpp"

namespace podperf {

struct NcclLogCapture {
  bool captured = false;
  std::string run_dir;
  std::string note;  // for run.json: where the log went, or why it was not captured
};

// Local: sets the variables for this process when unset and the run directory can be created here.
NcclLogCapture prepare_nccl_log(const std::string& run_dir);

// The run.json note for a run on `backend_name`: where NCCL's log went, or why there is none.
std::string nccl_log_note(const NcclLogCapture& capture, std::string_view backend_name);

// Collective over `world`: every rank reads its own log file; rank 0 parses them all together and
// returns the findings (empty on other ranks, and when nothing was captured).
std::vector<Finding> collect_nccl_findings(const Comm& world, const NcclLogCapture& capture);

}  // namespace podperf

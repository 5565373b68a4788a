#pragma once
// The grammar of one log line (LOG-PATTERNS.md section 0): launcher and log-shipper wrappers (srun -l
// "N: ", mpirun "[1,N]<stdout>:", pdsh "host: ", Kubernetes/CRI "ISO stdout F ", CloudWatch
// "  | ISO | ", ISO and bracketed timestamps, Ray "(Worker pid=N) "), then NCCL's own prefix
// "host:pid:tid [dev] [file.cc:NNN] NCCL INFO|WARN text" and its "file.cc:NNN -> rc" return chains.
// Pure, analysis floor; never throws; any bytes accepted.
#include <string_view>

#include "analysis/logs/log_event.hpp"

namespace podperf::logs {

// Fills `ev`'s time, host, rank, pid, cuda_dev, level, code_location, return_code, source and text from
// one raw line (no line end). Returns false when nothing was recognised (text is then the stripped
// line, source other). `ev.host` is only set when the line names a host.
bool parse_log_line(std::string_view raw, LogEvent& ev);

// The source a message belongs to, judged by its text (NET/OFI -> ofi-nccl, "libfabric:" -> libfabric,
// ProcessGroupNCCL -> pytorch, ...); `nccl_prefixed` when NCCL's own prefix was present.
LogSource classify_source(std::string_view text, bool nccl_prefixed);

}  // namespace podperf::logs

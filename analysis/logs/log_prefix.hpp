#pragma once
// The grammar of one log line (as launchers, log shippers and NCCL print it): launcher and log-shipper wrappers (srun
// -l "N: ", mpirun "[1,N]<stdout>:", pdsh "host: ", Kubernetes/CRI "ISO stdout F ", CloudWatch "  | ISO | ", ISO and
// bracketed timestamps, Ray "(Worker pid=N) "), then NCCL's own prefix "host:pid:tid [dev] [file.cc:NNN] NCCL INFO|WARN
// text" and its "file.cc:NNN -> rc" return chains. Pure, analysis floor; never throws; any bytes accepted.
#include <string>
#include <string_view>

#include "analysis/logs/log_event.hpp"

namespace podperf::logs {

// Fills `ev`'s time, host, rank, pid, cuda_dev, level, code_location, return_code, source and text from
// one raw line (no line end). Returns false when nothing was recognised (text is then the stripped
// line, source other). `ev.host` is only set when the line names a host.
bool parse_log_line(std::string_view raw, LogEvent& ev);

// The host a log file's name (or the folder it is in) carries: "ip-10-1-9-9.dmesg", "logs/node-a1/out.log",
// "rank3-gpu-st-p4d-2.log" name one; "slurm-1234.out", "rank-3.log", "train-2024-05-01.log" do not (a token
// names a host when it has letters, digits and a '-', starts with a letter, and its first word is not a
// common log word), and an address "10-0-9-52" or "10.0.9.52" does. "" when none.
std::string host_from_file_name(std::string_view path);

// The source a message belongs to, judged by its text (NET/OFI -> ofi-nccl, "libfabric:" -> libfabric,
// ProcessGroupNCCL -> pytorch, ...); `nccl_prefixed` when NCCL's own prefix was present.
LogSource classify_source(std::string_view text, bool nccl_prefixed);
// The same with the text's byte pairs already computed.
LogSource classify_source(std::string_view text, bool nccl_prefixed, const BigramSet& pairs);

}  // namespace podperf::logs

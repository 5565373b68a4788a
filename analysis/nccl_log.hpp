#pragma once
// Parser for NCCL debug logs (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET; NCCL_DEBUG_FILE=dir/nccl.%h.%p)
// and the rules that turn what it finds into findings (FIELD-NOTES section 5). Pure: no MPI, no CUDA.
// The parser is analysis/nccl_log_parse.cpp, the rules analysis/nccl_log_findings.cpp, what both share
// analysis/nccl_log_facts.hpp.
//
// A line NCCL writes looks like
//   ip-10-1-2-3:12345:12346 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 32 nics)
//   [2025-06-06 09:52:01] ip-10-1-2-3:12345:12346 [1] misc/shmutils.cc:87 NCCL WARN Error: ...
// i.e. `host:pid:tid [cudaDev] [file:line ]NCCL INFO|WARN message`, optionally after a launcher tag
// ("[1,3]<stdout>:", "3: ") or a timestamp. Facts are kept per (host, pid).
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/finding.hpp"

namespace podperf {

// What one NCCL process's log lines say about its transport. "" / -1 / false mean "not seen".
struct NcclProcessFacts {
  std::string host;                // from the line prefix ("" for lines without one)
  long pid = -1;                   // from the line prefix (-1 for lines without one)
  std::vector<int> cuda_devices;   // devices seen in "[d]", first-seen order, no repeats
  std::string nccl_version;        // "2.28.3" from "NCCL version 2.28.3+cuda13.0"
  std::string nccl_cuda;           // "13.0" from "+cuda13.0"
  std::string net;                 // "Using network X": "Libfabric", "AWS Libfabric", "Socket", "IB", ""
  std::string ofi_provider;        // "efa", "tcp", "tcp;ofi_rxm", "" unknown
  std::string ofi_fabric;          // "efa-direct", "efa", "" unknown (older plugins do not print it)
  int nic_count = -1;              // from "(found N nics)"
  bool plugin_missing = false;     // "NET/Plugin: Could not find: libnccl-net.so" / "No plugin found", and
                                   // no net plugin loaded afterwards
  std::vector<std::string> socket_ifaces;  // "NET/Socket : Using [0]eth0:10.0.0.1<0>" -> "eth0"
  bool gdrdma_seen = false;                // any "via NET/.../GDRDMA"
  bool net_without_gdrdma_seen = false;    // a "via NET/..." channel line without GDRDMA
  std::set<std::string> intra_paths;       // "P2P/CUMEM", "P2P/IPC", "P2P/direct pointer", "SHM/direct", ...
  int channels = -1;                       // max channel count: "Channel 00/32 :" ring lines, "N coll channels"
  int nodes = -1;                          // max "nNodes N" of the communicators this process joined
  std::vector<std::string> warnings;       // NCCL WARN messages (after "NCCL WARN "), deduplicated, <= 50
  std::vector<std::string> errors;         // error lines (unhandled system/cuda error, remote process exited,
                                           // internal error, ncclSystemError, Cuda failure, ...), <= 50
  bool memlock_failure = false;  // "Call to ibv_reg_mr failed", "Unable to register memory ... RC: -12"
  bool shm_failure = false;      // "failed to extend /dev/shm/nccl-...", "Error while creating shared memory"
  bool nvls_unavailable = false; // "NVLS multicast support is not available"
};

struct NcclLogSummary {
  std::vector<NcclProcessFacts> processes;  // one per (host, pid), in first-seen order
  std::size_t lines = 0;           // lines in the input (a final line without '\n' included)
  std::size_t nccl_lines = 0;      // lines with an NCCL INFO/WARN/TRACE marker or a bare "NCCL version"
  std::size_t unparsed_lines = 0;  // non-blank lines that are not NCCL lines (application output, garbage)
  bool truncated_last_line = false;  // the input holds several lines and the last one has no '\n'
};

// Parses one log text: one process's NCCL_DEBUG_FILE, or stdout with many processes' lines interleaved.
// Lines without a host:pid prefix (application output, a bare "NCCL version" line, stripped logs) are
// attributed to the only process when there is exactly one; a bare "NCCL version" line goes to the
// process seen just before it; anything else is kept in a process with host "" and pid -1.
// When the text has several lines and the last has no '\n', that line is taken as cut: it is counted
// but no fact is read from it (a cut "(found 3" must not read as 3 NICs). Never throws on content.
NcclLogSummary parse_nccl_log(std::string_view text);

// Adds `other` to `into`: counters summed, facts of the same (host, pid) combined, new processes appended.
void merge_into(NcclLogSummary& into, const NcclLogSummary& other);

// The rules of FIELD-NOTES section 5. Findings are per host (the processes of a host combined), with
// source "nccl-log"; version drift, unreadable input and a truncated log are run-wide (host "").
// CONCERN: nccl.tcp_fallback, nccl.ofi_tcp, nccl.efa_nic_count (only when expected_efa_nics > 0),
//          nccl.no_gdrdma, nccl.version_drift, nccl.shm_intra_node, nccl.memlock, nccl.dev_shm, nccl.errors.
// INFO:    nccl.warnings, nccl.nvls_unavailable, nccl.unreadable, nccl.truncated; nccl.tcp_fallback is
//          INFO instead of CONCERN when every communicator of the host was single-node and no channel
//          used the network.
// OK:      nccl.summary, one per host without a CONCERN, e.g.
//          "Libfabric/efa 32 NICs GDRDMA, fabric efa-direct, P2P/CUMEM, 32 channels, NCCL 2.28.3+cuda13.0".
std::vector<Finding> nccl_log_findings(const NcclLogSummary& s, int expected_efa_nics);

// Parses every regular file named "nccl.*" directly in `dir` (name order) and merges the results.
// A missing directory or an unreadable file contributes nothing (no throw).
NcclLogSummary parse_nccl_log_dir(const std::string& dir);

// One line about a process's inter-node transport, for the summary of a slow pair, e.g.
// "Socket (TCP fallback) on eth0", "Libfabric/efa 32 NICs GDRDMA", "Libfabric/tcp;ofi_rxm (TCP, not EFA)",
// "IB GDRDMA", "intra-node only (P2P/CUMEM)", "unknown transport".
std::string describe_transport(const NcclProcessFacts& facts);

}  // namespace podperf

#pragma once
// podperf's own captured NCCL debug log (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET,
// NCCL_DEBUG_FILE=<run dir>/nccl.<host>.%p; bench/nccl_capture) read by the same reader, line grammar,
// pattern table and transport facts as `podperf triage` (analysis/logs/: one parser, not two), and the
// rules that turn the triage into run.json findings in podperf's OK / CONCERN / INFO vocabulary with the
// stable check ids run.json, analysis/pairs/correlate and configs/profiles use (nccl.tcp_fallback, ...).
// Reading: analysis/logs/nccl_log_read.cpp; the rules: analysis/logs/nccl_log_findings.cpp. Pure except
// parse_nccl_log_dir (reads files); never throws on content.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/base/finding.hpp"
#include "analysis/logs/triage.hpp"

namespace podperf {

// One log text, named `name` in evidence lines. The text is one process's NCCL_DEBUG_FILE or stdout with
// many processes' lines interleaved; lines without a host:pid prefix belong to the host named last
// before them. A last line without '\n' after earlier lines is taken as cut (the process died while
// NCCL wrote it): counted, nothing read from it (a cut "(found 3" must not read as 3 NICs).
logs::TriageResult parse_nccl_log(std::string_view text, const std::string& name = "nccl.log");

// Several logs at once, each {name, text} (the files every rank gathered to rank 0).
logs::TriageResult parse_nccl_logs(const std::vector<std::pair<std::string, std::string>>& logs);

// Every regular file named "nccl.*" directly in `dir` (name order, plain or .gz), streamed. A missing
// directory gives an empty result (no throw); an unreadable file is listed in `files` with its error.
logs::TriageResult parse_nccl_log_dir(const std::string& dir);

// The captured-log rules. Per host (transport table row): CONCERN nccl.tcp_fallback (INFO when every
// communicator of the host was single-node and no channel used the network), nccl.ofi_tcp,
// nccl.efa_nic_count (against expected_efa_nics, else the SKU of the instance type the plugin printed),
// nccl.no_gdrdma, nccl.shm_intra_node, nccl.memlock, nccl.dev_shm, nccl.errors (FAIL-class lines of the
// pattern table, root cause first), nccl.degraded (WARN-class lines, and NCCL WARNs the table does not
// know); INFO nccl.nvls_unavailable, nccl.warnings (distinct WARN texts); OK nccl.summary for a named
// host without a CONCERN. Run-wide (host ""): CONCERN nccl.version_drift; INFO nccl.unreadable,
// nccl.truncated. Source "nccl-log".
std::vector<Finding> nccl_log_findings(const logs::TriageResult& r, int expected_efa_nics);

// One line about a host's inter-node transport, for the summary of a slow pair, e.g.
// "Socket (TCP fallback) on eth0", "Libfabric/efa 32 NICs GDRDMA", "Libfabric/tcp;ofi_rxm (TCP, not EFA)",
// "IB GDRDMA", "intra-node only (P2P/CUMEM)", "unknown transport".
std::string describe_transport(const logs::HostTransport& t);

// The host used NCCL's own socket transport: "Using network Socket", only NET/Socket channels, or the net
// plugin missing with no IB, no libfabric provider and no other net named.
bool uses_socket_transport(const logs::HostTransport& t);

// A libfabric provider that moves data over TCP or UDP ("tcp", "tcp;ofi_rxm", "sockets", "udp").
bool is_tcp_provider(std::string_view provider);

}  // namespace podperf

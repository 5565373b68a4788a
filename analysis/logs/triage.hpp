#pragma once
// Log triage: the events of a job's logs (log_reader.hpp) in, findings with cause, evidence and next
// step out, ranked so the root cause comes before its cascade (shared/LOG-PATTERNS.md section 3), an
// overall verdict, and a transport table per host. Streaming: add() keeps bounded state (a few evidence
// lines per finding, one record per host and per watchdog rank), so multi-GiB logs fit in memory.
// Pure, analysis floor; the SKU lookup (configs/skus) is the built-in table.
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/logs/log_event.hpp"
#include "analysis/logs/log_reader.hpp"

namespace podperf::logs {

inline constexpr std::size_t kEvidencePerFinding = 6;

struct TriageFinding {
  std::string tag;                 // "FAIL", "WARN", "INFO" or "PASS"
  int priority = 2;                // 0 blocks training, 1 degraded, 2 informational
  std::string check;               // stable id: "gpu.cuda_oom", "nccl.rc.ncclSystemError", "pytorch.desync", ...
  std::string host;                // the one host, "systemic: N hosts", or "" (run-wide / unknown)
  std::vector<std::string> hosts;  // every host it was seen on, sorted
  std::string peer;                // the one peer (IP, host or GID) every evidence line names, else ""
  std::string role;                // "cause" (the root), "consequence" (a known cascade line), "" otherwise
  std::string cause;
  std::string next_step;
  std::vector<std::string> evidence;  // "file:line: text", at most kEvidencePerFinding
  std::size_t occurrences = 0;
  int cause_rank = 0;           // LOG-PATTERNS ranking (log_patterns.hpp); higher = more likely the root
  std::size_t first_order = 0;  // position of its first line across the files read
  std::string first_time;       // the earliest absolute timestamp of its lines, as printed; "" none
  double first_time_s = -1;     // the same in seconds since the epoch (UTC); -1 none
};

// The transport facts of one host, read from NCCL's and aws-ofi-nccl's INFO lines of every process
// that logged under that host name; the one fact model of `podperf triage` and of podperf's own
// captured NCCL log (analysis/logs/nccl_log.hpp). Lists are capped (kMaxListed) so damaged logs stay small.
inline constexpr std::size_t kMaxListed = 64;

struct HostTransport {
  std::string host;
  std::set<long> pids;                  // NCCL prefix pids seen on this host (processes)
  std::set<int> cuda_devices;           // NCCL prefix [dev] values
  std::size_t nccl_lines = 0;           // NCCL / aws-ofi-nccl lines attributed to this host
  std::string net;                      // "IB", "Libfabric", "AWS Libfabric", "Socket", ...; "" not printed
  bool ib_used = false;                 // "NET/IB : Using ..."
  bool ofi_seen = false;                // any NET/OFI line
  std::string provider;                 // libfabric provider ("efa", "tcp;ofi_rxm")
  std::string fabric;                   // libfabric fabric ("efa-direct"); "" when not printed
  bool plugin_missing = false;          // "NET/Plugin: Could not find: libnccl-net.so" and no net plugin loaded
  bool plugin_loaded = false;           // "Loaded net plugin", "Successfully loaded external network plugin", ...
  std::set<std::string> socket_ifaces;  // "NET/Socket : Using [0]eth0:..." -> "eth0"
  int nics_found = -1;                  // "(found N nics)"
  std::set<int> nic_indices;            // NET/<name>/<N> of the channel lines
  std::string instance_type;            // from "NET/OFI Running on <type> platform"
  int sku_efa_devices = -1;             // configs/skus for that instance type; -1 unknown
  int gdrdma_channels = 0;              // NET channel lines with /GDRDMA
  int net_channels = 0;                 // NET channel lines
  int socket_channels = 0;              // via NET/Socket
  bool pxn = false;
  bool ring_gdr_off = false;    // "Connected all rings, use ring PXN %d GDR 0"
  std::set<std::string> intra;  // "P2P/CUMEM", "P2P/IPC", "P2P/direct", "P2P/indirect", "SHM"
  std::string nvls;             // "available", "not available" or ""
  int coll_channels = -1;       // the most of "N coll channels" and "Channel 00/N :" ring lists
  int nnodes = -1;              // the most of the "nNodes N" of this host's communicators
  int nranks = -1;
  std::string nccl_version;             // "2.18.3+cuda12.2"
  std::string cuda_driver;              // "12020" (cudaDriverVersion)
  std::string plugin_version;           // aws-ofi-nccl version
  std::set<std::string> env_overrides;  // "NCCL_PROTO=LL"
  std::vector<std::string> warnings;    // distinct NCCL WARN texts (printable, <= 300 bytes), first kMaxListed
};

struct TriageResult {
  std::string verdict;                   // "PASS", "WARN", "FAIL", "INCONCLUSIVE"
  std::string collect_next;              // what to collect when INCONCLUSIVE (else "")
  std::string first_failure;             // check of the FAIL finding whose line came first in time (by
                                         // timestamp where lines carry one, else order of appearance)
  std::vector<TriageFinding> findings;   // root cause first, then by tag, priority, rank, order
  std::vector<HostTransport> transport;  // sorted by host
  std::vector<ReadStats> files;
  std::size_t events = 0;
  std::size_t nccl_lines = 0;  // NCCL / aws-ofi-nccl lines (a level marker or a bare "NCCL version")
  [[nodiscard]] bool has_fail() const;
};

// One watchdog timeout as c10d printed it.
struct WatchdogTimeout {
  long long seq = -1;
  std::string op;
  long long numel_in = -1, numel_out = -1;
  long long timeout_ms = -1, ran_for_ms = -1;
  int rank = -1;
};

// A watchdog timeout with where it was first seen.
struct WatchdogSeen {
  WatchdogTimeout timeout;
  std::size_t order = 0;
  std::string evidence;
};

// Reads "WorkNCCL(SeqNum=.., OpType=.., NumelIn=.., NumelOut=.., Timeout(ms)=..) ran for .. milliseconds"
// and "[Rank N]"; false when the text has no SeqNum.
bool parse_watchdog(const std::string& text, WatchdogTimeout& out);

// One rank's flight-recorder dump, for one process group: how far its collectives got.
struct FlightRecorderRank {
  int rank = -1;                  // the dump's "rank", else the digits ending its file name; -1 unknown
  std::string file;               // the dump it came from
  std::string pg;                 // process group id
  long long last_completed = -1;  // highest collective_seq_id in state "completed"; -1 none
  long long pending_seq = -1;     // lowest collective_seq_id not completed; -1 none
  std::string pending_op;         // its profiling_name ("nccl:all_reduce")
  std::string pending_state;      // "scheduled" or "started"
  std::size_t order = 0;
};

class TriageAccumulator {
 public:
  void add(const LogEvent& ev);
  void add_file(const ReadStats& stats);
  // A finding read from a whole-document dump (RAS JSON), ranked with the rest.
  void add_finding(TriageFinding f);
  // One rank's flight-recorder state; compared across ranks in finish().
  void add_flight_recorder(FlightRecorderRank r);
  [[nodiscard]] TriageResult finish() const;

 private:
  struct Group {
    TriageFinding finding;
    std::map<std::string, std::size_t> per_host;
    std::set<std::string> peers;
    bool peer_missing = false;
  };
  void note(const std::string& key, const TriageFinding& proto, const LogEvent& ev);
  void add_transport(const LogEvent& ev);

  std::map<std::string, Group> groups_;
  std::map<std::string, HostTransport> hosts_;
  std::map<std::string, WatchdogSeen> watchdogs_;  // "host/rank" -> its first timeout
  std::vector<ReadStats> files_;
  std::vector<TriageFinding> dump_findings_;
  std::vector<FlightRecorderRank> flight_;
  std::size_t events_ = 0;
  std::size_t nccl_lines_ = 0;
};

// Seconds since the epoch (UTC) of an absolute stamp as the reader keeps it ("2024-05-01 12:00:03",
// "2024-05-01T12:00:03.123Z", "...+02:00"); -1 for relative (dmesg) or unreadable stamps.
double absolute_seconds(std::string_view stamp);

// The peer a message names ("remote peer 10.0.0.2<4321>", "connect to 10.0.0.2<...>", "from peer X"),
// without its port; "" when none.
std::string peer_named(const std::string& text);

}  // namespace podperf::logs

#pragma once
// Log triage: the events of a job's logs (log_reader.hpp) in, findings with cause, evidence and next
// step out, ranked so the root cause comes before its cascade (local resources and configuration before
// network errors, those before the consequences: remote errors, closed peers, watchdog timeouts,
// launcher exits), an overall verdict (FAIL: the logs show the job failed, with or without its cause;
// WARN: degraded or suspicious, no failure; PASS: healthy evidence and nothing above INFO; INCONCLUSIVE:
// neither a failure nor evidence that the job ran), and a transport table per host. Streaming: add()
// keeps bounded state (a few evidence lines per finding, one record per host and per watchdog rank), so
// multi-GiB logs fit in memory. Pure, analysis floor; the SKU lookup (configs/skus) is the built-in table.
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/logs/log_event.hpp"
#include "analysis/logs/log_reader.hpp"

namespace podperf::logs {

inline constexpr std::size_t kEvidencePerFinding = 6;

struct TriageFinding {
  std::string tag;                 // "FAIL", "WARN", "INFO" or "PASS" (the healthy evidence of a PASS)
  int priority = 2;                // 0 blocks training, 1 degraded, 2 informational
  std::string check;               // stable id: "gpu.cuda_oom", "nccl.rc.ncclSystemError", "pytorch.desync", ...
  std::string host;                // the one host, "systemic: N hosts", "unknown" (its lines name none), or ""
                                   // (a run-wide finding)
  std::vector<std::string> hosts;  // every host it was seen on, sorted
  std::string peer;                // the one peer (IP, host or GID) every evidence line names, else ""
  std::string role;                // "cause" (the root), "consequence" (a known cascade line), "" otherwise
  std::string cause;
  std::string next_step;
  std::vector<std::string> evidence;  // "file:line: text", at most kEvidencePerFinding
  std::size_t occurrences = 0;
  int cause_rank = 0;           // the pattern table's ranking (log_patterns.hpp); higher = more likely the root
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
  bool ring_gdr_off = false;               // "Connected all rings, use ring PXN %d GDR 0"
  bool ib_expected = false;                // NCCL_IB_HCA set, or NCCL_IB_DISABLE=0 set by the environment
  bool ib_no_device = false;               // "NET/IB : No device found."
  std::set<std::string> bootstrap_ifaces;  // "Bootstrap : Using [0]eth0:..." / "NET : Using interface lo:..."
  std::set<std::string> intra;             // "P2P/CUMEM", "P2P/IPC", "P2P/direct", "P2P/indirect", "SHM"
  std::string nvls;                        // "available", "not available" or ""
  int coll_channels = -1;                  // the most of "N coll channels" and "Channel 00/N :" ring lists
  int nnodes = -1;                         // the most of the "nNodes N" of this host's communicators
  int nranks = -1;
  std::string nccl_version;             // "2.18.3+cuda12.2"
  std::string cuda_driver;              // "12020" (cudaDriverVersion)
  std::string plugin_version;           // aws-ofi-nccl version
  std::set<std::string> env_overrides;  // "NCCL_PROTO=LL"
  std::vector<std::string> warnings;    // distinct NCCL WARN texts (printable, <= 300 bytes), first kMaxListed
};

struct TriageResult {
  std::string verdict;                   // "PASS", "WARN", "FAIL", "INCONCLUSIVE"
  std::string collect_next;              // what to collect when the cause or the outcome is not in the logs
                                         // (a FAIL without its root cause, an INCONCLUSIVE), else ""
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
  bool several = false;  // the same rank timed out in more collectives (other process groups' numbers)
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

// How a line that names no host of its own is attributed.
enum class HostAttribution {
  own_line,      // podperf triage: its launcher task's or process's host (learned from that task's or pid's
                 // lines that name one), else the host the file's name carries, else none ("unknown")
  file_process,  // podperf's own captured NCCL log (one process per file): as own_line, else the host
                 // named last before it in the file
};

// Evidence that the job ran, gathered while reading (bounded).
struct HealthSeen {
  std::set<std::string> init_started;    // "host comm 0x.." of "Init START"
  std::set<std::string> init_completed;  // "host comm 0x.." of "Init COMPLETE"
  std::size_t init_complete_lines = 0;
  double slowest_init_s = 0.0;                // the largest "Init timings - ...: ... total S" of a communicator rank
  std::string slowest_init;                   // ...its line (printable, cut)
  std::set<std::string> rings_connected;      // "host:pid [dev]" of "Connected all rings"
  std::set<std::string> trees_connected;      // "host:pid [dev]" of "Connected all trees"
  std::size_t test_rows = 0;                  // nccl-tests result rows
  std::size_t test_rows_wrong = 0;            // ... with #wrong > 0
  double peak_busbw = -1;                     // GB/s, the highest busbw of a row
  long long peak_size = -1;                   // bytes, its size
  std::map<long long, double> busbw_by_size;  // bytes -> the highest busbw of its rows (capped in size)
  bool out_of_bounds_ok = false;              // "# Out of bounds values : 0 OK"
  bool test_concluded = false;                // "# Collective test concluded"
  std::size_t progress_lines = 0;             // training or serving progress lines
  std::string last_progress;                  // the last of them (printable, cut)
  std::size_t nan_loss_lines = 0;             // progress lines with a NaN/inf loss
  std::size_t completion_lines = 0;           // "exits successfully", "Training completed", "startup complete"
  std::string last_completion;                // the last of them (printable, cut)
};

// The state of the multi-line forms of the file being read (reset per file).
struct LineContext {
  std::string file;
  std::string file_host;                 // the host the file's name carries; "" none
  std::size_t traceback_line = 0;        // line of the last "Traceback (most recent call last):"; 0 none
  std::string traceback_host;            // ...the host of that line
  std::string elastic_host;              // torchelastic failure summary: the "host : X" of the current record
  std::size_t elastic_line = 0;          // its line
  std::string crash_key;                 // the group of the last crash finding (its backtrace follows)
  std::size_t crash_line = 0;            // its line
  std::map<int, std::string> task_host;  // launcher task tag -> the host its lines name
};

class TriageAccumulator {
 public:
  explicit TriageAccumulator(HostAttribution mode = HostAttribution::own_line) : mode_(mode) {}
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
    std::set<std::string> libraries;  // shared libraries in a crash's backtrace
    bool peer_missing = false;
  };
  void note(const std::string& key, const TriageFinding& proto, const LogEvent& ev, const std::string& host);
  // The host of a line (HostAttribution); `prior`: may fall back to the host named before it in the file.
  std::string host_of(const LogEvent& ev, bool prior);
  void learn_hosts(const LogEvent& ev);
  void add_transport(const LogEvent& ev, const std::string& host);
  void add_backtrace_frame(const LogEvent& ev);
  // A traceback still open when its file ends (no exception line, no progress after it): a finding.
  [[nodiscard]] std::optional<TriageFinding> unfinished_traceback(const LineContext& ctx) const;

  HostAttribution mode_;
  HealthSeen health_;
  LineContext ctx_;
  std::map<long, std::string> pid_host_;  // pid -> the host its lines name; "" when two hosts share it
  std::map<std::string, Group> groups_;
  std::map<std::string, HostTransport> hosts_;
  std::map<std::string, WatchdogSeen> watchdogs_;  // "host/rank" -> its first timeout
  std::vector<ReadStats> files_;
  std::vector<TriageFinding> dump_findings_;
  std::vector<FlightRecorderRank> flight_;
  std::vector<TriageFinding> unfinished_;  // unfinished tracebacks of the files read before the current one
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

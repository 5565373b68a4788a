#pragma once
// The rules triage applies (internal to analysis/logs/triage*.cpp): the rules of the pattern table's
// anchor rows (CUDA errors, Xids, signals, exit statuses, Python exceptions, progress lines), the
// evidence that a job ran (communicators initialised, nccl-tests results, training progress), transport
// facts per host from NCCL's INFO lines and their findings (TCP fallback between nodes, settings that
// disable IB, P2P, SHM or GDR or force a protocol, virtual bridges in the socket interface list, NIC count
// against configs/skus, version drift), and the watchdog comparison across ranks (hang, desync, late
// watchdog). Pure, analysis floor.
#include <map>
#include <string>
#include <vector>

#include "analysis/logs/log_patterns.hpp"
#include "analysis/logs/triage.hpp"

namespace podperf::logs {

// What a matched row's rule made of a line.
enum class RowOutcome {
  finding,     // `proto` under `key`
  no_finding,  // read (state, health evidence, an environment setting in `env`), nothing to report
  declined,    // not this row's form: try the next matching row
};

struct RowResult {
  RowOutcome outcome = RowOutcome::declined;
  TriageFinding proto;
  std::string key;  // the group: findings with one key are one finding
  std::string env;  // "NCCL_X=value" read from a shell trace or environment dump
};

// Applies `row` (which matched `ev.text`) to the line.
RowResult apply_row(const LogPattern& row, const LogEvent& ev, LineContext& ctx, HealthSeen& health);

// The finding of an NCCL WARN no row knows, with the subsystem its source file names ("nccl.warn.net_ib").
TriageFinding unclassified_warn(const LogEvent& ev);

// The shared libraries a backtrace frame names ("libnccl.so.2"); empty when the line is not a frame.
std::vector<std::string> backtrace_libraries(std::string_view text);

// Health evidence of one line (NCCL init and ring/tree lines, nccl-tests rows and markers); true when the
// line is an nccl-tests row with wrong results.
bool read_health_line(const LogEvent& ev, const std::string& host, HealthSeen& h);

// The healthy evidence the logs hold ("" when none), and why a job without it cannot be judged.
std::string healthy_summary(const HealthSeen& h, const std::vector<HostTransport>& transport);
// nccl-tests rows whose busbw at the largest size is under half of the best a smaller size reached (a
// healthy table rises with size and levels off): a WARN finding, appended to `out`; none otherwise.
void busbw_drop_findings(const HealthSeen& h, std::vector<TriageFinding>& out);
// A communicator whose "Init timings" total is over half a minute: a WARN finding; none otherwise.
void slow_init_findings(const HealthSeen& h, std::vector<TriageFinding>& out);
std::string why_inconclusive(const HealthSeen& h, std::size_t nccl_lines);

// The fallback from a failed network plugin init (EFA not visible, aws-ofi-nccl init failed) to another
// network: such findings become WARN (the job runs, degraded) on hosts that went on with Socket or IB.
void demote_fallen_back_plugin_errors(const std::map<std::string, HostTransport>& hosts,
                                      std::vector<TriageFinding>& findings);

// Updates `t` from one NCCL / aws-ofi-nccl INFO line.
void read_transport_line(const LogEvent& ev, HostTransport& t);

// Fills the SKU NIC count of each host whose instance type is known; adds transport findings.
void transport_findings(std::map<std::string, HostTransport>& hosts, std::vector<TriageFinding>& out);

// Adds hang / desync / late-watchdog findings from the timeouts seen per "host/rank".
void watchdog_findings(const std::map<std::string, WatchdogSeen>& timeouts, std::vector<TriageFinding>& out);

// Flight-recorder dumps compared across ranks, per process group: ranks behind the others, all ranks in
// one collective (a hang inside it), or different collectives at one sequence number (a desync).
void flight_recorder_findings(const std::vector<FlightRecorderRank>& ranks, std::vector<TriageFinding>& out);

// "file:line: [host] text" of an event, the text cut to 300 bytes (printable); no "[host]" when "".
std::string evidence_line(const LogEvent& ev, const std::string& host);

}  // namespace podperf::logs

#pragma once
// The rules triage applies after reading (internal to analysis/logs/triage*.cpp): transport facts per
// host from NCCL's INFO lines and their findings (TCP fallback on a multi-node job, NIC count against
// configs/skus, version drift, a driver older than NCCL's CUDA build), and the watchdog comparison
// across ranks (hang, desync, late watchdog). Pure, analysis floor.
#include <map>
#include <string>
#include <vector>

#include "analysis/logs/triage.hpp"

namespace podperf::logs {

// Updates `t` from one NCCL / aws-ofi-nccl INFO line.
void read_transport_line(const LogEvent& ev, HostTransport& t);

// Fills the SKU NIC count of each host whose instance type is known; adds transport findings.
void transport_findings(std::map<std::string, HostTransport>& hosts, std::vector<TriageFinding>& out);

// Adds hang / desync / late-watchdog findings from the timeouts seen per "host/rank".
void watchdog_findings(const std::map<std::string, WatchdogSeen>& timeouts, std::vector<TriageFinding>& out);

// Flight-recorder dumps compared across ranks, per process group: ranks behind the others, all ranks in
// one collective (a hang inside it), or different collectives at one sequence number (a desync).
void flight_recorder_findings(const std::vector<FlightRecorderRank>& ranks, std::vector<TriageFinding>& out);

// "file:line: text" of an event, the text cut to 300 bytes (printable).
std::string evidence_line(const LogEvent& ev);

}  // namespace podperf::logs

#pragma once
// Command line: `podperf pairs|run|collective|fs|signals|report|compare|accept|sweep|triage [options]`,
// nccl-tests flags where they exist. App floor (above bench/ and offline/): every command's options go
// straight into that command's own Options struct. Local.
#include <optional>
#include <string>

#include "bench/options.hpp"
#include "offline/compare_command.hpp"
#include "offline/report_command.hpp"
#include "offline/signals_command.hpp"
#include "offline/sweep_command.hpp"
#include "offline/triage_command.hpp"

namespace podperf {

struct CommandLine {
  std::string command;     // pairs | run | collective | fs | signals | report | compare | accept | sweep | triage
  Cli job;                 // the MPI job's commands (pairs, run, collective, fs, accept) and argv
  SignalsOptions signals;  // podperf signals (this host, no MPI)
  ReportOptions report;    // podperf report (offline, no MPI)
  CompareOptions compare;  // podperf compare (offline, no MPI)
  SweepOptions sweep;      // podperf sweep (launches one job per point; no MPI itself)
  TriageOptions triage;    // podperf triage (a job's logs in, the root cause out; offline, no MPI)
};

// Parses the command line. Prints help or errors (on launcher rank 0 only) and returns the exit
// code to end with (0 for --help, 2 for bad usage), or nullopt to go on.
std::optional<int> parse_command_line(int argc, char** argv, CommandLine& cli);

}  // namespace podperf

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

namespace CLI {
class App;
class Error;
}  // namespace CLI

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

// podperf's whole command line defined on `app`: every subcommand and option, bound to `cli` (--version
// to `version`). What parse_command_line parses; tests walk its options (app/cli_checks: every value is
// checked by a rule).
void define_command_line(CLI::App& app, CommandLine& cli, bool& version);

// The one line a parse error prints after "podperf: error: ": a rule's "<option> <value>: <what was
// expected>", or CLI11's text with a pointer to the help.
std::string usage_line(const CLI::Error& e);

}  // namespace podperf

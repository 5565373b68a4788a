// podperf: command line -> the command (the MPI job in bench/, or an offline command in offline/).
// App floor, on top of both; the one top-level catch.
#include <cstdio>
#include <exception>
#include <iostream>

#include "analysis/base/errors.hpp"
#include "app/cli.hpp"
#include "bench/accept_command.hpp"
#include "bench/collective_command.hpp"
#include "bench/fs_command.hpp"
#include "bench/pairs_command.hpp"
#include "bench/signals_job.hpp"
#include "bench/watchdog.hpp"
#include "offline/accept_from.hpp"

namespace podperf {
namespace {

// Runs the command `cli` names; returns its exit code. argc/argv go to MPI_Init in the job's commands.
int run_command(int* argc, char*** argv, const CommandLine& cli) {
  if (cli.command == "signals") {
    // One rank of several under srun/mpirun: every host gathered, with the drift across them.
    if (signals_across_hosts(cli.signals)) return run_signals_job(argc, argv, cli.signals);
    return run_signals_command(cli.signals, std::cout, std::cerr);
  }
  if (cli.command == "report") return run_report_command(cli.report, std::cout, std::cerr);
  if (cli.command == "compare") return run_compare_command(cli.compare, std::cout, std::cerr);
  if (cli.command == "sweep") return run_sweep_command(cli.sweep, std::cout, std::cerr);
  if (cli.command == "triage") return run_triage_command(cli.triage, std::cout, std::cerr);
  if (cli.command == "accept" && !cli.job.accept.judging.from.empty()) {
    return run_accept_from(cli.job.accept.judging, std::cout, std::cerr);
  }
  if (cli.command == "fs") return run_fs_command(argc, argv, cli.job);
  if (cli.command == "accept") return run_accept_command(argc, argv, cli.job);
  if (cli.command == "collective") return run_collective_command(argc, argv, cli.job);
  return run_pairs_command(argc, argv, cli.job);
}

}  // namespace
}  // namespace podperf

int main(int argc, char** argv) {
  // Before MPI starts threads: SIGTERM/SIGINT go to podperf's signal thread, which keeps results.
  podperf::block_termination_signals();
  try {
    podperf::CommandLine cli;
    if (auto code = podperf::parse_command_line(argc, argv, cli)) return *code;
    return podperf::run_command(&argc, &argv, cli);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "podperf: error: %s\n", e.what());
    return podperf::kExitRuntime;
  }
}

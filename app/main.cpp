// podperf: command line -> plan -> run -> gather -> analysis -> report. The one top-level catch.
#include <cstdio>
#include <exception>
#include <iostream>

#include "analysis/errors.hpp"
#include "bench/accept_command.hpp"
#include "bench/cli.hpp"
#include "bench/collective_command.hpp"
#include "bench/compare_command.hpp"
#include "bench/fs_command.hpp"
#include "bench/pairs_command.hpp"
#include "bench/report_command.hpp"
#include "bench/sweep_command.hpp"
#include "bench/watchdog.hpp"
#include "signals/signals_command.hpp"

int main(int argc, char** argv) {
  // Before MPI starts threads: SIGTERM/SIGINT go to podperf's signal thread, which keeps results.
  podperf::block_termination_signals();
  try {
    podperf::Cli cli;
    if (auto code = podperf::parse_cli(argc, argv, cli)) return *code;
    if (cli.command == "signals") {
      const podperf::SignalsOptions o{cli.signals.root, cli.signals.json, cli.signals.rules,
                                      cli.signals.sample_seconds};
      return podperf::run_signals_command(o, std::cout, std::cerr);
    }
    if (cli.command == "report") {
      const podperf::ReportOptions o{cli.report.run, cli.report.format, cli.report.out, cli.report.topology,
                                     cli.report.topology_format};
      return podperf::run_report_command(o, std::cout, std::cerr);
    }
    if (cli.command == "compare") return podperf::run_compare_command(cli.compare, std::cout, std::cerr);
    if (cli.command == "sweep") return podperf::run_sweep_command(cli.sweep, std::cout, std::cerr);
    if (cli.command == "fs") return podperf::run_fs_command(&argc, &argv, cli);
    if (cli.command == "accept") return podperf::run_accept_command(&argc, &argv, cli);
    if (cli.command == "collective") return podperf::run_collective_command(&argc, &argv, cli);
    return podperf::run_pairs_command(&argc, &argv, cli);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "podperf: error: %s\n", e.what());
    return podperf::kExitRuntime;
  }
}

#pragma once
// The MPI job's subcommands on the command line (pairs, run, fs, collective, accept), bound to
// bench/options.hpp's structs. App floor, local.
#include <CLI/CLI.hpp>
#include <string>

#include "bench/options.hpp"

namespace podperf {

struct JobSubcommands {
  CLI::App* pairs;
  CLI::App* run;
  CLI::App* fs;
  CLI::App* collective;
  CLI::App* accept;
};

// Adds podperf pairs, run, fs, collective and accept to `app` (in this order, the help's), each option
// writing into `cli`'s fields.
JobSubcommands add_job_subcommands(CLI::App& app, Cli& cli);

// --topology FILE and --topology-format: where each node sits in the network (job and offline commands).
void add_topology_options(CLI::App* app, std::string& file, std::string& format);

}  // namespace podperf

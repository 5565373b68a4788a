#pragma once
// `podperf fs --path DIR`: the filesystem probes on every rank (bench/fs/), analysis, report.
#include "bench/cli.hpp"

namespace podperf {

// Starts MPI and runs the command; returns the process exit code.
int run_fs_command(int* argc, char*** argv, const Cli& cli);

}  // namespace podperf

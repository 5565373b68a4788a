#pragma once
// `podperf fs --path DIR`: the filesystem probes on every rank (bench/fs/), analysis, report.
#include "bench/options.hpp"
#include "bench/run_recorder.hpp"

namespace podperf {

// Starts MPI and runs the command; returns the process exit code. `verdict_hook` (podperf accept with a
// filesystem-only profile) is installed on rank 0's recorder.
int run_fs_command(int* argc, char*** argv, const Cli& cli, const VerdictHook* verdict_hook = nullptr);

}  // namespace podperf

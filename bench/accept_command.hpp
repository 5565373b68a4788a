#pragma once
// `podperf accept` (measuring): the profile's stages through podperf run's machinery (pairs, then the
// filesystem probes; or the filesystem alone), judged on rank 0 (analysis/accept/acceptance), with the verdict
// and the drain list printed, run.json carrying the verdict, junit.xml in the results directory and
// --junit FILE. Bench floor, collective over the job. (`--from`, a finished run judged offline, is
// offline/accept_from.)
#include "bench/options.hpp"

namespace podperf {

// Returns the process exit code: 0 every node passes (PASS or WARN), 1 not accepted (FAIL), 2 bad usage
// or configuration (before anything is measured), 3 runtime failure of the measurement (or of writing
// the JUnit or --prometheus file). Identical on every rank.
int run_accept_command(int* argc, char*** argv, const Cli& cli);

}  // namespace podperf

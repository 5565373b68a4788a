#pragma once
// `podperf pairs` (and today's `podperf run`): node map -> schedule -> rounds -> gather -> analysis
// -> run.json, events.jsonl and the terminal summary. Collective over the MPI world.
#include "bench/cli.hpp"

namespace podperf {

// Returns the exit code (identical on every rank). Throws nothing: errors are reported here.
int run_pairs_command(int* argc, char*** argv, const Cli& cli);

}  // namespace podperf

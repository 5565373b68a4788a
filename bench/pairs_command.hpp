#pragma once
// `podperf pairs` (and today's `podperf run`): node map -> schedule -> rounds -> gather -> analysis
// -> run.json, events.jsonl and the terminal summary. Collective over the MPI world.
#include "bench/options.hpp"
#include "bench/run_recorder.hpp"

namespace podperf {

// Returns the exit code (identical on every rank). Throws nothing: errors are reported here.
// `verdict_hook` (podperf accept) is installed on rank 0's recorder; the filesystem stage runs when
// the command is run or accept and cli.pairs.fs.path is set.
int run_pairs_command(int* argc, char*** argv, const Cli& cli, const VerdictHook* verdict_hook = nullptr);

}  // namespace podperf

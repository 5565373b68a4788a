#pragma once
// `podperf collective`: size sweeps of every collective over the whole job (or one group per node),
// nccl-tests semantics and table, results in run.json. Collective over the MPI world.
#include "bench/options.hpp"

namespace podperf {

int run_collective_command(int* argc, char*** argv, const Cli& cli);

}  // namespace podperf

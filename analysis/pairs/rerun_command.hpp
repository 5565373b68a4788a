#pragma once
// The commands the pair test's findings suggest, complete and runnable as printed: the launcher with
// the host list of the nodes involved (srun -N -w ... --ntasks-per-node, or mpirun -np -H host:slots),
// podperf pairs with the run's judged size, iterations, warm-up, backend, op and type (and --threshold
// or --config when the run was judged with them), or for a modelled fabric its model, nodes and seed;
// virtual nodes are one host's ranks split, so the whole job is launched again. Floor: analysis/pairs;
// pure; throws nothing.
#include <array>
#include <string>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

// The start of a command measuring pairs of this run again the same way, launched on `nodes` (node
// indices; empty: every node of the run). Findings append their options (--pairs, --retest ...).
std::string pairs_command(const Run& run, const std::vector<int>& nodes = {});

// pairs_command on the nodes of `pairs`, then "--pairs A:B,C:D" (labels) and `extra` (options, may be
// empty).
std::string pairs_retest_command(const Run& run, const std::vector<std::array<int, 2>>& pairs,
                                 const std::string& extra = "");

// The start of a command re-measuring the whole run (every node): pairs_command(run).
std::string pairs_rerun_command(const Run& run);

}  // namespace podperf

#pragma once
// The statistical units of podperf compare: what one entry of a metric's per-side values is. A run is
// one unit per metric (its median); a run measured in K blocks (--repeat K, RunBlocks in run.hpp) is K
// units per pair or collective metric (each block's median), when every run of the comparison has 2 or
// more blocks and some side has a single run. With 2 or more runs on each side the run stays the unit
// (its blocks pooled): separate jobs measure launch-to-launch variance (placement, NCCL's choices, the
// path hash), which blocks of one job cannot. Metrics not measured in blocks (topology classes, the
// filesystem stage) keep the run as unit. Floor: analysis/; pure, local.
#include <string>
#include <vector>

#include "analysis/compare/types.hpp"
#include "analysis/model/run.hpp"

namespace podperf {

struct CompareUnits {
  bool by_blocks = false;        // blocks are the units
  std::size_t units_before = 0;  // per side: blocks (by_blocks) or runs
  std::size_t units_after = 0;
  std::vector<std::string> warnings;
};

// The units of a comparison of `before` with `after` (runs that passed blocks_mismatch per side), from
// each run's block count (Run::blocks.count; 0 or 1: no blocks).
CompareUnits compare_units(const std::vector<int>& blocks_before, const std::vector<int>& blocks_after);
CompareUnits compare_units(const std::vector<Run>& before, const std::vector<Run>& after);

// Why the runs of one side do not agree on their blocks (some with blocks, some without, or different
// counts), naming the runs by `sources`; "" when they agree. podperf compare exits 2 on it.
std::string blocks_mismatch(const std::vector<Run>& runs, const std::vector<std::string>& sources);

// The per-block values themselves are RunMetricSummary::block_values (analysis/compare/compare_metrics).

// Records `u` on the comparison: units, their counts, the warnings, and method block_level_moderated_t when
// the blocks are the units.
void describe_units(Comparison& c, const CompareUnits& u);

}  // namespace podperf

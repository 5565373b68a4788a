#pragma once
// The topology-aware adaptive search's glue (podperf pairs --schedule adaptive --adaptive-scope,
// --adaptive-level): resolving the scope and level against the topology a run knows, the slow-group
// findings (CONCERN topology.slow_uplink), and the slow groups handed to the analysis chain.
#include <string>
#include <vector>

#include "analysis/judge_run.hpp"
#include "analysis/model/run.hpp"
#include "bench/options.hpp"
#include "bench/schedule_driver.hpp"

namespace podperf {

// Fills so.scope, so.level and so.groups from --adaptive-scope/--adaptive-level and the topology the
// run's nodes carry (`levels`: Run::topology_levels; each node's NodeInfo::topology). auto: layered
// when a topology is known and places at least two nodes, else flat. UsageError: within/layered
// without a topology, or --adaptive-level naming no level (the valid ones listed). Nothing to check
// unless o.schedule is adaptive (then UsageError for --adaptive-scope/--adaptive-level set anyway).
void resolve_adaptive_scope(const PairsOptions& o, const std::vector<std::string>& levels,
                            const std::vector<NodeInfo>& nodes, ScheduleOptions& so);

// "layered at level rack (12 groups)", "flat": for the run's log.
std::string describe_adaptive_scope(const ScheduleOptions& so);

// One CONCERN finding (check topology.slow_uplink) per slow group the search confirmed (or left
// undecided): the group, its level, members, the evidence and the next step.
std::vector<Finding> slow_group_findings(const AdaptiveResult& search);

// The slow groups the search confirmed, as the analysis chain takes them (analysis/judge_run: the
// links leaving them are theirs, not links of their own).
JudgeInputs judge_inputs(const std::vector<SlowGroup>& slow);

}  // namespace podperf

#pragma once
// What the filesystem probes' numbers mean (floor analysis/, pure, local; throws nothing but
// std::bad_alloc): the slow nodes with their hosts' likely causes and a next step, and the findings
// with source "fs". The numbers come from analysis/fs/fs_analysis (summarize_fs_probe, the nodes'
// judgment); judge_fs calls these after it.
#include <cstddef>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"

namespace podperf {

// With fewer judged nodes, "the others" are not a baseline: no node is flagged.
inline constexpr std::size_t kFsMinJudgedNodes = 3;

// A rank whose probe failed moved an unknown share of its data: it counts towards the status only.
inline bool fs_rank_measured(const FsRankResult& r) {
  return r.status != "error";
}

// The node with index `node` in `nodes`; nullptr when none has it.
const NodeInfo* fs_node_info(const std::vector<NodeInfo>& nodes, int node);

// The nodes flagged in any probe of the judged run.fs, ascending, each with its evidence, likely causes
// (its host's CONCERN findings in run.findings, iowait/mount/Lustre first) and a next step.
std::vector<FsSlowNode> fs_slow_nodes(const Run& run);

// The findings about the judged probes, in this order: per probe fs.saturation (aggregate >=
// t.saturation_fraction of expected), fs.cache (a read probe with cached_fraction_max above
// t.cache_warn_fraction), fs.checksum (wrong), fs.error; then fs.expected (none given), fs.short_probe
// (`short_probes`: nodes the metric would flag but their probe does not resolve, when `most_judged` >=
// kFsMinJudgedNodes) and fs.single_node (`most_judged` below it).
std::vector<Finding> fs_findings(const Run& run, const FsThresholds& t, std::size_t most_judged,
                                 const std::vector<std::string>& short_probes);

}  // namespace podperf

// The topology-aware adaptive search's glue (see adaptive_scope.hpp). Floor: bench; local; UsageError
// for a scope or level the topology does not allow.
#include "bench/adaptive_scope.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/base/errors.hpp"

namespace podperf {

void resolve_adaptive_scope(const PairsOptions& o, const std::vector<std::string>& levels,
                            const std::vector<NodeInfo>& nodes, ScheduleOptions& so) {
  so.scope = AdaptiveParams::Scope::kFlat;
  so.level = -1;
  so.groups = {};
  if (o.schedule != "adaptive") {
    if (o.adaptive_scope != "auto" || !o.adaptive_level.empty()) {
      throw UsageError("--adaptive-scope and --adaptive-level shape --schedule adaptive; add --schedule adaptive");
    }
    return;
  }
  std::vector<std::vector<std::string>> paths;
  int placed = 0;
  for (const NodeInfo& node : nodes) {
    paths.push_back(node.topology);
    placed += !levels.empty() && node.topology.size() == levels.size() ? 1 : 0;
  }
  const bool known = !levels.empty() && placed >= 2;
  if (!o.adaptive_level.empty()) {
    if (levels.empty()) {
      throw UsageError(
          fmt::format("--adaptive-level {}: no topology is known (give --topology FILE, or a sim model "
                      "with a [topology])",
                      o.adaptive_level));
    }
    const auto it = std::find(levels.begin(), levels.end(), o.adaptive_level);
    if (it == levels.end()) {
      throw UsageError(fmt::format("--adaptive-level {}: not a level of the topology (levels: {})", o.adaptive_level,
                                   fmt::join(levels, ", ")));
    }
    so.level = static_cast<int>(it - levels.begin());
  }
  std::string scope = o.adaptive_scope;
  if (scope == "auto") scope = known ? "layered" : "flat";
  if (scope == "flat") return;
  if (!known) {
    throw UsageError(
        fmt::format("--adaptive-scope {} needs a topology that places the nodes (give --topology FILE, "
                    "or a sim model with a [topology]){}",
                    scope, levels.empty() ? "" : fmt::format("; only {} node(s) placed", placed)));
  }
  so.scope = scope == "within" ? AdaptiveParams::Scope::kWithin : AdaptiveParams::Scope::kLayered;
  so.groups = search_groups(paths, levels);
}

std::string describe_adaptive_scope(const ScheduleOptions& so) {
  if (so.scope == AdaptiveParams::Scope::kFlat || so.groups.empty()) return "flat (topology-blind)";
  const std::size_t level = so.level >= 0 ? static_cast<std::size_t>(so.level) : so.groups.levels.size() - 1;
  return fmt::format("{} at level {} ({} groups)", so.scope == AdaptiveParams::Scope::kWithin ? "within" : "layered",
                     so.groups.levels[level], so.groups.names[level].size());
}

std::vector<Finding> slow_group_findings(const AdaptiveResult& search) {
  std::vector<Finding> out;
  for (const SlowGroup& g : search.slow_groups) {
    Finding f;
    f.tag = Tag::kConcern;
    f.source = "adaptive-search";
    f.check = "topology.slow_uplink";
    f.observed = fmt::format(
        "{} {} ({} nodes): {} of {} pairs leaving it low (median {:.0f}% of their class baseline); retests of its "
        "members against good nodes of other groups: {} of {} low{}",
        g.level_name, g.name, g.members.size(), g.low_out, g.pairs_out, g.out_ratio * 100.0, g.confirm_lows,
        g.confirm_pairs, g.decided ? "" : " (undecided when the budget ran out)");
    f.expected = "pairs leaving a group as fast as the other pairs that cross the same level";
    f.meaning = fmt::format(
        "its nodes are healthy with each other, but traffic leaving the {} is slow: its uplinks (a degraded or "
        "congested uplink, a flapping port, oversubscription) rather than its nodes; its nodes are not blamed as "
        "stragglers and the slow pairs leaving it are not reported as links",
        g.level_name);
    f.effect = "collectives that span this group and others run at the uplink's speed";
    f.next_step = fmt::format(
        "check the {} switch's uplink ports and counters (errors, link speed, congestion); rerun with --schedule all "
        "on its nodes and a few others to measure every pair",
        g.name);
    out.push_back(std::move(f));
  }
  return out;
}

JudgeInputs judge_inputs(const std::vector<SlowGroup>& slow) {
  JudgeInputs in;
  for (const SlowGroup& g : slow) in.slow_groups.push_back(g.members);
  return in;
}

}  // namespace podperf

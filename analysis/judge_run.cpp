// The analysis chain of a run (see judge_run.hpp). Floor: analysis; pure.
#include "analysis/judge_run.hpp"

#include <algorithm>

#include "analysis/fs/fs_analysis.hpp"
#include "analysis/pairs/correlate.hpp"
#include "analysis/pairs/judged_pairs.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/topology/topology_analysis.hpp"

namespace podperf {
namespace {

// True when pair (a, b) leaves one of the groups (exactly one of its nodes is a member).
bool leaves_any(const std::vector<std::vector<int>>& groups, int a, int b) {
  for (const std::vector<int>& members : groups) {
    const bool in_a = std::binary_search(members.begin(), members.end(), a);
    const bool in_b = std::binary_search(members.begin(), members.end(), b);
    if (in_a != in_b) return true;
  }
  return false;
}

}  // namespace

void judge_run(Run& run, const JudgeInputs& inputs) {
  const Thresholds& thresholds = run.thresholds;
  // The pairs judged ok go from judge_pairs to correlate (neither analysis between changes the
  // pairs), so correlate need not read every pair again.
  JudgedPairs judged;
  PairJudgeContext context;
  context.slow_groups = inputs.slow_groups;
  context.results_dir = inputs.results_dir;
  if (!run.pairs.empty()) judge_pairs(run, thresholds.pairs, 0, &judged, context);
  explain_slow_groups(run, inputs.slow_groups, thresholds.pairs.intermittent_min_links);
  if (!run.fs.probes.empty()) judge_fs(run, thresholds.fs);
  judge_topology(run, thresholds.topology);
  // A class gap is said once: the pair judge's pairs.slow_crossing (each crossing class against the pairs
  // inside) covers the topology comparison's CONCERN about the same crossing.
  const bool crossing_said = std::any_of(run.findings.begin(), run.findings.end(),
                                         [](const Finding& f) { return f.check == "pairs.slow_crossing"; });
  if (crossing_said) {
    std::erase_if(run.findings,
                  [](const Finding& f) { return f.check == "topology.cross_layer" && f.tag == Tag::kConcern; });
  }
  correlate(run, 6, 0, &judged);
}

void explain_slow_groups(Run& run, const std::vector<std::vector<int>>& slow_groups, int intermittent_min_links) {
  if (slow_groups.empty()) return;
  std::erase_if(run.links, [&](const LinkFinding& l) { return leaves_any(slow_groups, l.nodes[0], l.nodes[1]); });
  // A node still named intermittent only when it keeps enough links of its own.
  std::vector<int> links(run.nodes.size(), 0);
  for (const LinkFinding& l : run.links) {
    for (int node : l.nodes) {
      if (node >= 0 && static_cast<std::size_t>(node) < links.size()) ++links[static_cast<std::size_t>(node)];
    }
  }
  std::erase_if(run.findings, [&](const Finding& f) {
    if (f.check != "pairs.intermittent_node") return false;
    for (std::size_t i = 0; i < run.nodes.size(); ++i) {
      if (run.nodes[i].hostname == f.host && links[i] >= intermittent_min_links) return false;
    }
    return true;
  });
}

}  // namespace podperf

// Per-node facts of a judged run (see node_summary.hpp). Analysis floor; local; pure.
#include "analysis/report/node_rows.hpp"

#include <unordered_map>

#include "analysis/stats/stats.hpp"

namespace podperf {

std::vector<NodeSummary> summarize_nodes(const Run& run) {
  std::vector<NodeSummary> out;
  std::vector<std::vector<double>> busbw(run.nodes.size());
  for (const NodeInfo& n : run.nodes) {
    NodeSummary s;
    s.label = n.label;
    s.hostname = n.hostname;
    s.instance_type = n.instance_type;
    out.push_back(std::move(s));
  }
  for (const PairResult& p : run.pairs) {
    if (!at_judged_size(run, p)) continue;
    for (int node : p.nodes) {
      if (node < 0 || static_cast<std::size_t>(node) >= out.size()) continue;
      NodeSummary& s = out[static_cast<std::size_t>(node)];
      ++s.pairs;
      if (p.flagged) ++s.flagged_pairs;
      if (status_ok(p.status)) {
        ++s.ok_pairs;
        busbw[static_cast<std::size_t>(node)].push_back(p.busbw_gbps);
      }
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!busbw[i].empty()) out[i].median_busbw_gbps = median_in_place(busbw[i]);
  }
  for (const Straggler& s : run.stragglers) {
    if (s.node >= 0 && static_cast<std::size_t>(s.node) < out.size())
      out[static_cast<std::size_t>(s.node)].straggler = true;
  }
  std::unordered_map<std::string, std::size_t> by_label;
  for (std::size_t i = 0; i < out.size(); ++i) by_label.emplace(out[i].label, i);
  for (const NodeVerdict& v : run.verdict.nodes) {
    const auto it = by_label.find(v.node);
    if (it != by_label.end()) out[it->second].verdict = v.status;
  }
  return out;
}

}  // namespace podperf

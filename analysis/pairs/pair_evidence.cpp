// The per-node pair evidence two node checks share (see pair_evidence.hpp). Floor: analysis; pure.
#include "analysis/pairs/pair_evidence.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/base/text.hpp"

namespace podperf {

NodePairs pick_pairs_by_node(const Run& run, const std::function<bool(std::size_t)>& pick) {
  const std::size_t n = run.nodes.size();
  NodePairs out;
  out.picked.assign(n, {});
  out.measured.assign(n, 0);
  const auto in_run = [n](int node) { return node >= 0 && static_cast<std::size_t>(node) < n; };
  for (std::size_t k = 0; k < run.pairs.size(); ++k) {
    const PairResult& p = run.pairs[k];
    if (!judged_ok(run, p) || !in_run(p.nodes[0]) || !in_run(p.nodes[1])) {
      continue;
    }
    for (int node : p.nodes) ++out.measured[static_cast<std::size_t>(node)];
    if (!pick(k)) continue;
    for (int node : p.nodes) out.picked[static_cast<std::size_t>(node)].push_back(k);
  }
  return out;
}

int pair_partner(const PairResult& p, int node) {
  return p.nodes[0] == node ? p.nodes[1] : p.nodes[0];
}

std::size_t distinct_partners(const Run& run, const std::vector<std::size_t>& pairs, int node) {
  std::vector<int> partners;
  for (std::size_t k : pairs) partners.push_back(pair_partner(run.pairs[k], node));
  std::sort(partners.begin(), partners.end());
  return static_cast<std::size_t>(std::unique(partners.begin(), partners.end()) - partners.begin());
}

PairListText pair_list_text(const Run& run, int node, const std::vector<std::size_t>& pairs, std::size_t max_shown,
                            const std::function<std::string(std::size_t, const std::string&)>& describe) {
  const std::string& label = run.nodes[static_cast<std::size_t>(node)].label;
  std::vector<std::string> shown, option;
  for (std::size_t i = 0; i < pairs.size() && i < max_shown; ++i) {
    const int other = pair_partner(run.pairs[pairs[i]], node);
    const std::string& other_label = run.nodes[static_cast<std::size_t>(other)].label;
    shown.push_back(describe(pairs[i], other_label));
    option.push_back(label + ":" + other_label);
  }
  if (pairs.size() > max_shown) shown.push_back(fmt::format("and {} more", pairs.size() - max_shown));
  return {text::join(shown, "; "), text::join(option, ",")};
}

}  // namespace podperf

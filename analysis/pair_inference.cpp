// The inference judge of the pair test (see pair_inference.hpp). Floor: analysis; pure.
#include "analysis/pair_inference.hpp"

#include <algorithm>

namespace podperf {
namespace {

bool in_range(int node, std::size_t n) {
  return node >= 0 && static_cast<std::size_t>(node) < n;
}

void add_unique(std::vector<int>& list, int node) {
  if (std::find(list.begin(), list.end(), node) == list.end()) list.push_back(node);
}

// The first cleared node that is none of `node`'s slow partners (and not itself), or -1.
int known_good_partner(const PairInference& out, int node, const std::vector<int>& cleared_partners,
                       const std::vector<int>& other_partners) {
  for (std::size_t i = 0; i < out.cleared.size(); ++i) {
    const int candidate = static_cast<int>(i);
    if (!out.cleared[i] || candidate == node) continue;
    if (std::find(cleared_partners.begin(), cleared_partners.end(), candidate) != cleared_partners.end()) continue;
    if (std::find(other_partners.begin(), other_partners.end(), candidate) != other_partners.end()) continue;
    return candidate;
  }
  return -1;
}

}  // namespace

PairInference infer_pair_faults(const PairInferenceInput& input) {
  const std::size_t n = input.nodes;
  PairInference out;
  out.cleared.assign(n, false);
  out.slow.assign(n, false);
  out.slow_evidence.assign(n, {});
  for (std::size_t i = 0; i < n && i < input.fast_pairs.size(); ++i) out.cleared[i] = input.fast_pairs[i] > 0;

  // Each slow pair: between cleared nodes a link; with one cleared partner evidence against the
  // other node; with none, a pair the nodes' own verdicts must explain.
  std::vector<std::vector<int>> cleared_partners(n), other_partners(n);
  std::vector<bool> in_slow_pair(n, false);
  std::vector<std::size_t> neither;
  for (std::size_t k = 0; k < input.slow_pairs.size(); ++k) {
    const InferencePair& p = input.slow_pairs[k];
    if (!in_range(p.a, n) || !in_range(p.b, n) || p.a == p.b) continue;
    const auto a = static_cast<std::size_t>(p.a);
    const auto b = static_cast<std::size_t>(p.b);
    in_slow_pair[a] = in_slow_pair[b] = true;
    if (out.cleared[a] && out.cleared[b]) {
      out.links.push_back(k);
    } else if (out.cleared[a]) {
      add_unique(cleared_partners[b], p.a);
    } else if (out.cleared[b]) {
      add_unique(cleared_partners[a], p.b);
    } else {
      add_unique(other_partners[a], p.b);
      add_unique(other_partners[b], p.a);
      neither.push_back(k);
    }
  }
  // A node none of whose pairs is fast is slow when min_cleared_partners distinct cleared nodes were
  // slow with it: one slow node explains what would otherwise take as many slow links.
  const auto needed = static_cast<std::size_t>(std::max(1, input.min_cleared_partners));
  for (std::size_t i = 0; i < n; ++i) {
    if (out.cleared[i] || !in_slow_pair[i]) continue;
    if (cleared_partners[i].size() >= needed) {
      out.slow[i] = true;
      out.slow_evidence[i] = cleared_partners[i];
      std::sort(out.slow_evidence[i].begin(), out.slow_evidence[i].end());
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (out.cleared[i] || out.slow[i] || !in_slow_pair[i]) continue;
    AmbiguousNode a;
    a.node = static_cast<int>(i);
    a.cleared_partners = cleared_partners[i];
    std::sort(a.cleared_partners.begin(), a.cleared_partners.end());
    for (int other : other_partners[i]) {
      if (!out.slow[static_cast<std::size_t>(other)]) a.other_partners.push_back(other);
    }
    // Slow only with named slow nodes: those explain its pairs; it is still not cleared.
    std::sort(a.other_partners.begin(), a.other_partners.end());
    a.retest_partner = known_good_partner(out, a.node, a.cleared_partners, other_partners[i]);
    out.ambiguous.push_back(std::move(a));
  }
  for (std::size_t k : neither) {
    const InferencePair& p = input.slow_pairs[k];
    if (!out.slow[static_cast<std::size_t>(p.a)] && !out.slow[static_cast<std::size_t>(p.b)]) {
      out.unexplained.push_back(k);
    }
  }
  return out;
}

void find_slow_crossing(const std::vector<InferencePair>& slow_pairs, const std::vector<InferencePair>& fast_pairs,
                        PairInference& inference) {
  // Four links at least: two sets of two nodes each, every pair between them slow.
  if (inference.links.size() < 4) return;
  const std::size_t n = inference.cleared.size();
  const InferencePair& first = slow_pairs[inference.links.front()];
  // Side a: the nodes linked to first.b; side b: those linked to first.a.
  std::vector<char> side(n, 0);
  for (std::size_t k : inference.links) {
    const InferencePair& p = slow_pairs[k];
    if (p.a == first.b) side[static_cast<std::size_t>(p.b)] |= 1;
    if (p.b == first.b) side[static_cast<std::size_t>(p.a)] |= 1;
    if (p.a == first.a) side[static_cast<std::size_t>(p.b)] |= 2;
    if (p.b == first.a) side[static_cast<std::size_t>(p.a)] |= 2;
  }
  SlowCrossing crossing;
  for (std::size_t i = 0; i < n; ++i) {
    if (side[i] == 3) return;  // linked to both ends of one link: a triangle, no crossing
    if (side[i] == 1) crossing.side_a.push_back(static_cast<int>(i));
    if (side[i] == 2) crossing.side_b.push_back(static_cast<int>(i));
  }
  if (crossing.side_a.size() < 2 || crossing.side_b.size() < 2) return;
  const auto crosses = [&](const InferencePair& p) {
    const char sa = side[static_cast<std::size_t>(p.a)];
    const char sb = side[static_cast<std::size_t>(p.b)];
    return sa != 0 && sb != 0 && sa != sb;
  };
  for (std::size_t k : inference.links) {
    if (!crosses(slow_pairs[k])) return;  // a link outside the crossing: separate faults, not one path
  }
  for (const InferencePair& p : fast_pairs) {
    if (in_range(p.a, n) && in_range(p.b, n) && crosses(p)) return;  // a fast pair between them: no one path
  }
  if (crossing.side_a.front() > crossing.side_b.front()) std::swap(crossing.side_a, crossing.side_b);
  crossing.pairs = std::move(inference.links);
  inference.links.clear();
  inference.crossings.push_back(std::move(crossing));
}

}  // namespace podperf

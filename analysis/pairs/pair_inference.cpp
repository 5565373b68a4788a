// The inference judge of the pair test (see pair_inference.hpp). Floor: analysis; pure.
#include "analysis/pairs/pair_inference.hpp"

#include <algorithm>

namespace podperf {
namespace {

bool in_range(int node, std::size_t n) {
  return node >= 0 && static_cast<std::size_t>(node) < n;
}

// Sorted, each once (a pair measured twice names its partner once).
void sort_unique(std::vector<int>& list) {
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
}

// The first cleared node that is none of `node`'s slow partners (sorted lists) and not itself, or -1.
int known_good_partner(const PairInference& out, int node, const std::vector<int>& cleared_partners,
                       const std::vector<int>& other_partners) {
  for (std::size_t i = 0; i < out.cleared.size(); ++i) {
    const int candidate = static_cast<int>(i);
    if (!out.cleared[i] || candidate == node) continue;
    if (std::binary_search(cleared_partners.begin(), cleared_partners.end(), candidate)) continue;
    if (std::binary_search(other_partners.begin(), other_partners.end(), candidate)) continue;
    return candidate;
  }
  return -1;
}

// The mean ratio of `node`'s slow pairs with a cleared partner, first measurements and retests each
// one observation (0 when none): the node's own speed if it is slow, the healthy speed if the one fast
// pair runs on a faster path.
double mean_cleared_ratio(const PairInferenceInput& input, const PairInference& out, int node) {
  double sum = 0.0;
  int count = 0;
  for (const InferencePair& p : input.slow_pairs) {
    if (p.a != node && p.b != node) continue;
    const int partner = p.a == node ? p.b : p.a;
    if (!in_range(partner, out.cleared.size()) || !out.cleared[static_cast<std::size_t>(partner)]) continue;
    sum += p.ratio, ++count;
    if (p.retest_ratio > 0.0) sum += p.retest_ratio, ++count;
  }
  return count > 0 ? sum / count : 0.0;
}

// Whether the cleared nodes are enough to call the named ones slow: three or more cleared nodes
// (three fast pairs among them at least); or one fast pair and one node slow with both its nodes (three
// nodes: one slow node explains two slow pairs); or one fast pair and two slow nodes slow with each
// other too (two slow hosts of four). Else the one fast pair may be the odd one (a faster path between
// its nodes) and the named nodes move to out.undecided_slow. Against one fast pair, a named node whose
// pairs with it average above single_pair_anchor_max_ratio of it moves there too: a pair that much
// faster than the rest is as likely a faster path as the others slow.
void confirm_anchor(const PairInferenceInput& input, PairInference& out) {
  std::vector<int> named;
  for (std::size_t i = 0; i < out.slow.size(); ++i) {
    if (out.slow[i]) named.push_back(static_cast<int>(i));
  }
  if (named.empty()) return;
  const auto cleared = static_cast<std::size_t>(std::count(out.cleared.begin(), out.cleared.end(), true));
  if (cleared >= 3) return;
  bool structure_decides = named.size() == 1;
  if (named.size() == 2) {
    for (const InferencePair& p : input.slow_pairs) {
      if ((p.a == named[0] && p.b == named[1]) || (p.a == named[1] && p.b == named[0])) structure_decides = true;
    }
  }
  for (int node : named) {
    const double ratio = mean_cleared_ratio(input, out, node);
    if (structure_decides && ratio <= input.single_pair_anchor_max_ratio) continue;
    out.undecided_ratio = std::max(out.undecided_ratio, ratio);
    out.slow[static_cast<std::size_t>(node)] = false;
    out.slow_evidence[static_cast<std::size_t>(node)].clear();
    out.undecided_slow.push_back(node);
  }
}

// Per node: the distinct partners of its slow pairs that are `cleared`, and the others.
struct SlowPartners {
  std::vector<std::vector<int>> cleared, other;
  std::vector<bool> in_slow_pair;
};
SlowPartners slow_partners(const PairInferenceInput& input, const std::vector<bool>& cleared) {
  const std::size_t n = input.nodes;
  SlowPartners out;
  out.cleared.assign(n, {});
  out.other.assign(n, {});
  out.in_slow_pair.assign(n, false);
  for (const InferencePair& p : input.slow_pairs) {
    if (!in_range(p.a, n) || !in_range(p.b, n) || p.a == p.b) continue;
    const auto a = static_cast<std::size_t>(p.a);
    const auto b = static_cast<std::size_t>(p.b);
    out.in_slow_pair[a] = out.in_slow_pair[b] = true;
    (cleared[b] ? out.cleared[a] : out.other[a]).push_back(p.b);
    (cleared[a] ? out.cleared[b] : out.other[b]).push_back(p.a);
  }
  for (std::size_t i = 0; i < n; ++i) sort_unique(out.cleared[i]), sort_unique(out.other[i]);
  return out;
}

}  // namespace

PairInference infer_pair_faults(const PairInferenceInput& input, const FastPairList& fast_pair_list) {
  const std::size_t n = input.nodes;
  PairInference out;
  out.cleared.assign(n, false);
  out.slow.assign(n, false);
  out.slow_evidence.assign(n, {});
  for (std::size_t i = 0; i < n && i < input.fast_pairs.size(); ++i) out.cleared[i] = input.fast_pairs[i] > 0;
  // A node none of whose pairs is fast is slow when min_cleared_partners distinct cleared nodes were
  // slow with it: one slow node explains what would otherwise take as many slow links.
  const auto needed = static_cast<std::size_t>(std::max(1, input.min_cleared_partners));
  {
    const SlowPartners first = slow_partners(input, out.cleared);
    for (std::size_t i = 0; i < n; ++i) {
      if (out.cleared[i] || first.cleared[i].size() < needed) continue;
      out.slow[i] = true;
      out.slow_evidence[i] = first.cleared[i];
    }
  }
  // Slow pairs between cleared nodes are links, unless they form one slow crossing; a cleared node in
  // more links than fast pairs is slow after all.
  for (std::size_t k = 0; k < input.slow_pairs.size(); ++k) {
    const InferencePair& p = input.slow_pairs[k];
    if (in_range(p.a, n) && in_range(p.b, n) && p.a != p.b && out.cleared[static_cast<std::size_t>(p.a)] &&
        out.cleared[static_cast<std::size_t>(p.b)]) {
      out.links.push_back(k);
    }
  }
  if (out.links.size() >= 4 && fast_pair_list) find_slow_crossing(input.slow_pairs, fast_pair_list(), out);
  name_mostly_slow_nodes(input, out);
  confirm_anchor(input, out);
  // The nodes neither cleared nor named: ambiguous, with the retest that would decide.
  const SlowPartners partners = slow_partners(input, out.cleared);
  for (std::size_t i = 0; i < n; ++i) {
    if (out.cleared[i] || out.slow[i] || !partners.in_slow_pair[i]) continue;
    if (std::find(out.undecided_slow.begin(), out.undecided_slow.end(), static_cast<int>(i)) !=
        out.undecided_slow.end()) {
      continue;
    }
    AmbiguousNode a;
    a.node = static_cast<int>(i);
    a.cleared_partners = partners.cleared[i];
    // Slow only with named slow nodes: those explain its pairs; it is still not cleared.
    for (int other : partners.other[i]) {
      if (!out.slow[static_cast<std::size_t>(other)]) a.other_partners.push_back(other);
    }
    a.retest_partner = known_good_partner(out, a.node, a.cleared_partners, partners.other[i]);
    out.ambiguous.push_back(std::move(a));
  }
  // Slow pairs between two nodes neither cleared nor named: unexplained.
  for (std::size_t k = 0; k < input.slow_pairs.size(); ++k) {
    const InferencePair& p = input.slow_pairs[k];
    if (!in_range(p.a, n) || !in_range(p.b, n) || p.a == p.b) continue;
    const auto a = static_cast<std::size_t>(p.a);
    const auto b = static_cast<std::size_t>(p.b);
    if (!out.cleared[a] && !out.cleared[b] && !out.slow[a] && !out.slow[b]) out.unexplained.push_back(k);
  }
  return out;
}

void name_mostly_slow_nodes(const PairInferenceInput& input, PairInference& inference) {
  const std::size_t n = inference.cleared.size();
  const auto needed = static_cast<std::size_t>(std::max(1, input.min_cleared_partners));
  std::vector<std::vector<int>> linked(n);
  for (std::size_t k : inference.links) {
    const InferencePair& p = input.slow_pairs[k];
    linked[static_cast<std::size_t>(p.a)].push_back(p.b);
    linked[static_cast<std::size_t>(p.b)].push_back(p.a);
  }
  for (std::vector<int>& partners : linked) sort_unique(partners);
  std::vector<bool> named(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const int measured = i < input.measured_pairs.size() ? input.measured_pairs[i] : 0;
    named[i] = measured > 0 && linked[i].size() >= needed &&
               static_cast<double>(linked[i].size()) > input.mostly_slow_fraction * static_cast<double>(measured);
  }
  if (std::none_of(named.begin(), named.end(), [](bool b) { return b; })) return;
  for (std::size_t i = 0; i < n; ++i) {
    if (!named[i]) continue;
    inference.slow[i] = true;
    inference.cleared[i] = false;
    for (int partner : linked[i]) {
      if (!named[static_cast<std::size_t>(partner)]) inference.slow_evidence[i].push_back(partner);
    }
  }
  // Their links are theirs now: a link stays one only between two nodes still cleared.
  std::erase_if(inference.links, [&](std::size_t k) {
    const InferencePair& p = input.slow_pairs[k];
    return named[static_cast<std::size_t>(p.a)] || named[static_cast<std::size_t>(p.b)];
  });
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

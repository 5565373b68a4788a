// The pair inference's ambiguous and crossing findings (see pair_inference_findings.hpp). Floor:
// analysis; pure.
#include "analysis/pairs/pair_inference_findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "analysis/base/text.hpp"
#include "analysis/topology/topology_analysis.hpp"

namespace podperf {
namespace {

constexpr const char* kAmbiguous = "pairs.ambiguous";
constexpr const char* kCrossing = "pairs.slow_crossing";
constexpr std::size_t kMaxListed = 8;  // nodes listed in one finding's text

const std::string& label(const Run& run, int node) {
  static const std::string kUnknown = "?";
  if (node < 0 || static_cast<std::size_t>(node) >= run.nodes.size()) return kUnknown;
  return run.nodes[static_cast<std::size_t>(node)].label;
}

std::vector<std::string> labels(const Run& run, const std::vector<int>& nodes) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < nodes.size() && i < kMaxListed; ++i) out.push_back(label(run, nodes[i]));
  if (nodes.size() > kMaxListed) out.push_back(fmt::format("and {} more", nodes.size() - kMaxListed));
  return out;
}

Finding ambiguous_finding(const Run& run, const AmbiguousNode& a, const std::string& rerun) {
  const std::string& name = label(run, a.node);
  std::vector<int> partners = a.cleared_partners;
  partners.insert(partners.end(), a.other_partners.begin(), a.other_partners.end());
  Finding f;
  f.tag = Tag::kConcern;
  f.source = "analysis";
  f.check = kAmbiguous;
  f.observed = fmt::format(
      "{}: every measured pair of it at {} bytes is slow (with {}); {} of those partners {} "
      "cleared by a fast pair",
      name, run.judged_size_bytes, text::join(labels(run, partners)), a.cleared_partners.size(),
      a.cleared_partners.size() == 1 ? "is" : "are");
  f.expected = "a node is named slow only when it is slow with at least two partners that are fast elsewhere";
  if (a.cleared_partners.size() == 1) {
    f.meaning = fmt::format("ambiguous: {} is slow, or only the link {} <-> {} is; one slow pair cannot tell", name,
                            name, label(run, a.cleared_partners.front()));
  } else {
    f.meaning = fmt::format("ambiguous: {} or its partner{} ({}) may be the slow one; no fast pair clears either", name,
                            partners.size() == 1 ? "" : "s", text::join(labels(run, partners)));
  }
  f.effect = "no node is named or drained for it until a retest decides";
  f.next_step =
      a.retest_partner >= 0
          ? fmt::format("pair it with a known-good node: {} --pairs {}:{}", rerun, name, label(run, a.retest_partner))
          : fmt::format(
                "no node of this run is known good: measure {} against a node known to be healthy "
                "(a larger run, or {} with another node added)",
                name, rerun);
  return f;
}

// The nodes the inference would name but the cleared nodes are too few to anchor (one fast pair).
Finding undecided_finding(const Run& run, const PairInference& inference, const std::string& rerun) {
  std::vector<int> cleared;
  for (std::size_t i = 0; i < inference.cleared.size(); ++i) {
    if (inference.cleared[i]) cleared.push_back(static_cast<int>(i));
  }
  const std::vector<int>& nodes = inference.undecided_slow;
  const std::string fast = text::join(labels(run, cleared), " <-> ");
  Finding f;
  f.tag = Tag::kConcern;
  f.source = "analysis";
  f.check = kAmbiguous;
  f.observed = fmt::format(
      "only {} {} fast at {} bytes; every pair of {} is slow against {} (on average up to {:.0f}%)",
      cleared.size() == 1 ? "node" : "the pair", fast, run.judged_size_bytes, text::join(labels(run, nodes)),
      cleared.size() == 1 ? "it" : "them", inference.undecided_ratio * 100.0);
  f.expected =
      "three nodes fast with each other, or one fast pair against one slow node or two (two slow hosts of four) "
      "whose pairs with it average at most [pairs] single_pair_anchor_max_ratio of it; nearer, the one pair may "
      "simply run on a faster path";
  f.meaning = fmt::format(
      "cannot tell: {} nodes are slow, or the one fast pair {} is faster than the rest (a faster path between its "
      "nodes); pairs measured against each other cannot decide",
      nodes.size(), fast);
  f.effect = "no node is named or drained for it until a retest or a published figure decides";
  f.next_step = fmt::format(
      "judge the busbw against the instance type's published figure (podperf accept --sku TYPE), or measure "
      "{} against a node known to be healthy ({} with another node added)",
      label(run, nodes.front()), rerun);
  return f;
}

Finding crossing_finding(const Run& run, const SlowCrossing& c, const std::vector<InferencePair>& slow_pairs,
                         const std::string& rerun) {
  const std::string group_a = topology_group_name(run, c.side_a);
  const std::string group_b = topology_group_name(run, c.side_b);
  const auto side_name = [&](const std::string& group, const std::vector<int>& side) {
    return group.empty() ? fmt::format("{{{}}}", text::join(labels(run, side)))
                         : fmt::format("{} ({})", group, text::join(labels(run, side)));
  };
  double worst = 1.0;
  for (std::size_t k : c.pairs) worst = std::min(worst, slow_pairs[k].ratio);
  Finding f;
  f.tag = Tag::kConcern;
  f.source = "analysis";
  f.check = kCrossing;
  f.observed = fmt::format(
      "all {} slow pairs at {} bytes cross between {} and {} (down to {:.0f}% of baseline); "
      "the pairs inside each side are fast",
      c.pairs.size(), run.judged_size_bytes, side_name(group_a, c.side_a), side_name(group_b, c.side_b), worst * 100.0);
  f.expected = "pairs crossing between groups as fast as pairs inside one";
  // One side exactly one topology group, the other not: that group's uplink. Otherwise (two groups, or
  // no topology) the pairs cannot tell which side's uplink.
  const bool blame_a = !group_a.empty() && group_b.empty();
  const bool blame_b = group_a.empty() && !group_b.empty();
  if (blame_a || blame_b) {
    f.meaning = fmt::format(
        "the uplink of {} (or its switch) is slow, not its nodes: every node is fast with its "
        "own side",
        blame_a ? group_a : group_b);
  } else {
    f.meaning = fmt::format(
        "one slow path between the two sides (the uplink of one side, or the switch above both), not the nodes: "
        "every node is fast with its own side{}",
        group_a.empty() ? " (no topology names these sides: --topology would confirm the groups)" : "");
  }
  f.effect = "collectives spanning both sides run at the speed of that path";
  std::vector<int> third;
  for (std::size_t i = 0; i < run.nodes.size(); ++i) {
    const int node = static_cast<int>(i);
    if (std::find(c.side_a.begin(), c.side_a.end(), node) == c.side_a.end() &&
        std::find(c.side_b.begin(), c.side_b.end(), node) == c.side_b.end()) {
      third.push_back(node);
    }
  }
  if (blame_a || blame_b) {
    f.next_step =
        fmt::format("check the uplink ports of {} (switch port counters, cabling)", blame_a ? group_a : group_b);
  } else if (third.empty()) {
    f.next_step = fmt::format(
        "ambiguous which side's uplink: this run has no third group; measure each side against another group "
        "({} with nodes of a third switch), and check the uplink ports' counters",
        rerun);
  } else {
    f.next_step = fmt::format("tell which side's uplink: {} --pairs {}:{},{}:{}", rerun, label(run, c.side_a.front()),
                              label(run, third.front()), label(run, c.side_b.front()), label(run, third.front()));
  }
  return f;
}

}  // namespace

std::string topology_group_name(const Run& run, const std::vector<int>& nodes) {
  if (nodes.empty() || run.topology_levels.empty()) return "";
  const auto path = [&](int node) -> const std::vector<std::string>& {
    return run.nodes[static_cast<std::size_t>(node)].topology;
  };
  for (int node : nodes) {
    if (node < 0 || static_cast<std::size_t>(node) >= run.nodes.size() || path(node).empty()) return "";
  }
  // The deepest level all of them share.
  std::size_t depth = 0;
  const std::vector<std::string>& first = path(nodes.front());
  while (depth < first.size()) {
    bool shared = true;
    for (int node : nodes) shared &= path(node).size() > depth && path(node)[depth] == first[depth];
    if (!shared) break;
    ++depth;
  }
  if (depth == 0) return "";
  const std::size_t level = depth - 1;
  for (std::size_t i = 0; i < run.nodes.size(); ++i) {
    const std::vector<std::string>& other = run.nodes[i].topology;
    const bool member = std::find(nodes.begin(), nodes.end(), static_cast<int>(i)) != nodes.end();
    if (!member && other.size() > level &&
        std::equal(first.begin(), first.begin() + static_cast<long>(depth), other.begin())) {
      return "";  // the group holds other nodes too: the side is not that group
    }
  }
  const std::string level_name = level < run.topology_levels.size() ? topology_level_label(run, level) : "group";
  return fmt::format("{} {}", level_name, first[level]);
}

void add_inference_findings(Run& run, const PairInference& inference, const std::vector<InferencePair>& slow_pairs,
                            const std::string& rerun) {
  std::erase_if(run.findings, [](const Finding& f) { return f.check == kAmbiguous || f.check == kCrossing; });
  for (const AmbiguousNode& a : inference.ambiguous) run.findings.push_back(ambiguous_finding(run, a, rerun));
  if (!inference.undecided_slow.empty()) run.findings.push_back(undecided_finding(run, inference, rerun));
  for (const SlowCrossing& c : inference.crossings) {
    run.findings.push_back(crossing_finding(run, c, slow_pairs, rerun));
  }
}

}  // namespace podperf

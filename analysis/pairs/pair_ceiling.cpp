// The spread the pair verdicts leave unexplained (see pair_ceiling.hpp). Floor: analysis; pure.
#include "analysis/pairs/pair_ceiling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <utility>

#include "analysis/base/text.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf {
namespace {

constexpr const char* kCeilingAmbiguous = "pairs.ambiguous";
constexpr const char* kCeilingTitle = "no consistent fast group: ";  // how the finding's text starts
constexpr std::size_t kCeilingListed = 8;

const std::string& ceiling_label_of(const Run& run, int node) {
  static const std::string kUnknown = "?";
  if (node < 0 || static_cast<std::size_t>(node) >= run.nodes.size()) return kUnknown;
  return run.nodes[static_cast<std::size_t>(node)].label;
}

std::vector<std::string> ceiling_labels(const Run& run, const std::vector<int>& nodes) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < nodes.size() && i < kCeilingListed; ++i) out.push_back(ceiling_label_of(run, nodes[i]));
  if (nodes.size() > kCeilingListed) out.push_back(fmt::format("and {} more", nodes.size() - kCeilingListed));
  return out;
}

bool ceiling_judged(const Run& run, const PairResult& p, std::size_t n) {
  return judged_ok(run, p) && p.nodes[0] >= 0 && p.nodes[1] >= 0 && static_cast<std::size_t>(p.nodes[0]) < n &&
         static_cast<std::size_t>(p.nodes[1]) < n && p.nodes[0] != p.nodes[1];
}

// Nodes the inference already speaks of: named, ambiguous, undecided, at the edge of a crossing.
std::vector<bool> ceiling_explained_nodes(const PairInference& inference, std::size_t n) {
  std::vector<bool> out(n, false);
  const auto mark = [&](int node) {
    if (node >= 0 && static_cast<std::size_t>(node) < n) out[static_cast<std::size_t>(node)] = true;
  };
  for (std::size_t i = 0; i < n && i < inference.slow.size(); ++i) out[i] = inference.slow[i];
  for (const AmbiguousNode& a : inference.ambiguous) mark(a.node);
  for (int node : inference.undecided_slow) mark(node);
  for (const SlowCrossing& c : inference.crossings) {
    for (int node : c.side_a) mark(node);
    for (int node : c.side_b) mark(node);
  }
  return out;
}

}  // namespace

LaggingNodes find_lagging_nodes(const Run& run, const PairInference& inference, const PairThresholds& t) {
  LaggingNodes out;
  const std::size_t n = run.nodes.size();
  const auto needed = static_cast<std::size_t>(std::max(2, t.lagging_reference_nodes));
  if (n < needed + 1) return out;
  std::vector<double> ceiling(n, 0.0);
  std::vector<int> pairs(n, 0);
  std::vector<double> noise;
  for (const PairResult& p : run.pairs) {
    if (!ceiling_judged(run, p, n)) continue;
    const double best = std::max(p.busbw_gbps, p.retest_samples_s.empty() ? 0.0 : p.retest_busbw_gbps);
    for (int node : p.nodes) {
      const auto i = static_cast<std::size_t>(node);
      ceiling[i] = std::max(ceiling[i], best);
      ++pairs[i];
    }
    noise.push_back(p.noise_gbps);
  }
  std::vector<double> sorted = ceiling;
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  out.reference_gbps = sorted[needed - 1];
  if (out.reference_gbps <= 0.0) return out;
  const double floor = out.reference_gbps * (1.0 - t.threshold);
  // The spread of the pairs among the nodes that reach the reference (their own first measurements).
  std::vector<bool> fast(n, false);
  for (std::size_t i = 0; i < n; ++i) fast[i] = ceiling[i] >= floor;
  std::vector<double> fast_pairs;
  for (const PairResult& p : run.pairs) {
    if (ceiling_judged(run, p, n) && fast[static_cast<std::size_t>(p.nodes[0])] &&
        fast[static_cast<std::size_t>(p.nodes[1])]) {
      fast_pairs.push_back(p.busbw_gbps);
    }
  }
  // Not that many nodes measured with each other: no spread to judge by.
  if (fast_pairs.size() < needed * (needed - 1) / 2) return out;
  out.spread_gbps = std::max(sample_stddev(fast_pairs), median(noise));
  const std::vector<bool> explained = ceiling_explained_nodes(inference, n);
  for (std::size_t i = 0; i < n; ++i) {
    if (explained[i] || pairs[i] < 2 || ceiling[i] >= floor) continue;
    if (out.reference_gbps - ceiling[i] <= t.spread_factor * out.spread_gbps) continue;
    out.nodes.push_back(static_cast<int>(i));
    out.ceilings.push_back(ceiling[i]);
  }
  if (out.nodes.empty()) return out;
  std::vector<int> order;
  for (std::size_t i = 0; i < n; ++i) {
    if (fast[i]) order.push_back(static_cast<int>(i));
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return ceiling[static_cast<std::size_t>(a)] > ceiling[static_cast<std::size_t>(b)];
  });
  out.reference = std::move(order);
  return out;
}

void add_lagging_node_findings(Run& run, const LaggingNodes& lagging, const std::string& rerun) {
  std::erase_if(run.findings,
                [](const Finding& f) { return f.check == kCeilingAmbiguous && f.observed.starts_with(kCeilingTitle); });
  if (lagging.nodes.empty()) return;
  std::vector<std::string> levels;
  for (std::size_t i = 0; i < lagging.nodes.size() && i < kCeilingListed; ++i) {
    levels.push_back(fmt::format("{} {:.0f}%", ceiling_label_of(run, lagging.nodes[i]),
                                 100.0 * lagging.ceilings[i] / lagging.reference_gbps));
  }
  if (lagging.nodes.size() > kCeilingListed)
    levels.push_back(fmt::format("and {} more", lagging.nodes.size() - kCeilingListed));
  const std::string& best = ceiling_label_of(run, lagging.reference.front());
  std::vector<std::string> retests;
  for (std::size_t i = 0; i < lagging.nodes.size() && i < 4; ++i) {
    retests.push_back(fmt::format("{}:{}", ceiling_label_of(run, lagging.nodes[i]), best));
  }
  Finding f;
  f.tag = Tag::kConcern;
  f.source = "analysis";
  f.check = kCeilingAmbiguous;
  f.observed = fmt::format(
      "{}at {} bytes the best pair of {} reaches only {} of the {:.3g} GB/s that {} node{} reach ({}); the gap is "
      "beyond the pairs' spread ({:.2g} GB/s) and no node is named for it",
      kCeilingTitle, run.judged_size_bytes, text::join(ceiling_labels(run, lagging.nodes)), text::join(levels, ", "),
      lagging.reference_gbps, lagging.reference.size(), lagging.reference.size() == 1 ? "" : "s",
      text::join(ceiling_labels(run, lagging.reference)), lagging.spread_gbps);
  f.expected = "a healthy node has at least one pair as fast as the fastest nodes' pairs with each other";
  f.meaning = fmt::format(
      "cannot tell whether {} {} slow: no fast group of nodes stands apart by a clear gap (a slow majority of unequal "
      "nodes looks like this), or the fastest nodes share a faster path; pairs measured against each other cannot "
      "decide",
      text::join(ceiling_labels(run, lagging.nodes)), lagging.nodes.size() == 1 ? "is" : "are");
  f.effect = "no node is named or drained for it until a retest or a published figure decides";
  f.next_step = fmt::format(
      "pair them with a node known to be healthy ({} --pairs {}, if {} is known good), or judge the busbw against "
      "the instance type's published figure (podperf accept --sku TYPE)",
      rerun, text::join(retests, ","), best);
  run.findings.push_back(std::move(f));
}

}  // namespace podperf

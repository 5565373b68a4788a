// Nodes whose pairs stall for moments (see pair_stalls.hpp). Floor: analysis; pure.
#include "analysis/pairs/pair_stalls.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "analysis/base/units.hpp"
#include "analysis/pairs/pair_evidence.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf {
namespace {

constexpr const char* kStallCheck = "pairs.stalling_node";
constexpr std::size_t kStallShown = 4;

// One sample set's iterations beyond `factor` times its median, and its slowest over that median.
struct StallCount {
  int iterations = 0;
  double worst = 0.0;
};
StallCount stall_count(const std::vector<double>& samples_s, double factor) {
  if (samples_s.empty()) return {};
  const double m = median(samples_s);
  if (m <= 0.0) return {};
  StallCount out;
  out.iterations =
      static_cast<int>(std::count_if(samples_s.begin(), samples_s.end(), [&](double s) { return s > factor * m; }));
  out.worst = *std::max_element(samples_s.begin(), samples_s.end()) / m;
  return out;
}

// A pair's stalls: first measurement and retest, each against its own median.
struct StalledPair {
  int iterations = 0;  // stalled, first measurement and retest
  int measured = 0;    // iterations of both
  double worst = 0.0;  // the slowest iteration over its median
};

}  // namespace

int stalled_iterations(const std::vector<double>& samples_s, double factor) {
  return stall_count(samples_s, factor).iterations;
}

void add_stalling_node_findings(Run& run, const PairThresholds& t, const std::string& rerun) {
  std::erase_if(run.findings, [](const Finding& f) { return f.check == kStallCheck; });
  std::unordered_map<std::size_t, StalledPair> stalled;  // by index into run.pairs
  const NodePairs by_node = pick_pairs_by_node(run, [&](std::size_t k) {
    const PairResult& p = run.pairs[k];
    const StallCount first = stall_count(p.samples_s, t.stall_factor);
    const StallCount retest = stall_count(p.retest_samples_s, t.stall_factor);
    if (first.iterations + retest.iterations < t.stall_min_iterations) return false;
    stalled[k] = {first.iterations + retest.iterations,
                  static_cast<int>(p.samples_s.size() + p.retest_samples_s.size()),
                  std::max(first.worst, retest.worst)};
    return true;
  });
  const std::size_t n = run.nodes.size();
  std::vector<bool> straggler(n, false);
  for (const Straggler& s : run.stragglers) {
    if (s.node >= 0 && static_cast<std::size_t>(s.node) < n) straggler[static_cast<std::size_t>(s.node)] = true;
  }
  const auto needed = static_cast<std::size_t>(std::max(2, t.min_cleared_partners));
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<std::size_t>& pairs = by_node.picked[i];
    const int node = static_cast<int>(i);
    if (straggler[i] || distinct_partners(run, pairs, node) < needed) continue;
    const std::string& label = run.nodes[i].label;
    double worst = 0.0;
    for (std::size_t k : pairs) worst = std::max(worst, stalled.at(k).worst);
    const PairListText list =
        pair_list_text(run, node, pairs, kStallShown, [&](std::size_t k, const std::string& other) {
          const StalledPair& s = stalled.at(k);
          return fmt::format("with {}: {} of {} iterations, up to {:.0f}x", other, s.iterations, s.measured, s.worst);
        });
    Finding f;
    f.tag = Tag::kConcern;
    f.source = "analysis";
    f.check = kStallCheck;
    f.host = run.nodes[i].hostname;
    f.observed = fmt::format(
        "{}: {} of its {} pairs at {} had iterations more than {:g}x their median ({}); their medians may look "
        "healthy",
        label, pairs.size(), by_node.measured[i], format_size(run.judged_size_bytes), t.stall_factor, list.shown);
    f.expected = fmt::format(
        "iterations of a healthy pair within a few times its median (fewer than {} beyond {:g}x); one stalled pair "
        "cannot tell the node from the link, so a node is named in {} or more",
        t.stall_min_iterations, t.stall_factor, needed);
    f.meaning = fmt::format(
        "{} stalls for moments (a flapping link or NIC port, a link retraining, a host stalling its network or I/O): "
        "slow now and then, not steadily, so it is no straggler; collectives that include it stall with it (worst "
        "{:.0f}x)",
        label, worst);
    f.effect = "collectives spanning this node stall at random; training steps and checkpoints with it are uneven";
    f.next_step = fmt::format(
        "measure its pairs again with more iterations: {} --pairs {} -n 200 --retest 2; read its host signals "
        "(podperf signals: EFA error counters, link flaps in dmesg, Xid, clock events) and its switch port's counters",
        rerun, list.option);
    run.findings.push_back(std::move(f));
  }
}

}  // namespace podperf

// Nodes whose pairs stall for moments (see pair_stalls.hpp). Floor: analysis; pure.
#include "analysis/pair_stalls.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "analysis/stats.hpp"
#include "analysis/text.hpp"

namespace podperf {
namespace {

constexpr const char* kStallCheck = "pairs.stalling_node";
constexpr std::size_t kStallShown = 4;

struct StalledPair {
  const PairResult* pair = nullptr;
  int iterations = 0;   // stalled, first measurement and retest
  int measured = 0;     // iterations of both
  double worst = 0.0;   // the slowest iteration over its median
};

double stall_worst_over_median(const std::vector<double>& samples_s) {
  if (samples_s.empty()) return 0.0;
  const double m = median(samples_s);
  return m > 0.0 ? *std::max_element(samples_s.begin(), samples_s.end()) / m : 0.0;
}

}  // namespace

int stalled_iterations(const std::vector<double>& samples_s, double factor) {
  if (samples_s.empty()) return 0;
  const double m = median(samples_s);
  if (m <= 0.0) return 0;
  return static_cast<int>(std::count_if(samples_s.begin(), samples_s.end(), [&](double s) { return s > factor * m; }));
}

void report_stalling_nodes(Run& run, const PairThresholds& t, const std::string& rerun) {
  std::erase_if(run.findings, [](const Finding& f) { return f.check == kStallCheck; });
  const std::size_t n = run.nodes.size();
  std::vector<std::vector<StalledPair>> by_node(n);
  std::vector<int> measured_pairs(n, 0);
  for (const PairResult& p : run.pairs) {
    if (p.size_bytes != run.judged_size_bytes || p.status != "ok") continue;
    if (p.nodes[0] < 0 || p.nodes[1] < 0 || static_cast<std::size_t>(p.nodes[0]) >= n ||
        static_cast<std::size_t>(p.nodes[1]) >= n) {
      continue;
    }
    for (int node : p.nodes) ++measured_pairs[static_cast<std::size_t>(node)];
    StalledPair s;
    s.pair = &p;
    s.iterations = stalled_iterations(p.samples_s, t.stall_factor) + stalled_iterations(p.retest_samples_s, t.stall_factor);
    if (s.iterations < t.stall_min_iterations) continue;
    s.measured = static_cast<int>(p.samples_s.size() + p.retest_samples_s.size());
    s.worst = std::max(stall_worst_over_median(p.samples_s), stall_worst_over_median(p.retest_samples_s));
    for (int node : p.nodes) by_node[static_cast<std::size_t>(node)].push_back(s);
  }
  std::vector<bool> straggler(n, false);
  for (const Straggler& s : run.stragglers) {
    if (s.node >= 0 && static_cast<std::size_t>(s.node) < n) straggler[static_cast<std::size_t>(s.node)] = true;
  }
  const auto needed = static_cast<std::size_t>(std::max(2, t.min_cleared_partners));
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<StalledPair>& stalled = by_node[i];
    const int node = static_cast<int>(i);
    std::vector<int> partners;
    for (const StalledPair& s : stalled) partners.push_back(s.pair->nodes[0] == node ? s.pair->nodes[1] : s.pair->nodes[0]);
    std::sort(partners.begin(), partners.end());
    partners.erase(std::unique(partners.begin(), partners.end()), partners.end());
    if (partners.size() < needed || straggler[i]) continue;
    const std::string& label = run.nodes[i].label;
    std::vector<std::string> shown, pair_list;
    double worst = 0.0;
    for (const StalledPair& s : stalled) worst = std::max(worst, s.worst);
    for (std::size_t k = 0; k < stalled.size() && k < kStallShown; ++k) {
      const StalledPair& s = stalled[k];
      const int other = s.pair->nodes[0] == node ? s.pair->nodes[1] : s.pair->nodes[0];
      const std::string& other_label = run.nodes[static_cast<std::size_t>(other)].label;
      shown.push_back(fmt::format("with {}: {} of {} iterations, up to {:.0f}x", other_label, s.iterations, s.measured,
                                  s.worst));
      pair_list.push_back(label + ":" + other_label);
    }
    if (stalled.size() > kStallShown) shown.push_back(fmt::format("and {} more", stalled.size() - kStallShown));
    Finding f;
    f.tag = Tag::kConcern;
    f.source = "analysis";
    f.check = kStallCheck;
    f.host = run.nodes[i].hostname;
    f.observed = fmt::format(
        "{}: {} of its {} pairs at {} bytes had iterations more than {:g}x their median ({}); their medians may look "
        "healthy",
        label, stalled.size(), measured_pairs[i], run.judged_size_bytes, t.stall_factor, text::join(shown, "; "));
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
        rerun, fmt::join(pair_list, ","));
    run.findings.push_back(std::move(f));
  }
}

}  // namespace podperf

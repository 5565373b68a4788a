// Nodes whose pairs were slow at first and fast in their retest (see retest_recovered.hpp). Floor:
// analysis; pure.
#include "analysis/pairs/retest_recovered.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "analysis/base/units.hpp"
#include "analysis/pairs/pair_evidence.hpp"

namespace podperf {
namespace {

constexpr const char* kRecoveredCheck = "pairs.recovered_in_retest";
constexpr std::size_t kRecoveredShown = 4;

bool already_named(const Run& run, int node) {
  for (const Straggler& s : run.stragglers) {
    if (s.node == node) return true;
  }
  const std::string& host = run.nodes[static_cast<std::size_t>(node)].hostname;
  return std::any_of(run.findings.begin(), run.findings.end(), [&](const Finding& f) {
    return (f.check == "pairs.intermittent_node" || f.check == "pairs.stalling_node") && !host.empty() &&
           f.host == host;
  });
}

}  // namespace

void add_recovered_node_findings(Run& run, const PairThresholds& t, const std::string& rerun) {
  std::erase_if(run.findings, [](const Finding& f) { return f.check == kRecoveredCheck; });
  const NodePairs by_node = pick_pairs_by_node(run, [&](std::size_t k) { return run.pairs[k].cleared_by_retest; });
  const auto needed = static_cast<std::size_t>(std::max(2, t.min_cleared_partners));
  for (std::size_t i = 0; i < run.nodes.size(); ++i) {
    const std::vector<std::size_t>& pairs = by_node.picked[i];
    const int node = static_cast<int>(i);
    const std::size_t partners = distinct_partners(run, pairs, node);
    if (partners < needed || already_named(run, node)) continue;
    const std::string& label = run.nodes[i].label;
    const PairListText list =
        pair_list_text(run, node, pairs, kRecoveredShown, [&](std::size_t k, const std::string& other) {
          const PairResult& p = run.pairs[k];
          return fmt::format("with {} {:.0f}%, retest {:.0f}%", other, p.ratio * 100.0,
                             p.baseline_gbps > 0.0 ? 100.0 * p.retest_busbw_gbps / p.baseline_gbps : 0.0);
        });
    Finding f;
    f.tag = Tag::kInfo;
    f.source = "analysis";
    f.check = kRecoveredCheck;
    f.host = run.nodes[i].hostname;
    f.observed = fmt::format(
        "{}: {} of its {} pairs at {} were below the baseline at first and within it when measured again ({}): "
        "{} partners",
        label, pairs.size(), by_node.measured[i], format_size(run.judged_size_bytes), list.shown, partners);
    f.expected =
        "a pair slow at first and fast in its retest is noise, unless the slow measurements keep sharing a node";
    f.meaning = fmt::format(
        "{} may be slow now and then (a flapping NIC or link, throttling, a noisy neighbour), or this cluster is "
        "noisy; one run cannot tell, and nothing is named or drained for it",
        label);
    f.effect = "none on this verdict; a node that recurs here run after run is intermittent";
    f.next_step = fmt::format(
        "measure its pairs again, more than once: {} --pairs {} --retest 2 (or the whole run with --repeat 3), and "
        "read its host signals (podperf signals: EFA error counters, link flaps, Xid, clock events)",
        rerun, list.option);
    run.findings.push_back(std::move(f));
  }
}

}  // namespace podperf

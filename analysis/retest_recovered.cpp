// Nodes whose pairs were slow at first and fast in their retest (see retest_recovered.hpp). Floor:
// analysis; pure.
#include "analysis/retest_recovered.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "analysis/text.hpp"

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

void report_recovered_nodes(Run& run, const PairThresholds& t, const std::string& rerun) {
  std::erase_if(run.findings, [](const Finding& f) { return f.check == kRecoveredCheck; });
  const std::size_t n = run.nodes.size();
  std::vector<std::vector<const PairResult*>> recovered(n);
  std::vector<int> measured(n, 0);
  for (const PairResult& p : run.pairs) {
    if (p.size_bytes != run.judged_size_bytes || p.status != "ok") continue;
    for (int node : p.nodes) {
      if (node < 0 || static_cast<std::size_t>(node) >= n) continue;
      ++measured[static_cast<std::size_t>(node)];
      if (p.cleared_by_retest) recovered[static_cast<std::size_t>(node)].push_back(&p);
    }
  }
  const auto needed = static_cast<std::size_t>(std::max(2, t.min_cleared_partners));
  for (std::size_t i = 0; i < n; ++i) {
    const int node = static_cast<int>(i);
    std::vector<int> partners;
    for (const PairResult* p : recovered[i]) partners.push_back(p->nodes[0] == node ? p->nodes[1] : p->nodes[0]);
    std::sort(partners.begin(), partners.end());
    partners.erase(std::unique(partners.begin(), partners.end()), partners.end());
    if (partners.size() < needed || already_named(run, node)) continue;
    const std::string& label = run.nodes[i].label;
    std::vector<std::string> shown, pair_list;
    for (std::size_t k = 0; k < recovered[i].size() && k < kRecoveredShown; ++k) {
      const PairResult& p = *recovered[i][k];
      const int other = p.nodes[0] == node ? p.nodes[1] : p.nodes[0];
      const std::string& other_label = run.nodes[static_cast<std::size_t>(other)].label;
      shown.push_back(fmt::format("with {} {:.0f}%, retest {:.0f}%", other_label, p.ratio * 100.0,
                                  p.baseline_gbps > 0.0 ? 100.0 * p.retest_busbw_gbps / p.baseline_gbps : 0.0));
      pair_list.push_back(label + ":" + other_label);
    }
    if (recovered[i].size() > kRecoveredShown) shown.push_back(fmt::format("and {} more", recovered[i].size() - kRecoveredShown));
    Finding f;
    f.tag = Tag::kInfo;
    f.source = "analysis";
    f.check = kRecoveredCheck;
    f.host = run.nodes[i].hostname;
    f.observed = fmt::format(
        "{}: {} of its {} pairs at {} bytes were below the baseline at first and within it when measured again ({}): "
        "{} partners",
        label, recovered[i].size(), measured[i], run.judged_size_bytes, text::join(shown, "; "), partners.size());
    f.expected = "a pair slow at first and fast in its retest is noise, unless the slow measurements keep sharing a node";
    f.meaning = fmt::format(
        "{} may be slow now and then (a flapping NIC or link, throttling, a noisy neighbour), or this cluster is "
        "noisy; one run cannot tell, and nothing is named or drained for it",
        label);
    f.effect = "none on this verdict; a node that recurs here run after run is intermittent";
    f.next_step = fmt::format(
        "measure its pairs again, more than once: {} --pairs {} --retest 2 (or the whole run with --repeat 3), and "
        "read its host signals (podperf signals: EFA error counters, link flaps, Xid, clock events)",
        rerun, fmt::join(pair_list, ","));
    run.findings.push_back(std::move(f));
  }
}

}  // namespace podperf

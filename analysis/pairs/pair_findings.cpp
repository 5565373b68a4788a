// The pair test's findings at the judged size (see pair_findings.hpp). Floor: analysis/pairs; pure.
#include "analysis/pairs/pair_findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "analysis/base/text.hpp"
#include "analysis/base/units.hpp"
#include "analysis/config/sku.hpp"
#include "analysis/pairs/rerun_command.hpp"
#include "analysis/stats/change_stats.hpp"

namespace podperf {
namespace {

constexpr std::size_t kListed = 8;  // nodes or groups named in one finding's text

const std::set<std::string>& pair_judge_checks() {
  static const std::set<std::string> checks{"pairs.slow_crossing", "pairs.faster_class",      "pairs.ambiguous",
                                            "pairs.undecided",     "pairs.intermittent_node", "pairs.mixed_nodes",
                                            "pairs.no_reference",  "pairs.below_published",   "pairs.chance_flags"};
  return checks;
}

const std::string& label(const Run& run, int node) {
  static const std::string kUnknown = "?";
  if (node < 0 || static_cast<std::size_t>(node) >= run.nodes.size()) return kUnknown;
  return run.nodes[static_cast<std::size_t>(node)].label;
}

// "a (93%), b (91%) and 3 more": nodes with their capacity.
std::string nodes_with_ratios(const Run& run, const std::vector<int>& nodes) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < nodes.size() && i < kListed; ++i) {
    const NodeEstimate& e = run.node_estimates[static_cast<std::size_t>(nodes[i])];
    out.push_back(fmt::format("{} {:.0f}% ({:.0f}-{:.0f}%)", e.label, e.ratio * 100.0, e.low * 100.0, e.high * 100.0));
  }
  if (nodes.size() > kListed) out.push_back(fmt::format("and {} more", nodes.size() - kListed));
  return text::join(out);
}

Finding make(Tag tag, const char* check, const std::string& host = "") {
  Finding f;
  f.tag = tag;
  f.source = "analysis";
  f.check = check;
  f.host = host;
  return f;
}

std::string results_dir(const Run& run, const PairJudgeContext& context) {
  return context.results_dir.empty() ? "results/" + (run.run_id.empty() ? std::string("RUN_ID") : run.run_id)
                                     : context.results_dir;
}

// The healthy node with the most pairs and a capacity nearest the population: the known-good partner of
// a confirmation; -1 when none.
int known_good(const Run& run, const PairVerdicts& v, int besides) {
  int best = -1;
  double best_score = -1e300;
  for (std::size_t i = 0; i < v.state.size(); ++i) {
    if (v.state[i] != NodeState::kHealthy || static_cast<int>(i) == besides) continue;
    const double score = v.model.support[i] - 100.0 * std::abs(v.model.node[i]);
    if (score > best_score) best_score = score, best = static_cast<int>(i);
  }
  (void)run;
  return best;
}

// The nodes of `v` in state `s`, ascending by capacity.
std::vector<int> nodes_in(const PairVerdicts& v, NodeState s) {
  std::vector<int> out;
  for (std::size_t i = 0; i < v.state.size(); ++i) {
    if (v.state[i] == s) out.push_back(static_cast<int>(i));
  }
  std::sort(out.begin(), out.end(), [&](int a, int b) {
    return v.model.node[static_cast<std::size_t>(a)] < v.model.node[static_cast<std::size_t>(b)];
  });
  return out;
}

std::string group_label(const PairVerdicts& v, const GroupTerm& g) {
  const ModelGrouping& grouping = v.input.model.groupings[g.grouping];
  const std::string& name = grouping.group_names[static_cast<std::size_t>(g.group)];
  return grouping.name == "block" ? name : fmt::format("{} {}", grouping.name, name);
}

std::vector<int> group_members(const PairVerdicts& v, const GroupTerm& g) {
  std::vector<int> out;
  const ModelGrouping& grouping = v.input.model.groupings[g.grouping];
  for (std::size_t i = 0; i < grouping.group.size(); ++i) {
    if (grouping.group[i] == g.group) out.push_back(static_cast<int>(i));
  }
  return out;
}

std::vector<std::string> labels_of(const Run& run, const std::vector<int>& nodes) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < nodes.size() && i < kListed; ++i) out.push_back(label(run, nodes[i]));
  if (nodes.size() > kListed) out.push_back(fmt::format("and {} more", nodes.size() - kListed));
  return out;
}

// Class gaps: each crossing class against the pairs inside a group of the same kinds, once per class.
void class_gap_findings(Run& run, const PairVerdicts& v, const PairThresholds& t) {
  const PairInput& in = v.input;
  const NodeModel& m = v.model;
  const double thr = -std::log(1.0 - t.threshold);
  const double tests = std::max<double>(1.0, static_cast<double>(m.class_level.size()));
  // Two tests of each gap, each at half the family's level (so either may decide: Bonferroni): with the
  // run's pooled noise (the stronger when the classes are alike) and with each class's own (Welch: a
  // shaped or congested crossing jitters far more than the quiet pairs inside a group, and the pooled
  // noise would lend them its spread).
  const double level = 1.0 - std::min(0.5, 0.5 * t.class_family_alpha / tests);
  const double q_pooled = student_t_quantile(level, std::max(1.0, m.df));
  for (std::size_t c = 0; c < m.class_level.size(); ++c) {
    if (in.class_inside[c] || in.class_split[c] < 0 || m.class_pairs[c] < 2) continue;
    std::size_t inside = m.class_level.size();
    for (std::size_t i = 0; i < m.class_level.size(); ++i) {
      if (in.class_inside[i] && in.class_kinds[i] == in.class_kinds[c] && m.class_pairs[i] >= 2) inside = i;
    }
    if (inside == m.class_level.size()) continue;
    const double gap = m.class_level[c] - m.class_level[inside];
    if (gap >= -thr) continue;
    const double se_pooled =
        1.2533 * m.sigma * std::sqrt(1.0 / m.class_pairs[c] + 1.0 / static_cast<double>(m.class_pairs[inside]));
    // Welch: each class's median with its own noise, the degrees of freedom by Satterthwaite.
    const double var_c = m.class_sigma[c] * m.class_sigma[c] / m.class_pairs[c];
    const double var_in = m.class_sigma[inside] * m.class_sigma[inside] / m.class_pairs[inside];
    const double se = 1.2533 * std::sqrt(var_c + var_in);
    const double denominator = var_c * var_c / m.class_df[c] + var_in * var_in / m.class_df[inside];
    const double df = denominator > 0.0 ? (var_c + var_in) * (var_c + var_in) / denominator : 1.0;
    const double q = student_t_quantile(level, std::max(1.0, df));
    if (-gap <= q_pooled * se_pooled && -gap <= q * se) continue;
    Finding f = make(Tag::kConcern, "pairs.slow_crossing");
    std::string groups;
    if (in.structure == "blocks" && !in.model.groupings.empty()) {
      const ModelGrouping& g = in.model.groupings.front();
      std::vector<std::string> listed;
      for (std::size_t b = 0; b < g.group_names.size() && b < kListed; ++b) {
        const auto size = std::count(g.group.begin(), g.group.end(), static_cast<int>(b));
        listed.push_back(fmt::format("{} ({} nodes)", g.group_names[b], size));
      }
      groups = fmt::format("; blocks found in the pair matrix (no topology was given): {}", text::join(listed));
    }
    f.observed = fmt::format("the {} pairs {} run at {:.0f}% of the {} pairs {} ({:.3g} against {:.3g} GB/s at {}){}",
                             m.class_pairs[c], in.model.class_names[c], 100.0 * std::exp(gap), m.class_pairs[inside],
                             in.model.class_names[inside], std::exp(m.class_level[c]), std::exp(m.class_level[inside]),
                             format_size(in.size_bytes), groups);
    f.expected = fmt::format("pairs that cross the network as fast as pairs inside one group, within {:.0f}%",
                             t.threshold * 100.0);
    f.meaning =
        "crossing costs bandwidth: an oversubscribed or degraded spine or uplink, or placement across network nodes. "
        "These pairs are judged against their own class, so no node or link is named for the crossing itself";
    f.effect = "collectives that span these groups run at the crossing's speed, whatever the nodes";
    f.next_step = in.structure == "blocks"
                      ? "give podperf the topology (--topology FILE: kubectl get nodes -o json, scontrol show "
                        "topology, or a CSV) "
                        "so the groups are named, and check the uplinks between them (switch port counters); if the "
                        "oversubscription is by design, place jobs inside one group"
                      : "check the uplinks and spine of this level (switch port counters, cabling); if the "
                        "oversubscription is by "
                        "design, place jobs inside one group";
    run.findings.push_back(std::move(f));
  }
}

bool is_search_group(const PairJudgeContext& context, const std::vector<int>& members) {
  return std::any_of(context.slow_groups.begin(), context.slow_groups.end(),
                     [&](const std::vector<int>& g) { return g == members; });
}

void group_term_findings(Run& run, const PairVerdicts& v, const PairJudgeContext& context) {
  for (const GroupTerm& g : v.model.groups) {
    if (!g.kept) continue;
    const std::vector<int> members = group_members(v, g);
    if (g.value < 0.0 && !g.inside && is_search_group(context, members)) continue;  // the search's own finding
    const std::string name = group_label(v, g);
    const double ratio = std::exp(g.value);
    const std::string nodes = text::join(labels_of(run, members));
    if (g.value > 0.0) {
      Finding f = make(Tag::kInfo, "pairs.faster_class");
      f.observed = fmt::format("the pairs {} {} ({} nodes: {}) run at {:.0f}% of their class at {}",
                               g.inside ? "inside" : "leaving", name, members.size(), nodes, ratio * 100.0,
                               format_size(v.input.size_bytes));
      f.expected = "every group's pairs at their class's level";
      f.meaning = fmt::format(
          "{} is faster {} (an NVLink domain or UltraServer, one switch, a shorter path): judged as a class of its "
          "own, never as the level the other nodes are held to",
          name, g.inside ? "inside" : "towards the rest");
      f.effect = "none on the verdicts; a job placed inside it runs faster than one spread over the cluster";
      f.next_step = "none needed; if it should not be faster, compare its hosts' settings (podperf signals)";
      run.findings.push_back(std::move(f));
      continue;
    }
    Finding f = make(Tag::kConcern, "pairs.slow_crossing");
    f.observed = fmt::format("the pairs {} {} ({} nodes: {}) run at {:.0f}% of their class at {}, {}",
                             g.inside ? "inside" : "leaving", name, members.size(), nodes, ratio * 100.0,
                             format_size(v.input.size_bytes),
                             g.inside ? "while its nodes' pairs with other groups are as expected"
                                      : "while the pairs inside it are as expected");
    f.expected = "every group's pairs at their class's level";
    f.meaning = g.inside ? fmt::format("the switch of {} (or its links) is slow, not its nodes", name)
                         : fmt::format(
                               "the uplink of {} (or its switch) is slow, not its nodes: every node of it is "
                               "fast with its own group",
                               name);
    f.effect = "collectives that span this group run at the speed of that path";
    f.next_step =
        fmt::format("check the {} ports of {} (switch port counters, cabling)", g.inside ? "switch" : "uplink", name);
    run.findings.push_back(std::move(f));
  }
}

// Pairs faster than their class and nodes say (beyond the link cut, in every measurement): one INFO.
void fast_pair_findings(Run& run, const PairVerdicts& v) {
  if (v.fast_pairs.empty()) return;
  const ModelInput& in = v.input.model;
  std::vector<std::string> listed;
  for (std::size_t i = 0; i < v.fast_pairs.size() && i < kListed; ++i) {
    const ModelPair& q = in.pairs[v.fast_pairs[i]];
    listed.push_back(fmt::format("{} <-> {} at {:.0f}%", label(run, q.a), label(run, q.b),
                                 100.0 * std::exp(q.value - v.model.expected(in, v.fast_pairs[i]))));
  }
  if (v.fast_pairs.size() > kListed) listed.push_back(fmt::format("and {} more", v.fast_pairs.size() - kListed));
  // Beyond twice the link cut (far outside the noise, where the link cut alone lets one healthy run in 20
  // have such a pair by chance): a CONCERN (exit 1), since a pair faster than every class and node says is as
  // likely the rest slow as this pair fast (one fast pair among 6 nodes, or 4 slow nodes). Nearer: INFO.
  double largest = 0.0;
  for (std::size_t k : v.fast_pairs) largest = std::max(largest, in.pairs[k].value - v.model.expected(in, k));
  const bool concern = largest > -2.0 * std::log(1.0 - v.link_cut);
  Finding f = make(concern ? Tag::kConcern : Tag::kInfo, "pairs.faster_class");
  f.observed = fmt::format("{} pair{} at {} faster than their class and nodes say, in every measurement: {}",
                           v.fast_pairs.size(), v.fast_pairs.size() == 1 ? "" : "s", format_size(v.input.size_bytes),
                           text::join(listed));
  f.expected = fmt::format("every pair at the level its class and slower node give, within the link cut {:.1f}%",
                           v.link_cut * 100.0);
  f.meaning =
      "a faster path between those nodes (one switch, an NVLink domain) that the run has no class for, or the "
      "other pairs slow; they are the exception, never the level the others are judged by";
  f.effect = concern ? "the run cannot clear the other nodes: if these pairs are the healthy speed, the rest are slow "
                       "(exit 1)"
                     : "none on the verdicts (within twice the link cut)";
  f.next_step =
      "give the topology (--topology FILE) so such groups are classes of their own, or compare with a "
      "known-good run (--baseline-from RUN)";
  run.findings.push_back(std::move(f));
}

void node_findings(Run& run, const PairVerdicts& v, const PairThresholds& t, const PairJudgeContext& context) {
  const std::string dir = results_dir(run, context);
  const std::vector<int> ambiguous = nodes_in(v, NodeState::kAmbiguous);
  if (!ambiguous.empty()) {
    Finding f = make(Tag::kConcern, "pairs.ambiguous");
    f.observed = fmt::format(
        "{} of the {} nodes sit below the others beyond the noise: {}; there is no healthy majority to judge by",
        ambiguous.size(), v.model.judged_nodes, nodes_with_ratios(run, ambiguous));
    f.expected = fmt::format(
        "fewer than half the nodes below the others, or those at {:.0f}% of them or less ([pairs] "
        "half_split_max_ratio)",
        t.half_split_max_ratio * 100.0);
    f.meaning = fmt::format(
        "cannot tell: these {} nodes are slow, or the others are a faster class (one pair or group on a faster path); "
        "pairs measured against each other look the same either way",
        ambiguous.size());
    f.effect = "no node is named or drained for it until a published figure or a known-good run decides";
    const int good = known_good(run, v, -1);
    f.next_step = fmt::format(
        "judge the busbw against the instance type's published figure (podperf accept --sku TYPE), or measure {} "
        "against a node of a run known to be healthy and judge it by that run: {}",
        label(run, ambiguous.front()),
        good >= 0 ? pairs_retest_command(run, {{ambiguous.front(), good}},
                                         "--concurrency sequential --baseline-from KNOWN_GOOD_RUN_DIR")
                  : pairs_command(run) + " --baseline-from KNOWN_GOOD_RUN_DIR");
    run.findings.push_back(std::move(f));
  }
  const std::vector<int> undecided = nodes_in(v, NodeState::kUndecided);
  if (!undecided.empty()) {
    // An undecided node low with min_cleared_partners partners or more (its flagged pairs are beyond the pair
    // cut, 4 noises at least: not chance) is a CONCERN and fails the run: the run cannot clear it, and a
    // wrong OK is the worst answer (3 nodes, one at 40%: the noise has no degrees of freedom of its own).
    std::vector<std::set<int>> low_partners(run.nodes.size());
    for (std::size_t k = 0; k < v.input.model.pairs.size(); ++k) {
      if (!v.flagged[k]) continue;
      const ModelPair& q = v.input.model.pairs[k];
      low_partners[static_cast<std::size_t>(q.a)].insert(q.b);
      low_partners[static_cast<std::size_t>(q.b)].insert(q.a);
    }
    const bool concern = std::any_of(undecided.begin(), undecided.end(), [&](int node) {
      return static_cast<int>(low_partners[static_cast<std::size_t>(node)].size()) >= t.min_cleared_partners;
    });
    Finding f = make(concern ? Tag::kConcern : Tag::kInfo, "pairs.undecided");
    f.observed = fmt::format("{} node{} below the threshold but within the noise: {}", undecided.size(),
                             undecided.size() == 1 ? "" : "s", nodes_with_ratios(run, undecided));
    f.expected = fmt::format(
        "a node named only when its interval lies wholly below the population ({:g}% family-wise "
        "over {} nodes)",
        (1.0 - t.node_family_alpha) * 100.0, v.model.judged_nodes);
    f.meaning = "cannot tell yet: these nodes may be a little slow, or the noise put them there; nothing is named";
    f.effect = concern ? "the run cannot clear them: some have flagged pairs with several partners (exit 1); more "
                         "measurements of their pairs narrow the interval"
                       : "none on the verdict; more measurements of their pairs narrow the interval";
    std::vector<std::array<int, 2>> pairs;
    const int good = known_good(run, v, -1);
    for (std::size_t i = 0; i < undecided.size() && i < kListed; ++i) {
      if (good >= 0) pairs.push_back({undecided[i], good});
    }
    f.next_step = pairs.empty() ? "measure the run again with more iterations or --repeat 3: " + pairs_command(run) +
                                      " --repeat 3"
                                : "measure their pairs again, several times, against this run: " +
                                      pairs_retest_command(run, pairs, "--retest 2 --baseline-from " + dir);
    run.findings.push_back(std::move(f));
  }
  for (int node : nodes_in(v, NodeState::kIntermittent)) {
    const auto i = static_cast<std::size_t>(node);
    const NodeEstimate& e = run.node_estimates[i];
    Finding f = make(Tag::kConcern, "pairs.intermittent_node", run.nodes[i].hostname);
    f.observed = fmt::format(
        "{}: {} of its {} measurements at {} fell below the pair cut ({:.1f}%), with {} partners, while its capacity "
        "is {:.0f}% of the population (its typical pair healthy)",
        e.label, v.unsteady_low[i], e.measurements, format_size(v.input.size_bytes), v.pair_cut * 100.0,
        v.low_partners[i], e.ratio * 100.0);
    f.expected = fmt::format(
        "low measurements no more often than the run's {:.2f}% by chance (binomial, {:g}% family-wise over the nodes)",
        v.low_rate * 100.0, (1.0 - t.node_family_alpha) * 100.0);
    f.meaning = fmt::format(
        "{} is slow now and then (a flapping NIC or link, its switch port, throttling), not steadily: no straggler, "
        "and its slow pairs are its, not links",
        e.label);
    f.effect = "collectives that include this node slow down at random, which is harder to see than a steady straggler";
    std::vector<std::array<int, 2>> pairs;
    for (std::size_t k = 0; k < v.input.model.pairs.size() && pairs.size() < 4; ++k) {
      const ModelPair& q = v.input.model.pairs[k];
      if (q.a == node || q.b == node) pairs.push_back({q.a, q.b});
    }
    f.next_step = fmt::format(
        "measure its pairs several times: {}; read its host signals (podperf signals: EFA error counters, link "
        "flaps, Xid, clock events)",
        pairs_retest_command(run, pairs, "--retest 3"));
    run.findings.push_back(std::move(f));
  }
  // The stragglers' next step: a confirmation against a known-good node, judged by this run.
  for (Straggler& s : run.stragglers) {
    const int good = known_good(run, v, s.node);
    s.next_step = good < 0 ? "no node of this run is known good: check the node's NICs and GPUs with the vendor tools"
                           : fmt::format("confirm by pairing it with a known-good node, judged by this run: {}",
                                         pairs_retest_command(run, {{s.node, good}},
                                                              "--concurrency sequential --baseline-from " + dir));
  }
}

void run_findings(Run& run, const PairVerdicts& v, const PairThresholds& t, const PairJudgeContext& context) {
  const PairInput& in = v.input;
  if (in.kind_names.size() > 1) {
    Finding f = make(Tag::kInfo, "pairs.mixed_nodes");
    std::vector<std::string> kinds;
    std::vector<int> alone;
    for (std::size_t k = 0; k < in.kind_names.size(); ++k) {
      kinds.push_back(
          fmt::format("{} node{} of {}", in.kind_nodes[k], in.kind_nodes[k] == 1 ? "" : "s", in.kind_names[k]));
    }
    for (std::size_t i = 0; i < in.node_kind.size(); ++i) {
      if (in.kind_nodes[static_cast<std::size_t>(in.node_kind[i])] < 2) alone.push_back(static_cast<int>(i));
    }
    f.observed = fmt::format("the nodes are of {} kinds: {}", in.kind_names.size(), text::join(kinds));
    f.expected = "nodes of one kind (ranks per node, instance type), comparable pair for pair";
    f.meaning = fmt::format(
        "pairs of different kinds run at different levels by design: each pair is judged against pairs of the same "
        "kinds, and nodes against their own kind{}",
        alone.empty() ? ""
                      : fmt::format("; not judged (no peer of their kind): {}", text::join(labels_of(run, alone))));
    f.effect = "a node is named only against nodes like it";
    f.next_step = "none needed; to compare the kinds themselves, run each kind on its own";
    run.findings.push_back(std::move(f));
  }
  if (!v.relative && !in.model.pairs.empty()) {
    Finding f = make(Tag::kInfo, "pairs.no_reference");
    f.observed = fmt::format("{} node{} of one kind with pairs at {}: nothing is judged relatively",
                             v.model.judged_nodes, v.model.judged_nodes == 1 ? "" : "s", format_size(in.size_bytes));
    f.expected = "3 or more nodes of one kind: a node is judged against the others' median";
    f.meaning =
        "with 2 nodes one pair cannot tell which node (or the link) is slow, and no pair can be below its peers; "
        "a run this small says nothing on its own";
    f.effect = "no node or link is named; exit 0 says only that every pair finished and checked out";
    f.next_step = fmt::format(
        "judge it against a published figure (podperf accept --sku TYPE), or against a run of known-good nodes: "
        "{} --baseline-from KNOWN_GOOD_RUN_DIR; or add nodes",
        pairs_command(run));
    run.findings.push_back(std::move(f));
  }
  if (run.pair_judgement.reference.starts_with("absolute") &&
      run.pair_judgement.reference.find("below it") != std::string::npos) {
    Finding f = make(Tag::kConcern, "pairs.below_published");
    f.observed = run.pair_judgement.reference;
    f.expected = fmt::format("the population within {:.0f}% of the published figure", t.threshold * 100.0);
    f.meaning = "every node is slow alike (a setting, a driver, the fabric): relative judgement cannot see it";
    f.effect = "every collective runs below what the instance type delivers";
    f.next_step =
        "podperf accept --sku TYPE for the per-node verdict; compare NCCL settings and versions with a "
        "known-good cluster (podperf compare)";
    run.findings.push_back(std::move(f));
  }
  if (!v.unconfirmed_links.empty()) {
    Finding f = make(Tag::kInfo, "pairs.chance_flags");
    std::vector<std::array<int, 2>> pairs;
    for (std::size_t k : v.unconfirmed_links) {
      if (pairs.size() < kListed) pairs.push_back({in.model.pairs[k].a, in.model.pairs[k].b});
    }
    f.observed = fmt::format(
        "{} pair{} at {} slow like a link in every measurement, but measured fewer than the {} times a link needs "
        "here",
        v.unconfirmed_links.size(), v.unconfirmed_links.size() == 1 ? "" : "s", format_size(in.size_bytes),
        v.needed_measurements);
    f.expected = "a link slow in as many measurements as make chance (this run's rate of low measurements) unlikely";
    f.meaning = "they may be slow links, or outliers twice; not named";
    f.effect = "none on the verdict";
    f.next_step =
        "measure them again: " + pairs_retest_command(run, pairs, fmt::format("--retest {}", v.needed_measurements));
    run.findings.push_back(std::move(f));
  }
  if (v.chance_flags > 0) {
    Finding f = make(Tag::kInfo, "pairs.chance_flags");
    f.observed = fmt::format(
        "{} of {} pairs at {} flagged ({:.1f}% below their class) between healthy nodes, none beyond the link cut "
        "{:.1f}% against what their nodes predict",
        v.chance_flags, in.model.pairs.size(), format_size(in.size_bytes), v.pair_cut * 100.0, v.link_cut * 100.0);
    f.expected = fmt::format(
        "among {} pairs some fall below the pair cut by chance; a link is named only beyond the link cut (the t "
        "quantile at 1 - {} / {} pairs), so that a healthy run names none",
        in.model.pairs.size(), t.link_family_alpha, in.model.pairs.size());
    f.meaning = "these pairs are most likely noise: no slow link is named for them";
    f.effect = "none on its own; a pair that is really slow stays slow when measured again";
    f.next_step = fmt::format("measure them again: {} --retest 2", pairs_command(run));
    run.findings.push_back(std::move(f));
  }
  (void)context;
}

}  // namespace

bool is_pair_judge_check(const std::string& check) {
  return pair_judge_checks().contains(check);
}

void add_pair_findings(Run& run, const PairVerdicts& v, const PairThresholds& t, const PairJudgeContext& context) {
  std::erase_if(run.findings, [](const Finding& f) { return f.source == "analysis" && is_pair_judge_check(f.check); });
  if (v.input.model.pairs.empty()) return;
  class_gap_findings(run, v, t);
  group_term_findings(run, v, context);
  fast_pair_findings(run, v);
  node_findings(run, v, t, context);
  run_findings(run, v, t, context);
}

}  // namespace podperf

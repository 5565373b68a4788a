// The pair judge (see pair_judge.hpp). Floor: analysis/pairs; pure; throws nothing.
#include "analysis/pairs/pair_judge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/base/units.hpp"
#include "analysis/config/sku.hpp"
#include "analysis/pairs/pair_findings.hpp"
#include "analysis/pairs/pair_stalls.hpp"
#include "analysis/pairs/pair_verdicts.hpp"
#include "analysis/pairs/retest_recovered.hpp"
#include "analysis/stats/baseline.hpp"
#include "analysis/stats/low_pair.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf {
namespace {

// Robust sigma of a pair's per-iteration busbw (busbw_i = busbw x median / t_i).
double pair_noise_gbps(const PairResult& p) {
  if (p.samples_s.size() < 2 || p.median_s <= 0.0) return 0.0;
  std::vector<double> busbw;
  busbw.reserve(p.samples_s.size());
  for (double t : p.samples_s) {
    if (t > 0.0) busbw.push_back(p.busbw_gbps * p.median_s / t);
  }
  return robust_sigma(busbw);
}

// The largest size the run measured (finished, ok or not).
std::uint64_t largest_measured_size(const Run& run) {
  std::uint64_t size = 0;
  for (const PairResult& p : run.pairs) {
    if (pair_measured(p)) size = std::max(size, p.size_bytes);
  }
  return size;
}

// Below the judged size: per (op, size) the robust baseline of the ok pairs and the flags against it.
void judge_other_sizes(Run& run, const PairThresholds& t) {
  std::map<std::pair<std::string, std::uint64_t>, std::vector<double>> values;
  for (const PairResult& p : run.pairs) {
    if (status_ok(p.status)) values[{p.op, p.size_bytes}].push_back(p.busbw_gbps);
  }
  std::map<std::pair<std::string, std::uint64_t>, Baseline> baselines;
  for (auto& [key, v] : values) {
    if (key.second == run.judged_size_bytes) continue;
    const Baseline b = robust_baseline(v, t.threshold, t.baseline_max_passes, t.baseline_min_kept_fraction);
    baselines[key] = b;
    run.baselines.push_back(SizeBaseline{key.second, b.value, b.spread, b.kept, b.total});
  }
  const LowPairRule rule{t.threshold, t.spread_factor, t.max_spread_fraction};
  for (PairResult& p : run.pairs) {
    if (p.size_bytes == run.judged_size_bytes) continue;
    const auto it = baselines.find({p.op, p.size_bytes});
    p.baseline_gbps = it != baselines.end() ? it->second.value : 0.0;
    p.ratio = p.baseline_gbps > 0.0 ? p.busbw_gbps / p.baseline_gbps : 0.0;
    p.cleared_by_retest = false;
    if (!status_ok(p.status)) {
      p.flagged = pair_measured(p);
      continue;
    }
    const double spread = p.baseline_gbps > 0.0 ? it->second.spread / p.baseline_gbps : 0.0;
    p.flagged = p.baseline_gbps > 0.0 && pair_is_low(rule, p.busbw_gbps, p.baseline_gbps, spread) &&
                p.baseline_gbps - p.busbw_gbps > t.noise_factor * p.noise_gbps;
  }
}

// The main class: the one with the most pairs (ties: the first).
std::size_t main_class(const NodeModel& m) {
  std::size_t best = 0;
  for (std::size_t c = 1; c < m.class_pairs.size(); ++c) {
    if (m.class_pairs[c] > m.class_pairs[best]) best = c;
  }
  return best;
}

// The absolute reference line: the built-in SKU's published 2-node busbw at the judged size when every
// node reports one instance type that has it; else relative judgement only.
std::string reference_line(const Run& run, const PairJudgement& j, const PairVerdicts& v) {
  std::string type = run.nodes.empty() ? "" : run.nodes.front().instance_type;
  for (const NodeInfo& node : run.nodes) {
    if (node.instance_type != type) type.clear();
  }
  std::string relative;
  if (v.input.model.referenced) {
    relative = fmt::format("judged against the run it confirms (--baseline-from {}: its levels, nodes and noise)",
                           run.pair_reference.source);
  } else if (!v.relative) {
    relative = fmt::format(
        "no relative judgement: {} node{} judged ({} of one kind with pairs); a node is judged against 3 or more",
        j.judged_nodes, j.judged_nodes == 1 ? "" : "s", j.judged_nodes);
  } else {
    relative = fmt::format("relative judgement only (against the {} nodes' median node)", j.judged_nodes);
  }
  // The published figures are NCCL's over the instance's GPUs and NICs: not a yardstick for the host backend
  // (MPI on host memory) or a modelled fabric.
  std::string no_figure;
  if (run.backend == "host" || run.simulated) {
    no_figure = run.simulated ? "a modelled fabric has no published figure"
                              : "the host backend is not held to NCCL's published figures";
    type.clear();
  }
  const std::optional<Sku> sku = type.empty() ? std::nullopt : builtin_sku_for(type);
  const std::optional<double> figure =
      sku && j.op == "all_reduce" && run.options.dtype == "float" ? sku->pair_busbw_at(j.size_bytes) : std::nullopt;
  if (!figure) {
    return fmt::format(
        "{}: {}; an absolute check needs a published figure (podperf accept --sku TYPE) or a known-good run "
        "(--baseline-from RUN)",
        relative,
        !no_figure.empty() ? no_figure
        : type.empty() || type == "simulated"
            ? "the instance type is not known"
            : fmt::format("{} has no published 2-node figure at {}", type, format_size(j.size_bytes)));
  }
  const double ratio = j.level_gbps / *figure;
  return fmt::format("absolute: the population's level {:.1f} GB/s is {:.0f}% of {}'s published {:.1f} GB/s at {}{}",
                     j.level_gbps, ratio * 100.0, type, *figure, format_size(j.size_bytes),
                     ratio < 1.0 - run.thresholds.pairs.threshold ? " (below it: see pairs.below_published)" : "");
}

void write_judgement(Run& run, const PairThresholds& t, const PairVerdicts& v) {
  const ModelInput& in = v.input.model;
  const NodeModel& m = v.model;
  PairJudgement j;
  j.op = v.input.op;
  j.size_bytes = v.input.size_bytes;
  j.pairs = in.pairs.size();
  j.measurements = in.logs.size();
  double sum = 0.0;
  for (const ModelPair& q : in.pairs) sum += run.pairs[q.index].busbw_gbps;
  j.mean_gbps = j.pairs > 0 ? sum / static_cast<double>(j.pairs) : 0.0;
  for (const ModelPair& q : in.pairs) {
    j.pairs_below_mean += run.pairs[q.index].busbw_gbps < j.mean_gbps * (1.0 - t.threshold) ? 1 : 0;
  }
  const std::size_t main = main_class(m);
  j.level_gbps = m.class_level.empty() ? 0.0 : std::exp(m.class_level[main]);
  j.pair_noise = std::expm1(m.sigma);
  j.noise_df = m.df;
  j.judged_nodes = m.judged_nodes;
  const double bound = -std::expm1(-v.node_quantile * v.typical_se);
  j.node_cut = std::max(t.threshold, bound);
  const double confidence = 1.0 - t.node_family_alpha;
  if (!v.relative) {
    j.node_cut_reason = "no node is judged: fewer than 3 nodes of one kind have pairs";
  } else if (bound > t.threshold) {
    j.node_cut_reason = fmt::format(
        "the node estimate's {:g}% bound over {} nodes (pair noise {:.1f}% on {:.0f} degrees of freedom, {} pairs a "
        "node): the noise, not the threshold {:.0f}%, limits it",
        confidence * 100.0, j.judged_nodes, j.pair_noise * 100.0, j.noise_df,
        m.se.empty() || v.typical_se <= 0.0
            ? 0
            : static_cast<int>(std::lround(std::pow(1.2533 * m.sigma / v.typical_se, 2))),
        t.threshold * 100.0);
  } else {
    j.node_cut_reason =
        fmt::format("the threshold (the node estimate's {:g}% bound over {} nodes is {:.1f}%: pair noise {:.1f}%)",
                    confidence * 100.0, j.judged_nodes, bound * 100.0, j.pair_noise * 100.0);
  }
  j.pair_cut = v.pair_cut;
  const LowPairRule rule{t.threshold, t.spread_factor, t.max_spread_fraction};
  j.pair_cut_reason = low_pair_cut_reason(rule, j.pair_noise);
  j.link_cut = v.link_cut;
  j.structure = v.input.structure;
  for (std::size_t c = 0; c < m.class_level.size(); ++c) {
    if (m.class_pairs[c] == 0) continue;
    PairClassLevel cl;
    cl.name = in.class_names[c];
    cl.pairs = static_cast<std::size_t>(m.class_pairs[c]);
    cl.level_gbps = std::exp(m.class_level[c]);
    cl.ratio = j.level_gbps > 0.0 ? cl.level_gbps / j.level_gbps : 0.0;
    j.classes.push_back(std::move(cl));
  }
  j.relative = v.relative;
  j.reference = reference_line(run, j, v);
  run.pair_judgement = std::move(j);
  // Kept: the main class's pairs between nodes named nothing (the pairs the level speaks for).
  std::size_t kept = 0;
  const auto clean = [&](int node) {
    const NodeState s = v.state.empty() ? NodeState::kHealthy : v.state[static_cast<std::size_t>(node)];
    return s == NodeState::kHealthy || s == NodeState::kFast || s == NodeState::kUndecided ||
           s == NodeState::kNotJudged;
  };
  for (const ModelPair& q : in.pairs) {
    kept += static_cast<std::size_t>(q.cls) == main && clean(q.a) && clean(q.b) ? 1 : 0;
  }
  run.baselines.push_back(SizeBaseline{v.input.size_bytes, run.pair_judgement.level_gbps,
                                       run.pair_judgement.level_gbps * run.pair_judgement.pair_noise, kept,
                                       in.pairs.size()});
  std::sort(run.baselines.begin(), run.baselines.end(),
            [](const SizeBaseline& a, const SizeBaseline& b) { return a.size_bytes < b.size_bytes; });
}

void write_pairs(Run& run, const PairVerdicts& v) {
  const ModelInput& in = v.input.model;
  for (std::size_t k = 0; k < in.pairs.size(); ++k) {
    PairResult& p = run.pairs[in.pairs[k].index];
    p.baseline_gbps = std::exp(v.model.class_expected(in, k));
    p.ratio = p.baseline_gbps > 0.0 ? p.busbw_gbps / p.baseline_gbps : 0.0;
    p.flagged = v.flagged[k];
    p.cleared_by_retest = v.first_flagged[k] && !v.flagged[k];
  }
  for (std::size_t index : v.input.failed) {
    run.pairs[index].flagged = true;
    run.pairs[index].cleared_by_retest = false;
  }
  // Pairs the run did not finish (timeout, aborted) at the judged size: flagged (they fail the run), never
  // evidence of their nodes' speed.
  for (PairResult& p : run.pairs) {
    if (p.size_bytes == v.input.size_bytes && !status_ok(p.status) && !pair_measured(p)) {
      p.flagged = true;
      p.cleared_by_retest = false;
    }
  }
  // Pairs at the judged size of another op, or of nodes out of range: unjudged.
}

void write_nodes(Run& run, const PairThresholds& t, const PairVerdicts& v, const PairJudgeContext& context) {
  const std::size_t n = run.nodes.size();
  const NodeModel& m = v.model;
  std::vector<int> flagged(n, 0), total(n, 0);
  for (std::size_t k = 0; k < v.input.model.pairs.size(); ++k) {
    const ModelPair& q = v.input.model.pairs[k];
    for (int node : {q.a, q.b}) {
      ++total[static_cast<std::size_t>(node)];
      flagged[static_cast<std::size_t>(node)] += v.flagged[k] ? 1 : 0;
    }
  }
  for (std::size_t index : v.input.failed) {
    for (int node : run.pairs[index].nodes)
      ++total[static_cast<std::size_t>(node)], ++flagged[static_cast<std::size_t>(node)];
  }
  for (std::size_t i = 0; i < n; ++i) {
    NodeEstimate e;
    e.node = static_cast<int>(i);
    e.label = run.nodes[i].label;
    e.kind = v.input.kind_names.empty() ? "" : v.input.kind_names[static_cast<std::size_t>(v.input.node_kind[i])];
    if (m.estimated[i]) {
      e.ratio = std::exp(m.node[i]);
      e.low = std::exp(v.low[i]);
      e.high = std::exp(v.high[i]);
      if (v.state[i] == NodeState::kNotJudged) e.low = e.high = e.ratio;
    }
    e.pairs = m.support[i];
    e.measurements = v.measurements[i];
    e.low_measurements = v.low_measurements[i];
    e.verdict = node_state_name(v.state[i]);
    run.node_estimates.push_back(std::move(e));
    if (v.state[i] != NodeState::kStraggler) continue;
    Straggler s;
    s.node = static_cast<int>(i);
    s.hostname = run.nodes[i].label;
    s.flagged_pairs = flagged[i];
    s.total_pairs = total[i];
    if (!m.estimated[i]) {  // dead: every pair failed (pair_verdicts.cpp decide_dead_nodes)
      s.evidence = fmt::format("all {} of its pairs at {} failed: no bandwidth measured", s.total_pairs,
                               format_size(run.judged_size_bytes));
      run.stragglers.push_back(std::move(s));
      continue;
    }
    s.median_ratio = std::exp(m.node[i]);
    s.ratio_low = std::exp(v.low[i]);
    s.ratio_high = std::exp(v.high[i]);
    s.evidence = fmt::format(
        "capacity {:.1f}% of the healthy population ({:.1f}-{:.1f}%, the {:g}% family-wise interval over {} nodes) "
        "from {} pairs; {} of its {} pairs flagged at {}",
        s.median_ratio * 100.0, s.ratio_low * 100.0, s.ratio_high * 100.0, (1.0 - t.node_family_alpha) * 100.0,
        m.judged_nodes, m.support[i], s.flagged_pairs, s.total_pairs, format_size(run.judged_size_bytes));
    run.stragglers.push_back(std::move(s));
  }
  std::stable_sort(run.stragglers.begin(), run.stragglers.end(),
                   [](const Straggler& a, const Straggler& b) { return a.median_ratio < b.median_ratio; });
  (void)context;
}

void write_links(Run& run, const PairVerdicts& v) {
  const ModelInput& in = v.input.model;
  const auto label = [&](int node) { return run.nodes[static_cast<std::size_t>(node)].label; };
  for (std::size_t k : v.links) {
    const ModelPair& q = in.pairs[k];
    const PairResult& p = run.pairs[q.index];
    LinkFinding l;
    l.nodes = p.nodes;
    l.hostnames = {label(p.nodes[0]), label(p.nodes[1])};
    const double expected = std::exp(v.model.expected(in, k));
    const double value = std::exp(q.upper);
    l.ratio = value / expected;
    l.evidence = fmt::format(
        "pair {} <-> {} at {:.0f}% of what its class and nodes predict ({:.3g} of {:.3g} GB/s{}); both nodes healthy "
        "in their other pairs",
        l.hostnames[0], l.hostnames[1], l.ratio * 100.0, value, expected,
        q.count > 1 ? fmt::format(", the upper median of {} measurements", q.count) : "");
    run.links.push_back(std::move(l));
  }
  for (std::size_t index : v.failed_links) {
    const PairResult& p = run.pairs[index];
    LinkFinding l;
    l.nodes = p.nodes;
    l.hostnames = {label(p.nodes[0]), label(p.nodes[1])};
    l.evidence = fmt::format("pair {} <-> {} {}: {}", l.hostnames[0], l.hostnames[1], p.status, p.error);
    run.links.push_back(std::move(l));
  }
  std::stable_sort(run.links.begin(), run.links.end(),
                   [](const LinkFinding& a, const LinkFinding& b) { return a.ratio < b.ratio; });
}

}  // namespace

void judge_pairs(Run& run, const PairThresholds& t, std::size_t /*threads*/, JudgedPairs* judged,
                 const PairJudgeContext& context) {
  run.baselines.clear();
  run.stragglers.clear();
  run.links.clear();
  run.node_estimates.clear();
  run.pair_judgement = PairJudgement{};
  run.judged_size_bytes = largest_measured_size(run);
  for (PairResult& p : run.pairs) p.noise_gbps = pair_noise_gbps(p);
  judge_other_sizes(run, t);
  const PairVerdicts v = decide_pairs(run, t, run.judged_size_bytes);
  if (!v.input.model.pairs.empty() || !v.input.failed.empty()) {
    write_pairs(run, v);
    write_judgement(run, t, v);
    write_nodes(run, t, v, context);
    write_links(run, v);
  }
  add_pair_findings(run, v, t, context);
  add_stalling_node_findings(run, t, pairs_rerun_command(run));
  add_recovered_node_findings(run, t, pairs_rerun_command(run));
  if (judged != nullptr) {
    judged->chunks.assign(1, {});
    for (const PairResult& p : run.pairs) {
      if (judged_ok(run, p)) judged->chunks.front().push_back({p.nodes[0], p.nodes[1], p.ratio});
    }
    judged->filled = true;
  }
}

std::vector<std::array<int, 2>> pairs_to_retest(const Run& run, int max_retests) {
  std::vector<std::array<int, 2>> out;
  if (run.pairs.empty()) return out;
  const PairVerdicts v = decide_pairs(run, run.thresholds.pairs, largest_measured_size(run));
  const ModelInput& in = v.input.model;
  const auto retests = [&](const ModelPair& q) { return static_cast<int>(q.count) - 1; };
  const auto doubtful = [](NodeState s) { return s == NodeState::kUndecided || s == NodeState::kAmbiguous; };
  const auto healthy = [](NodeState s) { return s == NodeState::kHealthy || s == NodeState::kFast; };
  // Links not yet confirmed: measured again whatever --retest said (a handful of pairs), until they
  // have the measurements a link needs.
  for (std::size_t k : v.unconfirmed_links) {
    const ModelPair& q = in.pairs[k];
    if (retests(q) < 5) out.push_back({std::min(q.a, q.b), std::max(q.a, q.b)});
  }
  for (std::size_t k = 0; k < in.pairs.size(); ++k) {
    const ModelPair& q = in.pairs[k];
    const std::array<int, 2> pair{std::min(q.a, q.b), std::max(q.a, q.b)};
    if (retests(q) >= max_retests) continue;
    if (std::find(v.unconfirmed_links.begin(), v.unconfirmed_links.end(), k) != v.unconfirmed_links.end()) continue;
    // Flagged, or near it (three quarters of the pair cut: the cut moves a little as evidence comes
    // in, and a pair flagged only at the end would have no retest): measured again until it has its
    // retests.
    const double level = v.model.class_expected(in, k);
    if (v.flagged[k] || q.upper - level < std::log(1.0 - 0.75 * v.pair_cut)) {
      out.push_back(pair);
      continue;
    }
    // Undecided and ambiguous nodes: their pairs with healthy partners, measured once more (more evidence
    // decides them).
    if (retests(q) > 0 || v.state.empty()) continue;
    const NodeState sa = v.state[static_cast<std::size_t>(q.a)], sb = v.state[static_cast<std::size_t>(q.b)];
    if ((doubtful(sa) && healthy(sb)) || (doubtful(sb) && healthy(sa))) out.push_back(pair);
  }
  return out;
}

int pairs_exit_code(const Run& run) {
  for (const PairResult& p : run.pairs) {
    if (!status_ok(p.status)) return 1;
  }
  const bool something = std::any_of(run.findings.begin(), run.findings.end(), [](const Finding& f) {
    return f.check == "pairs.slow_crossing" || f.check == "pairs.ambiguous" || f.check == "pairs.stalling_node" ||
           f.check == "pairs.below_published" ||
           ((f.check == "pairs.undecided" || f.check == "pairs.faster_class") && f.tag == Tag::kConcern);
  });
  return run.stragglers.empty() && run.links.empty() && !something ? 0 : 1;
}

}  // namespace podperf

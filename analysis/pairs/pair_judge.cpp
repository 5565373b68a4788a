// Flags slow pairs and names stragglers and links (see pair_flags.hpp), in named steps over the pairs
// (two passes, chunked on threads at scale, merged in order). Floor: analysis; pure; throws nothing.
#include "analysis/pairs/pair_judge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/base/chunks.hpp"
#include "analysis/pairs/anchor_check.hpp"
#include "analysis/pairs/pair_ceiling.hpp"
#include "analysis/pairs/pair_inference.hpp"
#include "analysis/pairs/pair_inference_findings.hpp"
#include "analysis/pairs/pair_stalls.hpp"
#include "analysis/pairs/retest_recovered.hpp"
#include "analysis/stats/baseline.hpp"
#include "analysis/stats/sort_network.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf {
namespace {

// Robust sigma of the per-iteration busbw, derived from the per-iteration times:
// busbw_i = busbw(median) * median_s / t_i. `scratch` buffers are reused across pairs (millions at
// scale: no allocation per pair).
struct NoiseScratch {
  std::vector<double> busbw;
  std::vector<double> deviations;
};
// The usual case (5-16 iterations, all timed): the per-iteration busbw into `out` (on the stack),
// as below. False when the pair needs the general path.
bool small_pair_busbw(const PairResult& p, double* out) {
  const std::size_t count = p.samples_s.size();
  if (count == 0 || count > kSortNetworkMax || p.median_s <= 0.0) return false;
  const double* samples = p.samples_s.data();
  bool all_positive = true;
  for (std::size_t i = 0; i < count; ++i) all_positive &= samples[i] > 0.0;
  if (!all_positive) return false;
  const double scale = p.busbw_gbps * p.median_s;                       // busbw * median / t, as below
  for (std::size_t i = 0; i < count; ++i) out[i] = scale / samples[i];  // vectorized divisions
  return true;
}

double pair_noise_gbps(const PairResult& p, NoiseScratch& scratch) {
  if (p.samples_s.empty() || p.median_s <= 0.0) return 0.0;
  if (p.samples_s.size() <= kSortNetworkMax) {
    // On the stack, sorted by networks (stats.hpp).
    double busbw[kSortNetworkMax];
    std::size_t n = 0;
    for (double t : p.samples_s) {
      if (t > 0.0) busbw[n++] = p.busbw_gbps * p.median_s / t;
    }
    return robust_sigma_small(busbw, n);
  }
  scratch.busbw.clear();
  for (double t : p.samples_s) {
    if (t > 0.0) scratch.busbw.push_back(p.busbw_gbps * p.median_s / t);
  }
  return robust_sigma_in_place(scratch.busbw, scratch.deviations);
}

// pair_noise_gbps of two pairs at once when both are the usual case with as many samples (the
// networks then sort both in one pass); false otherwise.
bool pair_noise_gbps_2(const PairResult& p, const PairResult& q, double& p_noise, double& q_noise) {
  double p_busbw[kSortNetworkMax];
  double q_busbw[kSortNetworkMax];
  if (p.samples_s.size() != q.samples_s.size() || !small_pair_busbw(p, p_busbw) || !small_pair_busbw(q, q_busbw)) {
    return false;
  }
  robust_sigma_small_2(p_busbw, q_busbw, p.samples_s.size(), p_noise, q_noise);
  return true;
}

// The (op, size) keys of a run's pairs: a handful (sizes x ops), so a linear search per pair is far
// cheaper than a map lookup with a string key. Indices in order of first appearance.
class KeyIndex {
 public:
  std::size_t find_or_add(const std::string& op, std::uint64_t size) {
    const std::size_t i = find(op, size);
    if (i < keys_.size()) return i;
    keys_.emplace_back(op, size);
    return keys_.size() - 1;
  }
  // keys().size() when absent.
  [[nodiscard]] std::size_t find(const std::string& op, std::uint64_t size) const {
    if (last_ < keys_.size() && keys_[last_].second == size && keys_[last_].first == op) return last_;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i].second == size && keys_[i].first == op) return last_ = i;
    }
    return keys_.size();
  }
  [[nodiscard]] const std::vector<std::pair<std::string, std::uint64_t>>& keys() const { return keys_; }

 private:
  std::vector<std::pair<std::string, std::uint64_t>> keys_;
  mutable std::size_t last_ = 0;
};

// Pairs the run did not finish (watchdog, signal) say nothing about their nodes' speed: the
// unfinished list names them instead.
bool measured(const PairResult& p) {
  return p.status.size() != 7 || (p.status != "timeout" && p.status != "aborted");
}

const std::string& label_of(const Run& run, int node) {
  static const std::string kUnknown = "?";
  if (node < 0 || static_cast<std::size_t>(node) >= run.nodes.size()) return kUnknown;
  return run.nodes[static_cast<std::size_t>(node)].label;
}

// A node slow only now and then (a flapping NIC or link, throttling) is flagged in a minority of its
// pairs: no straggler, but several slow links that all share it. Each node in at least
// intermittent_min_links links gets a CONCERN finding naming it, replacing any from an earlier pass.
void name_intermittent_nodes(Run& run, const PairThresholds& t, const std::vector<int>& flagged,
                             const std::vector<int>& total) {
  constexpr const char* kCheck = "pairs.intermittent_node";
  run.findings.erase(
      std::remove_if(run.findings.begin(), run.findings.end(), [](const Finding& f) { return f.check == kCheck; }),
      run.findings.end());
  const std::size_t n = run.nodes.size();
  std::vector<std::vector<std::string>> partners(n);
  for (const LinkFinding& l : run.links) {
    for (std::size_t side = 0; side < 2; ++side) {
      const auto node = static_cast<std::size_t>(l.nodes[side]);
      if (node < n) partners[node].push_back(l.hostnames[1 - side]);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<std::string>& others = partners[i];
    if (static_cast<int>(others.size()) < t.intermittent_min_links) continue;
    const std::string& label = run.nodes[i].label;
    std::vector<std::string> pair_list;
    for (std::size_t k = 0; k < others.size() && k < 4; ++k) pair_list.push_back(label + ":" + others[k]);
    Finding f;
    f.tag = Tag::kConcern;
    f.source = "analysis";
    f.check = kCheck;
    f.host = run.nodes[i].hostname;
    f.observed = fmt::format("{} is in {} of the {} slow links ({}); {} of its {} pairs flagged at {} bytes", label,
                             others.size(), run.links.size(), fmt::join(others, ", "), flagged[i], total[i],
                             run.judged_size_bytes);
    f.expected = fmt::format(
        "a straggler has more than {:.0f}% of its pairs flagged; unrelated slow links rarely share a node (a node "
        "in {} or more is named here)",
        t.straggler_fraction * 100.0, t.intermittent_min_links);
    f.meaning = fmt::format(
        "{} itself is likely slow now and then (a flapping NIC or link, its switch port, throttling) rather than "
        "{} separate links being bad",
        label, others.size());
    f.effect = "collectives that include this node slow down at random, which is harder to see than a steady straggler";
    f.next_step = fmt::format(
        "retest its pairs several times: {} --pairs {} --retest 2; read its host signals (podperf "
        "signals: EFA error counters, link flaps, Xid, clock events)",
        pairs_rerun_command(run), fmt::join(pair_list, ","));
    run.findings.push_back(std::move(f));
  }
}

// The z of the family margin for `pairs` judged pairs: the normal quantile at 1 - alpha / pairs.
double link_family_z(std::size_t pairs, const PairThresholds& t) {
  if (pairs == 0 || t.link_family_alpha >= 1.0) return 0.0;
  return normal_upper_quantile(std::min(0.5, t.link_family_alpha / static_cast<double>(pairs)));
}

// One INFO finding for the flagged pairs between healthy nodes left unnamed by the family margin,
// replacing any from an earlier pass.
void add_chance_flag_finding(Run& run, const PairThresholds& t, std::size_t chance, std::size_t judged, double z) {
  constexpr const char* kCheck = "pairs.chance_flags";
  run.findings.erase(
      std::remove_if(run.findings.begin(), run.findings.end(), [](const Finding& f) { return f.check == kCheck; }),
      run.findings.end());
  if (chance == 0) return;
  Finding f;
  f.tag = Tag::kInfo;
  f.source = "analysis";
  f.check = kCheck;
  f.observed = fmt::format(
      "{} of {} pairs at {} bytes flagged between healthy nodes, none beyond {:.1f} spreads of the healthy pairs",
      chance, judged, run.judged_size_bytes, z);
  f.expected = fmt::format(
      "among {} pairs some healthy ones fall beyond {} spreads by chance; a slow link is named only beyond {:.1f} "
      "(the normal quantile at 1 - {} / {} pairs, [pairs] link_family_alpha), or when a retest confirms it",
      judged, t.spread_factor, z, t.link_family_alpha, judged);
  f.meaning = "these pairs are most likely noise at this cluster size: no slow link is named for them";
  f.effect = "none on its own; a pair that is really slow stays slow when measured again";
  f.next_step = fmt::format("measure them again: {} --retest 1 (a pair still slow in its retest is named a link)",
                            pairs_rerun_command(run));
  run.findings.push_back(std::move(f));
}

// The ok pairs' busbw per (op, size) key, keys in order of first appearance.
struct KeyedValues {
  KeyIndex keys;
  std::vector<std::vector<double>> values;
};

// Pass 1 over the pairs: run.judged_size_bytes (the largest size measured) and the ok pairs' busbw per
// (op, size). Chunks of pairs on separate threads at scale, concatenated in chunk order: the same
// values in the same order as one pass.
KeyedValues collect_busbw(Run& run, std::size_t workers) {
  const auto chunks = [&](auto&& work) { in_chunks(run.pairs.size(), workers, work); };
  struct KeyValues {
    KeyIndex keys;
    std::vector<std::vector<double>> values;
    std::uint64_t judged_size_bytes = 0;
  };
  std::vector<KeyValues> chunk_values(workers);
  chunks([&](std::size_t w, std::size_t begin, std::size_t end) {
    KeyValues& kv = chunk_values[w];
    for (std::size_t i = begin; i < end; ++i) {
      const PairResult& p = run.pairs[i];
      if (measured(p)) kv.judged_size_bytes = std::max(kv.judged_size_bytes, p.size_bytes);
      if (!status_ok(p.status)) continue;
      const std::size_t k = kv.keys.find_or_add(p.op, p.size_bytes);
      if (k == kv.values.size()) {
        kv.values.emplace_back();
        // The first key of a chunk (all its pairs when one size was measured): room for the rest
        // of the chunk at once (pages are touched only as filled), no regrowth copies.
        if (k == 0) kv.values.back().reserve(end - i);
      }
      kv.values[k].push_back(p.busbw_gbps);
    }
  });
  KeyedValues out;
  for (KeyValues& kv : chunk_values) {
    run.judged_size_bytes = std::max(run.judged_size_bytes, kv.judged_size_bytes);
    for (std::size_t ck = 0; ck < kv.keys.keys().size(); ++ck) {
      const auto& [op, size] = kv.keys.keys()[ck];
      const std::size_t k = out.keys.find_or_add(op, size);
      if (k == out.values.size()) out.values.emplace_back();
      if (out.values[k].empty()) {
        out.values[k].swap(kv.values[ck]);  // the first chunk with this key: no copy
      } else {
        out.values[k].insert(out.values[k].end(), kv.values[ck].begin(), kv.values[ck].end());
      }
      std::vector<double>().swap(kv.values[ck]);
    }
  }
  return out;
}

// The robust baseline of each key (indexed as the keys), and run.baselines in (op, size) order; the
// values are released as soon as used. At the judged size an anchor of few pairs is checked against
// their retests (analysis/pairs/anchor_check.hpp); the checks go to `checks`.
std::vector<Baseline> compute_baselines(Run& run, KeyedValues& kv, const PairThresholds& t,
                                        std::vector<AnchorCheck>& checks) {
  std::vector<Baseline> baselines(kv.values.size());
  std::vector<std::size_t> order(kv.values.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  const KeyIndex& keys = kv.keys;
  std::sort(order.begin(), order.end(),
            [&keys](std::size_t a, std::size_t b) { return keys.keys()[a] < keys.keys()[b]; });
  for (std::size_t k : order) {
    const Baseline majority =
        robust_baseline(kv.values[k], t.threshold, t.baseline_max_passes, t.baseline_min_kept_fraction);
    Baseline b = anchored_baseline(kv.values[k], majority, t.threshold, t.anchor_gap_fraction, t.spread_factor);
    if (keys.keys()[k].second == run.judged_size_bytes) {
      checks.push_back(check_anchor(run.pairs, keys.keys()[k].first, keys.keys()[k].second, b, t));
      b = checks.back().baseline;
    }
    baselines[k] = b;
    run.baselines.push_back(SizeBaseline{keys.keys()[k].second, b.value, b.spread, b.kept, b.total});
    std::vector<double>().swap(kv.values[k]);
  }
  return baselines;
}

// One chunk's tally at the judged size: per node its pairs and how many are flagged; the ok pairs'
// ratios (for the stragglers' medians) and the flagged pairs (links) for later.
struct Tally {
  std::vector<int> flagged, total;
  std::vector<JudgedRatio> judged_ok;
  std::vector<const PairResult*> judged_flagged;
};

// A pair at the judged size (and measured) into the tally.
void tally_pair(const Run& run, std::size_t n, const PairResult& p, Tally& tally) {
  if (!at_judged_size(run, p) || !measured(p)) return;
  for (int node : p.nodes) {
    if (node < 0 || static_cast<std::size_t>(node) >= n) continue;
    const auto i = static_cast<std::size_t>(node);
    ++tally.total[i];
    if (p.flagged) ++tally.flagged[i];
  }
  if (p.flagged) tally.judged_flagged.push_back(&p);
  if (status_ok(p.status)) tally.judged_ok.push_back({p.nodes[0], p.nodes[1], p.ratio});
}

// Pass 2 over pairs [begin, end): each pair's noise, baseline, ratio and flag (a retest may clear it),
// tallied.
void flag_chunk(Run& run, const PairThresholds& t, const KeyIndex& keys, const std::vector<Baseline>& baselines,
                std::size_t begin, std::size_t end, Tally& tally) {
  const std::size_t n = run.nodes.size();
  KeyIndex chunk_keys = keys;
  NoiseScratch scratch;
  tally.judged_ok.reserve(end - begin);  // at most one a pair; pages are touched only as filled
  double next_noise = 0.0;               // the next pair's, computed with this one's
  bool have_next = false;
  for (std::size_t i = begin; i < end; ++i) {
    PairResult& p = run.pairs[i];
    if (have_next) {
      p.noise_gbps = next_noise;
      have_next = false;
    } else if (i + 1 < end && pair_noise_gbps_2(p, run.pairs[i + 1], p.noise_gbps, next_noise)) {
      have_next = true;
    } else {
      p.noise_gbps = pair_noise_gbps(p, scratch);
    }
    const std::size_t k = chunk_keys.find(p.op, p.size_bytes);
    const Baseline* base = k < baselines.size() ? &baselines[k] : nullptr;
    p.baseline_gbps = base != nullptr ? base->value : 0.0;
    p.ratio = p.baseline_gbps > 0.0 ? p.busbw_gbps / p.baseline_gbps : 0.0;
    if (!status_ok(p.status)) {
      p.flagged = true;
      tally_pair(run, n, p, tally);
      continue;
    }
    // The healthy spread guards small deviations only: capped at max_spread_fraction of the
    // baseline, so a noisy cluster cannot hide a pair at a fraction of it.
    const double spread = base != nullptr ? std::min(base->spread, t.max_spread_fraction * p.baseline_gbps) : 0.0;
    auto slow = [&](double busbw, double noise) {
      const double gap = p.baseline_gbps - busbw;
      return busbw < p.baseline_gbps * (1.0 - t.threshold) && gap > t.noise_factor * noise &&
             gap > t.spread_factor * spread;
    };
    p.flagged = slow(p.busbw_gbps, p.noise_gbps);
    p.cleared_by_retest = false;
    if (p.flagged && !p.retest_samples_s.empty()) {
      std::vector<double> retest_busbw;
      for (double r : p.retest_samples_s) {
        if (r > 0.0) retest_busbw.push_back(p.retest_busbw_gbps * median(p.retest_samples_s) / r);
      }
      if (!slow(p.retest_busbw_gbps, robust_sigma(retest_busbw))) {
        p.flagged = false;
        p.cleared_by_retest = true;
      }
    }
    tally_pair(run, n, p, tally);
  }
}

// The chunks' tallies merged in chunk order (the same as one pass in order): per node flagged and
// total pairs at the judged size, and the flagged pairs.
struct Judged {
  std::vector<int> flagged, total;
  std::vector<const PairResult*> flagged_pairs;
};
Judged merge_tallies(std::vector<Tally>& tallies, std::size_t n) {
  Judged out;
  out.flagged = std::move(tallies.front().flagged);
  out.total = std::move(tallies.front().total);
  out.flagged_pairs = std::move(tallies.front().judged_flagged);
  for (std::size_t w = 1; w < tallies.size(); ++w) {
    Tally& tally = tallies[w];
    for (std::size_t i = 0; i < n; ++i) out.flagged[i] += tally.flagged[i], out.total[i] += tally.total[i];
    out.flagged_pairs.insert(out.flagged_pairs.end(), tally.judged_flagged.begin(), tally.judged_flagged.end());
  }
  return out;
}

// The inference over the flagged pairs at the judged size (analysis/pairs/pair_inference.hpp): which nodes
// are cleared, slow, or undecided, which slow pairs are links and which one crossing. The fast pairs
// are read again (one pass) only when enough links could form a crossing.
PairInference infer_faults(const Run& run, const Judged& j, const PairThresholds& t,
                           std::vector<InferencePair>& slow_pairs) {
  PairInferenceInput input;
  input.nodes = j.total.size();
  input.fast_pairs.resize(input.nodes);
  for (std::size_t i = 0; i < input.nodes; ++i) input.fast_pairs[i] = j.total[i] - j.flagged[i];
  input.min_cleared_partners = t.min_cleared_partners;
  input.measured_pairs = j.total;
  input.mostly_slow_fraction = t.mostly_slow_fraction;
  input.single_pair_anchor_max_ratio = t.single_pair_anchor_max_ratio;
  for (const PairResult* p : j.flagged_pairs) {
    const double retest_ratio =
        !p->retest_samples_s.empty() && p->baseline_gbps > 0.0 ? p->retest_busbw_gbps / p->baseline_gbps : 0.0;
    input.slow_pairs.push_back({p->nodes[0], p->nodes[1], p->ratio, retest_ratio});
  }
  const auto fast_pairs = [&run] {
    std::vector<InferencePair> fast;
    for (const PairResult& p : run.pairs) {
      if (at_judged_size(run, p) && measured(p) && !p.flagged) fast.push_back({p.nodes[0], p.nodes[1]});
    }
    return fast;
  };
  PairInference inference = infer_pair_faults(input, fast_pairs);
  slow_pairs = std::move(input.slow_pairs);
  return inference;
}

// run.stragglers with their evidence; the median ratio of each straggler's ok pairs (only theirs: at
// scale every node's would be gigabytes).
void name_stragglers(Run& run, const Judged& j, const PairInference& inference, const std::vector<Tally>& tallies) {
  const std::vector<bool>& is_straggler = inference.slow;
  const std::size_t n = is_straggler.size();
  std::vector<std::vector<double>> ratios(n);
  for (const Tally& tally : tallies) {
    for (const JudgedRatio& r : tally.judged_ok) {
      for (int node : {r.a, r.b}) {
        if (node >= 0 && static_cast<std::size_t>(node) < n && is_straggler[static_cast<std::size_t>(node)]) {
          ratios[static_cast<std::size_t>(node)].push_back(r.ratio);
        }
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_straggler[i]) continue;
    Straggler s;
    s.node = static_cast<int>(i);
    s.hostname = run.nodes[i].label;
    s.flagged_pairs = j.flagged[i];
    s.total_pairs = j.total[i];
    s.median_ratio = median(ratios[i]);
    s.evidence = fmt::format("{} of {} pairs flagged at {} bytes; median busbw {:.0f}% of baseline", j.flagged[i],
                             j.total[i], run.judged_size_bytes, s.median_ratio * 100.0);
    run.stragglers.push_back(std::move(s));
  }
}

// The flagged pairs between two healthy nodes: a link (run.links) when it failed, was confirmed by a
// retest, or lies beyond the family margin z (see PairThresholds::link_family_alpha). Returns how many
// were left unnamed (chance flags).
std::size_t name_links(Run& run, const Judged& j, const PairInference& inference, const KeyIndex& keys,
                       const std::vector<Baseline>& baselines, const PairThresholds& t, double family_z) {
  std::size_t chance_flags = 0;
  for (std::size_t link : inference.links) {
    const PairResult* p = j.flagged_pairs[link];
    if (status_ok(p->status) && p->retest_samples_s.empty()) {
      const std::size_t k = keys.find(p->op, p->size_bytes);
      const double spread =
          k < baselines.size() ? std::min(baselines[k].spread, t.max_spread_fraction * p->baseline_gbps) : 0.0;
      if (p->baseline_gbps - p->busbw_gbps <= family_z * spread) {
        ++chance_flags;
        continue;
      }
    }
    LinkFinding l;
    l.nodes = p->nodes;
    l.hostnames = {label_of(run, p->nodes[0]), label_of(run, p->nodes[1])};
    l.ratio = p->ratio;
    l.evidence = !status_ok(p->status)
                     ? fmt::format("pair {} <-> {} {}: {}", l.hostnames[0], l.hostnames[1], p->status, p->error)
                     : fmt::format(
                           "pair {} <-> {} at {:.0f}% of baseline ({:.2f} of {:.2f} GB/s); both nodes "
                           "healthy in their other pairs",
                           l.hostnames[0], l.hostnames[1], p->ratio * 100.0, p->busbw_gbps, p->baseline_gbps);
    run.links.push_back(std::move(l));
  }
  return chance_flags;
}

}  // namespace

void judge_pairs(Run& run, const PairThresholds& t, std::size_t threads, JudgedPairs* judged) {
  run.baselines.clear();
  run.stragglers.clear();
  run.links.clear();
  run.judged_size_bytes = 0;

  // At scale every pass over the pairs costs a memory-bound sweep of gigabytes: the first finds the
  // baselines' values and the size nodes are judged at (the largest measured), the second everything
  // else. Each pair is judged on its own, so at scale the pairs are split into contiguous chunks judged
  // on separate threads, each with its own tally, merged in chunk order: the same result as one pass.
  const std::size_t workers = threads > 0 ? threads : analysis_threads(run.pairs.size());
  KeyedValues kv = collect_busbw(run, workers);
  std::vector<AnchorCheck> anchor_checks;
  const std::vector<Baseline> baselines = compute_baselines(run, kv, t, anchor_checks);
  const std::size_t n = run.nodes.size();
  std::vector<Tally> tallies(workers);
  for (Tally& tally : tallies) tally.flagged.assign(n, 0), tally.total.assign(n, 0);
  in_chunks(run.pairs.size(), workers, [&](std::size_t w, std::size_t begin, std::size_t end) {
    flag_chunk(run, t, kv.keys, baselines, begin, end, tallies[w]);
  });
  const Judged j = merge_tallies(tallies, n);
  std::vector<InferencePair> slow_pairs;
  const PairInference inference = infer_faults(run, j, t, slow_pairs);
  name_stragglers(run, j, inference, tallies);
  if (judged != nullptr) {
    judged->chunks.clear();
    for (Tally& tally : tallies) judged->chunks.push_back(std::move(tally.judged_ok));
    judged->filled = true;
  }
  std::vector<Tally>().swap(tallies);  // the ok pairs released once read (unless handed on)
  // A flagged pair between two healthy nodes is a link only beyond the family margin (see
  // PairThresholds::link_family_alpha): failed pairs and pairs confirmed by a retest always are.
  std::size_t judged_pairs = 0;
  for (std::size_t i = 0; i < n; ++i) judged_pairs += static_cast<std::size_t>(j.total[i]);
  judged_pairs /= 2;
  const double family_z = link_family_z(judged_pairs, t);
  const std::size_t chance_flags = name_links(run, j, inference, kv.keys, baselines, t, family_z);
  add_inference_findings(run, inference, slow_pairs, pairs_rerun_command(run));
  add_lagging_node_findings(run, find_lagging_nodes(run, inference, t), pairs_rerun_command(run));
  name_intermittent_nodes(run, t, j.flagged, j.total);
  add_chance_flag_finding(run, t, chance_flags, judged_pairs, family_z);
  add_anchor_findings(run, anchor_checks, t, pairs_rerun_command(run));
  add_stalling_node_findings(run, t, pairs_rerun_command(run));
  add_recovered_node_findings(run, t, pairs_rerun_command(run));
}

std::string pairs_rerun_command(const Run& run) {
  if (!run.simulated) return "podperf pairs";
  // run.sim_model is the model's source: "configs/sim/NAME.toml (built in)" or the file given.
  std::string model = run.sim_model;
  constexpr std::string_view kBuiltIn = " (built in)";
  if (model.ends_with(kBuiltIn)) {
    model = std::filesystem::path(model.substr(0, model.size() - kBuiltIn.size())).stem().string();
  }
  return fmt::format("podperf pairs --backend sim --sim-model {} --sim-nodes {} --seed {}",
                     model.empty() ? "healthy" : model, run.nodes.size(), run.options.seed);
}

int pairs_exit_code(const Run& run) {
  // A flagged pair at the judged size is a straggler's, a link, or left unnamed by the family margin
  // (chance at this cluster size, pairs.chance_flags): only the first two count.
  for (const PairResult& p : run.pairs) {
    if (!status_ok(p.status)) return 1;
  }
  // A slow crossing, an undecided slow node (the inference's) and a stalling node count too: something
  // is slow.
  const bool inferred = std::any_of(run.findings.begin(), run.findings.end(), [](const Finding& f) {
    return f.check == "pairs.slow_crossing" || f.check == "pairs.ambiguous" || f.check == "pairs.stalling_node";
  });
  return run.stragglers.empty() && run.links.empty() && !inferred ? 0 : 1;
}

}  // namespace podperf

// The check of a baseline anchored on a few pairs (see anchor_check.hpp). Floor: analysis; pure.
#include "analysis/pairs/anchor_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <utility>

#include "analysis/base/text.hpp"
#include "analysis/pairs/fastest_group.hpp"

namespace podperf {
namespace {

constexpr const char* kAnchorAmbiguous = "pairs.ambiguous";
constexpr const char* kAnchorNotReproduced = "pairs.anchor_not_reproduced";
constexpr const char* kAnchorUnconfirmedTitle = "the baseline rests on ";  // how the unconfirmed finding's text starts

// A baseline kept on fewer than anchor_min_pairs of the pairs, with pairs below it: anchored on a fast
// group, or a robust baseline that climbed to its fastest pairs (three nodes, one pair fast).
bool anchor_few_pairs(const Baseline& b, const PairThresholds& t) {
  return b.kept > 0 && b.kept < b.total && b.kept < static_cast<std::size_t>(std::max(1, t.anchor_min_pairs));
}

// Both baselines keep the fastest `kept` values: the lowest of them and the highest value below.
struct AnchorGap {
  double floor = 0.0;
  double below = 0.0;
};
AnchorGap anchor_gap(std::vector<double> values, std::size_t kept) {
  std::sort(values.begin(), values.end(), std::greater<>());
  return {values[kept - 1], values[kept]};
}

// A new measurement of an anchor pair reproduces the anchor when it lies on the fast side of the
// middle of the gap between the anchor and the values below it.
bool anchor_reproduced_by(const AnchorGap& gap, double busbw) {
  return busbw >= 0.5 * (gap.floor + gap.below);
}

const std::string& anchor_label_of(const Run& run, int node) {
  static const std::string kUnknown = "?";
  if (node < 0 || static_cast<std::size_t>(node) >= run.nodes.size()) return kUnknown;
  return run.nodes[static_cast<std::size_t>(node)].label;
}

std::string anchor_pair_label(const Run& run, const PairResult& p) {
  return fmt::format("{}:{}", anchor_label_of(run, p.nodes[0]), anchor_label_of(run, p.nodes[1]));
}

// The anchor pairs with their busbw ("h1:h2 at 2.86 GB/s"), the first few.
std::string anchor_text(const Run& run, const std::vector<std::size_t>& anchor) {
  constexpr std::size_t kShown = 4;
  std::vector<std::string> out;
  for (std::size_t i = 0; i < anchor.size() && i < kShown; ++i) {
    const PairResult& p = run.pairs[anchor[i]];
    out.push_back(fmt::format("{} at {:.3g} GB/s", anchor_pair_label(run, p), p.busbw_gbps));
  }
  if (anchor.size() > kShown) out.push_back(fmt::format("and {} more", anchor.size() - kShown));
  return text::join(out);
}

// What the run named against the unconfirmed anchor: "stragglers h3, h4; 2 slow links; 1 slow
// crossing", or "" when it named nothing (its pairs.ambiguous findings name nobody and stay).
std::string anchor_withheld_text(const Run& run) {
  std::vector<std::string> parts;
  if (!run.stragglers.empty()) {
    std::vector<std::string> names;
    for (const Straggler& s : run.stragglers) names.push_back(s.hostname);
    parts.push_back(fmt::format("straggler{} {}", names.size() == 1 ? "" : "s", text::join(names)));
  }
  if (!run.links.empty()) {
    parts.push_back(fmt::format("{} slow link{}", run.links.size(), run.links.size() == 1 ? "" : "s"));
  }
  std::size_t crossings = 0, intermittent = 0;
  for (const Finding& f : run.findings) {
    crossings += f.check == "pairs.slow_crossing" ? 1 : 0;
    intermittent += f.check == "pairs.intermittent_node" ? 1 : 0;
  }
  if (crossings > 0) parts.push_back(fmt::format("{} slow crossing{}", crossings, crossings == 1 ? "" : "s"));
  if (intermittent > 0) {
    parts.push_back(fmt::format("{} intermittent node{}", intermittent, intermittent == 1 ? "" : "s"));
  }
  return text::join(parts, "; ");
}

Finding anchor_unconfirmed_finding(const Run& run, const AnchorCheck& c, const PairThresholds& t,
                                   const std::string& rerun, const std::string& withheld) {
  std::size_t flagged = 0, judged = 0;
  double lowest = 1.0;
  for (const PairResult& p : run.pairs) {
    if (!judged_ok(run, p)) continue;
    ++judged;
    if (p.flagged) ++flagged, lowest = std::min(lowest, p.ratio);
  }
  Finding f;
  f.tag = Tag::kConcern;
  f.source = "analysis";
  f.check = kAnchorAmbiguous;
  f.observed = fmt::format(
      "{}{} pair{} at {} bytes ({}), the fast side of a gap, never measured again; {} of {} pairs are slow "
      "against its {:.3g} GB/s (down to {:.0f}%)",
      kAnchorUnconfirmedTitle, c.anchor_pairs.size(), c.anchor_pairs.size() == 1 ? "" : "s", run.judged_size_bytes,
      anchor_text(run, c.anchor_pairs), flagged, judged, c.baseline.value, lowest * 100.0);
  f.expected = fmt::format(
      "a baseline on fewer than {} pairs ([pairs] anchor_min_pairs) counts only once a retest reproduces it",
      t.anchor_min_pairs);
  f.meaning = fmt::format(
      "cannot tell: the other pairs are slow (against this baseline the run would name {}), or the anchor "
      "measured fast by chance once and the cluster is healthy; nothing is named on it",
      withheld);
  f.effect = "no node is named or drained until a retest decides";
  f.next_step = fmt::format(
      "measure again with a retest, which measures the anchor pair beside the flagged ones ({} --retest 1), or judge "
      "the busbw against the instance type's published figure (podperf accept --sku TYPE)",
      rerun);
  return f;
}

Finding anchor_not_reproduced_finding(const Run& run, const AnchorCheck& c, double first_gbps) {
  std::vector<std::string> pairs;
  for (std::size_t i : c.not_reproduced) {
    const PairResult& p = run.pairs[i];
    pairs.push_back(
        fmt::format("{} {:.3g} GB/s, retest {:.3g}", anchor_pair_label(run, p), p.busbw_gbps, p.retest_busbw_gbps));
  }
  Finding f;
  f.tag = Tag::kInfo;
  f.source = "analysis";
  f.check = kAnchorNotReproduced;
  f.observed = fmt::format("at {} bytes the fastest pair{} ({}) fell back in {} retest", run.judged_size_bytes,
                           pairs.size() == 1 ? "" : "s", text::join(pairs, "; "), pairs.size() == 1 ? "its" : "their");
  f.expected = fmt::format(
      "an anchor of few pairs reproduced by its retest (it would have made the baseline {:.3g} GB/s)", first_gbps);
  f.meaning = fmt::format(
      "a lucky measurement, not a faster path: counted at its retest, the baseline is {:.3g} GB/s and the other "
      "pairs are judged against that",
      c.baseline.value);
  f.effect = "none: no pair is condemned against a measurement that did not repeat";
  f.next_step = "none needed; a pair fast again and again would anchor the baseline";
  return f;
}

}  // namespace

AnchorCheck check_anchor(const std::vector<PairResult>& pairs, const std::string& op, std::uint64_t size,
                         const Baseline& first, const PairThresholds& t) {
  AnchorCheck out;
  std::vector<std::size_t> index;
  std::vector<double> values;
  ok_pairs_at(pairs, op, size, index, values);
  // A slow majority of unequal nodes leaves the values no gap, but their nodes' ceilings one.
  const Baseline judged = fastest_group_baseline(pairs, index, values, first, t);
  out.baseline = judged;
  out.first_gbps = judged.value;
  if (!anchor_few_pairs(judged, t)) return out;
  std::vector<bool> at_retest(values.size(), false);
  Baseline b = judged;
  // Each pass counts at least one more anchor pair at its retest (a pair at its retest value
  // reproduces itself), so it ends within values.size() passes.
  for (std::size_t pass = 0; pass <= values.size(); ++pass) {
    if (!anchor_few_pairs(b, t)) {
      out.state = AnchorState::kNone;
      out.anchor_pairs.clear();
      break;
    }
    out.anchor_pairs.clear();
    const AnchorGap gap = anchor_gap(values, b.kept);
    bool all_retested = true, fell_back = false;
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (values[k] < gap.floor) continue;
      const PairResult& p = pairs[index[k]];
      out.anchor_pairs.push_back(index[k]);
      if (at_retest[k]) continue;
      if (p.retest_samples_s.empty() || p.retest_busbw_gbps <= 0.0) {
        all_retested = false;
      } else if (!anchor_reproduced_by(gap, p.retest_busbw_gbps)) {
        values[k] = p.retest_busbw_gbps;
        at_retest[k] = true;
        fell_back = true;
        out.not_reproduced.push_back(index[k]);
      }
    }
    if (!fell_back) {
      out.state = all_retested ? AnchorState::kConfirmed : AnchorState::kUnconfirmed;
      break;
    }
    b = judged_size_baseline(pairs, index, values, t);
  }
  out.baseline = b;
  return out;
}

std::vector<std::array<int, 2>> anchor_pairs_to_retest(const Run& analyzed, const PairThresholds& t) {
  std::vector<std::array<int, 2>> out;
  const auto few = [&](const SizeBaseline& b) {
    return at_judged_size(analyzed, b) && b.pairs_kept < b.pairs_total &&
           b.pairs_kept < static_cast<std::size_t>(t.anchor_min_pairs);
  };
  if (std::none_of(analyzed.baselines.begin(), analyzed.baselines.end(), few)) return out;
  std::set<std::string> ops;
  for (const PairResult& p : analyzed.pairs) {
    if (judged_ok(analyzed, p)) ops.insert(p.op);
  }
  for (const std::string& op : ops) {
    std::vector<double> values;
    for (const PairResult& p : analyzed.pairs) {
      if (at_judged_size(analyzed, p) && p.op == op && status_ok(p.status)) values.push_back(p.busbw_gbps);
    }
    const Baseline majority = robust_baseline(values, t.threshold, t.baseline_max_passes, t.baseline_min_kept_fraction);
    const Baseline first = anchored_baseline(values, majority, t.threshold, t.anchor_gap_fraction, t.spread_factor);
    const AnchorCheck c = check_anchor(analyzed.pairs, op, analyzed.judged_size_bytes, first, t);
    if (c.state != AnchorState::kUnconfirmed) continue;
    for (std::size_t i : c.anchor_pairs) {
      if (analyzed.pairs[i].retest_samples_s.empty()) out.push_back(analyzed.pairs[i].nodes);
    }
  }
  return out;
}

void add_anchor_findings(Run& run, const std::vector<AnchorCheck>& checks, const PairThresholds& t,
                         const std::string& rerun) {
  std::erase_if(run.findings, [](const Finding& f) {
    return f.check == kAnchorNotReproduced ||
           (f.check == kAnchorAmbiguous && f.observed.starts_with(kAnchorUnconfirmedTitle));
  });
  for (const AnchorCheck& c : checks) {
    if (!c.not_reproduced.empty()) run.findings.push_back(anchor_not_reproduced_finding(run, c, c.first_gbps));
  }
  const auto unconfirmed = std::find_if(checks.begin(), checks.end(),
                                        [](const AnchorCheck& c) { return c.state == AnchorState::kUnconfirmed; });
  if (unconfirmed == checks.end()) return;
  const std::string withheld = anchor_withheld_text(run);
  if (withheld.empty()) return;  // it condemned nobody
  run.stragglers.clear();
  run.links.clear();
  std::erase_if(run.findings, [](const Finding& f) {
    return f.check == "pairs.slow_crossing" || f.check == "pairs.intermittent_node";
  });
  run.findings.push_back(anchor_unconfirmed_finding(run, *unconfirmed, t, rerun, withheld));
}

}  // namespace podperf

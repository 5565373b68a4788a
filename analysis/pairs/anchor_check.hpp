#pragma once
// A baseline anchored on a few pairs must be reproduced before it may condemn the rest. A baseline kept
// on fewer than [pairs] anchor_min_pairs of the pairs (a fast group of anchored_baseline, or a robust
// baseline of three nodes that climbed to its one fast pair; analysis/stats/baseline.hpp) may rest on one
// pair that ran fast by chance: judged against it, every healthy pair is slow. So at the judged size:
//  - each anchor pair measured again (its retest, attached by attach_retest) whose retest falls back
//    below the middle of the gap was a lucky measurement: it counts at its retest value and the
//    baseline is computed again (it may anchor on another group, checked the same way, or on none);
//  - an anchor whose every pair was measured again and reproduced is confirmed;
//  - an anchor with a pair never measured again (--retest 0, a run rebuilt offline, a failed retest)
//    is unconfirmed: the run names nothing on it (withhold_unconfirmed_verdicts) and says so.
// The retest planning (bench/pairs_run.cpp retest_candidates) measures the anchor's pairs again
// beside the flagged ones (anchor_pairs_to_retest). Floor: analysis; pure; throws nothing.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"
#include "analysis/stats/baseline.hpp"

namespace podperf {

enum class AnchorState {
  kNone,         // not anchored on a few pairs (not anchored, or on anchor_min_pairs pairs or more)
  kConfirmed,    // a few-pair anchor whose every pair's retest reproduced it
  kUnconfirmed,  // a few-pair anchor with a pair not measured again
};

struct AnchorCheck {
  AnchorState state = AnchorState::kNone;
  Baseline baseline;                        // the baseline to judge the size by
  double first_gbps = 0.0;                  // the baseline before any anchor pair counted at its retest
  std::vector<std::size_t> anchor_pairs;    // indices into the run's pairs: the few-pair anchor judged by
  std::vector<std::size_t> not_reproduced;  // anchor pairs whose retest fell back: counted at their retest
};

// The check of `first` (the anchored baseline of the ok pairs at op/size; the fastest consistent group's
// baseline instead when one stands apart, analysis/pairs/fastest_group.hpp) against the pairs' retests.
// Returns state kNone and `first` unchanged unless `first` keeps fewer than t.anchor_min_pairs of
// the pairs (and not all of them).
AnchorCheck check_anchor(const std::vector<PairResult>& pairs, const std::string& op, std::uint64_t size,
                         const Baseline& first, const PairThresholds& t);

// After judge_pairs: the pairs of an unconfirmed few-pair anchor at the judged size that have not
// been measured again (for the retest planning to measure beside the flagged pairs), in the order of
// run.pairs.
std::vector<std::array<int, 2>> anchor_pairs_to_retest(const Run& analyzed, const PairThresholds& t);

// An unconfirmed anchor names nothing: the stragglers, links, slow crossings and pairs.intermittent_node
// findings made against it are withdrawn and replaced by one pairs.ambiguous finding that says what
// they were, why the run cannot tell, and the retest that decides (`rerun`: pairs_rerun_command of the
// run). The pairs stay flagged; the inference's own pairs.ambiguous findings (naming nobody) stay, and
// an anchor that condemned nobody adds nothing. An anchor pair whose
// retest did not reproduce it gives an INFO pairs.anchor_not_reproduced (the lucky measurement, not
// counted). Replaces the findings of an earlier pass. `checks`: those of the judged size (one per op).
void add_anchor_findings(Run& run, const std::vector<AnchorCheck>& checks, const PairThresholds& t,
                         const std::string& rerun);

}  // namespace podperf

#pragma once
// Adaptive straggler search (podperf pairs --schedule adaptive): instead of every pair (n-1 rounds),
// a few rounds of random perfect matchings screen every node; nodes with a low pair become suspects;
// each suspect is retested against nodes already known to be good until it is confirmed slow or
// cleared; a low pair whose two nodes both clear is measured once more (a link, or noise).
// In the spirit of ClusterKit's and Google's cluster scanner retests (FIELD-NOTES section 2).
//
// Pure: the caller measures. `measure` runs one round of disjoint node pairs and returns each pair's
// busbw at the judged size (NaN or <= 0: the pair failed, which counts as low). Identical inputs and
// seed give identical rounds, so every MPI rank (or a model) can follow the same plan.
#include <cstdint>
#include <functional>
#include <vector>

#include "sweep/pair_schedule.hpp"

namespace podperf {

struct AdaptiveParams {
  // Low pair: below baseline * (1 - threshold) and further below it than spread_factor times the
  // screening pairs' robust spread (capped at max_spread_fraction of the baseline): the same rule
  // as analysis/pair_flags (configs/thresholds.toml [pairs]).
  double threshold = 0.05;
  double spread_factor = 4.0;
  double max_spread_fraction = 0.10;
  int screen_rounds = 3;         // random perfect matchings before any retest
  int confirm_lows = 2;          // a suspect is slow after this many low retests
  int clear_oks = 3;             // ...cleared after clear_oks + 2 * (its low retests) good ones
  int max_rounds = 0;            // budget; 0: 2 * ceil(log2 n), at least screen_rounds + 6
  std::uint64_t seed = 0;
};

// One round: disjoint pairs. repeat[i]: pairs[i] was measured before (a link check).
struct SearchRound {
  std::vector<NodePair> pairs;
  std::vector<bool> repeat;
};

using MeasureRound = std::function<std::vector<double>(const SearchRound& round, int round_number)>;

struct AdaptiveResult {
  int rounds = 0;           // rounds measured
  int max_rounds = 0;       // the budget it ran under
  bool converged = true;    // every suspect decided within the budget (false: undecided ones count as slow)
  double baseline = 0.0;    // screening baseline busbw
  std::vector<int> slow_nodes;        // confirmed, ascending
  std::vector<int> cleared;           // suspects cleared by retests, ascending
  std::vector<NodePair> slow_links;   // low pairs between two cleared nodes, confirmed by a repeat
  int suspects = 0;                   // nodes that were ever suspects
  int measurements = 0;               // pair measurements in all rounds
};

// The budget for n nodes: 2 * ceil(log2 n) rounds, and never fewer than the screening plus retests need.
int adaptive_round_budget(int n, const AdaptiveParams& p);

// A random perfect matching of nodes 0..n-1 (odd n: one node rests), seeded; pairs first < second.
Round random_matching(int n, std::uint64_t seed);

AdaptiveResult adaptive_search(int n, const AdaptiveParams& p, const MeasureRound& measure);

}  // namespace podperf

#pragma once
// What the adaptive straggler searches share (sweep/adaptive_flat, sweep/adaptive_layered, and their
// entry sweep/adaptive_search): the parameters, the topology groups, a round and its measuring
// callback, the result, the round budget, random matchings, and which pairs leave a slow group.
// Floor: sweep (pure, local; seeded, so every rank plans the same rounds). Throws nothing.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analysis/stats/low_pair.hpp"
#include "sweep/pair_schedule.hpp"

namespace podperf {

struct AdaptiveParams {
  // Low pair: the one rule of analysis/stats/low_pair.hpp (below baseline * (1 - cut), the cut the larger
  // of threshold and spread_factor times the screening pairs' robust spread, capped at
  // max_spread_fraction of the baseline), with configs/thresholds.toml [pairs]'s values.
  double threshold = 0.05;
  double spread_factor = 4.0;
  double max_spread_fraction = 0.10;
  int screen_rounds = 3;  // random perfect matchings before any retest
  int confirm_lows = 2;   // a suspect is slow after this many low retests
  int clear_oks = 3;      // ...cleared after clear_oks + 2 * (its low retests) good ones
  int max_rounds = 0;     // budget; 0: 2 * ceil(log2 n), at least screen_rounds + 6 (+ across_rounds + 2
                          // when layered)
  std::uint64_t seed = 0;
  // Topology-aware variants (used only when adaptive_search is given groups).
  enum class Scope { kFlat, kWithin, kLayered };
  Scope scope = Scope::kFlat;
  int level = -1;                // the within level (index into SearchGroups::levels); -1: the innermost
  int across_rounds = 2;         // layered: matchings across groups
  double uplink_fraction = 0.5;  // a group is suspect when more than this share of its pairs leaving it are low
  int uplink_confirm = 2;        // retests of a suspect group's members: slow after this many low ones
};

// Where each node sits: a group index per level, outermost level first (groups keyed by the path
// down to that level, so equal names under different parents stay apart).
struct SearchGroups {
  std::vector<std::string> levels;
  std::vector<std::vector<int>> group;          // [level][node]: group index, -1 when the node is not placed
  std::vector<std::vector<std::string>> names;  // [level][group]: the group's name at that level
  bool empty() const { return levels.empty(); }
};

// From each node's topology path (NodeInfo::topology: one name per level, outermost first; a node
// whose path does not have one name per level is not placed).
SearchGroups search_groups(const std::vector<std::vector<std::string>>& paths, const std::vector<std::string>& levels);

// A group whose pairs leaving it are slow while its nodes are healthy inside it.
struct SlowGroup {
  int level = 0;
  int group = 0;
  std::string level_name;
  std::string name;
  std::vector<int> members;  // every node of the group, ascending
  int pairs_out = 0;         // pairs leaving it measured by the across matchings (trusted nodes only)
  int low_out = 0;           // ...of which low
  int confirm_pairs = 0;     // retests of its members against trusted nodes of other groups
  int confirm_lows = 0;
  double out_ratio = 0.0;  // median busbw of its low pairs leaving it / their class baseline
  bool decided = true;     // false: the budget ran out before the retests decided (counted as slow)
};

// One round: disjoint pairs. repeat[i]: pairs[i] was measured before (a link check).
struct SearchRound {
  std::vector<NodePair> pairs;
  std::vector<bool> repeat;
};

using MeasureRound = std::function<std::vector<double>(const SearchRound& round, int round_number)>;

struct AdaptiveResult {
  int rounds = 0;                    // rounds measured
  int max_rounds = 0;                // the budget it ran under
  bool converged = true;             // every suspect decided within the budget (false: undecided ones count as slow)
  double baseline = 0.0;             // screening baseline busbw
  std::vector<int> slow_nodes;       // confirmed, ascending
  std::vector<int> cleared;          // suspects cleared by retests, ascending
  std::vector<NodePair> slow_links;  // low pairs between two cleared nodes, confirmed by a repeat
  int suspects = 0;                  // nodes that were ever suspects
  int measurements = 0;              // pair measurements in all rounds
  // Topology-aware runs: the scope used ("flat", "within", "layered"), its level, rounds per phase
  // (screen: within-group matchings, or the flat ones; across; retests: suspects, links, groups).
  std::string scope = "flat";
  std::string level_name;
  int screen_rounds = 0;
  int across_rounds = 0;
  int retest_rounds = 0;
  int group_suspects = 0;              // groups that were ever suspect
  std::vector<SlowGroup> slow_groups;  // confirmed (or undecided), by level then group
};

// The low-pair rule's values of these parameters.
inline LowPairRule low_pair_rule(const AdaptiveParams& p) {
  return LowPairRule{p.threshold, p.spread_factor, p.max_spread_fraction};
}

// The budget for n nodes: 2 * ceil(log2 n) rounds, and never fewer than the screening plus retests need.
int adaptive_round_budget(int n, const AdaptiveParams& p);

// A random perfect matching of nodes 0..n-1 (odd n: one node rests), seeded; pairs first < second.
Round random_matching(int n, std::uint64_t seed);

// True when pair (a, b) leaves one of `slow` (exactly one of its nodes is a member).
bool leaves_slow_group(const std::vector<SlowGroup>& slow, int a, int b);

}  // namespace podperf

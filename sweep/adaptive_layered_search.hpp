#pragma once
// The topology-aware search's working state (internal to sweep/adaptive_layered.cpp, its screening
// and across matchings, and sweep/adaptive_layered_retests.cpp, its retest rounds): one LayeredSearch
// per adaptive_search_layered call. Floor: sweep (pure, local, seeded). Throws nothing.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "analysis/stats/low_pair.hpp"
#include "sweep/adaptive_common.hpp"
#include "sweep/search_util.hpp"
#include "sweep/splitmix.hpp"

namespace podperf::layered_search {

using Rng = SplitMix;

constexpr std::size_t kMinClassPairs = 8;  // a class's own baseline from this many ok pairs on

using search::Votes;

enum class State { kGood, kSuspect, kSlow, kCleared };
enum class GroupState { kNone, kSuspect, kSlow, kCleared };

using Measured = std::vector<std::pair<NodePair, double>>;

// A retest round being put together: its pairs, each pair's subject (>= 0 a suspect node; -1 a link
// check; -2 - g a retest of group g), the nodes taken and the free trusted nodes.
struct RoundPlan {
  Round pairs;
  std::vector<int> subject;
  std::vector<bool> busy;
  std::vector<int> pool;
};

// One topology-aware search: its state between the steps below, in the order run() takes them.
class LayeredSearch {
 public:
  LayeredSearch(int n, const AdaptiveParams& p, const MeasureRound& measure, const SearchGroups& groups)
      : n_(n),
        un_(static_cast<std::size_t>(n)),
        p_(p),
        measure_(measure),
        groups_(groups),
        layered_(p.scope == AdaptiveParams::Scope::kLayered),
        levels_(static_cast<int>(groups.levels.size())),
        level_(p.level >= 0 && p.level < levels_ ? p.level : levels_ - 1),
        rng_{p.seed ^ 0x7090ada9ULL} {
    out_.scope = layered_ ? "layered" : "within";
    out_.max_rounds = adaptive_round_budget(n, p);
    out_.level_name = groups.levels[static_cast<std::size_t>(level_)];
  }

  // The whole search: placing, screening (within, then across when layered), retest rounds until
  // every suspect is decided or the budget runs out, the result.
  AdaptiveResult run();

 private:
  [[nodiscard]] int group_of(int node) const {
    return groups_.group[static_cast<std::size_t>(level_)][static_cast<std::size_t>(node)];
  }

  // A pair's class: the level at which its nodes' groups first differ; `levels` when they share the
  // leaf; -1 when a node is not placed.
  [[nodiscard]] int class_of(const NodePair& pair) const {
    for (int l = 0; l < levels_; ++l) {
      const int a = groups_.group[static_cast<std::size_t>(l)][static_cast<std::size_t>(pair[0])];
      const int b = groups_.group[static_cast<std::size_t>(l)][static_cast<std::size_t>(pair[1])];
      if (a < 0 || b < 0) return -1;
      if (a != b) return l;
    }
    return levels_;
  }

  [[nodiscard]] double baseline_of(const NodePair& pair) const {
    const auto it = class_baseline_.find(class_of(pair));
    return it != class_baseline_.end() ? it->second : out_.baseline;
  }

  // Low pair: the one rule (analysis/stats/low_pair.hpp) against its class baseline and the screening spread.
  [[nodiscard]] bool low(const NodePair& pair, double busbw) const {
    return pair_is_low(low_pair_rule(p_), busbw, baseline_of(pair), spread_share_);
  }

  [[nodiscard]] bool trusted(int node) const {
    const State s = state_[static_cast<std::size_t>(node)];
    return s == State::kGood || s == State::kCleared;
  }

  // In a group whose uplink is suspect or slow.
  [[nodiscard]] bool group_doubtful(int node) const {
    const int g = group_of(node);
    return g >= 0 && (gstate_[static_cast<std::size_t>(g)] == GroupState::kSuspect ||
                      gstate_[static_cast<std::size_t>(g)] == GroupState::kSlow);
  }

  // Measures one round (numbered from 1; NaN for pairs the callback left out) and remembers who met.
  std::vector<double> run_round(const SearchRound& r);

  // The pairs sorted, each marked a repeat when met before.
  SearchRound make_round(Round pairs) const;

  // Each node's group at the level (unplaced nodes: a key of their own, so they pair with anyone), at
  // its parent level (all one parent at the outermost level), and each group's members.
  void place_nodes();

  // Within: inside each group, rounds of the circle method over its members in a random order (a new
  // partner each round while the group has one: every screening pair is a pair of its own, and an odd
  // group rests a different node each round); the nodes left over pair at random.
  void screen_within_groups();

  // Each class's baseline (median of its ok pairs) where it has kMinClassPairs of them.
  void set_class_baselines(const Measured& measured);

  // The screening baseline and the healthy spread (as a share of the baseline), the class baselines;
  // the nodes of low screening pairs become suspects.
  void judge_screening();

  // Across (layered): matchings of trusted nodes with nodes of other groups, under the same parent
  // first; then the class baselines from every pair so far, the suspect groups, and the across pairs'
  // verdicts.
  void screen_across_groups();

  Measured measure_across();

  // A group is suspect when most of its pairs leaving it (between trusted nodes) are low.
  void find_suspect_groups(const Measured& across);

  // Low pairs leaving a suspect group are its evidence; other low pairs make their nodes suspects.
  void blame_across(const Measured& across);

  // Low pairs between two trusted nodes not checked yet, not across a doubtful uplink.
  [[nodiscard]] std::vector<NodePair> pending_links() const;

  // Picks a partner among `pool` (free trusted nodes): the best tier first (`tier` < 0: not eligible),
  // in it the nodes in the fewest low pairs (so no healthy node collects a majority of low pairs), at
  // random among those. -1 when none is eligible.
  template <typename Tier>
  int pick(std::vector<int>& pool, const Tier& tier);

  void add_pair(RoundPlan& plan, const NodePair& pair, int subject);

  // A suspect group g: its low pairs leaving it measured again where both nodes are trusted and the
  // other group is above doubt (the member's other pairs stay as they were, so the pairs analysis
  // does not see more low pairs of its nodes); then, if too few, trusted members against new trusted
  // partners of groups above doubt, under the same parent first.
  void plan_group_retests(int g, RoundPlan& plan);

  // Each suspect node against a trusted partner in its own group first (never across a doubtful
  // uplink), one it has not met first.
  void plan_suspect_retests(const std::vector<int>& suspects, RoundPlan& plan);

  // One retest round: link checks, suspect groups' retests, suspect nodes' retests; its results
  // recorded. False when nothing is left to do, or no pair could be formed (undecided).
  bool retest_round();

  // One retest pair's result: a link check names a slow link; a group's or a suspect's retest is a
  // vote that may confirm or clear it.
  void record_retest(const NodePair& pair, bool repeat, double busbw, int who);

  // The result: the slow (and undecided) nodes, the cleared ones, the slow (and undecided) groups,
  // the slow links.
  AdaptiveResult finish();

  const int n_;
  const std::size_t un_;
  const AdaptiveParams& p_;
  const MeasureRound& measure_;
  const SearchGroups& groups_;
  const bool layered_;
  const int levels_;
  const int level_;
  Rng rng_;
  AdaptiveResult out_;
  // Where the nodes sit (place_nodes).
  std::vector<int> key_, parent_;
  int group_count_ = 0;
  std::vector<std::vector<int>> members_;
  // Who met whom, and each node's low pairs so far (partners are chosen to spread them).
  std::set<NodePair> met_;
  std::vector<std::set<int>> partners_;
  std::vector<int> lows_;
  // The screening and the baselines.
  Measured screened_;
  double spread_share_ = 0.0;
  std::map<int, double> class_baseline_;
  // The nodes, the groups and the candidate links.
  std::vector<State> state_;
  std::vector<Votes> votes_;
  std::vector<NodePair> low_pairs_;  // candidates for a link check
  std::vector<GroupState> gstate_;
  std::vector<Votes> gvotes_;
  std::vector<int> gout_, glow_;
  std::vector<std::vector<double>> glow_ratio_;
  std::vector<std::vector<NodePair>> gexplained_;
  std::set<NodePair> link_checked_;
  std::set<NodePair> reconfirmed_;  // a suspect group's low pairs measured again
};

}  // namespace podperf::layered_search

// The topology-aware search's retest rounds (see adaptive_layered_search.hpp): link checks, retests of
// suspect groups (uplinks) and suspect nodes, partners chosen to spread the low pairs, and the votes
// that confirm or clear them. Floor: sweep; pure and seeded.
#include <limits>

#include "sweep/adaptive_layered_search.hpp"

namespace podperf::layered_search {

using search::ordered;
using search::shuffle;

std::vector<NodePair> LayeredSearch::pending_links() const {
  std::vector<NodePair> v;
  for (const NodePair& pair : low_pairs_) {
    if (link_checked_.count(pair) == 0 && trusted(pair[0]) && trusted(pair[1]) &&
        group_doubtful(pair[0]) == group_doubtful(pair[1]) &&
        (!group_doubtful(pair[0]) || group_of(pair[0]) == group_of(pair[1]))) {
      v.push_back(pair);
    }
  }
  return v;
}

template <typename Tier>
int LayeredSearch::pick(std::vector<int>& pool, const Tier& tier) {
  int best = std::numeric_limits<int>::max();
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    int t = tier(pool[i]);
    if (t >= 0) t = t * 1024 + std::min(lows_[static_cast<std::size_t>(pool[i])], 1023);
    if (t < 0 || t > best) continue;
    if (t < best) {
      best = t;
      at.clear();
    }
    at.push_back(i);
  }
  if (at.empty()) return -1;
  const std::size_t i = at[rng_.below(at.size())];
  const int partner = pool[i];
  pool[i] = pool.back();
  pool.pop_back();
  return partner;
}

void LayeredSearch::add_pair(RoundPlan& plan, const NodePair& pair, int subject) {
  plan.busy[static_cast<std::size_t>(pair[0])] = plan.busy[static_cast<std::size_t>(pair[1])] = true;
  plan.pairs.push_back(pair);
  plan.subject.push_back(subject);
}

void LayeredSearch::plan_group_retests(int g, RoundPlan& plan) {
  int taken = 0;
  for (const NodePair& pair : gexplained_[static_cast<std::size_t>(g)]) {
    if (taken >= p_.uplink_confirm) break;
    const int inside = group_of(pair[0]) == g ? pair[0] : pair[1];
    const int other = inside == pair[0] ? pair[1] : pair[0];
    if (reconfirmed_.count(pair) > 0 || !trusted(inside) || !trusted(other) || group_doubtful(other) ||
        plan.busy[static_cast<std::size_t>(inside)] || plan.busy[static_cast<std::size_t>(other)]) {
      continue;
    }
    reconfirmed_.insert(pair);
    std::erase_if(plan.pool, [&](int c) { return c == inside || c == other; });
    add_pair(plan, pair, -2 - g);
    ++taken;
  }
  std::vector<int> own;
  for (int m : members_[static_cast<std::size_t>(g)]) {
    if (trusted(m) && !plan.busy[static_cast<std::size_t>(m)]) own.push_back(m);
  }
  shuffle(own, rng_);
  std::stable_sort(own.begin(), own.end(), [&](int a, int b) {
    return lows_[static_cast<std::size_t>(a)] < lows_[static_cast<std::size_t>(b)];
  });
  for (int m : own) {
    if (taken >= p_.uplink_confirm) break;
    const auto it = std::find(plan.pool.begin(), plan.pool.end(), m);
    if (it == plan.pool.end()) continue;
    *it = plan.pool.back();
    plan.pool.pop_back();
    const int partner = pick(plan.pool, [&](int c) {
      if (group_of(c) == g || group_doubtful(c)) return -1;
      const bool near = parent_[static_cast<std::size_t>(c)] == parent_[static_cast<std::size_t>(m)];
      const bool fresh = partners_[static_cast<std::size_t>(m)].count(c) == 0;
      return (near ? 0 : 2) + (fresh ? 0 : 1);
    });
    if (partner < 0) {
      plan.pool.push_back(m);
      break;
    }
    add_pair(plan, ordered(m, partner), -2 - g);
    ++taken;
  }
}

void LayeredSearch::plan_suspect_retests(const std::vector<int>& suspects, RoundPlan& plan) {
  for (int s : suspects) {
    if (plan.pool.empty()) break;
    const int gs = group_of(s);
    const bool doubtful = group_doubtful(s);
    const int partner = pick(plan.pool, [&](int c) {
      const bool same = gs >= 0 && group_of(c) == gs;
      if (!same && (doubtful || group_doubtful(c))) return -1;
      const bool fresh = partners_[static_cast<std::size_t>(s)].count(c) == 0;
      return (same ? 0 : 2) + (fresh ? 0 : 1);
    });
    if (partner < 0) continue;
    add_pair(plan, ordered(s, partner), s);
  }
}

bool LayeredSearch::retest_round() {
  std::vector<int> suspects;
  for (int i = 0; i < n_; ++i) {
    if (state_[static_cast<std::size_t>(i)] == State::kSuspect) suspects.push_back(i);
  }
  std::vector<int> open_groups;
  for (int g = 0; g < group_count_; ++g) {
    if (gstate_[static_cast<std::size_t>(g)] == GroupState::kSuspect) open_groups.push_back(g);
  }
  const std::vector<NodePair> links = pending_links();
  if (suspects.empty() && links.empty() && open_groups.empty()) return false;
  RoundPlan plan;
  plan.busy.assign(un_, false);
  for (const NodePair& pair : links) {
    if (plan.busy[static_cast<std::size_t>(pair[0])] || plan.busy[static_cast<std::size_t>(pair[1])]) continue;
    add_pair(plan, pair, -1);
  }
  for (int i = 0; i < n_; ++i) {
    if (trusted(i) && !plan.busy[static_cast<std::size_t>(i)]) plan.pool.push_back(i);
  }
  for (int g : open_groups) plan_group_retests(g, plan);
  plan_suspect_retests(suspects, plan);
  if (plan.pairs.empty()) return false;  // suspects but no trusted partner left: undecided

  // make_round sorts the pairs: keep each pair's subject with it.
  std::map<NodePair, int> subject_of;
  for (std::size_t i = 0; i < plan.pairs.size(); ++i) subject_of[plan.pairs[i]] = plan.subject[i];
  const SearchRound r = make_round(std::move(plan.pairs));
  const std::vector<double> v = run_round(r);
  ++out_.retest_rounds;
  for (std::size_t i = 0; i < r.pairs.size(); ++i) record_retest(r.pairs[i], r.repeat[i], v[i], subject_of[r.pairs[i]]);
  return true;
}

void LayeredSearch::record_retest(const NodePair& pair, bool repeat, double busbw, int who) {
  const bool is_low = low(pair, busbw);
  if (is_low && !repeat) {
    for (int node : pair) ++lows_[static_cast<std::size_t>(node)];
  }
  if (who == -1) {
    link_checked_.insert(pair);
    if (is_low) out_.slow_links.push_back(pair);
    return;
  }
  if (who <= -2) {
    const auto g = static_cast<std::size_t>(-2 - who);
    const Votes::Outcome verdict = gvotes_[g].record(is_low, p_.uplink_confirm, p_.uplink_confirm);
    if (is_low) gexplained_[g].push_back(pair);
    if (verdict == Votes::Outcome::kConfirmed) {
      gstate_[g] = GroupState::kSlow;
    } else if (verdict == Votes::Outcome::kCleared) {
      gstate_[g] = GroupState::kCleared;
      // Its low pairs were not the uplink after all: checked as links.
      for (const NodePair& e : gexplained_[g]) low_pairs_.push_back(e);
    }
    return;
  }
  const auto s = static_cast<std::size_t>(who);
  const Votes::Outcome verdict = votes_[s].record(is_low, p_.confirm_lows, p_.clear_oks);
  if (is_low) low_pairs_.push_back(pair);
  if (verdict == Votes::Outcome::kConfirmed) {
    state_[s] = State::kSlow;
  } else if (verdict == Votes::Outcome::kCleared) {
    state_[s] = State::kCleared;
  }
}

}  // namespace podperf::layered_search

// The topology-aware adaptive search (AdaptiveParams::Scope kWithin / kLayered; see
// sweep/adaptive_search.hpp and adaptive_layered.hpp): placing the nodes, the screening inside groups,
// the matchings across groups, and the result. The retest rounds are in adaptive_layered_retests.cpp.
// Floor: sweep; pure and seeded like the flat search.
#include "sweep/adaptive_layered.hpp"

#include "sweep/adaptive_layered_search.hpp"

namespace podperf {
namespace layered_search {
namespace {

using search::median_of;
using search::ordered;
using search::shuffle;

// Pairs the nodes of `nodes` so that paired nodes have different keys: in a random order, each node
// not yet paired takes the first free node after it with another key (so a group's pairs spread over
// the other groups). Nodes it cannot pair go to `left`.
void cross_pairs(std::vector<int> nodes, const std::vector<int>& key, Rng& rng, Round& out, std::vector<int>& left) {
  shuffle(nodes, rng);
  std::vector<bool> taken(nodes.size(), false);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (taken[i]) continue;
    const int a = nodes[i];
    std::size_t j = i + 1;
    while (j < nodes.size() &&
           (taken[j] || key[static_cast<std::size_t>(nodes[j])] == key[static_cast<std::size_t>(a)])) {
      ++j;
    }
    if (j == nodes.size()) {
      left.push_back(a);
      continue;
    }
    taken[i] = taken[j] = true;
    out.push_back(ordered(a, nodes[j]));
  }
}

}  // namespace

AdaptiveResult LayeredSearch::run() {
  if (n_ < 2) return out_;
  place_nodes();
  screen_within_groups();
  judge_screening();
  if (layered_) screen_across_groups();
  std::sort(low_pairs_.begin(), low_pairs_.end());
  low_pairs_.erase(std::unique(low_pairs_.begin(), low_pairs_.end()), low_pairs_.end());
  for (State s : state_) out_.suspects += s == State::kSuspect ? 1 : 0;
  while (out_.rounds < out_.max_rounds) {
    if (!retest_round()) break;
  }
  return finish();
}

std::vector<double> LayeredSearch::run_round(const SearchRound& r) {
  ++out_.rounds;
  out_.measurements += static_cast<int>(r.pairs.size());
  std::vector<double> v = measure_(r, out_.rounds);
  v.resize(r.pairs.size(), std::nan(""));
  for (const NodePair& pair : r.pairs) {
    met_.insert(pair);
    partners_[static_cast<std::size_t>(pair[0])].insert(pair[1]);
    partners_[static_cast<std::size_t>(pair[1])].insert(pair[0]);
  }
  return v;
}

SearchRound LayeredSearch::make_round(Round pairs) const {
  std::sort(pairs.begin(), pairs.end());
  SearchRound r;
  r.pairs = std::move(pairs);
  for (const NodePair& pair : r.pairs) r.repeat.push_back(met_.count(pair) > 0);
  return r;
}

void LayeredSearch::place_nodes() {
  key_.assign(un_, 0);
  parent_.assign(un_, 0);
  group_count_ = static_cast<int>(groups_.names[static_cast<std::size_t>(level_)].size());
  for (int i = 0; i < n_; ++i) {
    const int g = groups_.group[static_cast<std::size_t>(level_)][static_cast<std::size_t>(i)];
    key_[static_cast<std::size_t>(i)] = g >= 0 ? g : group_count_ + i;
    if (level_ > 0) {
      const int pg = groups_.group[static_cast<std::size_t>(level_ - 1)][static_cast<std::size_t>(i)];
      parent_[static_cast<std::size_t>(i)] = pg >= 0 ? pg : -1 - i;
    }
  }
  members_.assign(static_cast<std::size_t>(group_count_), {});
  for (int i = 0; i < n_; ++i) {
    if (group_of(i) >= 0) members_[static_cast<std::size_t>(group_of(i))].push_back(i);
  }
  partners_.assign(un_, {});
  lows_.assign(un_, 0);
  const auto ug = static_cast<std::size_t>(group_count_);
  gstate_.assign(ug, GroupState::kNone);
  gvotes_.assign(ug, Votes{});
  gout_.assign(ug, 0);
  glow_.assign(ug, 0);
  glow_ratio_.assign(ug, {});
  gexplained_.assign(ug, {});
}

void LayeredSearch::screen_within_groups() {
  std::vector<std::vector<int>> order = members_;
  std::vector<std::vector<Round>> circle(members_.size());
  std::vector<std::size_t> offset(members_.size(), 0);
  for (std::size_t g = 0; g < members_.size(); ++g) {
    shuffle(order[g], rng_);
    circle[g] = circle_schedule(static_cast<int>(order[g].size()));
    if (!circle[g].empty()) offset[g] = rng_.below(circle[g].size());
  }
  const int screen = std::min(p_.screen_rounds, out_.max_rounds);
  for (int s = 0; s < screen; ++s) {
    Round pairs;
    std::vector<int> left;
    for (std::size_t g = 0; g < members_.size(); ++g) {
      std::vector<bool> paired(order[g].size(), false);
      if (!circle[g].empty()) {
        for (const NodePair& local : circle[g][(offset[g] + static_cast<std::size_t>(s)) % circle[g].size()]) {
          paired[static_cast<std::size_t>(local[0])] = paired[static_cast<std::size_t>(local[1])] = true;
          pairs.push_back(
              ordered(order[g][static_cast<std::size_t>(local[0])], order[g][static_cast<std::size_t>(local[1])]));
        }
      }
      for (std::size_t i = 0; i < order[g].size(); ++i) {
        if (!paired[i]) left.push_back(order[g][i]);
      }
    }
    for (int i = 0; i < n_; ++i) {
      if (group_of(i) < 0) left.push_back(i);
    }
    shuffle(left, rng_);
    for (std::size_t i = 0; i + 1 < left.size(); i += 2) pairs.push_back(ordered(left[i], left[i + 1]));
    const SearchRound r = make_round(std::move(pairs));
    const std::vector<double> v = run_round(r);
    for (std::size_t i = 0; i < r.pairs.size(); ++i) screened_.emplace_back(r.pairs[i], v[i]);
  }
  out_.screen_rounds = screen;
}

void LayeredSearch::set_class_baselines(const Measured& measured) {
  std::map<int, std::vector<double>> values;
  for (const auto& [pair, busbw] : measured) {
    if (std::isfinite(busbw) && busbw > 0.0) values[class_of(pair)].push_back(busbw);
  }
  for (auto& [cls, v] : values) {
    if (v.size() >= kMinClassPairs) class_baseline_[cls] = median_of(std::move(v));
  }
}

void LayeredSearch::judge_screening() {
  const search::ScreenBaseline screening = search::screen_baseline(screened_, p_.max_spread_fraction);
  out_.baseline = screening.baseline;
  spread_share_ = out_.baseline > 0.0 ? screening.spread / out_.baseline : 0.0;
  state_.assign(un_, State::kGood);
  votes_.assign(un_, Votes{});
  set_class_baselines(screened_);
  for (const auto& [pair, busbw] : screened_) {
    if (!low(pair, busbw)) continue;
    for (int node : pair) {
      state_[static_cast<std::size_t>(node)] = State::kSuspect;
      ++lows_[static_cast<std::size_t>(node)];
    }
    low_pairs_.push_back(pair);
  }
}

void LayeredSearch::screen_across_groups() {
  const Measured across = measure_across();
  Measured all = screened_;
  all.insert(all.end(), across.begin(), across.end());
  set_class_baselines(all);
  find_suspect_groups(across);
  blame_across(across);
}

Measured LayeredSearch::measure_across() {
  Measured across;
  const int rounds = std::min(p_.across_rounds, out_.max_rounds - out_.rounds);
  for (int a = 0; a < rounds; ++a) {
    std::map<int, std::vector<int>> by_parent;
    for (int i = 0; i < n_; ++i) {
      if (state_[static_cast<std::size_t>(i)] == State::kGood) {
        by_parent[parent_[static_cast<std::size_t>(i)]].push_back(i);
      }
    }
    // A parent with two or more groups pairs inside itself (its few nodes left over rest: pairs
    // crossing a higher level are slower by design and would stand out among the others); the
    // nodes of parents with one group pair across parents.
    Round pairs;
    std::vector<int> left, rest;
    for (const auto& [pg, nodes] : by_parent) {
      std::set<int> keys;
      for (int node : nodes) keys.insert(key_[static_cast<std::size_t>(node)]);
      cross_pairs(nodes, key_, rng_, pairs, keys.size() > 1 ? rest : left);
    }
    cross_pairs(left, key_, rng_, pairs, rest);
    if (pairs.empty()) break;  // one group, or no trusted nodes in two groups
    const SearchRound r = make_round(std::move(pairs));
    const std::vector<double> v = run_round(r);
    for (std::size_t i = 0; i < r.pairs.size(); ++i) across.emplace_back(r.pairs[i], v[i]);
    ++out_.across_rounds;
  }
  return across;
}

void LayeredSearch::find_suspect_groups(const Measured& across) {
  for (const auto& [pair, busbw] : across) {
    const bool is_low = low(pair, busbw);
    if (is_low) {
      for (int node : pair) ++lows_[static_cast<std::size_t>(node)];
    }
    const int ga = group_of(pair[0]), gb = group_of(pair[1]);
    if (ga < 0 || gb < 0 || ga == gb) continue;
    for (int g : {ga, gb}) {
      ++gout_[static_cast<std::size_t>(g)];
      if (is_low) {
        ++glow_[static_cast<std::size_t>(g)];
        glow_ratio_[static_cast<std::size_t>(g)].push_back(busbw > 0.0 ? busbw / baseline_of(pair) : 0.0);
      }
    }
  }
  for (int g = 0; g < group_count_; ++g) {
    const auto ug = static_cast<std::size_t>(g);
    int good = 0;
    for (int m : members_[ug]) good += state_[static_cast<std::size_t>(m)] == State::kGood ? 1 : 0;
    if (good >= 2 && gout_[ug] >= 2 && glow_[ug] > p_.uplink_fraction * gout_[ug]) {
      gstate_[ug] = GroupState::kSuspect;
      ++out_.group_suspects;
    }
  }
}

void LayeredSearch::blame_across(const Measured& across) {
  for (const auto& [pair, busbw] : across) {
    if (!low(pair, busbw)) continue;
    const int ga = group_of(pair[0]), gb = group_of(pair[1]);
    bool explained = false;
    for (int g : {ga, gb}) {
      if (g >= 0 && gstate_[static_cast<std::size_t>(g)] == GroupState::kSuspect) {
        gexplained_[static_cast<std::size_t>(g)].push_back(pair);
        explained = true;
      }
    }
    if (explained) continue;
    for (int node : pair) state_[static_cast<std::size_t>(node)] = State::kSuspect;
    low_pairs_.push_back(pair);
  }
}

AdaptiveResult LayeredSearch::finish() {
  for (int i = 0; i < n_; ++i) {
    const State s = state_[static_cast<std::size_t>(i)];
    if (s == State::kSuspect) out_.converged = false;
    if (s == State::kSlow || s == State::kSuspect) out_.slow_nodes.push_back(i);
    if (s == State::kCleared) out_.cleared.push_back(i);
  }
  for (int g = 0; g < group_count_; ++g) {
    const auto ug = static_cast<std::size_t>(g);
    if (gstate_[ug] != GroupState::kSlow && gstate_[ug] != GroupState::kSuspect) continue;
    SlowGroup sg;
    sg.level = level_;
    sg.group = g;
    sg.level_name = out_.level_name;
    sg.name = groups_.names[static_cast<std::size_t>(level_)][ug];
    sg.members = members_[ug];
    sg.pairs_out = gout_[ug];
    sg.low_out = glow_[ug];
    sg.confirm_pairs = gvotes_[ug].lows() + gvotes_[ug].oks();
    sg.confirm_lows = gvotes_[ug].lows();
    sg.out_ratio = median_of(glow_ratio_[ug]);
    sg.decided = gstate_[ug] == GroupState::kSlow;
    if (!sg.decided) out_.converged = false;
    out_.slow_groups.push_back(std::move(sg));
  }
  std::sort(out_.slow_links.begin(), out_.slow_links.end());
  out_.slow_links.erase(std::unique(out_.slow_links.begin(), out_.slow_links.end()), out_.slow_links.end());
  return out_;
}

}  // namespace layered_search

AdaptiveResult adaptive_search_layered(int n, const AdaptiveParams& p, const MeasureRound& measure,
                                       const SearchGroups& groups) {
  return layered_search::LayeredSearch(n, p, measure, groups).run();
}

}  // namespace podperf

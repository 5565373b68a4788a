// The topology-aware adaptive search (AdaptiveParams::Scope kWithin / kLayered); see
// sweep/adaptive_search.hpp. Pure and seeded like the flat search.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "sweep/adaptive_search.hpp"
#include "sweep/search_util.hpp"
#include "sweep/splitmix.hpp"

namespace podperf {
namespace {

using Rng = SplitMix;

constexpr std::size_t kMinClassPairs = 8;  // a class's own baseline from this many ok pairs on

using search::median_of;
using search::ordered;
using search::shuffle;

enum class State { kGood, kSuspect, kSlow, kCleared };
enum class GroupState { kNone, kSuspect, kSlow, kCleared };

struct Votes {
  int lows = 0;
  int oks = 0;
};

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

SearchGroups search_groups(const std::vector<std::vector<std::string>>& paths, const std::vector<std::string>& levels) {
  SearchGroups g;
  g.levels = levels;
  g.group.assign(levels.size(), std::vector<int>(paths.size(), -1));
  g.names.assign(levels.size(), {});
  for (std::size_t level = 0; level < levels.size(); ++level) {
    std::map<std::vector<std::string>, int> index;
    for (std::size_t node = 0; node < paths.size(); ++node) {
      const std::vector<std::string>& path = paths[node];
      if (path.size() != levels.size()) continue;
      std::vector<std::string> prefix(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(level) + 1);
      auto [it, added] = index.emplace(std::move(prefix), static_cast<int>(g.names[level].size()));
      if (added) g.names[level].push_back(path[level]);
      g.group[level][node] = it->second;
    }
  }
  return g;
}

bool leaves_slow_group(const std::vector<SlowGroup>& slow, int a, int b) {
  for (const SlowGroup& g : slow) {
    const bool in_a = std::binary_search(g.members.begin(), g.members.end(), a);
    const bool in_b = std::binary_search(g.members.begin(), g.members.end(), b);
    if (in_a != in_b) return true;
  }
  return false;
}

AdaptiveResult adaptive_search_layered(int n, const AdaptiveParams& p, const MeasureRound& measure,
                                       const SearchGroups& groups) {
  AdaptiveResult out;
  const bool layered = p.scope == AdaptiveParams::Scope::kLayered;
  out.scope = layered ? "layered" : "within";
  out.max_rounds = adaptive_round_budget(n, p);
  const int levels = static_cast<int>(groups.levels.size());
  const int level = p.level >= 0 && p.level < levels ? p.level : levels - 1;
  out.level_name = groups.levels[static_cast<std::size_t>(level)];
  if (n < 2) return out;
  const auto un = static_cast<std::size_t>(n);
  Rng rng{p.seed ^ 0x7090ada9ULL};

  // Each node's group at the level (unplaced nodes: a key of their own, so they pair with anyone),
  // and at its parent level (all one parent at the outermost level).
  std::vector<int> key(un), parent(un, 0);
  const int group_count = static_cast<int>(groups.names[static_cast<std::size_t>(level)].size());
  for (int i = 0; i < n; ++i) {
    const int g = groups.group[static_cast<std::size_t>(level)][static_cast<std::size_t>(i)];
    key[static_cast<std::size_t>(i)] = g >= 0 ? g : group_count + i;
    if (level > 0) {
      const int pg = groups.group[static_cast<std::size_t>(level - 1)][static_cast<std::size_t>(i)];
      parent[static_cast<std::size_t>(i)] = pg >= 0 ? pg : -1 - i;
    }
  }
  auto group_of = [&](int node) {
    return groups.group[static_cast<std::size_t>(level)][static_cast<std::size_t>(node)];
  };
  std::vector<std::vector<int>> members(static_cast<std::size_t>(group_count));
  for (int i = 0; i < n; ++i) {
    if (group_of(i) >= 0) members[static_cast<std::size_t>(group_of(i))].push_back(i);
  }
  // A pair's class: the level at which its nodes' groups first differ; `levels` when they share the
  // leaf; -1 when a node is not placed.
  auto class_of = [&](const NodePair& pair) {
    for (int l = 0; l < levels; ++l) {
      const int a = groups.group[static_cast<std::size_t>(l)][static_cast<std::size_t>(pair[0])];
      const int b = groups.group[static_cast<std::size_t>(l)][static_cast<std::size_t>(pair[1])];
      if (a < 0 || b < 0) return -1;
      if (a != b) return l;
    }
    return levels;
  };

  std::set<NodePair> met;
  std::vector<std::set<int>> partners(un);
  std::vector<int> lows(un, 0);  // low pairs each node is in so far (partners are chosen to spread them)
  auto run_round = [&](const SearchRound& r) {
    ++out.rounds;
    out.measurements += static_cast<int>(r.pairs.size());
    std::vector<double> v = measure(r, out.rounds);
    v.resize(r.pairs.size(), std::nan(""));
    for (const NodePair& pair : r.pairs) {
      met.insert(pair);
      partners[static_cast<std::size_t>(pair[0])].insert(pair[1]);
      partners[static_cast<std::size_t>(pair[1])].insert(pair[0]);
    }
    return v;
  };
  auto make_round = [&](Round pairs) {
    std::sort(pairs.begin(), pairs.end());
    SearchRound r;
    r.pairs = std::move(pairs);
    for (const NodePair& pair : r.pairs) r.repeat.push_back(met.count(pair) > 0);
    return r;
  };

  // Within: inside each group, rounds of the circle method over its members in a random order (a new
  // partner each round while the group has one: every screening pair is a pair of its own, and an odd
  // group rests a different node each round); the nodes left over pair at random.
  std::vector<std::vector<int>> order = members;
  std::vector<std::vector<Round>> circle(members.size());
  std::vector<std::size_t> offset(members.size(), 0);
  for (std::size_t g = 0; g < members.size(); ++g) {
    shuffle(order[g], rng);
    circle[g] = circle_schedule(static_cast<int>(order[g].size()));
    if (!circle[g].empty()) offset[g] = rng.below(circle[g].size());
  }
  std::vector<std::pair<NodePair, double>> screened;
  const int screen = std::min(p.screen_rounds, out.max_rounds);
  for (int s = 0; s < screen; ++s) {
    Round pairs;
    std::vector<int> left;
    for (std::size_t g = 0; g < members.size(); ++g) {
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
    for (int i = 0; i < n; ++i) {
      if (group_of(i) < 0) left.push_back(i);
    }
    shuffle(left, rng);
    for (std::size_t i = 0; i + 1 < left.size(); i += 2) pairs.push_back(ordered(left[i], left[i + 1]));
    const SearchRound r = make_round(std::move(pairs));
    const std::vector<double> v = run_round(r);
    for (std::size_t i = 0; i < r.pairs.size(); ++i) screened.emplace_back(r.pairs[i], v[i]);
  }
  out.screen_rounds = screen;

  // The screening baseline and the healthy spread (as a share of the baseline).
  const search::ScreenBaseline screening = search::screen_baseline(screened, p.max_spread_fraction);
  out.baseline = screening.baseline;
  const double spread_share = out.baseline > 0.0 ? screening.spread / out.baseline : 0.0;

  std::vector<State> state(un, State::kGood);
  std::vector<Votes> votes(un);
  std::vector<NodePair> low_pairs;  // candidates for a link check
  std::map<int, double> class_baseline;
  auto baseline_of = [&](const NodePair& pair) {
    const auto it = class_baseline.find(class_of(pair));
    return it != class_baseline.end() ? it->second : out.baseline;
  };
  auto low = [&](const NodePair& pair, double busbw) {
    if (!std::isfinite(busbw) || busbw <= 0.0) return true;
    const double base = baseline_of(pair);
    return busbw < base * (1.0 - p.threshold) && base - busbw > p.spread_factor * spread_share * base;
  };
  auto set_class_baselines = [&](const std::vector<std::pair<NodePair, double>>& measured) {
    std::map<int, std::vector<double>> values;
    for (const auto& [pair, busbw] : measured) {
      if (std::isfinite(busbw) && busbw > 0.0) values[class_of(pair)].push_back(busbw);
    }
    for (auto& [cls, v] : values) {
      if (v.size() >= kMinClassPairs) class_baseline[cls] = median_of(std::move(v));
    }
  };
  set_class_baselines(screened);
  for (const auto& [pair, busbw] : screened) {
    if (!low(pair, busbw)) continue;
    for (int node : pair) {
      state[static_cast<std::size_t>(node)] = State::kSuspect;
      ++lows[static_cast<std::size_t>(node)];
    }
    low_pairs.push_back(pair);
  }

  // Across: trusted nodes paired with nodes of other groups, under the same parent first.
  std::vector<GroupState> gstate(static_cast<std::size_t>(group_count), GroupState::kNone);
  std::vector<Votes> gvotes(static_cast<std::size_t>(group_count));
  std::vector<int> gout(static_cast<std::size_t>(group_count), 0), glow(static_cast<std::size_t>(group_count), 0);
  std::vector<std::vector<double>> glow_ratio(static_cast<std::size_t>(group_count));
  std::vector<std::vector<NodePair>> gexplained(static_cast<std::size_t>(group_count));
  if (layered) {
    std::vector<std::pair<NodePair, double>> across;
    const int rounds = std::min(p.across_rounds, out.max_rounds - out.rounds);
    for (int a = 0; a < rounds; ++a) {
      std::map<int, std::vector<int>> by_parent;
      for (int i = 0; i < n; ++i) {
        if (state[static_cast<std::size_t>(i)] == State::kGood)
          by_parent[parent[static_cast<std::size_t>(i)]].push_back(i);
      }
      // A parent with two or more groups pairs inside itself (its few nodes left over rest: pairs
      // crossing a higher level are slower by design and would stand out among the others); the
      // nodes of parents with one group pair across parents.
      Round pairs;
      std::vector<int> left, rest;
      for (const auto& [pg, nodes] : by_parent) {
        std::set<int> keys;
        for (int node : nodes) keys.insert(key[static_cast<std::size_t>(node)]);
        cross_pairs(nodes, key, rng, pairs, keys.size() > 1 ? rest : left);
      }
      cross_pairs(left, key, rng, pairs, rest);
      if (pairs.empty()) break;  // one group, or no trusted nodes in two groups
      const SearchRound r = make_round(std::move(pairs));
      const std::vector<double> v = run_round(r);
      for (std::size_t i = 0; i < r.pairs.size(); ++i) across.emplace_back(r.pairs[i], v[i]);
      ++out.across_rounds;
    }
    std::vector<std::pair<NodePair, double>> all = screened;
    all.insert(all.end(), across.begin(), across.end());
    set_class_baselines(all);
    // A group is suspect when most of its pairs leaving it (between trusted nodes) are low.
    for (const auto& [pair, busbw] : across) {
      const bool is_low = low(pair, busbw);
      if (is_low) {
        for (int node : pair) ++lows[static_cast<std::size_t>(node)];
      }
      const int ga = group_of(pair[0]), gb = group_of(pair[1]);
      if (ga < 0 || gb < 0 || ga == gb) continue;
      for (int g : {ga, gb}) {
        ++gout[static_cast<std::size_t>(g)];
        if (is_low) {
          ++glow[static_cast<std::size_t>(g)];
          glow_ratio[static_cast<std::size_t>(g)].push_back(busbw > 0.0 ? busbw / baseline_of(pair) : 0.0);
        }
      }
    }
    for (int g = 0; g < group_count; ++g) {
      const auto ug = static_cast<std::size_t>(g);
      int good = 0;
      for (int m : members[ug]) good += state[static_cast<std::size_t>(m)] == State::kGood ? 1 : 0;
      if (good >= 2 && gout[ug] >= 2 && glow[ug] > p.uplink_fraction * gout[ug]) {
        gstate[ug] = GroupState::kSuspect;
        ++out.group_suspects;
      }
    }
    // Low pairs leaving a suspect group are its evidence; other low pairs make their nodes suspects.
    for (const auto& [pair, busbw] : across) {
      if (!low(pair, busbw)) continue;
      const int ga = group_of(pair[0]), gb = group_of(pair[1]);
      bool explained = false;
      for (int g : {ga, gb}) {
        if (g >= 0 && gstate[static_cast<std::size_t>(g)] == GroupState::kSuspect) {
          gexplained[static_cast<std::size_t>(g)].push_back(pair);
          explained = true;
        }
      }
      if (explained) continue;
      for (int node : pair) state[static_cast<std::size_t>(node)] = State::kSuspect;
      low_pairs.push_back(pair);
    }
  }
  std::sort(low_pairs.begin(), low_pairs.end());
  low_pairs.erase(std::unique(low_pairs.begin(), low_pairs.end()), low_pairs.end());
  for (State s : state) out.suspects += s == State::kSuspect ? 1 : 0;

  auto trusted = [&](int node) {
    const State s = state[static_cast<std::size_t>(node)];
    return s == State::kGood || s == State::kCleared;
  };
  auto group_doubtful = [&](int node) {  // in a group whose uplink is suspect or slow
    const int g = group_of(node);
    return g >= 0 && (gstate[static_cast<std::size_t>(g)] == GroupState::kSuspect ||
                      gstate[static_cast<std::size_t>(g)] == GroupState::kSlow);
  };
  std::set<NodePair> link_checked;
  std::set<NodePair> reconfirmed;  // a suspect group's low pairs measured again
  auto pending_links = [&] {
    std::vector<NodePair> v;
    for (const NodePair& pair : low_pairs) {
      if (link_checked.count(pair) == 0 && trusted(pair[0]) && trusted(pair[1]) &&
          group_doubtful(pair[0]) == group_doubtful(pair[1]) &&
          (!group_doubtful(pair[0]) || group_of(pair[0]) == group_of(pair[1]))) {
        v.push_back(pair);
      }
    }
    return v;
  };

  // Picks a partner among `pool` (free trusted nodes): the best tier first, in it the nodes in the
  // fewest low pairs (so no healthy node collects a majority of low pairs), at random among those.
  auto pick = [&](std::vector<int>& pool, const auto& tier) -> int {
    int best = std::numeric_limits<int>::max();
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < pool.size(); ++i) {
      int t = tier(pool[i]);
      if (t >= 0) t = t * 1024 + std::min(lows[static_cast<std::size_t>(pool[i])], 1023);
      if (t < 0 || t > best) continue;
      if (t < best) {
        best = t;
        at.clear();
      }
      at.push_back(i);
    }
    if (at.empty()) return -1;
    const std::size_t i = at[rng.below(at.size())];
    const int partner = pool[i];
    pool[i] = pool.back();
    pool.pop_back();
    return partner;
  };

  while (out.rounds < out.max_rounds) {
    std::vector<int> suspects;
    for (int i = 0; i < n; ++i) {
      if (state[static_cast<std::size_t>(i)] == State::kSuspect) suspects.push_back(i);
    }
    std::vector<int> open_groups;
    for (int g = 0; g < group_count; ++g) {
      if (gstate[static_cast<std::size_t>(g)] == GroupState::kSuspect) open_groups.push_back(g);
    }
    const std::vector<NodePair> links = pending_links();
    if (suspects.empty() && links.empty() && open_groups.empty()) break;
    Round pairs;
    std::vector<int> subject;  // per pair: >= 0 a suspect node; -1 a link check; -2 - g a group retest
    std::vector<bool> busy(un, false);
    for (const NodePair& pair : links) {
      if (busy[static_cast<std::size_t>(pair[0])] || busy[static_cast<std::size_t>(pair[1])]) continue;
      busy[static_cast<std::size_t>(pair[0])] = busy[static_cast<std::size_t>(pair[1])] = true;
      pairs.push_back(pair);
      subject.push_back(-1);
    }
    std::vector<int> pool;
    for (int i = 0; i < n; ++i) {
      if (trusted(i) && !busy[static_cast<std::size_t>(i)]) pool.push_back(i);
    }
    // A suspect group: its low pairs leaving it measured again where both nodes are trusted and the
    // other group is above doubt (the member's other pairs stay as they were, so the pairs analysis
    // does not see more low pairs of its nodes); then, if too few, trusted members against new
    // trusted partners of groups above doubt, under the same parent first.
    for (int g : open_groups) {
      int taken = 0;
      for (const NodePair& pair : gexplained[static_cast<std::size_t>(g)]) {
        if (taken >= p.uplink_confirm) break;
        const int inside = group_of(pair[0]) == g ? pair[0] : pair[1];
        const int other = inside == pair[0] ? pair[1] : pair[0];
        if (reconfirmed.count(pair) > 0 || !trusted(inside) || !trusted(other) || group_doubtful(other) ||
            busy[static_cast<std::size_t>(inside)] || busy[static_cast<std::size_t>(other)]) {
          continue;
        }
        reconfirmed.insert(pair);
        busy[static_cast<std::size_t>(inside)] = busy[static_cast<std::size_t>(other)] = true;
        pool.erase(std::remove_if(pool.begin(), pool.end(), [&](int c) { return c == inside || c == other; }),
                   pool.end());
        pairs.push_back(pair);
        subject.push_back(-2 - g);
        ++taken;
      }
      std::vector<int> own;
      for (int m : members[static_cast<std::size_t>(g)]) {
        if (trusted(m) && !busy[static_cast<std::size_t>(m)]) own.push_back(m);
      }
      shuffle(own, rng);
      std::stable_sort(own.begin(), own.end(), [&](int a, int b) {
        return lows[static_cast<std::size_t>(a)] < lows[static_cast<std::size_t>(b)];
      });
      for (int m : own) {
        if (taken >= p.uplink_confirm) break;
        const auto it = std::find(pool.begin(), pool.end(), m);
        if (it == pool.end()) continue;
        *it = pool.back();
        pool.pop_back();
        const int partner = pick(pool, [&](int c) {
          if (group_of(c) == g || group_doubtful(c)) return -1;
          const bool near = parent[static_cast<std::size_t>(c)] == parent[static_cast<std::size_t>(m)];
          const bool fresh = partners[static_cast<std::size_t>(m)].count(c) == 0;
          return (near ? 0 : 2) + (fresh ? 0 : 1);
        });
        if (partner < 0) {
          pool.push_back(m);
          break;
        }
        busy[static_cast<std::size_t>(m)] = busy[static_cast<std::size_t>(partner)] = true;
        pairs.push_back(ordered(m, partner));
        subject.push_back(-2 - g);
        ++taken;
      }
    }
    // Each suspect node against a trusted partner in its own group first (never across a doubtful
    // uplink), one it has not met first.
    for (int s : suspects) {
      if (pool.empty()) break;
      const int gs = group_of(s);
      const bool doubtful = group_doubtful(s);
      const int partner = pick(pool, [&](int c) {
        const bool same = gs >= 0 && group_of(c) == gs;
        if (!same && (doubtful || group_doubtful(c))) return -1;
        const bool fresh = partners[static_cast<std::size_t>(s)].count(c) == 0;
        return (same ? 0 : 2) + (fresh ? 0 : 1);
      });
      if (partner < 0) continue;
      busy[static_cast<std::size_t>(s)] = busy[static_cast<std::size_t>(partner)] = true;
      pairs.push_back(ordered(s, partner));
      subject.push_back(s);
    }
    if (pairs.empty()) break;  // suspects but no trusted partner left: undecided

    // make_round sorts the pairs: keep each pair's subject with it.
    std::map<NodePair, int> subject_of;
    for (std::size_t i = 0; i < pairs.size(); ++i) subject_of[pairs[i]] = subject[i];
    const SearchRound r = make_round(std::move(pairs));
    const std::vector<double> v = run_round(r);
    ++out.retest_rounds;
    for (std::size_t i = 0; i < r.pairs.size(); ++i) {
      const NodePair& pair = r.pairs[i];
      const int who = subject_of[pair];
      const bool is_low = low(pair, v[i]);
      if (is_low && !r.repeat[i]) {
        for (int node : pair) ++lows[static_cast<std::size_t>(node)];
      }
      if (who == -1) {
        link_checked.insert(pair);
        if (is_low) out.slow_links.push_back(pair);
        continue;
      }
      if (who <= -2) {
        const auto g = static_cast<std::size_t>(-2 - who);
        Votes& vote = gvotes[g];
        if (is_low) {
          ++vote.lows;
          gexplained[g].push_back(pair);
        } else {
          ++vote.oks;
        }
        if (vote.lows >= p.uplink_confirm) {
          gstate[g] = GroupState::kSlow;
        } else if (vote.oks >= p.uplink_confirm + 2 * vote.lows) {
          gstate[g] = GroupState::kCleared;
          // Its low pairs were not the uplink after all: checked as links.
          for (const NodePair& e : gexplained[g]) low_pairs.push_back(e);
        }
        continue;
      }
      const auto s = static_cast<std::size_t>(who);
      Votes& vote = votes[s];
      if (is_low) {
        ++vote.lows;
        low_pairs.push_back(pair);
      } else {
        ++vote.oks;
      }
      if (vote.lows >= p.confirm_lows) {
        state[s] = State::kSlow;
      } else if (vote.oks >= p.clear_oks + 2 * vote.lows) {
        state[s] = State::kCleared;
      }
    }
  }

  for (int i = 0; i < n; ++i) {
    const State s = state[static_cast<std::size_t>(i)];
    if (s == State::kSuspect) out.converged = false;
    if (s == State::kSlow || s == State::kSuspect) out.slow_nodes.push_back(i);
    if (s == State::kCleared) out.cleared.push_back(i);
  }
  for (int g = 0; g < group_count; ++g) {
    const auto ug = static_cast<std::size_t>(g);
    if (gstate[ug] != GroupState::kSlow && gstate[ug] != GroupState::kSuspect) continue;
    SlowGroup sg;
    sg.level = level;
    sg.group = g;
    sg.level_name = out.level_name;
    sg.name = groups.names[static_cast<std::size_t>(level)][ug];
    sg.members = members[ug];
    sg.pairs_out = gout[ug];
    sg.low_out = glow[ug];
    sg.confirm_pairs = gvotes[ug].lows + gvotes[ug].oks;
    sg.confirm_lows = gvotes[ug].lows;
    sg.out_ratio = median_of(glow_ratio[ug]);
    sg.decided = gstate[ug] == GroupState::kSlow;
    if (!sg.decided) out.converged = false;
    out.slow_groups.push_back(std::move(sg));
  }
  std::sort(out.slow_links.begin(), out.slow_links.end());
  out.slow_links.erase(std::unique(out.slow_links.begin(), out.slow_links.end()), out.slow_links.end());
  return out;
}

}  // namespace podperf

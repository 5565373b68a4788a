#include "sweep/adaptive_search.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "sweep/search_util.hpp"
#include "sweep/splitmix.hpp"

namespace podperf {
namespace {

using Rng = SplitMix;

using search::median_of;
using search::ordered;

enum class State { kUnknown, kGood, kSuspect, kSlow, kCleared };

struct Votes {
  int lows = 0;
  int oks = 0;
};

}  // namespace

int adaptive_round_budget(int n, const AdaptiveParams& p) {
  if (p.max_rounds > 0) return p.max_rounds;
  int log2n = 0;
  while ((1 << log2n) < n) ++log2n;
  // Screening, then a suspect's retests (at most confirm_lows - 1 + clear_oks + 2 * (confirm_lows - 1)),
  // then one link check.
  const int need = p.screen_rounds + (p.confirm_lows - 1) * 3 + p.clear_oks + 1;
  // Layered: the across matchings and a suspect group's retests (one round, two when undecided) on top.
  const int across = p.scope == AdaptiveParams::Scope::kLayered ? p.across_rounds + 2 : 0;
  return std::max(2 * log2n, need) + across;
}

Round random_matching(int n, std::uint64_t seed) {
  Rng rng{seed};
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  search::shuffle(order, rng);
  Round round;
  for (std::size_t i = 0; i + 1 < order.size(); i += 2) round.push_back(ordered(order[i], order[i + 1]));
  std::sort(round.begin(), round.end());
  return round;
}

AdaptiveResult adaptive_search(int n, const AdaptiveParams& p, const MeasureRound& measure,
                               const SearchGroups* groups) {
  if (groups != nullptr && !groups->empty() && p.scope != AdaptiveParams::Scope::kFlat) {
    return adaptive_search_layered(n, p, measure, *groups);
  }
  AdaptiveResult out;
  out.max_rounds = adaptive_round_budget(n, p);
  if (n < 2) return out;
  const auto un = static_cast<std::size_t>(n);
  Rng rng{p.seed ^ 0xada9715eULL};

  auto run_round = [&](const SearchRound& r) {
    ++out.rounds;
    out.measurements += static_cast<int>(r.pairs.size());
    std::vector<double> v = measure(r, out.rounds);
    v.resize(r.pairs.size(), std::nan(""));
    return v;
  };

  // Screening: random perfect matchings; a pair met twice is measured again (no harm).
  std::vector<std::pair<NodePair, double>> screened;
  std::set<NodePair> met;
  const int screen = std::min(p.screen_rounds, out.max_rounds);
  for (int s = 0; s < screen; ++s) {
    SearchRound r;
    r.pairs = random_matching(n, rng.next());
    for (const NodePair& pair : r.pairs) r.repeat.push_back(met.count(pair) > 0);
    const std::vector<double> v = run_round(r);
    for (std::size_t i = 0; i < r.pairs.size(); ++i) {
      screened.emplace_back(r.pairs[i], v[i]);
      met.insert(r.pairs[i]);
    }
  }

  // The baseline and the healthy spread from the screening pairs (the healthy majority).
  const search::ScreenBaseline screening = search::screen_baseline(screened, p.max_spread_fraction);
  out.baseline = screening.baseline;
  const double spread = screening.spread;
  auto low = [&](double busbw) {
    if (!std::isfinite(busbw) || busbw <= 0.0) return true;
    const double gap = out.baseline - busbw;
    return busbw < out.baseline * (1.0 - p.threshold) && gap > p.spread_factor * spread;
  };

  std::vector<State> state(un, State::kGood);
  std::vector<Votes> votes(un);
  std::vector<std::set<int>> partners(un);  // everyone a node was measured with
  std::vector<NodePair> low_pairs;           // candidates for a link check
  for (const auto& [pair, busbw] : screened) {
    partners[static_cast<std::size_t>(pair[0])].insert(pair[1]);
    partners[static_cast<std::size_t>(pair[1])].insert(pair[0]);
    if (!low(busbw)) continue;
    for (int node : pair) state[static_cast<std::size_t>(node)] = State::kSuspect;
    low_pairs.push_back(pair);
  }
  std::sort(low_pairs.begin(), low_pairs.end());
  low_pairs.erase(std::unique(low_pairs.begin(), low_pairs.end()), low_pairs.end());
  for (State s : state) out.suspects += s == State::kSuspect ? 1 : 0;
  std::set<NodePair> link_checked;

  auto undecided = [&] {
    std::vector<int> v;
    for (int i = 0; i < n; ++i) {
      if (state[static_cast<std::size_t>(i)] == State::kSuspect) v.push_back(i);
    }
    return v;
  };
  auto trusted = [&](int node) {
    const State s = state[static_cast<std::size_t>(node)];
    return s == State::kGood || s == State::kCleared;
  };
  auto pending_links = [&] {
    std::vector<NodePair> v;
    for (const NodePair& pair : low_pairs) {
      if (link_checked.count(pair) == 0 && trusted(pair[0]) && trusted(pair[1])) {
        v.push_back(pair);
      }
    }
    return v;
  };

  while (out.rounds < out.max_rounds) {
    const std::vector<int> suspects = undecided();
    const std::vector<NodePair> links = pending_links();
    if (suspects.empty() && links.empty()) break;
    SearchRound r;
    std::vector<bool> busy(un, false);
    // Link checks first: both nodes cleared, the pair itself once more.
    for (const NodePair& pair : links) {
      if (busy[static_cast<std::size_t>(pair[0])] || busy[static_cast<std::size_t>(pair[1])]) continue;
      busy[static_cast<std::size_t>(pair[0])] = busy[static_cast<std::size_t>(pair[1])] = true;
      r.pairs.push_back(pair);
      r.repeat.push_back(true);
    }
    // Each suspect against a trusted partner it has not met (random, so a bad partner cannot repeat).
    std::vector<int> pool;
    for (int i = 0; i < n; ++i) {
      if (trusted(i) && !busy[static_cast<std::size_t>(i)]) pool.push_back(i);
    }
    std::vector<int> retested;  // suspect of each retest pair, by position in r.pairs
    retested.assign(r.pairs.size(), -1);
    for (int s : suspects) {
      if (pool.empty()) break;
      std::size_t pick = pool.size();
      for (int attempt = 0; attempt < 8 && pick == pool.size(); ++attempt) {
        const std::size_t i = rng.below(pool.size());
        if (partners[static_cast<std::size_t>(s)].count(pool[i]) == 0) pick = i;
      }
      if (pick == pool.size()) pick = rng.below(pool.size());
      const int partner = pool[pick];
      pool[pick] = pool.back();
      pool.pop_back();
      busy[static_cast<std::size_t>(s)] = busy[static_cast<std::size_t>(partner)] = true;
      const NodePair pair = ordered(s, partner);
      r.repeat.push_back(met.count(pair) > 0);
      r.pairs.push_back(pair);
      retested.push_back(s);
    }
    if (r.pairs.empty()) break;  // suspects but no trusted partner left: undecided

    const std::vector<double> v = run_round(r);
    for (std::size_t i = 0; i < r.pairs.size(); ++i) {
      const NodePair& pair = r.pairs[i];
      met.insert(pair);
      partners[static_cast<std::size_t>(pair[0])].insert(pair[1]);
      partners[static_cast<std::size_t>(pair[1])].insert(pair[0]);
      const bool is_low = low(v[i]);
      if (retested[i] < 0) {  // a link check
        link_checked.insert(pair);
        if (is_low) out.slow_links.push_back(pair);
        continue;
      }
      const auto s = static_cast<std::size_t>(retested[i]);
      Votes& vote = votes[s];
      if (is_low) {
        ++vote.lows;
        low_pairs.push_back(pair);  // checked as a link if both nodes clear after all
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

  out.screen_rounds = screen;
  out.retest_rounds = out.rounds - screen;
  for (int i = 0; i < n; ++i) {
    const State s = state[static_cast<std::size_t>(i)];
    if (s == State::kSuspect) out.converged = false;
    if (s == State::kSlow || s == State::kSuspect) out.slow_nodes.push_back(i);
    if (s == State::kCleared) out.cleared.push_back(i);
  }
  std::sort(out.slow_links.begin(), out.slow_links.end());
  return out;
}

}  // namespace podperf

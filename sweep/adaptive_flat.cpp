// The flat adaptive search (see adaptive_flat.hpp): screening by random perfect matchings, then
// rounds of retests of the suspects against trusted partners and link checks until every suspect is
// decided or the budget runs out. Floor: sweep; pure and seeded.
#include "sweep/adaptive_flat.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "analysis/stats/low_pair.hpp"
#include "sweep/search_util.hpp"
#include "sweep/splitmix.hpp"

namespace podperf {
namespace {

using search::ordered;
using search::Votes;

enum class State { kUnknown, kGood, kSuspect, kSlow, kCleared };

// One flat search: its state between the steps below, in the order run() takes them.
class FlatSearch {
 public:
  FlatSearch(int n, const AdaptiveParams& p, const MeasureRound& measure)
      : n_(n), un_(static_cast<std::size_t>(n)), p_(p), measure_(measure), rng_{p.seed ^ 0xada9715eULL} {
    out_.max_rounds = adaptive_round_budget(n, p);
  }

  AdaptiveResult run() {
    if (n_ < 2) return out_;
    const int screen = screen_nodes();
    while (out_.rounds < out_.max_rounds) {
      if (!retest_round()) break;
    }
    return finish(screen);
  }

 private:
  // Measures one round (numbered from 1); NaN for pairs the callback left out.
  std::vector<double> run_round(const SearchRound& r) {
    ++out_.rounds;
    out_.measurements += static_cast<int>(r.pairs.size());
    std::vector<double> v = measure_(r, out_.rounds);
    v.resize(r.pairs.size(), std::nan(""));
    return v;
  }

  // Low pair: the one rule (analysis/stats/low_pair.hpp) against the screening baseline and spread.
  [[nodiscard]] bool low(double busbw) const {
    return pair_is_low(low_pair_rule(p_), busbw, out_.baseline, out_.baseline > 0.0 ? spread_ / out_.baseline : 0.0);
  }

  [[nodiscard]] bool trusted(int node) const {
    const State s = state_[static_cast<std::size_t>(node)];
    return s == State::kGood || s == State::kCleared;
  }

  // Screening: random perfect matchings (a pair met twice is measured again: no harm); the baseline
  // and the healthy spread from them (the healthy majority); the nodes of low pairs become suspects.
  // Returns the screening rounds run.
  int screen_nodes() {
    std::vector<std::pair<NodePair, double>> screened;
    const int screen = std::min(p_.screen_rounds, out_.max_rounds);
    for (int s = 0; s < screen; ++s) {
      SearchRound r;
      r.pairs = random_matching(n_, rng_.next());
      for (const NodePair& pair : r.pairs) r.repeat.push_back(met_.count(pair) > 0);
      const std::vector<double> v = run_round(r);
      for (std::size_t i = 0; i < r.pairs.size(); ++i) {
        screened.emplace_back(r.pairs[i], v[i]);
        met_.insert(r.pairs[i]);
      }
    }
    const search::ScreenBaseline screening = search::screen_baseline(screened, p_.max_spread_fraction);
    out_.baseline = screening.baseline;
    spread_ = screening.spread;
    state_.assign(un_, State::kGood);
    votes_.assign(un_, Votes{});
    partners_.assign(un_, {});
    for (const auto& [pair, busbw] : screened) {
      partners_[static_cast<std::size_t>(pair[0])].insert(pair[1]);
      partners_[static_cast<std::size_t>(pair[1])].insert(pair[0]);
      if (!low(busbw)) continue;
      for (int node : pair) state_[static_cast<std::size_t>(node)] = State::kSuspect;
      low_pairs_.push_back(pair);
    }
    std::sort(low_pairs_.begin(), low_pairs_.end());
    low_pairs_.erase(std::unique(low_pairs_.begin(), low_pairs_.end()), low_pairs_.end());
    for (State s : state_) out_.suspects += s == State::kSuspect ? 1 : 0;
    return screen;
  }

  [[nodiscard]] std::vector<int> undecided() const {
    std::vector<int> v;
    for (int i = 0; i < n_; ++i) {
      if (state_[static_cast<std::size_t>(i)] == State::kSuspect) v.push_back(i);
    }
    return v;
  }

  // Low pairs between two trusted nodes not checked yet.
  [[nodiscard]] std::vector<NodePair> pending_links() const {
    std::vector<NodePair> v;
    for (const NodePair& pair : low_pairs_) {
      if (link_checked_.count(pair) == 0 && trusted(pair[0]) && trusted(pair[1])) v.push_back(pair);
    }
    return v;
  }

  // One retest round: link checks first (both nodes cleared, the pair itself once more), then each
  // suspect against a trusted partner it has not met (random, so a bad partner cannot repeat); its
  // results recorded. False when nothing is left to do, or no pair could be formed (undecided).
  bool retest_round() {
    const std::vector<int> suspects = undecided();
    const std::vector<NodePair> links = pending_links();
    if (suspects.empty() && links.empty()) return false;
    SearchRound r;
    std::vector<bool> busy(un_, false);
    for (const NodePair& pair : links) {
      if (busy[static_cast<std::size_t>(pair[0])] || busy[static_cast<std::size_t>(pair[1])]) continue;
      busy[static_cast<std::size_t>(pair[0])] = busy[static_cast<std::size_t>(pair[1])] = true;
      r.pairs.push_back(pair);
      r.repeat.push_back(true);
    }
    std::vector<int> retested(r.pairs.size(), -1);  // suspect of each retest pair, by position in r.pairs
    pair_suspects(suspects, busy, r, retested);
    if (r.pairs.empty()) return false;  // suspects but no trusted partner left: undecided
    record_round(r, run_round(r), retested);
    return true;
  }

  // Each suspect against a free trusted partner it has not met (8 random tries, then any).
  void pair_suspects(const std::vector<int>& suspects, std::vector<bool>& busy, SearchRound& r,
                     std::vector<int>& retested) {
    std::vector<int> pool;
    for (int i = 0; i < n_; ++i) {
      if (trusted(i) && !busy[static_cast<std::size_t>(i)]) pool.push_back(i);
    }
    for (int s : suspects) {
      if (pool.empty()) break;
      std::size_t pick = pool.size();
      for (int attempt = 0; attempt < 8 && pick == pool.size(); ++attempt) {
        const std::size_t i = rng_.below(pool.size());
        if (partners_[static_cast<std::size_t>(s)].count(pool[i]) == 0) pick = i;
      }
      if (pick == pool.size()) pick = rng_.below(pool.size());
      const int partner = pool[pick];
      pool[pick] = pool.back();
      pool.pop_back();
      busy[static_cast<std::size_t>(s)] = busy[static_cast<std::size_t>(partner)] = true;
      const NodePair pair = ordered(s, partner);
      r.repeat.push_back(met_.count(pair) > 0);
      r.pairs.push_back(pair);
      retested.push_back(s);
    }
  }

  // A retest round's results: link checks name slow links; a suspect's retest is a vote.
  void record_round(const SearchRound& r, const std::vector<double>& v, const std::vector<int>& retested) {
    for (std::size_t i = 0; i < r.pairs.size(); ++i) {
      const NodePair& pair = r.pairs[i];
      met_.insert(pair);
      partners_[static_cast<std::size_t>(pair[0])].insert(pair[1]);
      partners_[static_cast<std::size_t>(pair[1])].insert(pair[0]);
      const bool is_low = low(v[i]);
      if (retested[i] < 0) {  // a link check
        link_checked_.insert(pair);
        if (is_low) out_.slow_links.push_back(pair);
        continue;
      }
      const auto s = static_cast<std::size_t>(retested[i]);
      const Votes::Outcome verdict = votes_[s].record(is_low, p_.confirm_lows, p_.clear_oks);
      if (is_low) low_pairs_.push_back(pair);  // checked as a link if both nodes clear after all
      if (verdict == Votes::Outcome::kConfirmed) {
        state_[s] = State::kSlow;
      } else if (verdict == Votes::Outcome::kCleared) {
        state_[s] = State::kCleared;
      }
    }
  }

  // The result: rounds per phase, the slow (and undecided) nodes, the cleared ones, the slow links.
  AdaptiveResult finish(int screen) {
    out_.screen_rounds = screen;
    out_.retest_rounds = out_.rounds - screen;
    for (int i = 0; i < n_; ++i) {
      const State s = state_[static_cast<std::size_t>(i)];
      if (s == State::kSuspect) out_.converged = false;
      if (s == State::kSlow || s == State::kSuspect) out_.slow_nodes.push_back(i);
      if (s == State::kCleared) out_.cleared.push_back(i);
    }
    std::sort(out_.slow_links.begin(), out_.slow_links.end());
    return out_;
  }

  const int n_;
  const std::size_t un_;
  const AdaptiveParams& p_;
  const MeasureRound& measure_;
  SplitMix rng_;
  AdaptiveResult out_;
  double spread_ = 0.0;
  std::set<NodePair> met_;
  std::vector<State> state_;
  std::vector<Votes> votes_;
  std::vector<std::set<int>> partners_;  // everyone a node was measured with
  std::vector<NodePair> low_pairs_;      // candidates for a link check
  std::set<NodePair> link_checked_;
};

}  // namespace

AdaptiveResult adaptive_search_flat(int n, const AdaptiveParams& p, const MeasureRound& measure) {
  return FlatSearch(n, p, measure).run();
}

}  // namespace podperf

// The adaptive searches' shared helpers (see adaptive_common.hpp). Floor: sweep; pure.
#include "sweep/adaptive_common.hpp"

#include <algorithm>
#include <map>

#include "sweep/search_util.hpp"
#include "sweep/splitmix.hpp"

namespace podperf {

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
  SplitMix rng{seed};
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  search::shuffle(order, rng);
  Round round;
  for (std::size_t i = 0; i + 1 < order.size(); i += 2) round.push_back(search::ordered(order[i], order[i + 1]));
  std::sort(round.begin(), round.end());
  return round;
}

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

}  // namespace podperf

// The adaptive search's entry (see adaptive_search.hpp): the flat or the topology-aware search.
// Floor: sweep; pure.
#include "sweep/adaptive_search.hpp"

namespace podperf {

AdaptiveResult adaptive_search(int n, const AdaptiveParams& p, const MeasureRound& measure,
                               const SearchGroups* groups) {
  if (groups != nullptr && !groups->empty() && p.scope != AdaptiveParams::Scope::kFlat) {
    return adaptive_search_layered(n, p, measure, *groups);
  }
  return adaptive_search_flat(n, p, measure);
}

}  // namespace podperf

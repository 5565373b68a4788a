#pragma once
// The topology-aware adaptive straggler search (AdaptiveParams::Scope kWithin / kLayered; described in
// sweep/adaptive_search.hpp): screening inside groups, matchings across groups (layered), retests of
// suspect nodes and suspect groups (uplinks). Floor: sweep (pure, local, seeded). Throws nothing.
#include "sweep/adaptive_common.hpp"

namespace podperf {

// p.scope kWithin or kLayered at level p.level (-1: the innermost).
AdaptiveResult adaptive_search_layered(int n, const AdaptiveParams& p, const MeasureRound& measure,
                                       const SearchGroups& groups);

}  // namespace podperf

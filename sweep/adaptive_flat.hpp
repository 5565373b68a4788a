#pragma once
// The flat (topology-blind) adaptive straggler search: random perfect matchings screen every node;
// each suspect is retested against nodes known to be good until it is confirmed slow or cleared; a
// low pair whose two nodes both clear is measured once more (a link, or noise). Floor: sweep (pure,
// local, seeded). Throws nothing. Most callers want sweep/adaptive_search (it picks flat or layered).
#include "sweep/adaptive_common.hpp"

namespace podperf {

AdaptiveResult adaptive_search_flat(int n, const AdaptiveParams& p, const MeasureRound& measure);

}  // namespace podperf

#pragma once
// A run as the reference of another (podperf pairs --baseline-from RUN): a retest or a confirmation of a
// few pairs cannot be its own baseline (one pair is "100% of itself"), so it is judged by the run whose
// evidence it confirms: that run's class levels (the busbw of two healthy nodes per class of pairs),
// its node estimates (a known-good partner is known good) and its pair noise, at its judged size. Floor:
// analysis/pairs; pure; throws UsageError when the reference was not judged at the size and op given.
#include <cstdint>
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

// The reference `judged` (an analyzed run: run.pair_judgement filled) gives, named `source`. UsageError
// when it has no judged pairs, or when `size_bytes` / `op` (this run's judged size and op, 0 / "" to
// skip the check) are not the ones it was judged at.
PairReference pair_reference_of(const Run& judged, const std::string& source, std::uint64_t size_bytes,
                                const std::string& op);

}  // namespace podperf

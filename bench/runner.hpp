#pragma once
// Runs one Case (op, size) on a Group with a fixed number of iterations, identical on all ranks,
// and turns the per-iteration times into a PairResult's timing fields.
#include <cstdint>
#include <vector>

#include "analysis/run.hpp"
#include "bench/backend.hpp"

namespace podperf {

struct CaseMeasurement {
  std::vector<double> samples_s;  // per iteration: the slowest rank of the group
  std::int64_t wrong = 0;         // summed over the group
};

// Collective over `members`: an untimed checked operation (when `check`), `warmup` untimed
// iterations, then `iters` timed ones; per-iteration times reduced with MAX over the group.
CaseMeasurement run_case(Group& group, const Comm& members, const Op& op, std::uint64_t size_bytes, int warmup,
                         int iters, bool check);

// Fills the timing fields of `result` (median/min/max/p99/cv, algbw/busbw from the median) and its
// status (wrong > 0 -> "wrong") from a measurement on `nranks` ranks.
void fill_timing(PairResult& result, const CaseMeasurement& m, const Op& op, int nranks);

}  // namespace podperf

#pragma once
// Runs one Case on a Group with a fixed number of iterations, identical on all ranks, and turns the
// per-iteration times into a result's timing fields.
#include <cstdint>
#include <string_view>
#include <vector>

#include "analysis/model/result_timing.hpp"
#include "analysis/model/run.hpp"
#include "bench/backend.hpp"

namespace podperf {

// How per-rank times of one iteration combine (nccl-tests -a): 0 rank 0, 1 average, 2 min, 3 max.
enum class TimeCombine { kRank0 = 0, kAverage = 1, kMin = 2, kMax = 3 };
std::string_view combine_name(TimeCombine c);

struct CaseMeasurement {
  std::vector<double> samples_s;  // per iteration, combined over the group's ranks
  std::int64_t wrong = 0;         // summed over the group
  bool skipped = false;           // the backend has no such form (in-place alltoall on NCCL)
};

// Collective over the group: `warmup` iterations whose samples are dropped, then `iters` timed ones;
// returns this rank's samples of the timed iterations only, in order.
std::vector<double> warm_up_then_time(Group& group, const Case& c, int warmup, int iters);

// Collective over the group: an untimed checked operation (when `check`), `warmup` untimed
// iterations, then `iters` timed ones (warm_up_then_time); per-iteration times combined over the group.
CaseMeasurement run_case(Group& group, const Case& c, int warmup, int iters, bool check, TimeCombine combine);

// Fills the timing fields of a PairResult or CollectiveResult (median/min/max/p99/cv, algbw and
// busbw from the median) and its status (wrong > 0 -> "wrong"). `size_bytes` must be set.
template <typename Result>
void fill_timing(Result& result, const CaseMeasurement& m, const Op& op, int nranks) {
  result.samples_s = m.samples_s;
  result.wrong = m.wrong;
  result.ranks = nranks;
  set_timing_from_samples(result, bus_factor(op, nranks));
  result.status = m.wrong > 0 ? "wrong" : "ok";
}

}  // namespace podperf

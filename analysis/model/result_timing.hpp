#pragma once
// The timing fields of a PairResult or CollectiveResult from its samples, one rule for every place that
// has samples: a fresh measurement (bench/runner.hpp fill_timing) and the blocks of one job joined
// (analysis/model/run_blocks.cpp). Floor: analysis/; pure, header-only.
#include "analysis/stats/stats.hpp"

namespace podperf {

// median, min, max, p99 and cv of result.samples_s; when the median is above 0, algbw = size_bytes /
// median and busbw = algbw * `bus_factor` (2(n-1)/n for all_reduce, ...). `size_bytes` must be set.
template <typename Result>
void set_timing_from_samples(Result& result, double bus_factor) {
  const Summary s = summarize(result.samples_s);
  result.median_s = s.median;
  result.min_s = s.min;
  result.max_s = s.max;
  result.p99_s = s.p99;
  result.cv = s.cv;
  if (s.median > 0.0) {
    result.algbw_gbps = static_cast<double>(result.size_bytes) / s.median / 1e9;
    result.busbw_gbps = result.algbw_gbps * bus_factor;
  }
}

}  // namespace podperf

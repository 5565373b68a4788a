#include "bench/runner.hpp"

#include "analysis/stats.hpp"

namespace podperf {

CaseMeasurement run_case(Group& group, const Comm& members, const Op& op, std::uint64_t size_bytes, int warmup,
                         int iters, bool check) {
  CaseMeasurement m;
  if (check) {
    long long wrong = group.check(op, size_bytes);
    PODPERF_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_LONG_LONG, MPI_SUM, members.raw()));
    m.wrong = wrong;
  }
  if (warmup > 0) (void)group.run(op, size_bytes, warmup);
  m.samples_s = group.run(op, size_bytes, iters);
  PODPERF_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, m.samples_s.data(), static_cast<int>(m.samples_s.size()), MPI_DOUBLE,
                                  MPI_MAX, members.raw()));
  return m;
}

void fill_timing(PairResult& result, const CaseMeasurement& m, const Op& op, int nranks) {
  result.samples_s = m.samples_s;
  result.wrong = m.wrong;
  const Summary s = summarize(m.samples_s);
  result.median_s = s.median;
  result.min_s = s.min;
  result.max_s = s.max;
  result.p99_s = s.p99;
  result.cv = s.cv;
  result.ranks = nranks;
  if (s.median > 0.0) {
    result.algbw_gbps = static_cast<double>(result.size_bytes) / s.median / 1e9;
    result.busbw_gbps = result.algbw_gbps * bus_factor(op, nranks);
  }
  result.status = m.wrong > 0 ? "wrong" : "ok";
}

}  // namespace podperf

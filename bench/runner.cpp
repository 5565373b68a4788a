#include "bench/runner.hpp"

namespace podperf {

std::string_view combine_name(TimeCombine c) {
  switch (c) {
    case TimeCombine::kRank0: return "rank0";
    case TimeCombine::kAverage: return "avg";
    case TimeCombine::kMin: return "min";
    case TimeCombine::kMax: return "max";
  }
  return "max";
}

std::vector<double> warm_up_then_time(Group& group, const Case& c, int warmup, int iters) {
  if (warmup > 0) (void)group.run(c, warmup);
  return group.run(c, iters);
}

CaseMeasurement run_case(Group& group, const Case& c, int warmup, int iters, bool check, TimeCombine combine) {
  const Comm& comm = group.comm();
  CaseMeasurement m;
  if (check) {
    long long wrong = group.check(c);
    PODPERF_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_LONG_LONG, MPI_SUM, comm.raw()));
    m.wrong = wrong;
  }
  m.samples_s = warm_up_then_time(group, c, warmup, iters);
  const int count = static_cast<int>(m.samples_s.size());
  switch (combine) {
    case TimeCombine::kRank0: PODPERF_CHECK_MPI(MPI_Bcast(m.samples_s.data(), count, MPI_DOUBLE, 0, comm.raw())); break;
    case TimeCombine::kAverage:
      PODPERF_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, m.samples_s.data(), count, MPI_DOUBLE, MPI_SUM, comm.raw()));
      for (double& s : m.samples_s) s /= comm.size();
      break;
    case TimeCombine::kMin:
      PODPERF_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, m.samples_s.data(), count, MPI_DOUBLE, MPI_MIN, comm.raw()));
      break;
    case TimeCombine::kMax:
      PODPERF_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, m.samples_s.data(), count, MPI_DOUBLE, MPI_MAX, comm.raw()));
      break;
  }
  return m;
}

}  // namespace podperf

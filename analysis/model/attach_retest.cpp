#include "analysis/model/attach_retest.hpp"

namespace podperf {

bool attach_retest(Run& run, const PairResult& retest) {
  for (PairResult& p : run.pairs) {
    if (p.nodes == retest.nodes && p.op == retest.op && p.size_bytes == retest.size_bytes) {
      if (!status_ok(retest.status)) return true;  // a failed retest confirms nothing either way
      if (p.retest_samples_s.empty()) {
        p.retest_samples_s = retest.samples_s;
        p.retest_busbw_gbps = retest.busbw_gbps;
      } else {
        p.later_retest_busbw_gbps.push_back(retest.busbw_gbps);  // a later retest adds, never replaces
      }
      return true;
    }
  }
  return false;
}

}  // namespace podperf

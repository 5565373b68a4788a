#include "analysis/model/collective_outcome.hpp"

namespace podperf {

int collective_exit_code(const Run& run) {
  for (const CollectiveResult& r : run.collectives) {
    if (!status_ok(r.status) && r.status != "skipped") return 1;
  }
  return 0;
}

}  // namespace podperf

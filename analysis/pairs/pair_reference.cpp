// A run as the reference of another (see pair_reference.hpp). Floor: analysis/pairs; pure.
#include "analysis/pairs/pair_reference.hpp"

#include <fmt/format.h>

#include "analysis/base/errors.hpp"
#include "analysis/base/units.hpp"

namespace podperf {

PairReference pair_reference_of(const Run& judged, const std::string& source, std::uint64_t size_bytes,
                                const std::string& op) {
  const PairJudgement& j = judged.pair_judgement;
  if (j.size_bytes == 0 || j.classes.empty() || j.level_gbps <= 0.0) {
    throw UsageError(fmt::format("--baseline-from {}: that run has no pairs judged at its largest size", source));
  }
  if (size_bytes != 0 && size_bytes != j.size_bytes) {
    throw UsageError(fmt::format(
        "--baseline-from {}: it was judged at {} and this run's largest size is {}: measure at its size (-b {} -e {})",
        source, format_size(j.size_bytes), format_size(size_bytes), format_size(j.size_bytes),
        format_size(j.size_bytes)));
  }
  if (!op.empty() && op != j.op) {
    throw UsageError(fmt::format("--baseline-from {}: it was judged with {}, this run measures {} (--op {})", source,
                                 j.op, op, j.op));
  }
  PairReference r;
  r.source = fmt::format("{} (run {})", source, judged.run_id);
  r.op = j.op;
  r.size_bytes = j.size_bytes;
  r.classes = j.classes;
  r.nodes = judged.node_estimates;
  r.pair_noise = j.pair_noise;
  r.noise_df = j.noise_df;
  return r;
}

}  // namespace podperf

// The failed measurements and incomplete runs of each side of a comparison. Floor: analysis/; pure.
#include "analysis/compare/compare_failures.hpp"

#include <algorithm>
#include <map>

namespace podperf {
namespace compare_failures_detail {
namespace {

bool incomplete(const RunMetricSummary& run) {
  return run.run_status != "complete" && !run.run_status.empty();
}

bool any_incomplete(const std::vector<RunMetricSummary>& runs) {
  return std::any_of(runs.begin(), runs.end(), incomplete);
}

// One side's failures by metric (runs that did not complete first, then metrics in the order met).
std::vector<ComparedFailure> side_failures(const std::vector<RunMetricSummary>& runs,
                                           const std::vector<std::string>& ids, const MetricRegistry& registry,
                                           std::vector<std::uint32_t>& metrics) {
  std::vector<ComparedFailure> out;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (!incomplete(runs[r])) continue;
    out.push_back({"run " + ids[r] + " did not complete", runs[r].run_status, runs[r].run_error, {ids[r]}, false});
  }
  metrics.clear();
  std::map<std::uint32_t, std::size_t> slot;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    for (const MetricFailure& f : runs[r].failed) {
      auto [it, fresh] = slot.try_emplace(f.metric, out.size());
      if (fresh) {
        out.push_back({registry.name(f.metric), f.status, f.error, {}, false});
        metrics.push_back(f.metric);
      }
      std::vector<std::string>& in = out[it->second].runs;
      if (in.empty() || in.back() != ids[r]) in.push_back(ids[r]);
    }
  }
  return out;
}

// Marks the failures of one side that the other side has too: a metric failed on both sides, or a run
// that did not complete on both.
void mark_shared(std::vector<ComparedFailure>& side, const std::vector<std::uint32_t>& side_metrics,
                 const std::vector<char>& other_failed, bool other_incomplete) {
  const std::size_t runs = side.size() - side_metrics.size();
  for (std::size_t i = 0; i < side.size(); ++i) {
    if (i < runs) {
      side[i].other_side_too = other_incomplete;
    } else {
      const std::uint32_t id = side_metrics[i - runs];
      side[i].other_side_too = id < other_failed.size() && other_failed[id] != 0;
    }
  }
}

}  // namespace
}  // namespace compare_failures_detail

std::vector<char> failed_metric_flags(const std::vector<RunMetricSummary>& runs, std::size_t count) {
  std::vector<char> out(count, 0);
  for (const RunMetricSummary& r : runs) {
    for (const MetricFailure& f : r.failed) {
      if (f.metric < count) out[f.metric] = 1;
    }
  }
  return out;
}

void list_failures(const std::vector<RunMetricSummary>& before, const std::vector<std::string>& ids_before,
                   const std::vector<char>& failed_before, const std::vector<RunMetricSummary>& after,
                   const std::vector<std::string>& ids_after, const std::vector<char>& failed_after,
                   const MetricRegistry& registry, std::vector<ComparedFailure>& failures_before,
                   std::vector<ComparedFailure>& failures_after) {
  using namespace compare_failures_detail;
  std::vector<std::uint32_t> metrics_before, metrics_after;
  failures_before = side_failures(before, ids_before, registry, metrics_before);
  failures_after = side_failures(after, ids_after, registry, metrics_after);
  mark_shared(failures_before, metrics_before, failed_after, any_incomplete(after));
  mark_shared(failures_after, metrics_after, failed_before, any_incomplete(before));
}

}  // namespace podperf

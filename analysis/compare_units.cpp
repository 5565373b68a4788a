// The units of podperf compare: runs, or the blocks of one job (see compare_units.hpp). Floor:
// analysis/; pure, local.
#include "analysis/compare_units.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/change_stats.hpp"
#include "analysis/run_blocks.hpp"

namespace podperf {
namespace {

int block_count(const Run& run) {
  return has_blocks(run) ? run.blocks.count : 0;
}

std::size_t count_units(const std::vector<Run>& runs, bool by_blocks) {
  if (!by_blocks) return runs.size();
  std::size_t n = 0;
  for (const Run& r : runs) n += static_cast<std::size_t>(block_count(r));
  return n;
}

bool all_blocked(const std::vector<Run>& runs) {
  return !runs.empty() && std::all_of(runs.begin(), runs.end(), [](const Run& r) { return has_blocks(r); });
}
bool any_blocked(const std::vector<Run>& runs) {
  return std::any_of(runs.begin(), runs.end(), [](const Run& r) { return has_blocks(r); });
}

}  // namespace

CompareUnits compare_units(const std::vector<Run>& before, const std::vector<Run>& after) {
  CompareUnits u;
  const bool every_run_blocked = all_blocked(before) && all_blocked(after);
  const bool replicated = before.size() >= 2 && after.size() >= 2;
  u.by_blocks = every_run_blocked && !replicated;
  u.units_before = count_units(before, u.by_blocks);
  u.units_after = count_units(after, u.by_blocks);
  if (u.by_blocks) {
    u.warnings.push_back(
        "the units are blocks of one job (--repeat): they show drift within the job, but not launch-to-launch "
        "variance (placement, NCCL's algorithm and channel choices, the path hash, co-scheduled load); only "
        "separate jobs measure that, so a change found here may be one launch's luck: confirm it with 3 or more "
        "runs per side");
    const int kb = block_count(before.front());
    const int ka = block_count(after.front());
    if (kb != ka) {
      u.warnings.push_back(
          fmt::format("BEFORE has {} blocks per run and AFTER {}: the test allows it, but the sides "
                      "are not measured alike",
                      kb, ka));
    }
  } else if (any_blocked(before) || any_blocked(after)) {
    u.warnings.push_back(
        replicated ? "blocks pooled: with 2 or more runs per side the run is the unit (each run's median over its "
                     "blocks), since separate jobs measure launch-to-launch variance, which blocks cannot"
                   : fmt::format("blocks pooled: {} has blocks and {} does not, so the run is the unit on both "
                                 "sides (give both sides --repeat, or 3 or more runs per side, to test)",
                                 any_blocked(before) ? "BEFORE" : "AFTER", any_blocked(before) ? "AFTER" : "BEFORE"));
  }
  return u;
}

std::string blocks_mismatch(const std::vector<Run>& runs, const std::vector<std::string>& sources) {
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const int first = block_count(runs.front());
    const int other = block_count(runs[i]);
    if (first == other) continue;
    auto said = [](int k) { return k == 0 ? std::string("no blocks") : fmt::format("{} blocks (--repeat {})", k, k); };
    const std::string a = !sources.empty() ? sources[0] : "run 1";
    const std::string b = sources.size() > i ? sources[i] : fmt::format("run {}", i + 1);
    return fmt::format(
        "{} and {} are not repeats of one setup ({} vs {}); the runs of one side must all have the same "
        "--repeat",
        a, b, said(first), said(other));
  }
  return "";
}

void append_units(std::vector<double>& units, const Run& run, const MetricKey& key, const std::vector<double>& samples,
                  bool by_blocks) {
  const bool blocked_metric = key.kind == "pair" || key.kind == "collective";
  const auto per_block = static_cast<std::size_t>(std::max(1, run.options.iters));
  if (by_blocks && blocked_metric && has_blocks(run) && samples.size() > per_block) {
    for (std::size_t start = 0; start < samples.size(); start += per_block) {
      std::vector<double> block(
          samples.begin() + static_cast<std::ptrdiff_t>(start),
          samples.begin() + static_cast<std::ptrdiff_t>(std::min(samples.size(), start + per_block)));
      units.push_back(sample_median(block));
    }
    return;
  }
  std::vector<double> all = samples;
  units.push_back(sample_median(all));
}

void describe_units(Comparison& c, const CompareUnits& u) {
  c.units = u.by_blocks ? "blocks" : "runs";
  c.units_before = u.units_before;
  c.units_after = u.units_after;
  c.unit_warnings = u.warnings;
  if (u.by_blocks) c.method = "block_level_welch";
}

}  // namespace podperf

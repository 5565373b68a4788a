// The units of podperf compare: runs, or the blocks of one job (see compare_units.hpp). Floor:
// analysis/; pure, local.
#include "analysis/compare/compare_units.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/model/run_blocks.hpp"

namespace podperf {
namespace {

int block_count(const Run& run) {
  return has_blocks(run) ? run.blocks.count : 0;
}

std::vector<int> block_counts(const std::vector<Run>& runs) {
  std::vector<int> out;
  for (const Run& r : runs) out.push_back(block_count(r));
  return out;
}

std::size_t count_units(const std::vector<int>& blocks, bool by_blocks) {
  if (!by_blocks) return blocks.size();
  std::size_t n = 0;
  for (int k : blocks) n += static_cast<std::size_t>(k);
  return n;
}

bool blocked(int k) {
  return k >= 2;
}
bool all_blocked(const std::vector<int>& blocks) {
  return !blocks.empty() && std::all_of(blocks.begin(), blocks.end(), blocked);
}
bool any_blocked(const std::vector<int>& blocks) {
  return std::any_of(blocks.begin(), blocks.end(), blocked);
}

}  // namespace

CompareUnits compare_units(const std::vector<int>& before, const std::vector<int>& after) {
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
    const int kb = before.front();
    const int ka = after.front();
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

CompareUnits compare_units(const std::vector<Run>& before, const std::vector<Run>& after) {
  return compare_units(block_counts(before), block_counts(after));
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

void describe_units(Comparison& c, const CompareUnits& u) {
  c.units = u.by_blocks ? "blocks" : "runs";
  c.units_before = u.units_before;
  c.units_after = u.units_after;
  c.unit_warnings = u.warnings;
  if (u.by_blocks) c.method = "block_level_moderated_t";
}

}  // namespace podperf

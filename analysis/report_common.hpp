#pragma once
// What the report writers (HTML, Markdown) share: the verdict line, node ordering for the pair
// matrix, and the hook for a per-SKU busbw baseline. Projections of the Run: counts and orderings
// only, no new measurements or statistics.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/run.hpp"

namespace podperf {

struct ReportVerdict {
  std::string status;                // PASS | WARN | FAIL (podperf accept), else OK | FLAGGED | INCOMPLETE
  std::string css_class;             // pass | warn | fail
  std::string source;                // who decided: "podperf accept (profile quick, sku p5.48xlarge)" or
                                     // "this run's own outcome (not judged by podperf accept)"
  std::vector<std::string> reasons;  // in words: the run's stragglers, slow links, slow fs nodes, failures
};

// run.verdict when judged (status non-empty); otherwise the run's own outcome: INCOMPLETE when the
// run did not complete, FLAGGED when pairs_exit_code / collective_exit_code / fs_exit_code say so,
// else OK.
ReportVerdict report_verdict(const Run& run);

// The pair matrix's node order: stragglers first (in run.stragglers order), then the nodes of slow
// links, then the rest by node index (the node map's order keeps hosts of one block together).
std::vector<int> matrix_node_order(const Run& run);

// The label of node `index` ("?" when out of range).
std::string node_label(const Run& run, int index);

// --backend sim: "SIMULATED (model ...): ..." saying the numbers come from a model; "" for real runs.
std::string simulated_note(const Run& run);

// --schedule adaptive: "adaptive schedule (seed 7): 9 rounds instead of 255 for every pair"; "" otherwise.
std::string schedule_note(const Run& run);

// HOOK: the per-SKU busbw baseline for `op` at `size_bytes`, for the busbw chart. The Run carries
// only the SKU's name (verdict.sku), not its numbers, so this returns nullopt for now; when
// `podperf accept` records per-size baselines in the Run, return them here and every writer draws
// them. Never invents a value.
std::optional<double> sku_baseline_gbps(const Run& run, const std::string& op, std::uint64_t size_bytes);

// "1.5 GiB", "320 MiB": capacities for people.
std::string format_capacity(std::uint64_t bytes);

// A time for people, fixed precision: "1.25 s", "17.90 ms", "12.5 us".
std::string format_seconds(double seconds);

}  // namespace podperf

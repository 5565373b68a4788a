#pragma once
// What the report writers (HTML, Markdown) share: the verdict line, node ordering for the pair
// matrix, and the hook for a per-SKU busbw baseline. Projections of the Run: counts and orderings
// only, no new measurements or statistics.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

struct Headline {
  std::string status;                // PASS | WARN | FAIL (podperf accept), else OK | FLAGGED | INCOMPLETE
  std::string css_class;             // pass | warn | fail
  std::string source;                // who decided: "podperf accept (profile quick, sku p5.48xlarge)" or
                                     // "this run's own outcome (not judged by podperf accept)"
  std::vector<std::string> reasons;  // in words: the run's stragglers, slow links, slow fs nodes, failures
};

// run.verdict when judged (status non-empty); otherwise the run's own outcome: INCOMPLETE when the
// run did not complete, FLAGGED when pairs_exit_code / collective_exit_code / fs_exit_code say so,
// else OK.
Headline headline_of(const Run& run);

// The pair matrix's node order. With a topology (nodes carry NodeInfo::topology): by topology path,
// then index, so nodes under one leaf sit together (stragglers stay visible by their red labels);
// nodes without a place last. Otherwise stragglers first (in run.stragglers order), then the nodes of
// slow links, then the rest by node index (the node map's order keeps hosts of one block together).
std::vector<int> matrix_node_order(const Run& run);

// Positions in `order` where a new topology group (another leaf) begins, the first excluded; empty
// when the run has no topology.
std::vector<std::size_t> matrix_group_starts(const Run& run, const std::vector<int>& order);

// The label of node `index` ("?" when out of range).
std::string node_label(const Run& run, int index);

// --backend sim: "SIMULATED (model ...): ..." saying the numbers come from a model; "" for real runs.
std::string simulated_note(const Run& run);

// --schedule adaptive: "adaptive schedule (seed 7): 9 rounds instead of 255 for every pair"; "" otherwise.
std::string schedule_note(const Run& run);

// The published busbw of the SKU the run was judged against (run.verdict.sku_busbw, recorded by
// `podperf accept`) for `op` at exactly `size_bytes`; nullopt when the run was not judged against a
// SKU or the SKU publishes no figure there. Never invents a value.
std::optional<double> sku_baseline_gbps(const Run& run, const std::string& op, std::uint64_t size_bytes);

// The SKU's published figures for `op` within [min_bytes, max_bytes], by size: what a busbw chart
// spanning those sizes draws.
std::vector<SkuBusbwPoint> sku_baseline_in_range(const Run& run, const std::string& op, std::uint64_t min_bytes,
                                                 std::uint64_t max_bytes);

// "1.5 GiB", "320 MiB": capacities for people.
std::string format_capacity(std::uint64_t bytes);

// A time for people, fixed precision: "1.25 s", "17.90 ms", "12.5 us".
std::string format_seconds(double seconds);

}  // namespace podperf

#pragma once
// JSON projection of the Run (run.json, events.jsonl). Field names are the struct members'.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

// Defined inline (header) so every translation unit can convert.
NLOHMANN_JSON_SERIALIZE_ENUM(Tag, {{Tag::kOk, "OK"}, {Tag::kConcern, "CONCERN"}, {Tag::kInfo, "INFO"}})
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Finding, tag, source, check, host, observed, expected, meaning, effect,
                                                next_step, pair_cause_rank, fs_cause_rank)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NodeInfo, index, hostname, label, instance_id, instance_type,
                                                slurm_node_name, kubernetes_node_name, ranks, is_virtual, topology)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PairResult, round, nodes, op, dtype, size_bytes, count, ranks,
                                                samples_s, median_s, min_s, max_s, p99_s, cv, algbw_gbps, busbw_gbps,
                                                wrong, status, error, retest_samples_s, retest_busbw_gbps,
                                                later_retest_busbw_gbps, flagged, cleared_by_retest, baseline_gbps,
                                                ratio, noise_gbps)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CollectiveResult, group, op, dtype, in_place, size_bytes, count, ranks,
                                                samples_s, median_s, min_s, max_s, p99_s, cv, algbw_gbps, busbw_gbps,
                                                wrong, status, error)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SizeBaseline, size_bytes, baseline_gbps, spread_gbps, pairs_kept,
                                                pairs_total)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Straggler, node, hostname, flagged_pairs, total_pairs, median_ratio,
                                                ratio_low, ratio_high, evidence, likely_causes, next_step)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NodeEstimate, node, label, kind, ratio, low, high, pairs, measurements,
                                                low_measurements, verdict)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PairClassLevel, name, pairs, level_gbps, ratio)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PairJudgement, op, size_bytes, pairs, measurements, mean_gbps,
                                                pairs_below_mean, level_gbps, pair_noise, noise_df, judged_nodes,
                                                node_cut, node_cut_reason, pair_cut, pair_cut_reason, link_cut,
                                                structure, classes, relative, reference)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PairReference, source, op, size_bytes, classes, nodes, pair_noise,
                                                noise_df)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LinkFinding, nodes, hostnames, ratio, evidence, likely_causes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FsRankResult, rank, node, file, source_node, bytes, ops, start_s, end_s,
                                                mb_per_s, ops_per_s, cached_fraction, lat_p50_us, lat_p90_us,
                                                lat_p99_us, lat_p999_us, checksum_mismatches, status, error)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FsNodeResult, node, label, ranks, bytes, ops, start_s, end_s, mb_per_s,
                                                ops_per_s, ratio, flagged)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FsProbeResult, probe, block_size_bytes, file_size_bytes, files_per_rank,
                                                direct, block, ranks, nodes, bytes, ops, commit_s, duration_s,
                                                first_done_s, mb_per_s, ops_per_s, lat_p50_us, lat_p90_us, lat_p99_us,
                                                lat_p999_us, cached_fraction_max, baseline, slowest_node, status, error)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FsSlowNode, node, label, probes, worst_ratio, evidence, likely_causes,
                                                next_step)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FsRun, path, probe_dir, fs_type, shared, kept, free_bytes, needed_bytes,
                                                expected_read_mb_s, expected_write_mb_s, expected_source, probes,
                                                slow_nodes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(VerdictCheck, node, check, status, detail)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NodeVerdict, node, hostname, status, reasons)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SkuBusbwPoint, op, size_bytes, busbw_gbps)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ProfileOverride, option, value, profile)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Verdict, status, profile, overrides, sku, sku_busbw, nodes, checks,
                                                drain)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Launcher, kind, job_id, step_id)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NodeMetric, host, name, value)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(RunOptions, op, dtype, group_by, time_combine, sizes_bytes, iters,
                                                warmup, check, concurrency, retest, threshold, timeout_s, virtual_nodes,
                                                schedule, seed, thresholds_source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(RunBlocks, count, seed, cases, order)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PairThresholds, threshold, noise_factor, spread_factor, max_spread_fraction,
                                                baseline_max_passes, baseline_min_kept_fraction, intermittent_min_links,
                                                link_family_alpha, node_family_alpha, class_family_alpha, noise_prior, noise_prior_df,
                                                min_pair_noise, half_split_max_ratio, min_cleared_partners,
                                                stall_factor, stall_min_iterations)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FsThresholds, threshold, spread_factor, max_spread_fraction,
                                                baseline_max_passes, baseline_min_kept_fraction, saturation_fraction,
                                                resolution_seconds, cache_warn_fraction)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TopologyThresholds, slower_fraction, min_pairs)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Thresholds, pairs, fs, topology, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Run, schema_version, podperf_version, run_id, command, argv, started_at,
                                                finished_at, launcher, backend, simulated, sim_model, backend_library,
                                                backend_library_version, ranks, options, thresholds, nodes, topology_levels,
                                                topology_source, rounds_planned, rounds_completed, rounds_full_schedule,
                                                blocks, pairs, collectives, fs, judged_size_bytes, baselines,
                                                stragglers, links, node_estimates, pair_judgement, pair_reference,
                                                findings,
                                                node_metrics, verdict, nccl_log, status,
                                                error, unfinished)

// Writes `run` as run.json text (indent 2): exactly nlohmann::json(run).dump(2, ' ', false,
// replace), without building the pairs' JSON tree (16 us and about 4 KiB of memory per pair; at 4096
// nodes, 8.4 million pairs, tens of GiB). Each pair is formatted straight into text; `sink` gets the
// text in pieces of about 1 MiB. run.pairs is moved out while the rest of the Run is converted and
// moved back before returning (also when `sink` throws): the Run is unchanged, but must not be
// shared with another thread during the call.
// With `pairs_file` (a file name beside run.json; the caller writes it with write_pairs_file, and sets
// run.schema_version to kSchemaVersionPairsFile): "pairs" is [] and a "pairs_file" member names it.
void write_run_json(Run& run, const std::function<void(std::string_view)>& sink, const std::string& pairs_file = "");

// Reads a run.json file (and the pairs file it names, if any): the fast reader (analysis/io/run_json_scan.hpp) first,
// nlohmann's parser (pairs converted as parsed) where the fast one leaves the input to it; both give the same Run, and
// every error is nlohmann's reader's. Throws InputError naming the file and the parse position or bad field.
Run read_run_json(const std::string& path);
// The same on text already read; `path` names it in errors.
Run parse_run_json(std::string_view text, const std::string& path);

// nlohmann's reader alone (pairs converted as parsed, no fast reader): what read_run_json falls back
// to, and the reference the fast reader is tested and measured against.
Run parse_run_json_reference(std::string_view text, const std::string& path);
Run read_run_json_reference(const std::string& path);

// The Run of a parsed run.json object `j` (its "pairs" taken out: `pairs`, in order); `pair_error`
// non-empty: a pair that did not convert. Throws InputError naming `path`: no or unsupported
// schema_version, a bad field.
Run run_from_tree(nlohmann::json& j, std::vector<PairResult> pairs, const std::string& pair_error,
                  const std::string& path);

}  // namespace podperf

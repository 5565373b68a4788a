#pragma once
// Acceptance verdicts (podperf accept): every node of a finished, analyzed Run judged against a profile
// (configs/profiles) and, where known, the instance type's published busbw (configs/skus). Pure: reads
// the run's analysis (flags, stragglers, links, filesystem slow nodes, findings); computes no new
// measurement statistics except each node's median pair busbw at the judged size. Its printer is in the
// wing (analysis/report/accept_text). Floor: analysis/.
#include <optional>
#include <string>
#include <vector>

#include "analysis/config/accept_profiles.hpp"
#include "analysis/config/sku.hpp"
#include "analysis/model/run.hpp"

namespace podperf {

// Judges `run` (already analyzed: judge_pairs, judge_fs, correlate). Checks, each with a stable id,
// per node (in node order, then run-wide checks with node ""):
//   pairs stage (when the profile has it):
//     busbw_min      FAIL when the node's median busbw over its ok pairs at the judged size is below
//                    profile.busbw_min_fraction x the SKU's published 2-node all_reduce figure at that
//                    size; where the SKU publishes none at the judged size, at the largest smaller measured
//                    size it publishes one for (said in the detail; never interpolated between figures);
//                    SKIP without a SKU, without a figure at any measured size, on a backend other than
//                    nccl (host memory is not a GPU fabric) or for another op than all_reduce.
//     straggler      FAIL when run.stragglers names the node.
//     slow_link      profile.slow_link (WARN or FAIL) when run.links has a link of the node.
//     wrong_results  FAIL for pairs with wrong results; failed_pairs FAIL for pairs that errored or did
//                    not finish. Blame: a node with more than half of its pairs failed is at fault; a
//                    failed pair between two nodes not at fault fails both (it cannot tell which).
//     gpu_count      WARN when the nccl backend ran fewer ranks on the node than the SKU has GPUs.
//   fs stage (when the profile has it):
//     fs_slow_node   FAIL when run.fs.slow_nodes names the node.
//     fs_results     FAIL when a rank of the node had an I/O error or a checksum mismatch.
//   always:
//     blocking_finding  FAIL for a CONCERN finding of the node's host whose check id is in
//                       profile.blocking_findings; concern  WARN for any other CONCERN.
//   run-wide: run_complete (FAIL: timeout/aborted), stages (FAIL: a stage of the profile is missing from
//     the run), profile (whether the run measured what the profile asks, analysis/accept/profile_requirements:
//     WARN when only `overrides` changed it, FAIL when the run measured less and nobody asked), sku (PASS/WARN/SKIP:
//     which baseline and whether the nodes' instance type agrees), fs_floor (FAIL: an aggregate below the profile's
//     floor), blocking_finding/concern for run-wide findings.
// Node status: FAIL if any FAIL check, else WARN if any WARN, else PASS; reasons list every FAIL and
// WARN in words. Run status: FAIL if any node or run-wide check fails, WARN likewise, else PASS.
// drain: the hostnames of FAIL nodes, deduplicated, in node order (accept prints the commands that act on
// them with the nodes' scheduler names and instance ids: analysis/report/accept_actions).
// `sku` may be null (unknown instance type): the busbw minimum is skipped with a note. `overrides`: the
// options the measuring command line gave in place of the profile's values (recorded in the verdict).
Verdict check_nodes(const Run& run, const Profile& profile, const Sku* sku,
                    const std::vector<ProfileOverride>& overrides = {});

// The SKU to judge with: `forced` (from --sku) when given, else the built-in SKU of the instance type
// every node reports (none when types are unknown, mixed or have no configs/skus file).
std::optional<Sku> choose_sku(const Run& run, const std::optional<Sku>& forced);

// 0 when every node passes (PASS or WARN: a warning is printed, not failed) and no run-wide check
// fails; 1 when the verdict is FAIL. (2 usage and 3 runtime failures are the command's.)
int accept_exit_code(const Verdict& verdict);

}  // namespace podperf

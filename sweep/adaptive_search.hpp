#pragma once
// Adaptive straggler search (podperf pairs --schedule adaptive): instead of every pair (n-1 rounds),
// a few rounds of random perfect matchings screen every node; nodes with a low pair become suspects;
// each suspect is retested against nodes already known to be good until it is confirmed slow or
// cleared; a low pair whose two nodes both clear is measured once more (a link, or noise).
// In the spirit of ClusterKit's and Google's cluster scanner retests (SuperBench, ClusterKit and the HyperPod NCCL
// troubleshooting guidance).
//
// Pure: the caller measures. `measure` runs one round of disjoint node pairs and returns each pair's
// busbw at the judged size (NaN or <= 0: the pair failed, which counts as low). Identical inputs and
// seed give identical rounds, so every MPI rank (or a model) can follow the same plan.
//
// With a topology (SearchGroups) the search can be topology-aware (AdaptiveScope):
//  - within: the screening rounds (the circle method over each group's members in a seeded order: a
//    new partner each round) and the suspects' retests pair nodes inside one group at a chosen level
//    (the innermost by default: a rack), so a node is judged without crossing the upper layers; nodes
//    left over (odd groups, a group of one, unplaced nodes, no trusted partner left there) pair across
//    groups;
//  - layered: within, then a few matchings that pair each trusted node with a node of another group
//    under the same parent (crossing exactly one level; across parents only for parents with a single
//    group), so every group's uplinks are exercised. A group with two or more healthy nodes whose pairs
//    leaving it are mostly low is a suspect group; its low pairs leaving it are measured again (or, if
//    too few, trusted members against trusted nodes of other groups) to confirm it as a slow group
//    (uplink). Its nodes are not blamed, and the low pairs leaving it are not links. Retest partners
//    are chosen among the nodes in the fewest low pairs, so no healthy node collects a majority of them.
// Every pair is judged against the baseline of its class (the level at which its nodes' groups first
// differ), so a fabric whose crossings are a little slower by design does not look faulty.
//
// Floor: sweep (pure, local). Throws nothing. The flat search is sweep/adaptive_flat, the topology-aware
// one sweep/adaptive_layered; their shared types and helpers sweep/adaptive_common and
// sweep/search_util.
#include "sweep/adaptive_common.hpp"
#include "sweep/adaptive_flat.hpp"
#include "sweep/adaptive_layered.hpp"

namespace podperf {

// `groups` null or empty, or p.scope kFlat: the flat search (topology-blind). Otherwise p.scope with
// the level p.level (checked by the caller: an index into groups->levels, or -1).
AdaptiveResult adaptive_search(int n, const AdaptiveParams& p, const MeasureRound& measure,
                               const SearchGroups* groups = nullptr);

}  // namespace podperf

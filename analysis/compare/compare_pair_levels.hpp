#pragma once
// How faults move the pair metrics of a comparison (podperf compare): a change of the whole fabric
// moves every pair together (the common shift, level "all pairs"), a change of one node moves its N-1
// pairs (level "node"), a bad cable one pair. Per pair matrix (one op, type and size) this tests the
// common shift and each node, then lets the pairs that a node (or the common shift) explains roll up
// into it (MetricComparison::explained_by), so a slow node is one finding, not N-1 pair lines.
//
// With a spread on some side (2 or more units on a side) the levels are tested as the metrics are: per
// unit, the common shift (the common term of the additive model log busbw(a, b) = common + effect[a] +
// effect[b], fitted by median polish, which a slow node's own pairs do not move) and the median of each
// node's pairs beyond the median of the pairs that do not touch it (the node's contrast: against all
// pairs, its own pairs would move the reference with it), t tests on those per-unit values (the nodes'
// variances moderated together).
// With one run a side there is no spread between runs: the common shift is untestable (reported as
// such, never judged by an allowance), and each node's and each pair's change beyond the common shift
// is tested against the spread of all the pairs' changes (robust: median and MAD, their degrees of
// freedom discounted to the MAD's efficiency), nodes first, then every pair against the spread left
// once the nodes found are taken out, a pair measured more than once in the job where it is slower only
// when its best measurement there agrees; a slower pair against the tail of the pairs that moved up (and
// the other way round) when that tail is heavier than normal (transients of either job: a symmetric t
// fit, analysis/stats/tail_fit). Floor: analysis/compare; pure, deterministic.
#include "analysis/compare/types.hpp"

namespace podperf {

// Pair matrices with fewer pairs than this are not tested against their own spread (one run a side).
inline constexpr std::size_t kMinSpreadPairs = 6;
// Nodes are tested against the spread of the nodes only from this many nodes on (one run a side); with
// runs on a side, from kMinLevelNodes.
inline constexpr std::size_t kMinSpreadNodes = 8;
inline constexpr std::size_t kMinLevelNodes = 4;
// A MAD-based scale from n values is worth about this share of n degrees of freedom (its asymptotic
// efficiency against the standard deviation for normal data: 0.3675).
inline constexpr double kMadEfficiency = 0.3675;
// One run a side: a pair measured more than once in the job where it is slower counts as changed only when
// its best measurement there is also beyond the pairs' spread at this level (two-sided, on its own).
inline constexpr double kBestMeasurementAlpha = 0.01;

// Fills c.pair_levels (tested, not yet judged: the pairs family's first stage adjusts and judges them);
// with one run a side, marks the pair metrics that the second stage will test against the spread of all
// pairs' changes (test pair_spread), or why not. Call after test_metrics (compare_noise).
void test_pair_levels(Comparison& c, const CompareSettings& settings);

// Between the two stages of the pairs family (compare_families), once the levels are judged: each pair
// metric touching a node or common shift found (slower or faster) is tested on its change beyond them
// (beyond_level; with runs on a side its own spread, one run a side the spread of every pair's change
// beyond the common shift and the nodes found), and becomes a candidate to be explained by them
// (explained_by, explained_change_percent) when its own change is at least --min-change in their direction.
void test_pairs_beyond_levels(Comparison& c, const CompareSettings& settings);

// After the second stage: a candidate whose change beyond its levels is within noise is explained by
// them (verdict slower or faster in their direction; the levels count it in `explains`); one beyond them
// keeps its own verdict and is not explained.
void explain_pairs(Comparison& c);

// "node sim0005 all_reduce float 64M" or "all pairs all_reduce float 64M".
std::string pair_level_name(const PairLevelTest& t);

}  // namespace podperf

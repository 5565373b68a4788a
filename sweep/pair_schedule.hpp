#pragma once
// Pair schedules: which node pairs run in which round. Identical on every rank (pure functions).
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

using NodePair = std::array<int, 2>;  // node indices, first < second
using Round = std::vector<NodePair>;  // pairwise disjoint

// Circle method (round robin): even n gives n-1 rounds of n/2 pairs; odd n adds a resting dummy,
// giving n rounds of (n-1)/2 pairs. Every pair exactly once, no node twice in a round.
// n < 2 gives no rounds.
std::vector<Round> circle_schedule(int n);

// Packs chosen pairs into as few rounds as a greedy first-fit gives, keeping each round disjoint.
std::vector<Round> pack_rounds(const std::vector<NodePair>& pairs);

// One pair per round, in the order of `rounds` (for --concurrency sequential).
std::vector<Round> sequential(const std::vector<Round>& rounds);

// Parses "0:3,2:5" or "hostA:hostB" (node indices or labels, as in `labels`) into pairs.
// Throws UsageError for unknown nodes, a node paired with itself, or a malformed list.
std::vector<NodePair> parse_pair_list(std::string_view text, const std::vector<std::string>& labels);

}  // namespace podperf

#pragma once
// Blocks in the pair matrix when the run has no topology: groups of nodes whose pairs inside are
// faster than their pairs across (leaves under an oversubscribed spine, NVLink domains, UltraServers),
// which would otherwise make every node of a small group look slow (most of its pairs cross). The
// pairs' values about their class split into two levels (1-D two-means) only when the gap between
// the two exceeds both the threshold and 3 times the spread inside each level; the fast pairs then
// form the blocks: greedily, the node with the most fast pairs and the nodes fast with at least half
// of the block (refined until stable), blocks of 3 nodes or more, at least two of them, fast inside
// (70% of their measured pairs) and slow across (at most 30%), each faster inside than across by half
// the gap. With no two such blocks, groups of 2 (two nodes under one switch, NVLink pairs): the fast
// pairs taken fastest first, each node in one at most, when at least 3 cover three quarters of the nodes
// (at most one fast pair in four joining nodes already taken) and every one clears, beyond its slower
// node's term, what one chance pair among all the pairs reaches. Nodes in no block (a slow node is fast
// with nobody) join the block they are fastest with when they are faster with it than with the others
// by half the gap: a node is always judged among its own. A node as fast with every block (a group too
// small for a block: all its pairs cross) stays apart, in a group of its own with the nodes it is fast
// with. Above
// kMaxBlockNodes nodes no blocks are sought (a --topology says the structure at that scale). Floor:
// analysis/pairs; pure; throws nothing.
#include <cstddef>
#include <vector>

#include "analysis/pairs/node_model.hpp"

namespace podperf {

inline constexpr std::size_t kMaxBlockNodes = 4096;

// `input`: the pairs without a grouping; `first`: the model fitted to them. The blocks as groupings
// named "block" (groups "block 1", ...): one per split of the pairs into two levels that makes blocks
// (levels of similar weight, and a fast level of a few percent of the pairs; only the first where under
// half the pairs were measured), none when no split does;
// the caller keeps the one its model fits best. Blocks are accepted only when one of them at least
// shows a group effect: its nodes faster with each other (by half the gap and 4 standard errors) than
// `first`'s node terms say; slow nodes are as slow with each other as with anyone and make none.
std::vector<ModelGrouping> find_pair_blocks(const ModelInput& input, const NodeModel& first, double threshold);

}  // namespace podperf

#pragma once
// The order of blocks inside one job (--repeat K on pairs, collective and fs): every case measured once
// in each of K blocks, block after block, and inside each block the cases in an order shuffled by the
// seed, so a slow minute of the job lands on different cases in each block and drift within the job
// shows as a difference between blocks (not AABB but a shuffled ABAB). Pure and portable (splitmix64,
// own Fisher-Yates): every rank computes the same order from the same (cases, blocks, seed). Floor: sweep.
#include <cstdint>
#include <vector>

namespace podperf {

// K blocks of `cases` 0-based case indices, each a permutation of 0..cases-1. blocks <= 1: one block in
// plan order (no shuffle: a run without --repeat runs as before). Block b's shuffle depends on (seed, b)
// only.
std::vector<std::vector<int>> block_order(int cases, int blocks, std::uint64_t seed);

}  // namespace podperf

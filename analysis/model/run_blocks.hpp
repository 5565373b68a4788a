#pragma once
// Blocks of one job (--repeat K, see RunBlocks in run.hpp): how a later block's measurement of a case
// joins the result of its first block, so the run keeps one result per pair and size (or collective
// case) and every judge and printer reads it as before, with the samples of all blocks. Floor:
// analysis/; pure, local.
#include <cstdint>
#include <string>
#include <unordered_map>

#include "analysis/model/run.hpp"

namespace podperf {

// True when the run was measured in 2 or more blocks.
inline bool has_blocks(const Run& run) {
  return run.blocks.count >= 2;
}

// Joins `block` (block number `block_number`, 1-based, of the same pair and size or collective case)
// into `into`: its samples appended after the earlier blocks', the timing fields (median, min, max,
// p99, cv, algbw, busbw with `into`'s bus factor) recomputed over all of them, wrong counts summed. A
// failed block leaves the samples as they were and makes `into` failed ("block 2: <its error>"); a
// result that already failed stays as it is.
void merge_block(PairResult& into, const PairResult& block, int block_number);
void merge_block(CollectiveResult& into, const CollectiveResult& block, int block_number);

// Where each pair and size of run.pairs is (for the later blocks: thousands of pairs at scale).
class PairBlockIndex {
 public:
  // Block 1 (or no blocks): appends `r` to run.pairs. Later blocks: merges it into the pair's result
  // (appended when the first block had none, e.g. after an abort).
  void add(Run& run, PairResult r, int block_number);

 private:
  std::unordered_map<std::string, std::size_t> where_;
  bool indexed_ = false;  // where_ is made at the first later block
};

// The same for run.collectives (one result per group, op, type, size and placement).
class CollectiveBlockIndex {
 public:
  void add(Run& run, CollectiveResult r, int block_number);

 private:
  std::unordered_map<std::string, std::size_t> where_;
  bool indexed_ = false;  // where_ is made at the first later block
};

}  // namespace podperf

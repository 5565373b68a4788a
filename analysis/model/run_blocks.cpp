// Joining the blocks of one job (see run_blocks.hpp). Floor: analysis/; pure, local.
#include "analysis/model/run_blocks.hpp"

#include <fmt/format.h>

#include "analysis/model/result_timing.hpp"

namespace podperf {
namespace {

template <typename Result>
void merge_timing(Result& into, const Result& block, int block_number) {
  if (!status_ok(into.status) && into.status != "wrong") return;
  if (!status_ok(block.status) && block.status != "wrong") {
    into.status = block.status;
    into.error = fmt::format("block {}: {}", block_number, block.error);
    return;
  }
  const double factor = into.algbw_gbps > 0.0    ? into.busbw_gbps / into.algbw_gbps
                        : block.algbw_gbps > 0.0 ? block.busbw_gbps / block.algbw_gbps
                                                 : 1.0;
  into.samples_s.insert(into.samples_s.end(), block.samples_s.begin(), block.samples_s.end());
  into.wrong += block.wrong;
  set_timing_from_samples(into, factor);
  if (into.wrong > 0) into.status = "wrong";
}

std::string pair_key(const PairResult& r) {
  return fmt::format("{}:{}:{}:{}:{}", r.nodes[0], r.nodes[1], r.op, r.dtype, r.size_bytes);
}

std::string collective_key(const CollectiveResult& r) {
  return fmt::format("{}:{}:{}:{}:{}", r.group, r.op, r.dtype, r.in_place ? 1 : 0, r.size_bytes);
}

// Block 1: appended; later blocks: merged into the result of the same key (appended when none). The
// index of keys is made when the first later block arrives (from the results so far, the first of
// each key), so that a run without blocks, millions of pairs at scale, never holds a key per result.
template <typename Result, typename KeyFn>
void add_block_result(std::vector<Result>& results, std::unordered_map<std::string, std::size_t>& where, bool& indexed,
                      Result r, int block_number, KeyFn key_of) {
  if (block_number < 2 && !indexed) {
    results.push_back(std::move(r));
    return;
  }
  if (!indexed) {
    where.reserve(results.size());
    for (std::size_t i = 0; i < results.size(); ++i) where.emplace(key_of(results[i]), i);
    indexed = true;
  }
  const std::string key = key_of(r);
  if (block_number >= 2) {
    const auto it = where.find(key);
    if (it != where.end() && it->second < results.size()) {
      merge_timing(results[it->second], r, block_number);
      return;
    }
  }
  where.emplace(key, results.size());
  results.push_back(std::move(r));
}

}  // namespace

void merge_block(PairResult& into, const PairResult& block, int block_number) {
  merge_timing(into, block, block_number);
}

void merge_block(CollectiveResult& into, const CollectiveResult& block, int block_number) {
  merge_timing(into, block, block_number);
}

void PairBlockIndex::add(Run& run, PairResult r, int block_number) {
  add_block_result(run.pairs, where_, indexed_, std::move(r), block_number, pair_key);
}

void CollectiveBlockIndex::add(Run& run, CollectiveResult r, int block_number) {
  add_block_result(run.collectives, where_, indexed_, std::move(r), block_number, collective_key);
}

}  // namespace podperf

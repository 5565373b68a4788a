// block_order (see block_order.hpp). Floor: sweep; pure.
#include "sweep/block_order.hpp"

#include <numeric>
#include <utility>

#include "sweep/splitmix.hpp"

namespace podperf {

std::vector<std::vector<int>> block_order(int cases, int blocks, std::uint64_t seed) {
  std::vector<int> identity(static_cast<std::size_t>(cases > 0 ? cases : 0));
  std::iota(identity.begin(), identity.end(), 0);
  if (blocks <= 1) return {identity};
  std::vector<std::vector<int>> out;
  for (int b = 0; b < blocks; ++b) {
    SplitMix rng{seed ^ (0x5bd1e995ULL * static_cast<std::uint64_t>(b + 1))};
    std::vector<int> order = identity;
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    out.push_back(std::move(order));
  }
  return out;
}

}  // namespace podperf

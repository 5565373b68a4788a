#include <cmath>

#include "kernels/pattern.hpp"

namespace podperf {

void fill_pattern(std::span<float> buf, int rank, std::uint64_t first_index) {
  for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = pattern_value(rank, first_index + i);
}

std::int64_t count_wrong_sum(std::span<const float> buf, int nranks, std::uint64_t first_index) {
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < buf.size(); ++i) {
    double expected = 0.0;
    for (int r = 0; r < nranks; ++r) expected += pattern_value(r, first_index + i);
    const double got = buf[i];
    if (!(std::fabs(got - expected) <= 1e-5 * std::fabs(expected))) ++wrong;
  }
  return wrong;
}

std::int64_t count_wrong_copy(std::span<const float> buf, int rank, std::uint64_t first_index) {
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < buf.size(); ++i) {
    if (buf[i] != pattern_value(rank, first_index + i)) ++wrong;
  }
  return wrong;
}

}  // namespace podperf

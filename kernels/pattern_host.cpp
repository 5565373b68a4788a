// Explicit instantiations of the host pattern routines for the host backend's element types.
#include "kernels/pattern.hpp"

namespace podperf {
template void fill_pattern<float>(std::span<float>, int, std::uint64_t);
template void fill_pattern<double>(std::span<double>, int, std::uint64_t);
template void fill_pattern<std::int32_t>(std::span<std::int32_t>, int, std::uint64_t);
template std::int64_t count_wrong_sum<float>(std::span<const float>, int, std::uint64_t);
template std::int64_t count_wrong_sum<double>(std::span<const double>, int, std::uint64_t);
template std::int64_t count_wrong_sum<std::int32_t>(std::span<const std::int32_t>, int, std::uint64_t);
template std::int64_t count_wrong_copy<float>(std::span<const float>, int, std::uint64_t);
template std::int64_t count_wrong_copy<double>(std::span<const double>, int, std::uint64_t);
template std::int64_t count_wrong_copy<std::int32_t>(std::span<const std::int32_t>, int, std::uint64_t);
}  // namespace podperf

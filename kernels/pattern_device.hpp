#pragma once
// Device twins of kernels/pattern.hpp: fill device buffers with the per-rank pattern and count wrong
// elements on the device. Declared without CUDA headers so C++ code can call them; defined in
// kernels/pattern_device.cu. Only built with PODPERF_WITH_CUDA.
#include <cstdint>

#include "kernels/dtype_enum.hpp"

namespace podperf {

enum class Expect { kSum, kCopy };

// buf[i] = pattern(rank, first_index + i), converted to `type`. `stream` is a cudaStream_t.
void device_fill_pattern(void* buf, DType type, std::uint64_t count, int rank, std::uint64_t first_index,
                         void* stream);

// Adds to *device_wrong (a device counter) the elements of `buf` that differ from the expected
// value: kSum, the sum over `ranks_or_rank` ranks of the pattern; kCopy, the pattern of rank
// `ranks_or_rank`; at first_index + i, within the type's rounding tolerance.
void device_count_wrong(const void* buf, DType type, std::uint64_t count, Expect expect, int ranks_or_rank,
                        std::uint64_t first_index, unsigned long long* device_wrong, void* stream);

}  // namespace podperf

#pragma once
// Device twins of kernels/pattern.hpp: fill device buffers with the per-rank pattern and count wrong
// elements on the device. Declared without CUDA headers so C++ code can call them; defined in
// kernels/pattern_device.cu. Only built with PODPERF_WITH_CUDA.
#include <cstdint>

#include "kernels/dtype_enum.hpp"

namespace podperf {

enum class Expect { kSum, kCopy };

// buf[i] = pattern(rank, first_index + i), converted to `type`. `stream` is a cudaStream_t. With
// narrow_nranks > 0 half and bfloat16 get the narrow pattern of a sum over that many ranks
// (kernels/pattern.hpp), which their kSum checks expect.
void device_fill_pattern(void* buf, DType type, std::uint64_t count, int rank, std::uint64_t first_index, void* stream,
                         int narrow_nranks = 0);

// Adds to *device_wrong (a device counter) the elements of `buf` that differ from the expected
// value: kSum, the sum over `ranks_or_rank` ranks of the pattern; kCopy, the pattern of rank
// `ranks_or_rank`; at first_index + i; exact for half and bfloat16 (narrow pattern), 1e-5 relative
// for float sums.
void device_count_wrong(const void* buf, DType type, std::uint64_t count, Expect expect, int ranks_or_rank,
                        std::uint64_t first_index, unsigned long long* device_wrong, void* stream);

// The timing gate: a one-thread kernel on `stream` that spins until host_flags[0] (mapped host memory,
// cudaHostAllocMapped, two words) is non-zero, so what is enqueued behind it starts only when the host
// releases it. Gives up after `max_spin_ns` and sets host_flags[1] to 1 (the host then reports an
// expired gate). The two words have one writer each (host: [0], GPU: [1]), so a release that meets an
// expiry cannot hide it.
void device_gate(volatile unsigned* host_flags, unsigned long long max_spin_ns, void* stream);

}  // namespace podperf

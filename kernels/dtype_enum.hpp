#pragma once
// The element type enum alone (no C++20 headers), shared with the CUDA kernels.

namespace podperf {

enum class DType { kFloat, kDouble, kInt32, kHalf, kBfloat16 };

}  // namespace podperf

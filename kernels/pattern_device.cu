// Device kernels: the only .cu file. Fill and verify with the same pattern as the host twins
// (kernels/pattern.hpp), so both backends check the same way.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kernels/pattern_device.hpp"

namespace podperf {
namespace {

// Same function as pattern_int in kernels/pattern.hpp (splitmix64 finalizer of (rank, i)).
__device__ __forceinline__ unsigned pattern_int_d(int rank, unsigned long long i) {
  unsigned long long x = (static_cast<unsigned long long>(static_cast<unsigned>(rank)) << 40U) ^ i;
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  x ^= x >> 31U;
  return static_cast<unsigned>(x % 61ULL) + 1U;
}

template <typename T>
__device__ __forceinline__ T from_double(double v) { return static_cast<T>(v); }
template <>
__device__ __forceinline__ __half from_double<__half>(double v) { return __float2half(static_cast<float>(v)); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_double<__nv_bfloat16>(double v) {
  return __float2bfloat16(static_cast<float>(v));
}

template <typename T>
__device__ __forceinline__ double to_double(T v) { return static_cast<double>(v); }
template <>
__device__ __forceinline__ double to_double<__half>(__half v) { return static_cast<double>(__half2float(v)); }
template <>
__device__ __forceinline__ double to_double<__nv_bfloat16>(__nv_bfloat16 v) {
  return static_cast<double>(__bfloat162float(v));
}

// Sums of the full pattern are exact in float/double/int32; half and bfloat16 sums use the narrow
// pattern, exact too (kernels/pattern.hpp), so no tolerance grows with the rank count.
template <typename T>
__device__ __forceinline__ bool narrow() { return false; }
template <>
__device__ __forceinline__ bool narrow<__half>() { return true; }
template <>
__device__ __forceinline__ bool narrow<__nv_bfloat16>() { return true; }

// Same function as narrow_pattern_int in kernels/pattern.hpp (half and bfloat16 sums).
constexpr int kNarrowWindowD = 8;
__device__ __forceinline__ unsigned narrow_int_d(int rank, unsigned long long i, int nranks) {
  const int window = nranks < kNarrowWindowD ? nranks : kNarrowWindowD;
  const unsigned long long n = static_cast<unsigned long long>(nranks);
  const unsigned long long offset = (static_cast<unsigned long long>(rank) + n - i % n) % n;
  return offset < static_cast<unsigned long long>(window) ? pattern_int_d(rank, i) % 4U + 1U : 0U;
}
__device__ __forceinline__ unsigned narrow_sum_d(int nranks, unsigned long long i) {
  const int window = nranks < kNarrowWindowD ? nranks : kNarrowWindowD;
  unsigned sum = 0;
  for (int k = 0; k < window; ++k) {
    sum += narrow_int_d(static_cast<int>((i + static_cast<unsigned long long>(k)) % nranks), i, nranks);
  }
  return sum;
}

template <typename T>
__global__ void fill_kernel(T* buf, unsigned long long count, int rank, unsigned long long first, int narrow_n) {
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const unsigned v = narrow_n > 0 ? narrow_int_d(rank, first + i, narrow_n) : pattern_int_d(rank, first + i);
    buf[i] = from_double<T>(static_cast<double>(v));
  }
}

template <typename T>
__global__ void verify_kernel(const T* buf, unsigned long long count, int expect_sum, int ranks_or_rank,
                              unsigned long long first, unsigned long long* wrong) {
  unsigned long long local = 0;
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    double expected = 0.0;
    double tol = 0.0;
    if (expect_sum && narrow<T>()) {
      expected = narrow_sum_d(ranks_or_rank, first + i);  // exact: no tolerance (kernels/pattern.hpp)
    } else if (expect_sum) {
      for (int r = 0; r < ranks_or_rank; ++r) expected += pattern_int_d(r, first + i);
      tol = 1e-5 * fabs(expected);
    } else {
      expected = pattern_int_d(ranks_or_rank, first + i);
      tol = 0.0;
    }
    if (!(fabs(to_double(buf[i]) - expected) <= tol)) ++local;
  }
  if (local > 0) atomicAdd(wrong, local);
}

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void gate_kernel(volatile unsigned* flags, unsigned long long max_spin_ns) {
  const unsigned long long start = global_ns();
  while (flags[0] == 0U) {
    if (global_ns() - start > max_spin_ns) {
      flags[1] = 1U;
      __threadfence_system();
      break;
    }
    __nanosleep(100);
  }
}

unsigned grid_for(unsigned long long count) {
  const unsigned long long blocks = (count + 255) / 256;
  return static_cast<unsigned>(blocks < 4096 ? (blocks == 0 ? 1 : blocks) : 4096);
}

template <typename T>
void fill(void* buf, std::uint64_t count, int rank, std::uint64_t first, int narrow_n, cudaStream_t s) {
  fill_kernel<T><<<grid_for(count), 256, 0, s>>>(static_cast<T*>(buf), count, rank, first, narrow_n);
}

template <typename T>
void verify(const void* buf, std::uint64_t count, Expect e, int n, std::uint64_t first, unsigned long long* wrong,
            cudaStream_t s) {
  verify_kernel<T><<<grid_for(count), 256, 0, s>>>(static_cast<const T*>(buf), count, e == Expect::kSum ? 1 : 0, n,
                                                   first, wrong);
}

}  // namespace

void device_fill_pattern(void* buf, DType type, std::uint64_t count, int rank, std::uint64_t first_index,
                         void* stream, int narrow_nranks) {
  auto s = static_cast<cudaStream_t>(stream);
  const int n = type == DType::kHalf || type == DType::kBfloat16 ? narrow_nranks : 0;
  switch (type) {
    case DType::kFloat: fill<float>(buf, count, rank, first_index, 0, s); break;
    case DType::kDouble: fill<double>(buf, count, rank, first_index, 0, s); break;
    case DType::kInt32: fill<int>(buf, count, rank, first_index, 0, s); break;
    case DType::kHalf: fill<__half>(buf, count, rank, first_index, n, s); break;
    case DType::kBfloat16: fill<__nv_bfloat16>(buf, count, rank, first_index, n, s); break;
  }
}

void device_gate(volatile unsigned* host_flags, unsigned long long max_spin_ns, void* stream) {
  gate_kernel<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(host_flags, max_spin_ns);
}

void device_count_wrong(const void* buf, DType type, std::uint64_t count, Expect expect, int ranks_or_rank,
                        std::uint64_t first_index, unsigned long long* device_wrong, void* stream) {
  auto s = static_cast<cudaStream_t>(stream);
  switch (type) {
    case DType::kFloat: verify<float>(buf, count, expect, ranks_or_rank, first_index, device_wrong, s); break;
    case DType::kDouble: verify<double>(buf, count, expect, ranks_or_rank, first_index, device_wrong, s); break;
    case DType::kInt32: verify<int>(buf, count, expect, ranks_or_rank, first_index, device_wrong, s); break;
    case DType::kHalf: verify<__half>(buf, count, expect, ranks_or_rank, first_index, device_wrong, s); break;
    case DType::kBfloat16:
      verify<__nv_bfloat16>(buf, count, expect, ranks_or_rank, first_index, device_wrong, s);
      break;
  }
}

}  // namespace podperf

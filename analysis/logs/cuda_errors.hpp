#pragma once
// The CUDA runtime's errors as data: every cudaError_t value with its name and the text
// cudaGetErrorString prints (the committed table analysis/logs/cuda_errors.inc, generated from the
// toolkit by analysis/logs/cuda_errors_gen.cpp; where the toolkit is present at build time its own
// table is generated again and used beside the committed one), each mapped to a triage class by rules
// over the name (out of memory, ECC and NVLink hardware errors, kernel faults, driver and device
// configuration, missing kernel images, ...). Pure, analysis floor.
#include <span>
#include <string_view>

#include "analysis/logs/log_event.hpp"

namespace podperf::logs {

struct CudaError {
  int code;
  std::string_view name;  // "cudaErrorIllegalAddress"
  std::string_view text;  // "an illegal memory access was encountered"
};

// What a CUDA error means for a job: the finding it becomes.
struct CudaErrorClass {
  std::string_view check;  // "gpu.cuda_oom", "gpu.ecc_uncorrectable", "cuda.illegal_memory_access", ...
  SeverityClass cls;
  int cause_rank;  // 0..100, as the pattern table's
  std::string_view cause;
  std::string_view next_step;  // may hold "{host}", replaced by the host the finding names
};

// Every error of the committed table, then (when built with the toolkit) the toolkit's own.
std::span<const CudaError> cuda_errors();

// The class of an error by its runtime name ("cudaErrorECCUncorrectable"); never fails (an unknown name
// is the generic "cuda.api_error").
const CudaErrorClass& cuda_error_class(std::string_view name);

// The CUDA error a log line quotes after "CUDA error: ", "Cuda failure '...'", "CUDA failure", a
// "cudaErrorX" name or a driver "CUDA_ERROR_X" name: the table row of the longest error text or name
// found, else nullptr. `family` is set to the class of the text even when no row matched (keyword
// families: out of memory, ECC, illegal access, device-side assert, no device, driver version).
const CudaError* find_cuda_error(std::string_view line, const CudaErrorClass** family);

}  // namespace podperf::logs

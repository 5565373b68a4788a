#pragma once
// NCCL backend: one GPU per rank (local rank -> device, within CUDA_VISIBLE_DEVICES), device buffers,
// one stream per communicator, CUDA-event timing per iteration, non-blocking communicators polled
// with a deadline and aborted on timeout or error. NCCL is dlopened (bench/nccl_api.hpp), the CUDA
// runtime linked statically: built only with PODPERF_WITH_CUDA, runs without libnccl at link time.
#include <memory>
#include <string>

#include "bench/backend.hpp"

namespace podperf {

// CUDA devices visible to this process; 0 when there is no driver or no device (never throws).
int nccl_visible_gpus();

struct NcclBackendSettings {
  double op_timeout_s = 600.0;  // bounds every wait on NCCL or the GPU (--timeout)
  std::string nccl_library;     // --nccl-library; "" searches (bench/nccl_api.hpp)
};

// Collective over `world`: loads NCCL (every rank agrees it could), picks this rank's device and
// bootstraps the world NCCL communicator (rank 0's unique id broadcast over MPI). Throws UsageError on
// every rank when any rank lacks NCCL or a GPU of its own.
std::unique_ptr<Backend> make_nccl_backend(const Comm& world, const NcclBackendSettings& settings);

}  // namespace podperf

#pragma once
// NCCL backend: one GPU per rank (local rank -> device, within CUDA_VISIBLE_DEVICES), device buffers,
// one stream per communicator, CUDA-event timing per iteration, non-blocking communicators polled
// with a deadline and aborted on timeout or error. Built only with PODPERF_WITH_CUDA.
#include <memory>

#include "bench/backend.hpp"

namespace podperf {

// CUDA devices visible to this process; 0 when there is no driver or no device (never throws).
int nccl_visible_gpus();

// Collective over `world`: picks this rank's device and bootstraps the world NCCL communicator
// (rank 0's unique id broadcast over MPI). `op_timeout_s` bounds every wait on the GPU.
std::unique_ptr<Backend> make_nccl_backend(const Comm& world, double op_timeout_s = 600.0);

}  // namespace podperf

#pragma once
// The real inputs of the host collectors (signals/snapshot's CollectInputs) for this process: its
// environment, limits, statvfs, hostname, kernel log and the libraries to dlopen. Signals floor, local,
// no MPI; the one place in signals/ that touches the real process state. Never throws on host content.
#include <string>

#include "signals/snapshot.hpp"

namespace podperf {

// The real inputs of this process: getenv (environ), getrlimit(MEMLOCK/STACK), statvfs(root + mount
// point), gethostname (only when root is "/" or empty; else the tree's proc/sys/kernel/hostname), and
// <root>/dev/kmsg read without blocking, and the libraries to dlopen: on the real root
// libnvidia-ml.so.1, libfabric.so.1, libnccl.so.2 and libcuda.so.1, each replaced by
// $PODPERF_{NVML,LIBFABRIC,NCCL,CUDA}_LIBRARY when set; under another root only those variables count
// (unset: not read). Never throws on host content.
CollectInputs real_collect_inputs(const std::string& root);

}  // namespace podperf

// --backend -> a Backend (see backend_select.hpp). Bench floor; collective over world.
#include "bench/backend_select.hpp"

#include <fmt/format.h>

#include "analysis/base/errors.hpp"
#include "bench/backend_host.hpp"
#ifdef PODPERF_HAVE_NCCL
#include "bench/backend_nccl.hpp"
#endif

namespace podperf {

std::unique_ptr<Backend> make_backend(const CommonOptions& o, const Comm& world) {
  const std::string& choice = o.backend;
  if (choice == "host") return std::make_unique<HostBackend>();
#ifdef PODPERF_HAVE_NCCL
  // Every rank must agree: nccl only when every rank sees a GPU.
  int visible = nccl_visible_gpus() > 0 ? 1 : 0;
  PODPERF_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &visible, 1, MPI_INT, MPI_MIN, world.raw()));
  if (choice == "nccl" && visible == 0) {
    throw UsageError(
        "--backend nccl: no GPU is visible to every rank (check CUDA_VISIBLE_DEVICES and the driver); "
        "use --backend host to measure MPI on host memory");
  }
  if (visible != 0) return make_nccl_backend(world, NcclBackendSettings{o.timeout_s, o.nccl_library});
  return std::make_unique<HostBackend>();
#else
  (void)world;
  if (choice == "nccl") {
    throw UsageError(
        "--backend nccl: this podperf was built without CUDA/NCCL (PODPERF_WITH_CUDA); use --backend host");
  }
  return std::make_unique<HostBackend>();
#endif
}

bool backend_may_be_nccl(const std::string& choice) {
#ifdef PODPERF_HAVE_NCCL
  return choice == "nccl" || (choice == "auto" && nccl_visible_gpus() > 0);
#else
  (void)choice;
  return false;
#endif
}

}  // namespace podperf

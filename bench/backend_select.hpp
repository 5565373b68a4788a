#pragma once
// --backend host|nccl|auto -> a Backend. Throws UsageError when the choice cannot run here.
#include <memory>
#include <string>

#include "bench/backend.hpp"
#include "bench/options.hpp"

namespace podperf {

// Collective over `world` (NCCL bootstraps its world communicator here). `o.backend`: `auto` picks
// nccl where this build has it and a GPU is visible, else host. `o.timeout_s` bounds each NCCL wait;
// `o.nccl_library` is --nccl-library.
std::unique_ptr<Backend> make_backend(const CommonOptions& o, const Comm& world);

// Local: whether `choice` may start NCCL in this process (so NCCL's log should be prepared first).
bool backend_may_be_nccl(const std::string& choice);

}  // namespace podperf

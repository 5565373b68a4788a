#pragma once
// Loading a vendor library at run time (NVML, libfabric, NCCL, the CUDA driver): podperf links none
// of them, so a host without them still runs, and a missing symbol is "not supported". Libraries are
// never closed (they may have started threads).
#include <string>

namespace podperf {

// dlopen(path, RTLD_NOW | RTLD_LOCAL). nullptr with `why` set ("no library path given", or
// "dlopen(<path>): <dlerror, printable>") when it cannot be loaded.
void* open_library(const std::string& path, std::string& why);

}  // namespace podperf

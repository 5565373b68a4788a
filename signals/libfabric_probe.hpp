#pragma once
// libfabric providers visible to this process (podperf's host-signal sources: NVML, sysfs, procfs and NVIDIA's Xid
// catalog, "libfabric providers"), read with one fi_getinfo call on a libfabric loaded at run time (dlopen), so the
// binary does not link libfabric. Read-only: no endpoint is opened and no traffic is sent; the environment is left as
// it is (FI_* set by the job applies, as it would to NCCL's aws-ofi-nccl plugin).
#include <cstdint>
#include <string>
#include <vector>

namespace podperf {

struct LibfabricInfo {
  std::string library;                 // the path handed to dlopen
  std::string version;                 // fi_version(): "1.17"
  std::vector<std::string> providers;  // distinct fabric_attr->prov_name, sorted ("ofi_rxm;tcp", "shm", ...)
  int getinfo_rc = 0;                  // fi_getinfo's return (0, or -FI_ENODATA when nothing matched)
  double getinfo_seconds = 0.0;        // wall time of the fi_getinfo call
};

struct LibfabricRead {
  bool loaded = false;  // dlopen and the three symbols worked and fi_getinfo returned 0 or -FI_ENODATA
  std::string why;      // otherwise: dlerror text, the missing symbol, or fi_getinfo's error
  LibfabricInfo info;
};

// dlopens `library_path` ("libfabric.so.1"), calls fi_version() and
// fi_getinfo(FI_VERSION(1, 9), NULL, NULL, 0, NULL hints, &info), lists the providers and frees the list
// (fi_freeinfo). Never throws (but std::bad_alloc). The library stays mapped: providers may keep state
// that dlclose would pull out from under them.
LibfabricRead read_libfabric(const std::string& library_path);

// True when `provider` is efa or a utility provider layered on it ("ofi_rxd;efa").
bool is_efa_provider(const std::string& provider);

}  // namespace podperf

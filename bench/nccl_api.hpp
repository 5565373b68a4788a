#pragma once
// NCCL through dlopen: podperf's own minimal declarations of the NCCL C API (no nccl.h, no libnccl at
// link time) and one table of function pointers, loaded from the library NCCL users expect. Bench
// floor, no CUDA; throws UsageError when no usable NCCL is found. Values and layouts follow nccl.h of
// 2.18-2.28 (checked against the toolkit's nccl.h at build time by bench/nccl_api_check.cpp).
//
// Minimum NCCL 2.18: ncclCommSplit and NCCL_SPLIT_NOCOLOR (2.18), ncclCommInitRankConfig, non-blocking
// communicators and ncclCommFinalize (2.14), ncclGetLastError (2.13), ncclSend/ncclRecv (2.7),
// ncclBfloat16 (2.10). ncclAlltoAll (2.28) is optional: without it alltoall runs as grouped
// send/recv, as nccl-tests does.
#include <cstddef>
#include <string>
#include <vector>

namespace podperf {

using NcclResult = int;  // ncclResult_t
inline constexpr NcclResult kNcclSuccess = 0;
inline constexpr NcclResult kNcclInvalidArgument = 4;
inline constexpr NcclResult kNcclInvalidUsage = 5;
inline constexpr NcclResult kNcclInProgress = 7;
inline constexpr int kNcclSplitNoColor = -1;   // NCCL_SPLIT_NOCOLOR
inline constexpr int kNcclSum = 0;             // ncclSum
inline constexpr int kNcclMinVersion = 21800;  // NCCL_VERSION(2,18,0)
inline constexpr int kNcclAlltoAllVersion = 22800;

enum NcclDataType : int {  // ncclDataType_t values (unchanged since 2.10)
  kNcclInt32 = 2,
  kNcclFloat16 = 6,
  kNcclFloat32 = 7,
  kNcclFloat64 = 8,
  kNcclBfloat16 = 9,
};

struct NcclCommSt;
using NcclCommHandle = NcclCommSt*;  // ncclComm_t
struct NcclUniqueId {                // ncclUniqueId
  char internal[128];
};

// ncclConfig_t as of 2.18 (the fields podperf sets). NCCL copies `size` bytes and defaults the rest,
// so this prefix is valid for every NCCL from 2.18 on.
struct NcclConfig {
  std::size_t size = sizeof(NcclConfig);
  unsigned magic = 0xcafebeef;
  unsigned version = kNcclMinVersion;
  int blocking = -2147483647 - 1;  // NCCL_CONFIG_UNDEF_INT
  int cga_cluster_size = -2147483647 - 1;
  int min_ctas = -2147483647 - 1;
  int max_ctas = -2147483647 - 1;
  const char* net_name = nullptr;
  int split_share = -2147483647 - 1;
};

// The NCCL calls podperf makes. `stream` is a cudaStream_t. alltoall is null on NCCL < 2.28.
struct NcclApi {
  std::string path;  // the library that was loaded (as given to dlopen)
  std::string file;  // the file the dynamic linker opened for it (dladdr), else `path`
  int version = 0;   // ncclGetVersion: 22809 for 2.28.9
  NcclResult (*get_version)(int*) = nullptr;
  const char* (*get_error_string)(NcclResult) = nullptr;
  const char* (*get_last_error)(NcclCommHandle) = nullptr;
  NcclResult (*get_unique_id)(NcclUniqueId*) = nullptr;
  NcclResult (*comm_init_rank_config)(NcclCommHandle*, int, NcclUniqueId, int, NcclConfig*) = nullptr;
  NcclResult (*comm_split)(NcclCommHandle, int, int, NcclCommHandle*, NcclConfig*) = nullptr;
  NcclResult (*comm_get_async_error)(NcclCommHandle, NcclResult*) = nullptr;
  NcclResult (*comm_finalize)(NcclCommHandle) = nullptr;
  NcclResult (*comm_destroy)(NcclCommHandle) = nullptr;
  NcclResult (*comm_abort)(NcclCommHandle) = nullptr;
  NcclResult (*group_start)() = nullptr;
  NcclResult (*group_end)() = nullptr;
  NcclResult (*all_reduce)(const void*, void*, std::size_t, int, int, NcclCommHandle, void*) = nullptr;
  NcclResult (*all_gather)(const void*, void*, std::size_t, int, NcclCommHandle, void*) = nullptr;
  NcclResult (*reduce_scatter)(const void*, void*, std::size_t, int, int, NcclCommHandle, void*) = nullptr;
  NcclResult (*broadcast)(const void*, void*, std::size_t, int, int, NcclCommHandle, void*) = nullptr;
  NcclResult (*reduce)(const void*, void*, std::size_t, int, int, int, NcclCommHandle, void*) = nullptr;
  NcclResult (*send)(const void*, std::size_t, int, int, NcclCommHandle, void*) = nullptr;
  NcclResult (*recv)(void*, std::size_t, int, int, NcclCommHandle, void*) = nullptr;
  NcclResult (*alltoall)(const void*, void*, std::size_t, int, NcclCommHandle, void*) = nullptr;  // optional
};

// Where podperf looks, in order: `explicit_path` (--nccl-library) alone when given; else
// "libnccl.so.2" (LD_LIBRARY_PATH, the ld.so cache, the default directories), then the pip wheel's
// nvidia/nccl/lib/libnccl.so.2 under each directory of `python_site_dirs`.
std::vector<std::string> nccl_library_candidates(const std::string& explicit_path,
                                                 const std::vector<std::string>& python_site_dirs);

// The site-packages directories of this host's Pythons (PYTHONPATH, VIRTUAL_ENV, CONDA_PREFIX,
// /usr/local/lib and /usr/lib python3.*), existing ones only.
std::vector<std::string> python_site_dirs();

// "NCCL 2.28.9 (/usr/lib/x86_64-linux-gnu/libnccl.so.2)": the library the last load_nccl_api of this
// process loaded, its file as the dynamic linker found it; "" before any (run.json's nccl_log note).
const std::string& loaded_nccl_description();
// The same as fields (run.json's backend_library and backend_library_version); empty before any load.
struct LoadedNccl {
  std::string file;     // as the dynamic linker found it (dladdr)
  std::string version;  // "2.28.9"
};
const LoadedNccl& loaded_nccl();
// Sets run.backend_library and run.backend_library_version from loaded_nccl() when run.backend is
// "nccl" (rank 0 loaded the library it records).
struct Run;
void record_backend_library(Run& run);

// Loads the first candidate that opens and resolves every required call, checks its version
// (>= 2.18). Throws UsageError naming each candidate tried and why it was refused.
NcclApi load_nccl_api(const std::vector<std::string>& candidates);

}  // namespace podperf

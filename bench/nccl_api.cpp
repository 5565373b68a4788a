// Loading NCCL at run time (see nccl_api.hpp). Bench floor, local; libraries are never closed.
#include "bench/nccl_api.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "analysis/base/errors.hpp"
#include "analysis/base/text.hpp"
#include "analysis/model/run.hpp"
#include "signals/dl_library.hpp"
#include "signals/nvml.hpp"  // nccl_version_text

namespace podperf {
namespace {

template <class Fn>
void resolve(void* lib, const char* name, Fn& out, std::vector<std::string>& missing) {
  out = reinterpret_cast<Fn>(::dlsym(lib, name));
  if (out == nullptr) missing.emplace_back(name);
}

// Fills `api` from `lib`; returns why it cannot be used ("" when it can).
std::string fill_table(void* lib, NcclApi& api) {
  std::vector<std::string> missing;
  resolve(lib, "ncclGetVersion", api.get_version, missing);
  resolve(lib, "ncclGetErrorString", api.get_error_string, missing);
  resolve(lib, "ncclGetLastError", api.get_last_error, missing);
  resolve(lib, "ncclGetUniqueId", api.get_unique_id, missing);
  resolve(lib, "ncclCommInitRankConfig", api.comm_init_rank_config, missing);
  resolve(lib, "ncclCommSplit", api.comm_split, missing);
  resolve(lib, "ncclCommGetAsyncError", api.comm_get_async_error, missing);
  resolve(lib, "ncclCommFinalize", api.comm_finalize, missing);
  resolve(lib, "ncclCommDestroy", api.comm_destroy, missing);
  resolve(lib, "ncclCommAbort", api.comm_abort, missing);
  resolve(lib, "ncclGroupStart", api.group_start, missing);
  resolve(lib, "ncclGroupEnd", api.group_end, missing);
  resolve(lib, "ncclAllReduce", api.all_reduce, missing);
  resolve(lib, "ncclAllGather", api.all_gather, missing);
  resolve(lib, "ncclReduceScatter", api.reduce_scatter, missing);
  resolve(lib, "ncclBroadcast", api.broadcast, missing);
  resolve(lib, "ncclReduce", api.reduce, missing);
  resolve(lib, "ncclSend", api.send, missing);
  resolve(lib, "ncclRecv", api.recv, missing);
  std::vector<std::string> optional;
  resolve(lib, "ncclAlltoAll", api.alltoall, optional);
  if (api.get_version == nullptr) return "no ncclGetVersion (not an NCCL library)";
  if (api.get_version(&api.version) != kNcclSuccess) return "ncclGetVersion failed";
  if (api.version < kNcclMinVersion) {
    return fmt::format("NCCL {} is older than {} (podperf needs ncclCommSplit)", nccl_version_text(api.version),
                       nccl_version_text(kNcclMinVersion));
  }
  if (!missing.empty()) return "missing " + text::join(missing, ", ");
  return "";
}

LoadedNccl& loaded() {
  static LoadedNccl l;
  return l;
}

std::string& loaded_description() {
  static std::string text;
  return text;
}

}  // namespace

const std::string& loaded_nccl_description() {
  return loaded_description();
}

const LoadedNccl& loaded_nccl() {
  return loaded();
}

void record_backend_library(Run& run) {
  if (run.backend != "nccl") return;
  run.backend_library = loaded().file;
  run.backend_library_version = loaded().version;
}

std::vector<std::string> nccl_library_candidates(const std::string& explicit_path,
                                                 const std::vector<std::string>& python_site_dirs) {
  if (!explicit_path.empty()) return {explicit_path};
  std::vector<std::string> out{"libnccl.so.2"};
  for (const std::string& dir : python_site_dirs) out.push_back(dir + "/nvidia/nccl/lib/libnccl.so.2");
  return out;
}

std::vector<std::string> python_site_dirs() {
  namespace fs = std::filesystem;
  std::vector<std::string> roots;
  if (const char* pp = std::getenv("PYTHONPATH")) {
    const std::string paths(pp);
    for (std::size_t b = 0; b <= paths.size();) {
      const std::size_t e = std::min(paths.find(':', b), paths.size());
      if (e > b) roots.push_back(paths.substr(b, e - b));
      b = e + 1;
    }
  }
  std::vector<std::string> prefixes;
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    if (const char* v = std::getenv(var); v != nullptr && *v != '\0') prefixes.push_back(std::string(v) + "/lib");
  }
  prefixes.emplace_back("/usr/local/lib");
  prefixes.emplace_back("/usr/lib");
  std::error_code ec;
  for (const std::string& lib : prefixes) {
    for (fs::directory_iterator it(lib, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.rfind("python3", 0) != 0) continue;
      for (const char* sub : {"site-packages", "dist-packages"}) {
        const fs::path p = it->path() / sub;
        if (fs::is_directory(p, ec)) roots.push_back(p.string());
      }
    }
    ec.clear();
  }
  return roots;
}

NcclApi load_nccl_api(const std::vector<std::string>& candidates) {
  std::vector<std::string> refused;
  for (const std::string& path : candidates) {
    std::string why;
    void* lib = open_library(path, why);
    if (lib == nullptr) {
      refused.push_back(why);
      continue;
    }
    NcclApi api;
    api.path = path;
    why = fill_table(lib, api);
    if (why.empty()) {
      Dl_info info{};
      api.file = ::dladdr(reinterpret_cast<void*>(api.get_version), &info) != 0 && info.dli_fname != nullptr
                     ? std::string(info.dli_fname)
                     : path;
      loaded_description() = fmt::format("NCCL {} ({})", nccl_version_text(api.version), api.file);
      loaded() = LoadedNccl{api.file, nccl_version_text(api.version)};
      return api;
    }
    refused.push_back(path + ": " + why);
  }
  throw UsageError(
      fmt::format("--backend nccl: no usable NCCL (>= {}) found; tried: {}. Give one with --nccl-library PATH, put its "
                  "directory on LD_LIBRARY_PATH, or install the nvidia-nccl-cu12/cu13 wheel",
                  nccl_version_text(kNcclMinVersion), text::join(refused, "; ")));
}

}  // namespace podperf

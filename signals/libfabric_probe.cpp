// libfabric through dlopen: the real <rdma/fabric.h> (Debian libfabric-dev) supplies the types only;
// every function is reached through a pointer from dlsym.
#include "signals/libfabric_probe.hpp"

#include <dlfcn.h>
#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string_view>

#include "analysis/base/text.hpp"
#include "signals/dl_library.hpp"

namespace podperf {
namespace {

using VersionFn = std::uint32_t (*)();
using GetinfoFn = int (*)(std::uint32_t, const char*, const char*, std::uint64_t, const struct fi_info*,
                          struct fi_info**);
using FreeinfoFn = void (*)(struct fi_info*);
using StrerrorFn = const char* (*)(int);

std::string clean_text(const char* s) {
  return text::printable(s, 120, false);
}

}  // namespace

bool is_efa_provider(const std::string& provider) {
  std::string_view p = provider;
  while (!p.empty()) {
    const std::size_t semi = p.find(';');
    if (p.substr(0, semi) == "efa") return true;
    if (semi == std::string_view::npos) break;
    p.remove_prefix(semi + 1);
  }
  return false;
}

LibfabricRead read_libfabric(const std::string& library_path) {
  LibfabricRead r;
  r.info.library = library_path;
  void* lib = open_library(library_path, r.why);
  if (lib == nullptr) {
    if (library_path.empty()) r.why = "no libfabric library path given";
    return r;
  }
  auto version = reinterpret_cast<VersionFn>(::dlsym(lib, "fi_version"));
  auto getinfo = reinterpret_cast<GetinfoFn>(::dlsym(lib, "fi_getinfo"));
  auto freeinfo = reinterpret_cast<FreeinfoFn>(::dlsym(lib, "fi_freeinfo"));
  auto strerror_fn = reinterpret_cast<StrerrorFn>(::dlsym(lib, "fi_strerror"));
  if (version == nullptr || getinfo == nullptr || freeinfo == nullptr) {
    r.why = library_path + " lacks fi_version, fi_getinfo or fi_freeinfo";
    return r;
  }
  const std::uint32_t v = version();
  r.info.version = std::to_string(FI_MAJOR(v)) + "." + std::to_string(FI_MINOR(v));
  struct fi_info* list = nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = getinfo(FI_VERSION(1, 9), nullptr, nullptr, 0, nullptr, &list);
  r.info.getinfo_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.info.getinfo_rc = rc;
  if (rc != 0 && rc != -FI_ENODATA) {
    const char* e = strerror_fn != nullptr ? strerror_fn(-rc) : nullptr;
    r.why = "fi_getinfo: " + (e != nullptr ? clean_text(e) : std::string("error")) + " (" + std::to_string(rc) + ")";
    if (list != nullptr) freeinfo(list);
    return r;
  }
  std::set<std::string> names;
  constexpr std::size_t kMaxInfos = 4096;
  std::size_t seen = 0;
  for (const struct fi_info* i = list; i != nullptr && seen < kMaxInfos; i = i->next, ++seen) {
    if (i->fabric_attr != nullptr && i->fabric_attr->prov_name != nullptr)
      names.insert(clean_text(i->fabric_attr->prov_name));
  }
  if (list != nullptr) freeinfo(list);
  r.info.providers.assign(names.begin(), names.end());
  r.loaded = true;
  return r;
}

}  // namespace podperf

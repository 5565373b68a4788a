#include "signals/dl_library.hpp"

#include <dlfcn.h>

#include "analysis/base/text.hpp"

namespace podperf {

void* open_library(const std::string& path, std::string& why) {
  if (path.empty()) {
    why = "no library path given";
    return nullptr;
  }
  ::dlerror();
  void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* e = ::dlerror();
    why = "dlopen(" + path + "): " + (e != nullptr ? text::printable(e, 120, false) : std::string("failed"));
  }
  return lib;
}

}  // namespace podperf

#pragma once
// Paths of the host read under a root prefix ("/" on a real host, a fixture tree in tests): every signal
// reader that takes a root joins it here. Pure, local, never throws (except std::bad_alloc).
#include <string>
#include <string_view>

namespace podperf {

// `root` + `host_path` (an absolute host path such as "/proc/stat"), with the root's trailing slashes
// dropped: under_root("/", "/proc/stat") == "/proc/stat", under_root("/tmp/tree/", "/proc/stat") ==
// "/tmp/tree/proc/stat", under_root("", "/proc/stat") == "/proc/stat".
inline std::string under_root(const std::string& root, std::string_view host_path) {
  std::string base = root;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  if (base == "/") base.clear();
  return base + std::string(host_path);
}

}  // namespace podperf

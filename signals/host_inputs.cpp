// real_collect_inputs: this process's environment, limits, statvfs, hostname, /dev/kmsg and library
// names for the collectors. Signals floor, local, no MPI.
#include "signals/host_inputs.hpp"

#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>

#include "signals/kmsg.hpp"
#include "signals/root_path.hpp"

extern char** environ;  // NOLINT: POSIX

namespace podperf {
namespace {

std::optional<Rlimit> get_limit(int resource) {
  struct rlimit l {};
  if (::getrlimit(resource, &l) != 0) return std::nullopt;
  Rlimit r;
  r.unlimited = l.rlim_cur == RLIM_INFINITY;
  r.bytes = r.unlimited ? 0 : static_cast<std::uint64_t>(l.rlim_cur);
  return r;
}

}  // namespace

CollectInputs real_collect_inputs(const std::string& root) {
  CollectInputs in;
  const bool real_root = root.empty() || root == "/";
  if (real_root) {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) == 0) in.hostname = name;
  }
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string kv = *e;
    const std::size_t eq = kv.find('=');
    if (eq == std::string::npos) continue;
    in.env.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  in.memlock = get_limit(RLIMIT_MEMLOCK);
  in.stack = get_limit(RLIMIT_STACK);
  in.statvfs = [root](const std::string& mount_point) -> std::optional<FsSpace> {
    struct statvfs v {};
    if (::statvfs(under_root(root, mount_point).c_str(), &v) != 0) return std::nullopt;
    const auto frsize = static_cast<std::uint64_t>(v.f_frsize != 0 ? v.f_frsize : v.f_bsize);
    return FsSpace{static_cast<std::uint64_t>(v.f_blocks) * frsize, static_cast<std::uint64_t>(v.f_bavail) * frsize};
  };
  // Libraries: the host's own on the real root; on a fixture tree only those named by PODPERF_*_LIBRARY
  // (a fake NVML in tests), so a tree is not mixed with this machine's GPUs and providers.
  auto library = [real_root](const char* env_name, const char* host_default) -> std::string {
    const char* v = std::getenv(env_name);
    if (v != nullptr && *v != '\0') return v;
    return real_root ? host_default : "";
  };
  in.nvml_library = library("PODPERF_NVML_LIBRARY", "libnvidia-ml.so.1");
  in.libfabric_library = library("PODPERF_LIBFABRIC_LIBRARY", "libfabric.so.1");
  in.nccl_library = library("PODPERF_NCCL_LIBRARY", "libnccl.so.2");
  in.cuda_library = library("PODPERF_CUDA_LIBRARY", "libcuda.so.1");
  KmsgRead k = read_kmsg_nonblocking(under_root(root, "/dev/kmsg"));
  if (k.ok) {
    in.kmsg_text = std::move(k.text);
  } else {
    in.kmsg_why = k.why;
  }
  return in;
}

}  // namespace podperf

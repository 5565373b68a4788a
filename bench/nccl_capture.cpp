#include "bench/nccl_capture.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/nccl_log.hpp"

namespace podperf {
namespace {
constexpr std::size_t kMaxLogBytes = 8U << 20;  // per process; INIT,NET logs are kilobytes

bool is_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

// This process's file: NCCL expands %h to the host name and %p to the pid.
std::string read_own_log(const std::string& dir) {
  namespace fs = std::filesystem;
  const std::string suffix = fmt::format(".{}", static_cast<long>(getpid()));
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("nccl.", 0) == 0 && name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::string text(kMaxLogBytes, '\0');
      in.read(text.data(), static_cast<std::streamsize>(text.size()));
      text.resize(static_cast<std::size_t>(in.gcount()));
      if (!text.empty() && text.back() != '\n') text.push_back('\n');
      return text;
    }
  }
  return {};
}
}  // namespace

NcclLogCapture prepare_nccl_log(const std::string& run_dir) {
  NcclLogCapture c;
  c.run_dir = run_dir;
  if (is_set("NCCL_DEBUG") || is_set("NCCL_DEBUG_FILE")) {
    c.note = "not captured: NCCL_DEBUG or NCCL_DEBUG_FILE set by the user";
    return c;
  }
  std::error_code ec;
  std::filesystem::create_directories(run_dir, ec);
  if (ec) {
    c.note = fmt::format("not captured: cannot create {} on every node ({})", run_dir, ec.message());
    return c;
  }
  setenv("NCCL_DEBUG", "INFO", 1);
  if (!is_set("NCCL_DEBUG_SUBSYS")) setenv("NCCL_DEBUG_SUBSYS", "INIT,NET", 1);
  setenv("NCCL_DEBUG_FILE", (run_dir + "/nccl.%h.%p").c_str(), 1);
  c.captured = true;
  c.note = "captured in nccl.<host>.<pid> (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET)";
  return c;
}

std::string nccl_log_note(const NcclLogCapture& capture, std::string_view backend_name) {
  return backend_name == "nccl" ? capture.note
                                : fmt::format("not applicable: the {} backend does not use NCCL", backend_name);
}

std::vector<Finding> collect_nccl_findings(const Comm& world, const NcclLogCapture& capture) {
  const std::string mine = capture.captured ? read_own_log(capture.run_dir) : std::string();
  const std::vector<std::string> all = gather_strings(world, mine, 0);
  if (world.rank() != 0 || !capture.captured) return {};
  std::string text;
  for (const std::string& t : all) text += t;
  // Expected EFA NIC count is unknown here (it comes with the per-instance baselines): 0 skips that rule.
  return nccl_log_findings(parse_nccl_log(text), 0);
}

}  // namespace podperf

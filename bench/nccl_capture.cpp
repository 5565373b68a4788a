// Captures NCCL's debug log per process and reads it with the triage reader (contract in
// bench/nccl_capture.hpp).
#include "bench/nccl_capture.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/logs/nccl_log.hpp"
#include "bench/nccl_api.hpp"

namespace podperf {
namespace {
constexpr std::size_t kMaxLogBytes = 8U << 20;  // per process; INIT,NET logs are kilobytes

bool is_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

// This host's name as it goes into the log file's name: podperf writes it itself (not NCCL's %h, which
// stops at the first '.'), with '/' and '%' replaced, so host and pid together name one process's file
// even with a shared --out and containers whose pids repeat.
std::string own_log_host() {
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) != 0) return "unknown-host";
  std::string h(host.data());
  for (char& ch : h) {
    if (ch == '/' || ch == '%') ch = '_';
  }
  return h.empty() ? "unknown-host" : h;
}

// This process's file: nccl.<own_log_host>.<pid> (NCCL expands %p to the pid).
std::string read_own_log(const std::string& dir) {
  const std::string path = fmt::format("{}/nccl.{}.{}", dir, own_log_host(), static_cast<long>(getpid()));
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::string text(kMaxLogBytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;  // a last line without '\n' was cut (the process died, or kMaxLogBytes): the reader drops it
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
  setenv("NCCL_DEBUG_FILE", fmt::format("{}/nccl.{}.%p", run_dir, own_log_host()).c_str(), 1);
  c.captured = true;
  c.note = "captured in nccl.<host>.<pid> (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET)";
  return c;
}

std::string nccl_log_note(const NcclLogCapture& capture, std::string_view backend_name) {
  if (backend_name != "nccl") return fmt::format("not applicable: the {} backend does not use NCCL", backend_name);
  const std::string& library = loaded_nccl_description();
  return library.empty() ? capture.note : fmt::format("{}; log {}", library, capture.note);
}

std::vector<Finding> collect_nccl_findings(const Comm& world, const NcclLogCapture& capture) {
  const std::string mine = capture.captured ? read_own_log(capture.run_dir) : std::string();
  const std::vector<std::string> all = gather_strings(world, mine, 0);
  if (world.rank() != 0 || !capture.captured) return {};
  std::vector<std::pair<std::string, std::string>> logs;
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (!all[r].empty()) logs.emplace_back(fmt::format("rank {} nccl log", r), all[r]);
  }
  // The expected EFA NIC count comes from the instance type the plugin printed (configs/skus) or is
  // unknown: the rule is skipped then.
  return nccl_log_findings(parse_nccl_logs(logs), 0);
}

}  // namespace podperf

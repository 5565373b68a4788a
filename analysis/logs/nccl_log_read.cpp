// podperf's captured NCCL log through the triage reader (contract in analysis/logs/nccl_log.hpp): the texts
// or files fed to one logs::TriageAccumulator, and the transport classes and one-line description the
// captured-log rules use.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "analysis/base/text.hpp"
#include "analysis/logs/log_reader.hpp"
#include "analysis/logs/nccl_log.hpp"

namespace podperf {

logs::TriageResult parse_nccl_log(std::string_view text, const std::string& name) {
  logs::TriageAccumulator acc(logs::HostAttribution::file_process);
  std::size_t order = 0;
  acc.add_file(logs::read_log_text(
      text, name, order, [&acc](const logs::LogEvent& ev) { acc.add(ev); }, logs::CutLastLine::drop));
  return acc.finish();
}

logs::TriageResult parse_nccl_logs(const std::vector<std::pair<std::string, std::string>>& texts) {
  logs::TriageAccumulator acc(logs::HostAttribution::file_process);
  std::size_t order = 0;
  for (const auto& [name, text] : texts) {
    acc.add_file(logs::read_log_text(
        text, name, order, [&acc](const logs::LogEvent& ev) { acc.add(ev); }, logs::CutLastLine::drop));
  }
  return acc.finish();
}

logs::TriageResult parse_nccl_log_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  for (const fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->path().filename().string().starts_with("nccl.") && it->is_regular_file(type_ec) && !type_ec) {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  logs::TriageAccumulator acc(logs::HostAttribution::file_process);
  std::size_t order = 0;
  for (const fs::path& f : files) {
    acc.add_file(logs::read_log_file(
        f.string(), order, [&acc](const logs::LogEvent& ev) { acc.add(ev); }, logs::CutLastLine::drop));
  }
  return acc.finish();
}

bool is_tcp_provider(std::string_view provider) {
  return provider.find("tcp") != std::string_view::npos || provider.starts_with("sockets") ||
         provider.starts_with("udp");
}

bool uses_socket_transport(const logs::HostTransport& t) {
  if (t.net == "Socket") return true;
  if (t.net_channels > 0 && t.socket_channels == t.net_channels) return true;
  return t.net.empty() && t.plugin_missing && t.provider.empty() && !t.ib_used && t.net_channels == 0;
}

std::string describe_transport(const logs::HostTransport& t) {
  if (uses_socket_transport(t)) {
    std::string s = "Socket (TCP fallback)";
    if (!t.socket_ifaces.empty()) s += " on " + text::join(t.socket_ifaces, ",");
    return s;
  }
  std::string net = t.net;
  if (net.empty() && t.ib_used) net = "IB";
  if (net.empty() && t.provider.empty()) {
    if (!t.intra.empty()) return "intra-node only (" + text::join(t.intra, "+") + ")";
    return "unknown transport";
  }
  std::string s = net.empty() ? std::string("Libfabric") : net;
  if (!t.provider.empty()) {
    s += "/" + t.provider;
    if (is_tcp_provider(t.provider)) s += " (TCP, not EFA)";
  }
  if (t.nics_found >= 0) s += fmt::format(" {} NIC{}", t.nics_found, t.nics_found == 1 ? "" : "s");
  if (t.net_channels > t.gdrdma_channels) {
    s += t.gdrdma_channels > 0 ? " GDRDMA on some channels only" : " without GDRDMA";
  } else if (t.gdrdma_channels > 0) {
    s += " GDRDMA";
  }
  return s;
}

}  // namespace podperf

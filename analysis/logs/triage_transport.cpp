// Transport facts per host from NCCL's and aws-ofi-nccl's INFO lines (LOG-PATTERNS.md sections 0-1,
// old and new wording) and the findings they carry; evidence_line. Contract in triage_rules.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analysis/logs/triage_rules.hpp"
#include "analysis/sku.hpp"
#include "analysis/text.hpp"

namespace podperf::logs {
namespace {

bool has(const std::string& s, std::string_view p) {
  return s.find(p) != std::string::npos;
}

// The integer right after `key` in `s`; -1 when absent.
int int_after(const std::string& s, std::string_view key) {
  const std::size_t at = s.find(key);
  if (at == std::string::npos) return -1;
  std::size_t i = at + key.size();
  while (i < s.size() && s[i] == ' ') ++i;
  int v = 0;
  std::size_t n = 0;
  while (i < s.size() && n < 9 && std::isdigit(static_cast<unsigned char>(s[i]))) v = v * 10 + (s[i++] - '0'), ++n;
  return n > 0 ? v : -1;
}

// The integer right before `key` ("32 coll channels"); -1 when absent.
int int_before(const std::string& s, std::string_view key) {
  const std::size_t at = s.find(key);
  if (at == std::string::npos || at < 2) return -1;
  std::size_t e = at;
  while (e > 0 && s[e - 1] == ' ') --e;
  std::size_t b = e;
  while (b > 0 && std::isdigit(static_cast<unsigned char>(s[b - 1]))) --b;
  if (b == e || e - b > 9) return -1;
  return std::stoi(s.substr(b, e - b));
}

// The word after `key`, up to a blank or ','.
std::string word_after(const std::string& s, std::string_view key) {
  const std::size_t at = s.find(key);
  if (at == std::string::npos) return "";
  const std::size_t b = at + key.size();
  std::size_t e = b;
  while (e < s.size() && s[e] != ' ' && s[e] != ',' && s[e] != ';') ++e;
  return s.substr(b, e - b);
}

void read_channel(const std::string& via, HostTransport& t) {
  if (via.rfind("NET/", 0) == 0) {
    ++t.net_channels;
    const std::size_t slash = via.find('/', 4);
    const std::string name = via.substr(4, slash == std::string::npos ? std::string::npos : slash - 4);
    if (name == "Socket") ++t.socket_channels;
    if (slash != std::string::npos) {
      const int idx = int_after(via.substr(slash), "/");
      if (idx >= 0 && t.nic_indices.size() < 1024) t.nic_indices.insert(idx);
      const std::size_t after = via.find_first_not_of("0123456789", slash + 1);
      if (after != std::string::npos && via[after] == '(' && after + 1 < via.size() &&
          std::isdigit(static_cast<unsigned char>(via[after + 1]))) {
        t.pxn = true;
      }
    }
    if (has(via, "/GDRDMA")) ++t.gdrdma_channels;
  } else if (via.rfind("P2P/CUMEM", 0) == 0 || via.rfind("P2P/MNNVL", 0) == 0) {
    t.intra.insert("P2P/CUMEM");
  } else if (via.rfind("P2P/IPC", 0) == 0) {
    t.intra.insert("P2P/IPC");
  } else if (via.rfind("P2P/direct", 0) == 0) {
    t.intra.insert("P2P/direct");
  } else if (via.rfind("P2P/indirect", 0) == 0) {
    t.intra.insert("P2P/indirect");
  } else if (via.rfind("P2P", 0) == 0) {
    t.intra.insert("P2P");
  } else if (via.rfind("SHM", 0) == 0 || via.rfind("direct shared memory", 0) == 0) {
    t.intra.insert("SHM");
  } else if (via.rfind("CollNet", 0) == 0) {
    t.intra.insert("CollNet");
  }
}

}  // namespace

void read_transport_line(const LogEvent& ev, HostTransport& t) {
  const std::string& s = ev.text;
  if (s.rfind("NCCL version ", 0) == 0) t.nccl_version = word_after(s, "NCCL version ");
  if (has(s, "cudaDriverVersion")) t.cuda_driver = word_after(s, "cudaDriverVersion ");
  if (has(s, "Using network "))
    t.net = std::string(text::trim(std::string_view(s).substr(s.find("Using network ") + 14)));
  if (has(s, "Using internal Network Socket")) t.net = "Socket";
  if (has(s, "NET/IB : Using") || has(s, "NET/IB: Using")) t.ib_used = true;
  if (s.rfind("NET/OFI", 0) == 0) t.ofi_seen = true;
  if (has(s, "elected provider is ") || has(s, "elected Provider is ")) {
    t.provider = word_after(s, has(s, "provider is ") ? "provider is " : "Provider is ");
    const int n = int_after(s, "(found ");
    if (n >= 0) t.nics_found = n;
  }
  if (has(s, "Initializing aws-ofi-nccl ")) t.plugin_version = word_after(s, "Initializing aws-ofi-nccl ");
  if (has(s, "Running on ") && has(s, " platform")) {
    std::string type = word_after(s, "Running on ");
    std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::tolower(c); });
    t.instance_type = type;
  }
  if (has(s, " via ") && (s.rfind("Channel ", 0) == 0 || s.rfind("Ring ", 0) == 0)) {
    read_channel(s.substr(s.find(" via ") + 5), t);
  }
  if (has(s, "NVLS multicast support is not available")) {
    t.nvls = "not available";
  } else if (has(s, "NVLS multicast support is available")) {
    t.nvls = "available";
  }
  if (const int n = int_before(s, "coll channels"); n >= 0) t.coll_channels = n;
  if (const int n = int_after(s, " nNodes "); n >= 0) t.nnodes = n;
  if (const int n = int_after(s, " nRanks "); n >= 0) t.nranks = n;
  if (has(s, "use ring PXN 1")) t.pxn = true;
  if (has(s, " set by environment to ") && t.env_overrides.size() < 64) {
    std::string name = s.substr(0, s.find(" set by environment to "));
    if (const std::size_t sp = name.rfind(' '); sp != std::string::npos) name = name.substr(sp + 1);
    std::string value = word_after(s, " set by environment to ");
    while (!value.empty() && value.back() == '.') value.pop_back();
    t.env_overrides.insert(name + "=" + value);
  }
}

namespace {

TriageFinding transport_finding(std::string check, std::string tag, int priority, std::string host, std::string cause,
                                std::string next_step, int rank) {
  TriageFinding f;
  f.tag = std::move(tag);
  f.priority = priority;
  f.check = std::move(check);
  f.host = host;
  if (!host.empty() && host.rfind("systemic", 0) != 0) f.hosts.push_back(host);
  f.cause = std::move(cause);
  f.next_step = std::move(next_step);
  f.cause_rank = rank;
  f.occurrences = 1;
  return f;
}

// A present "Using network IB/Libfabric" (or, without any "Using network" line, "NET/IB : Using") is never
// overridden: only an explicit Socket net or NET/Socket channel lines make a fallback.
bool uses_fast_net(const HostTransport& t) {
  if (t.net.empty()) return t.ib_used;
  return t.net == "IB" || t.net == "IBext" || t.net.find("Libfabric") != std::string::npos ||
         t.net.find("OFI") != std::string::npos;
}

// "12.2" of "2.18.3+cuda12.2" as 12020; -1 when absent.
int nccl_cuda_build(const std::string& version) {
  const std::size_t at = version.find("+cuda");
  if (at == std::string::npos) return -1;
  int major = 0, minor = 0;
  if (std::sscanf(version.c_str() + at + 5, "%d.%d", &major, &minor) < 1) return -1;
  return major * 1000 + minor * 10;
}

// A finding when hosts disagree on a field.
void drift(const std::map<std::string, HostTransport>& hosts, const char* what,
           std::string (*field)(const HostTransport&), std::vector<TriageFinding>& out) {
  std::map<std::string, std::vector<std::string>> by_value;
  for (const auto& [h, t] : hosts) {
    const std::string v = field(t);
    if (!v.empty()) by_value[v].push_back(h);
  }
  if (by_value.size() < 2) return;
  std::vector<std::string> parts;
  for (const auto& [v, hs] : by_value) parts.push_back(v + " on " + text::join(hs));
  out.push_back(transport_finding(std::string("transport.drift.") + what, "WARN", 1, "",
                                  std::string("hosts differ in ") + what + ": " + text::join(parts, "; "),
                                  "make the images and environment identical on every host", 55));
}

}  // namespace

void transport_findings(std::map<std::string, HostTransport>& hosts, std::vector<TriageFinding>& out) {
  int max_nodes = 0;
  for (const auto& [h, t] : hosts) max_nodes = std::max(max_nodes, t.nnodes);
  const bool multi_node = max_nodes > 1 || (max_nodes <= 0 && hosts.size() > 1);
  for (auto& [h, t] : hosts) {
    if (!t.instance_type.empty()) {
      std::optional<Sku> sku = builtin_sku_for(t.instance_type);
      if (!sku && t.instance_type.find('.') == std::string::npos) sku = builtin_sku_for(t.instance_type + ".24xlarge");
      if (!sku && t.instance_type.find('.') == std::string::npos) sku = builtin_sku_for(t.instance_type + ".48xlarge");
      if (sku) t.sku_efa_devices = sku->efa_devices;
    }
    const bool socket = t.net == "Socket" || (t.socket_channels > 0 && t.socket_channels == t.net_channels);
    if (socket && multi_node && !uses_fast_net(t)) {
      out.push_back(transport_finding(
          "transport.tcp_fallback", "WARN", 1, h,
          "NCCL uses its Socket transport (TCP) between nodes: no IB or EFA net plugin was in use on this host",
          "set NCCL_NET to the expected plugin (IB, or \"AWS Libfabric\"/Libfabric) so a fallback errors out; "
          "check ibv_devinfo / fi_info -p efa inside the job",
          60));
    }
    if (t.provider == "tcp" || t.provider == "sockets") {
      out.push_back(transport_finding("transport.libfabric_tcp", "WARN", 1, h,
                                      "libfabric runs over its " + t.provider + " provider, not EFA",
                                      "fi_info -p efa inside the job; check FI_PROVIDER", 60));
    }
    if (t.sku_efa_devices > 0 && t.nics_found >= 0 && t.nics_found + 1 < t.sku_efa_devices) {
      out.push_back(transport_finding(
          "transport.nic_count", "WARN", 1, h,
          fmt::format("aws-ofi-nccl found {} NICs; {} has {} (configs/skus)", t.nics_found, t.instance_type,
                      t.sku_efa_devices),
          "fi_info -p efa | grep -c domain on that host; check the EFA interfaces attached to the instance", 55));
    }
    const int build = nccl_cuda_build(t.nccl_version);
    int driver = -1;
    if (!t.cuda_driver.empty() && text::to_number(t.cuda_driver, driver) && build > 0 && driver > 0 && driver < build) {
      out.push_back(transport_finding(
          "transport.driver_older_than_nccl", "WARN", 1, h,
          fmt::format("CUDA driver {} is older than the CUDA {} NCCL {} was built for", driver, build, t.nccl_version),
          "nvidia-smi on that host; upgrade the driver or use an NCCL built for this driver's CUDA", 70));
    }
    if (!t.env_overrides.empty()) {
      out.push_back(transport_finding("nccl.env_overrides", "INFO", 2, h,
                                      "environment overrides in effect: " + text::join(t.env_overrides),
                                      "check that each is intended (forcing PROTO, ALGO or IB_DISABLE slows or hangs "
                                      "jobs)",
                                      5));
    }
  }
  drift(
      hosts, "nccl_version", [](const HostTransport& t) { return t.nccl_version; }, out);
  drift(
      hosts, "cuda_driver", [](const HostTransport& t) { return t.cuda_driver; }, out);
  drift(
      hosts, "plugin_version", [](const HostTransport& t) { return t.plugin_version; }, out);
  drift(
      hosts, "net", [](const HostTransport& t) { return t.net; }, out);
}

std::string evidence_line(const LogEvent& ev) {
  std::string where = ev.file + ":" + std::to_string(ev.line) + ": ";
  if (!ev.host.empty()) where += "[" + ev.host + "] ";
  return where + text::printable(ev.text, 300, true);
}

}  // namespace podperf::logs

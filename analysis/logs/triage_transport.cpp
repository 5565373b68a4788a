// Transport facts per host from NCCL's and aws-ofi-nccl's INFO lines (old and
// new wording) and the findings they carry; evidence_line. Contract in triage_rules.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "analysis/base/text.hpp"
#include "analysis/config/sku.hpp"
#include "analysis/logs/triage_rules.hpp"

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

// The word after `key`, up to a blank or ',' (and ';' unless `keep_semicolon`: "tcp;ofi_rxm").
std::string word_after(const std::string& s, std::string_view key, bool keep_semicolon = false) {
  const std::size_t at = s.find(key);
  if (at == std::string::npos) return "";
  const std::size_t b = at + key.size();
  std::size_t e = b;
  while (e < s.size() && s[e] != ' ' && s[e] != ',' && (keep_semicolon || s[e] != ';')) ++e;
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
  } else if (via.rfind("direct pointer", 0) == 0) {  // NCCL 2.4 wording
    t.intra.insert("P2P/direct");
  } else if (via.rfind("SHM", 0) == 0 || via.rfind("direct shared memory", 0) == 0) {
    t.intra.insert("SHM");
  } else if (via.rfind("CollNet", 0) == 0) {
    t.intra.insert("CollNet");
  }
}

// "NET/Socket : Using [0]eth0:10.0.0.1<0> [1]ens5:10.0.0.2<0>", "Bootstrap : Using lo:127.0.0.1<0>",
// "NET : Using interface eth0:10.0.0.1<0>": the interface names after `from`.
void read_ifaces(const std::string& s, std::size_t from, std::set<std::string>& out) {
  std::size_t i = from;
  while (i < s.size() && out.size() < kMaxListed) {
    while (i < s.size() && s[i] == ' ') ++i;
    if (i < s.size() && s[i] == '[') {  // "[0]" index
      std::size_t k = i + 1;
      while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k;
      if (k < s.size() && s[k] == ']') i = k + 1;
    }
    const std::size_t end = s.find_first_of(": <;", i);
    if (end == std::string::npos || end == i || s[end] != ':') return;
    out.insert(text::printable(s.substr(i, end - i), 64, true));
    const std::size_t next = s.find(' ', end);
    if (next == std::string::npos) return;
    i = next + 1;
    if (s.compare(i, 4, "OOB ") == 0) return;
  }
}

// The net plugin lines: which plugin loaded, or that none was found.
void read_plugin_line(const std::string& s, HostTransport& t) {
  const bool loaded =
      s.rfind("NET/OFI Initializing aws-ofi-nccl", 0) == 0 || has(s, "Loaded net plugin") ||
      (has(s, "Successfully loaded external") && !has(s, "tuner") && !has(s, "profiler") && !has(s, "env plugin"));
  if (loaded) {
    t.plugin_loaded = true;
    t.plugin_missing = false;
  } else if (s.rfind("NET/Plugin", 0) == 0 && (has(s, "Could not find") || has(s, "No plugin found"))) {
    if (!t.plugin_loaded) t.plugin_missing = true;
  }
}

// aws-ofi-nccl's "NET/OFI ..." lines: the provider, fabric and NIC count, the plugin version, the
// instance type.
void read_ofi_line(const std::string& s, HostTransport& t) {
  if (has(s, "elected provider is ") || has(s, "elected Provider is ")) {
    std::string prov = word_after(s, has(s, "provider is ") ? "provider is " : "Provider is ", true);
    while (!prov.empty() && (prov.back() == '.' || prov.back() == ';')) prov.pop_back();
    t.provider = text::printable(prov, 64, true);
    t.fabric = text::printable(word_after(s, ", fabric is "), 64, true);
    const int n = int_after(s, "(found ");
    if (n >= 0 && has(s.substr(s.find("(found ")), " nic")) t.nics_found = n;
  }
  if (has(s, "Initializing aws-ofi-nccl ")) t.plugin_version = word_after(s, "Initializing aws-ofi-nccl ");
  if (has(s, "Running on ") && has(s, " platform")) {
    std::string type = word_after(s, "Running on ");
    std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::tolower(c); });
    t.instance_type = type;
  }
}

// "Channel 00/32 :    0   1   2" (a ring list, no "->"): 32 channels.
int ring_list_channels(const std::string& s) {
  if (s.rfind("Channel ", 0) != 0 || has(s, "->")) return -1;
  const std::size_t slash = s.find('/');
  const std::size_t colon = s.find(" :");
  if (slash == std::string::npos || colon == std::string::npos || colon < slash) return -1;
  const int n = int_after(s.substr(slash, colon - slash), "/");
  return n > 0 && n <= 4096 ? n : -1;
}

}  // namespace

void read_transport_line(const LogEvent& ev, HostTransport& t) {
  const std::string& s = ev.text;
  ++t.nccl_lines;
  if (ev.pid >= 0 && t.pids.size() < 4096) t.pids.insert(ev.pid);
  if (ev.cuda_dev >= 0 && t.cuda_devices.size() < kMaxListed) t.cuda_devices.insert(ev.cuda_dev);
  if (ev.level == "WARN" && t.warnings.size() < kMaxListed) {
    std::string w = text::printable(s, 300, true);
    if (std::find(t.warnings.begin(), t.warnings.end(), w) == t.warnings.end()) t.warnings.push_back(std::move(w));
  }
  if (s.empty()) return;
  // Every fact below is on a line that starts with a known word; the first character picks the few
  // searches that can apply (a 2 GiB log spends most of its time here otherwise).
  const char first = s.front();
  if (first == 'N' || first == 'S') read_plugin_line(s, t);
  if (first == 'N') {
    if (s.rfind("NCCL version ", 0) == 0) t.nccl_version = word_after(s, "NCCL version ");
    if (s.rfind("NET/Socket", 0) == 0 && has(s, "Using [")) read_ifaces(s, s.find("Using [") + 6, t.socket_ifaces);
    if (s.rfind("NET : Using interface ", 0) == 0) read_ifaces(s, 22, t.socket_ifaces);  // old wording
    if (s.rfind("NET/IB", 0) == 0) {
      if (const std::size_t oob = s.find("; OOB "); oob != std::string::npos) {
        read_ifaces(s, oob + 6, t.bootstrap_ifaces);
      }
      if (has(s, "No device found")) t.ib_no_device = true;
      if (has(s, "NET/IB : Using") || has(s, "NET/IB: Using")) t.ib_used = true;
    }
    if (s.rfind("NCCL_IB_HCA set", 0) == 0) t.ib_expected = true;
    if (s.rfind("NET/OFI", 0) == 0) {
      t.ofi_seen = true;
      read_ofi_line(s, t);
    }
    if (has(s, "NVLS multicast support is not available")) {
      t.nvls = "not available";
    } else if (has(s, "NVLS multicast support is available")) {
      t.nvls = "available";
    }
    if (s.rfind("NCCL_", 0) == 0 && has(s, " set by environment to ") && t.env_overrides.size() < 64) {
      std::string name = s.substr(0, s.find(" set by environment to "));
      if (const std::size_t sp = name.rfind(' '); sp != std::string::npos) name = name.substr(sp + 1);
      std::string value = word_after(s, " set by environment to ");
      while (!value.empty() && value.back() == '.') value.pop_back();
      t.env_overrides.insert(name + "=" + value);
      if (name == "NCCL_IB_DISABLE" && value == "0") t.ib_expected = true;
    }
  } else if (first == 'B') {
    if (s.rfind("Bootstrap", 0) == 0 && has(s, ": Using ")) {
      read_ifaces(s, s.find(": Using ") + 8, t.bootstrap_ifaces);
    }
  } else if (first == 'C' || first == 'R') {
    if (const int n = ring_list_channels(s); n > t.coll_channels) t.coll_channels = n;
    if ((s.rfind("Channel ", 0) == 0 || s.rfind("Ring ", 0) == 0) && has(s, " via ")) {
      read_channel(s.substr(s.find(" via ") + 5), t);
    }
    if (has(s, "use ring PXN 1")) t.pxn = true;
    if (has(s, "use ring PXN") && has(s, " GDR 0")) t.ring_gdr_off = true;
  } else if (first == 'c' || first == 'n') {
    if (s.rfind("cudaDriverVersion", 0) == 0) t.cuda_driver = word_after(s, "cudaDriverVersion ");
    if (const int n = int_after(s, " nNodes "); n > t.nnodes) t.nnodes = n;
    if (const int n = int_after(s, " nRanks "); n > t.nranks) t.nranks = n;
    if (const int n = int_after(s, " nranks "); n > t.nranks) t.nranks = n;  // ncclCommInitRank ... nranks N
  } else if (first == 'U') {
    if (s.rfind("Using network ", 0) == 0) t.net = std::string(text::trim(std::string_view(s).substr(14)));
    if (s.rfind("Using internal Network Socket", 0) == 0) t.net = "Socket";
  } else if (std::isdigit(static_cast<unsigned char>(first))) {
    if (const int n = int_before(s, "coll channels"); n > t.coll_channels) t.coll_channels = n;
  }
}

namespace {

TriageFinding transport_finding(std::string check, std::string tag, int priority, std::string host, std::string cause,
                                std::string next_step, int rank) {
  TriageFinding f;
  f.tag = std::move(tag);
  f.priority = priority;
  f.check = std::move(check);
  f.host = host == "(unknown host)" ? "unknown" : host;
  if (!host.empty() && host.rfind("systemic", 0) != 0 && host != "(unknown host)") f.hosts.push_back(host);
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

namespace {

// A virtual bridge or container interface: Docker's docker0 and br-<id>, libvirt's virbr<N>, veth pairs,
// CNI bridges.
bool is_virtual_bridge(const std::string& name) {
  return name.rfind("docker", 0) == 0 || name.rfind("virbr", 0) == 0 || name.rfind("br-", 0) == 0 ||
         name.rfind("veth", 0) == 0 || name.rfind("cni", 0) == 0 || name.rfind("lxcbr", 0) == 0 ||
         name.rfind("flannel", 0) == 0;
}

// A setting of the environment that disables or forces part of NCCL's transport: the finding it makes.
struct EnvRule {
  std::string_view name;  // "NCCL_IB_DISABLE"
  bool (*applies)(const std::string& value);
  std::string_view check;
  int cause_rank;
  std::string_view cause;  // "{v}": the setting
  std::string_view fix;
};

bool is_on(const std::string& v) {
  return v == "1" || v == "true" || v == "TRUE" || v == "yes";
}
bool is_loc(const std::string& v) {
  return v == "LOC" || v == "0";
}
bool any_value(const std::string& v) {
  return !v.empty();
}
bool is_socket(const std::string& v) {
  return v == "Socket" || v == "socket";
}

constexpr std::array kEnvRules = {
    EnvRule{"NCCL_IB_DISABLE", is_on, "config.ib_disabled", 60,
            "{v}: NCCL's InfiniBand/RoCE transport is off, so traffic between nodes goes over TCP sockets (over "
            "IPoIB at best)",
            "unset NCCL_IB_DISABLE (or set it to 0) in the job's environment"},
    EnvRule{"NCCL_NET", is_socket, "config.ib_disabled", 60,
            "{v}: NCCL is forced onto its TCP socket transport between nodes",
            "unset NCCL_NET, or name the fast network (IB, or \"AWS Libfabric\"/Libfabric on EFA)"},
    EnvRule{"NCCL_P2P_DISABLE", is_on, "config.p2p_disabled", 55,
            "{v}: GPU peer-to-peer (NVLink/PCIe P2P) is off, so GPUs of one node talk through host memory",
            "unset NCCL_P2P_DISABLE; if it works around a P2P problem, fix that (ACS/IOMMU, driver)"},
    EnvRule{"NCCL_P2P_LEVEL", is_loc, "config.p2p_disabled", 55,
            "{v}: GPU peer-to-peer is off between the GPUs of a node (traffic through host memory)",
            "unset NCCL_P2P_LEVEL (NCCL picks the level from the topology)"},
    EnvRule{"NCCL_SHM_DISABLE", is_on, "config.shm_disabled", 50,
            "{v}: the shared-memory transport is off, so GPUs of one node without P2P go through the network",
            "unset NCCL_SHM_DISABLE"},
    EnvRule{"NCCL_NET_GDR_LEVEL", is_loc, "config.gdr_disabled", 50,
            "{v}: GPU Direct RDMA is off, so network traffic is staged through host memory",
            "unset NCCL_NET_GDR_LEVEL"},
    EnvRule{"NCCL_PROTO", any_value, "config.forced_protocol", 45,
            "{v}: NCCL's protocol choice is forced (a debugging setting: slower for most sizes, and ranks that "
            "differ in it hang)",
            "unset NCCL_PROTO unless a known bug needs it"},
    EnvRule{"NCCL_ALGO", any_value, "config.forced_protocol", 45,
            "{v}: NCCL's algorithm choice is forced (a debugging setting: slower for most sizes and scales)",
            "unset NCCL_ALGO unless a known bug needs it"},
};

// One finding per setting rule, over every host that has it.
void env_findings(const std::map<std::string, HostTransport>& hosts, std::vector<TriageFinding>& out) {
  for (const EnvRule& rule : kEnvRules) {
    std::set<std::string> values;
    std::vector<std::string> on;
    for (const auto& [h, t] : hosts) {
      for (const std::string& kv : t.env_overrides) {
        const std::size_t eq = kv.find('=');
        if (eq == std::string::npos || std::string_view(kv).substr(0, eq) != rule.name) continue;
        if (!rule.applies(kv.substr(eq + 1))) continue;
        values.insert(kv);
        if (h != "(unknown host)" && std::find(on.begin(), on.end(), h) == on.end()) on.push_back(h);
      }
    }
    if (values.empty()) continue;
    std::string cause(rule.cause);
    cause.replace(cause.find("{v}"), 3, text::join(values));
    TriageFinding f = transport_finding(std::string(rule.check), "WARN", 1, on.size() == 1 ? on.front() : "", cause,
                                        std::string(rule.fix), rule.cause_rank);
    f.hosts = on;
    if (on.size() > 1) f.host = "systemic: " + std::to_string(on.size()) + " hosts";
    // Two rules of one check (NCCL_P2P_DISABLE and NCCL_P2P_LEVEL): one finding.
    auto same = std::find_if(out.begin(), out.end(), [&f](const TriageFinding& o) { return o.check == f.check; });
    if (same != out.end()) {
      same->cause += "; " + f.cause;
      same->next_step += "; " + f.next_step;
      continue;
    }
    out.push_back(std::move(f));
  }
}

// Virtual bridges in a host's socket or bootstrap interface list; loopback in it on a multi-node job.
void interface_findings(const std::string& h, const HostTransport& t, bool multi_node,
                        std::vector<TriageFinding>& out) {
  std::set<std::string> all = t.socket_ifaces;
  all.insert(t.bootstrap_ifaces.begin(), t.bootstrap_ifaces.end());
  std::vector<std::string> bridges;
  for (const std::string& i : all) {
    if (is_virtual_bridge(i)) bridges.push_back(i);
  }
  if (!bridges.empty()) {
    out.push_back(transport_finding(
        "config.virtual_bridge_interface", "WARN", 1, h,
        "NCCL's socket interfaces include virtual bridge(s) " + text::join(bridges) +
            " (Docker, libvirt or CNI): bootstrap or Socket traffic may use an address other nodes cannot reach",
        "set NCCL_SOCKET_IFNAME to the host's real interface (e.g. NCCL_SOCKET_IFNAME=eth0), or exclude the bridges "
        "(NCCL_SOCKET_IFNAME=^docker0,virbr0,lo)",
        55));
  }
  if (multi_node && all.count("lo") > 0) {
    out.push_back(transport_finding(
        "config.loopback_interface", "WARN", 1, h,
        "the loopback interface lo is in NCCL's socket interface list of a multi-node job: other nodes are told "
        "to reach this host at 127.0.0.1",
        "set NCCL_SOCKET_IFNAME to the interface the nodes share (e.g. NCCL_SOCKET_IFNAME=eth0)", 60));
  }
}

}  // namespace

namespace {
// An ENOMEM every line of which libfabric or aws-ofi-nccl printed: the network plugin's setup (a CQ, an
// endpoint, a memory region) failed, not the job's own memory.
bool plugin_allocation_failure(const TriageFinding& f) {
  return f.check == "resource.enomem" && !f.evidence.empty() &&
         std::all_of(f.evidence.begin(), f.evidence.end(), [](const std::string& e) {
           return e.find("libfabric:") != std::string::npos || e.find("NET/OFI") != std::string::npos;
         });
}
}  // namespace

void demote_fallen_back_plugin_errors(const std::map<std::string, HostTransport>& hosts,
                                      std::vector<TriageFinding>& findings) {
  std::set<std::string> fell_back;  // hosts that went on with another network
  for (const auto& [h, t] : hosts) {
    const bool other = t.net == "Socket" || t.net == "IB" || t.net.rfind("IBext", 0) == 0 ||
                       (t.net_channels > 0 && t.socket_channels == t.net_channels);
    if (other) fell_back.insert(h);
  }
  if (fell_back.empty()) return;
  for (TriageFinding& f : findings) {
    const bool init_error = f.check == "efa.not_visible" || f.check == "efa.plugin_init_failed" ||
                            f.check == "efa.endpoint" || f.check == "efa.no_protocol" ||
                            f.check == "efa.libfabric_object" || f.check == "efa.libfabric_too_old" ||
                            f.check == "efa.shm_disable" || plugin_allocation_failure(f);
    if (!init_error || f.tag != "FAIL") continue;
    const bool all = f.hosts.empty() ? true : std::all_of(f.hosts.begin(), f.hosts.end(), [&](const std::string& h) {
      return fell_back.count(h) > 0;
    });
    if (!all) continue;
    f.tag = "WARN";
    f.priority = 1;
    f.cause += "; NCCL then went on with another network (a fallback: the job runs, degraded)";
  }
}

namespace {
// The EFA devices configs/skus gives the instance type aws-ofi-nccl printed ("p5" alone tries the
// .24xlarge and .48xlarge sizes); -1 when unknown.
int sku_efa_devices(const std::string& instance_type) {
  if (instance_type.empty()) return -1;
  std::optional<Sku> sku = builtin_sku_for(instance_type);
  if (!sku && instance_type.find('.') == std::string::npos) sku = builtin_sku_for(instance_type + ".24xlarge");
  if (!sku && instance_type.find('.') == std::string::npos) sku = builtin_sku_for(instance_type + ".48xlarge");
  return sku ? sku->efa_devices : -1;
}
}  // namespace

void transport_findings(std::map<std::string, HostTransport>& hosts, std::vector<TriageFinding>& out) {
  int max_nodes = 0;
  bool net_channels = false;
  for (const auto& [h, t] : hosts) {
    max_nodes = std::max(max_nodes, t.nnodes);
    net_channels = net_channels || t.net_channels > 0;
  }
  std::size_t named_hosts = hosts.size() - (hosts.count("(unknown host)") > 0 ? 1 : 0);
  // NET channels connect ranks on different nodes: a channel line "via NET/..." makes the job multi-node
  // even where host names are anonymised.
  // A communicator of more than 8 ranks spans nodes: no current GPU node has more than 8 GPUs.
  int max_ranks = 0;
  for (const auto& [h, t] : hosts) max_ranks = std::max(max_ranks, t.nranks);
  const bool multi_node =
      max_nodes > 1 || net_channels || (max_nodes <= 0 && named_hosts > 1) || (max_nodes <= 0 && max_ranks > 8);
  for (auto& [h, t] : hosts) {
    t.sku_efa_devices = sku_efa_devices(t.instance_type);
    const bool socket = t.net == "Socket" || (t.socket_channels > 0 && t.socket_channels == t.net_channels);
    const bool ib_expected = t.ib_expected || (t.ib_used && t.net == "Socket");
    if (socket && (multi_node || ib_expected) && !uses_fast_net(t)) {
      out.push_back(transport_finding(
          "transport.tcp_fallback", "WARN", 1, h,
          std::string("NCCL uses its Socket transport (TCP) between nodes: no IB or EFA net plugin was in use on "
                      "this host") +
              (ib_expected ? " although InfiniBand/RoCE was expected (NCCL_IB_HCA set, IB not disabled, or IB "
                             "devices listed)"
                           : "") +
              (t.ib_no_device ? "; NCCL printed 'NET/IB : No device found'" : ""),
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
      // Within one CUDA major version a newer runtime runs on an older driver (CUDA minor version
      // compatibility); across majors it does not.
      const bool major = driver / 1000 < build / 1000;
      out.push_back(transport_finding(
          "transport.driver_older_than_nccl", major ? "WARN" : "INFO", major ? 1 : 2, h,
          fmt::format("CUDA driver {} is older than the CUDA {} NCCL {} was built for{}", driver, build, t.nccl_version,
                      major ? " (an older major version: NCCL cannot run on it)"
                            : " (same major version: CUDA minor version compatibility applies)"),
          "nvidia-smi on that host; upgrade the driver or use an NCCL built for this driver's CUDA", major ? 70 : 5));
    }
    interface_findings(h, t, multi_node, out);
    const bool tcp_provider = t.provider.find("tcp") != std::string::npos || t.provider == "sockets";
    if ((t.net_channels > t.gdrdma_channels + t.socket_channels || t.ring_gdr_off) && !socket && !tcp_provider) {
      out.push_back(transport_finding(
          "transport.no_gdrdma", "WARN", 1, h,
          fmt::format("{} of {} NET channel lines lack /GDRDMA{}: data is staged through host memory (expected only on "
                      "hardware without GPU Direct RDMA, e.g. g6e or EFA before p4d)",
                      t.net_channels - t.gdrdma_channels - t.socket_channels, t.net_channels,
                      t.ring_gdr_off ? " and NCCL printed 'GDR 0'" : ""),
          "lsmod | grep -e nvidia_peermem -e efa; env | grep -e NCCL_NET_GDR -e FI_EFA_USE_DEVICE_RDMA in the job; "
          "check the DMA-BUF capable driver and ACS (lspci -vvv | grep ACSCtl)",
          50));
    }
    if (t.intra.count("SHM") > 0) {
      // A WARN: data-center GPUs reach each other by NVLink or PCIe P2P unless something blocks it (ACS,
      // IOMMU, a VM, container isolation, NCCL_P2P_DISABLE). Only GPUs without P2P support (consumer cards)
      // use SHM by design, which a log does not show: the cause says so.
      out.push_back(transport_finding(
          "transport.shm_intra_node", "WARN", 1, h,
          "GPUs of this host talk via SHM (host shared memory), not P2P: no CUDA peer access between them (ACS/IOMMU, "
          "a VM or container isolation, NCCL_P2P_DISABLE); expected only on GPUs without P2P support (consumer "
          "cards), which these logs cannot show",
          "nvidia-smi topo -p2p n and nvidia-smi topo -m on that host; env | grep NCCL_P2P in the job", 50));
    }
    if (!t.env_overrides.empty()) {
      out.push_back(transport_finding("nccl.env_overrides", "INFO", 2, h,
                                      "environment overrides in effect: " + text::join(t.env_overrides),
                                      "check that each is intended (forcing PROTO, ALGO or IB_DISABLE slows or hangs "
                                      "jobs)",
                                      5));
    }
  }
  env_findings(hosts, out);
  drift(
      hosts, "nccl_version", [](const HostTransport& t) { return t.nccl_version; }, out);
  drift(
      hosts, "cuda_driver", [](const HostTransport& t) { return t.cuda_driver; }, out);
  drift(
      hosts, "plugin_version", [](const HostTransport& t) { return t.plugin_version; }, out);
  drift(
      hosts, "net", [](const HostTransport& t) { return t.net; }, out);
}

std::string evidence_line(const LogEvent& ev, const std::string& host) {
  std::string where = ev.file + ":" + std::to_string(ev.line) + ": ";
  if (!host.empty()) where += "[" + host + "] ";
  return where + text::printable(ev.text, 300, true);
}

}  // namespace podperf::logs

// The captured-log rules (contract in analysis/logs/nccl_log.hpp) on a triage of podperf's own NCCL log
// (analysis/logs/triage.hpp): per host, one step per finding over its transport row and the triage
// findings seen on it; run-wide the version drift, an unreadable input and a truncated log. The texts
// keep run.json's stable check ids. Pure, local, never throws (except std::bad_alloc).
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "analysis/base/text.hpp"
#include "analysis/logs/nccl_log.hpp"

namespace podperf {
namespace {

using logs::HostTransport;
using logs::TriageFinding;
using std::string_view;

constexpr std::size_t kShownInFinding = 3;  // messages quoted in a finding
constexpr const char* kSource = "nccl-log";
constexpr const char* kUnknownHost = "(unknown host)";  // the triage's key for lines without a host

// "a | b | c | (+N more)": the first kShownInFinding messages.
std::string quote_first(const std::vector<std::string>& msgs) {
  std::vector<std::string> shown(msgs.begin(),
                                 msgs.begin() + static_cast<std::ptrdiff_t>(std::min(msgs.size(), kShownInFinding)));
  std::string out = text::join(shown, " | ");
  if (msgs.size() > shown.size()) out += fmt::format(" | (+{} more)", msgs.size() - shown.size());
  return out;
}

// The checks of the triage's pattern table that the memlock and /dev/shm rules report.
bool is_memlock_check(const std::string& c) {
  return c == "ib.memlock" || c == "efa.mr_registration";
}
bool is_shm_check(const std::string& c) {
  return c.rfind("shm.", 0) == 0;
}
// Triage findings that have a captured-log rule of their own (transport row rules, version drift) or
// that are about the input, not a host.
bool has_own_rule(const std::string& c) {
  return c == "transport.tcp_fallback" || c == "transport.libfabric_tcp" || c == "transport.nic_count" ||
         c == "transport.no_gdrdma" || c == "transport.shm_intra_node" || c.rfind("transport.drift.", 0) == 0 ||
         c == "nccl.env_overrides" || c == "link.one_peer" || c.rfind("input.", 0) == 0;
}

// One host: its transport row (empty when none) and the triage findings seen on it.
struct HostGroup {
  std::string host;  // "" for lines without a host
  HostTransport t;
  std::vector<const TriageFinding*> findings;  // root cause first (the triage's order)
  std::size_t processes = 0;
};

// One group per host of the transport table or of a finding, sorted by host ("" first).
std::vector<HostGroup> group_by_host(const logs::TriageResult& r) {
  std::vector<HostGroup> groups;
  auto group = [&groups](const std::string& host) -> HostGroup& {
    for (HostGroup& g : groups) {
      if (g.host == host) return g;
    }
    groups.push_back({host, {}, {}, 0});
    groups.back().t.host = host;
    return groups.back();
  };
  for (const HostTransport& t : r.transport) {
    HostGroup& g = group(t.host == kUnknownHost ? "" : t.host);
    const std::string host = g.host;
    g.t = t;
    g.t.host = host;
    g.processes = std::max<std::size_t>(1, t.pids.size());
  }
  for (const TriageFinding& f : r.findings) {
    if (has_own_rule(f.check) || f.tag == "INFO" || f.tag == "PASS") continue;
    if (f.hosts.empty()) {
      group("").findings.push_back(&f);
    } else {
      for (const std::string& h : f.hosts) group(h).findings.push_back(&f);
    }
  }
  std::sort(groups.begin(), groups.end(), [](const HostGroup& a, const HostGroup& b) { return a.host < b.host; });
  return groups;
}

// Where NCCL's findings rank among the likely causes of a slow pair (analysis/base/cause_rank.hpp):
// the transport's fallbacks first, every other NCCL finding after them.
struct NcclCauseRank {
  string_view check;
  int rank;
};
constexpr NcclCauseRank kNcclCauseRanks[] = {
    {"nccl.tcp_fallback", cause_rank::kTcpFallback},
    {"nccl.ofi_tcp", cause_rank::kLibfabricTcp},
    {"nccl.no_gdrdma", cause_rank::kNoGdrdma},
};

// A finding of source "nccl-log"; the caller fills in the texts.
Finding make(Tag tag, string_view check, const std::string& host) {
  Finding f;
  f.tag = tag;
  f.source = kSource;
  f.check = std::string(check);
  f.host = host;
  f.pair_cause_rank = cause_rank::kNcclOther;
  for (const NcclCauseRank& row : kNcclCauseRanks) {
    if (row.check == check) f.pair_cause_rank = row.rank;
  }
  return f;
}

// The observed text's lead for lines that carried no host.
std::string where(const std::string& host) {
  return host.empty() ? "lines without a host:pid prefix: " : "";
}

// The evidence of `fs` as "check: line" (the file:line prefix kept), the first kShownInFinding.
std::vector<std::string> evidence_of(const std::vector<const TriageFinding*>& fs) {
  std::vector<std::string> out;
  for (const TriageFinding* f : fs) {
    const std::string line = f->evidence.empty() ? f->cause : f->evidence.front();
    out.push_back(f->check + ": " + line);
  }
  return out;
}

// The host's triage findings of one tag that `pick` accepts.
template <class Pick>
std::vector<const TriageFinding*> findings_where(const HostGroup& g, const char* tag, Pick pick) {
  std::vector<const TriageFinding*> out;
  for (const TriageFinding* f : g.findings) {
    if (f->tag == tag && pick(f->check)) out.push_back(f);
  }
  return out;
}

// nccl.tcp_fallback: NCCL's own socket transport instead of a network plugin (INFO when every
// communicator was single-node and no channel used the network).
std::optional<Finding> tcp_fallback(const HostGroup& g, int /*expected_efa_nics*/) {
  const HostTransport& t = g.t;
  if (!uses_socket_transport(t)) return std::nullopt;
  const bool single_node = t.nnodes == 1 && t.net_channels == 0;
  Finding f = make(single_node ? Tag::kInfo : Tag::kConcern, "nccl.tcp_fallback", g.host);
  if (t.net == "Socket" || t.socket_channels > 0) {
    f.observed = where(g.host) + "NET/Socket (NCCL's TCP fallback)";
    if (!t.socket_ifaces.empty()) f.observed += " on " + text::join(t.socket_ifaces, ",");
    if (t.plugin_missing) f.observed += "; NET/Plugin: libnccl-net.so not found";
  } else {
    f.observed = where(g.host) +
                 "NET/Plugin: libnccl-net.so not found and no network plugin loaded (the "
                 "network in use was not logged: NCCL falls back to its TCP sockets unless "
                 "InfiniBand verbs work)";
  }
  std::vector<std::string> ofi_warnings;
  for (const auto& w : t.warnings)
    if (w.starts_with("NET/OFI")) ofi_warnings.push_back(w);
  if (!ofi_warnings.empty()) f.observed += "; plugin warned: " + quote_first(ofi_warnings);
  f.expected = "Using network Libfabric (aws-ofi-nccl, provider efa) or IB: a plugin driving the RDMA NICs";
  f.meaning =
      "NCCL found no usable network plugin (libnccl-net.so missing, not on the library path, or failed "
      "to initialize) and moves inter-node data over its own TCP sockets";
  f.effect = single_node
                 ? "None while every communicator stays inside one node; a multi-node job would run at TCP speed"
                 : "Inter-node collectives run at TCP speed on the host network (a few GB/s instead of hundreds), "
                   "with no GPUDirect RDMA and high CPU use: every pair with this node looks slow";
  f.next_step =
      "Inside the job on this host: `ldconfig -p | grep -i nccl-net`, `ls /opt/amazon/ofi-nccl/lib`, "
      "`echo $LD_LIBRARY_PATH $NCCL_NET_PLUGIN`; `fi_info -p efa -t FI_EP_RDM` must list the EFA "
      "devices; the NET/Plugin and NET/OFI lines of this log say why the plugin was not used";
  return f;
}

// nccl.ofi_tcp: aws-ofi-nccl loaded, but libfabric picked a TCP provider.
std::optional<Finding> ofi_tcp(const HostGroup& g, int /*expected_efa_nics*/) {
  const HostTransport& t = g.t;
  if (t.provider.empty() || !is_tcp_provider(t.provider)) return std::nullopt;
  Finding f = make(Tag::kConcern, "nccl.ofi_tcp", g.host);
  f.observed = where(g.host) + "NET/OFI Selected provider is " + t.provider;
  if (!t.fabric.empty()) f.observed += ", fabric is " + t.fabric;
  if (t.nics_found >= 0) f.observed += fmt::format(" (found {} nics)", t.nics_found);
  f.expected = "Selected provider is efa (Elastic Fabric Adapter)";
  f.meaning =
      "The aws-ofi-nccl plugin is loaded but libfabric chose its TCP provider: the EFA devices are not "
      "visible to the process (container without /dev/infiniband, FI_PROVIDER set) or the efa provider "
      "failed to start";
  f.effect = "Inter-node traffic goes over TCP through the plugin: bandwidth far below EFA, no GPUDirect RDMA";
  f.next_step =
      "`fi_info -p efa -t FI_EP_RDM` on this host and inside the container (devices "
      "/dev/infiniband/uverbs* must be passed in); `ls /sys/class/infiniband`; `echo $FI_PROVIDER` "
      "in the job environment (unset or efa)";
  return f;
}

// nccl.efa_nic_count: the NICs the efa provider found against the instance baseline (expected_efa_nics,
// else the SKU of the instance type aws-ofi-nccl printed; no check when neither is known).
std::optional<Finding> efa_nic_count(const HostGroup& g, int expected_efa_nics) {
  const HostTransport& t = g.t;
  const int expected = expected_efa_nics > 0 ? expected_efa_nics : t.sku_efa_devices;
  if (expected <= 0 || t.nics_found < 0 || !t.provider.starts_with("efa") || t.nics_found == expected) {
    return std::nullopt;
  }
  // p5en under EKS: card 0 is the primary ENA, so one fewer is normal where the SKU says so.
  if (expected_efa_nics <= 0 && t.nics_found + 1 == expected) return std::nullopt;
  const bool fewer = t.nics_found < expected;
  Finding f = make(Tag::kConcern, "nccl.efa_nic_count", g.host);
  f.observed = where(g.host) + fmt::format("NET/OFI found {} nics (provider efa)", t.nics_found);
  f.expected = fmt::format("found {} nics (the instance type's EFA count{})", expected,
                           expected_efa_nics > 0 ? "" : ", configs/skus for " + t.instance_type);
  f.meaning = fewer ? "libfabric sees fewer EFA devices than this instance type has: interfaces missing, down, "
                      "not passed into the container, or filtered (FI_EFA_IFACE)"
                    : "libfabric sees more EFA devices than the baseline expects: the SKU baseline may not "
                      "match this instance type";
  f.effect = fewer ? "Inter-node bandwidth drops roughly in proportion to the missing NICs: this node looks "
                     "like a straggler in pair tests"
                   : "None on bandwidth; the baseline and the verdicts built on it may be wrong";
  f.next_step =
      "`fi_info -p efa -t FI_EP_RDM | grep -c domain`, `ls /sys/class/infiniband`, "
      "`echo $FI_EFA_IFACE`, the container's --device list; compare with the EFA count of the "
      "instance type (configs/skus)";
  return f;
}

// nccl.no_gdrdma: net channels without GPUDirect RDMA (TCP transports cannot have it: reported by
// tcp_fallback and ofi_tcp instead).
std::optional<Finding> no_gdrdma(const HostGroup& g, int /*expected_efa_nics*/) {
  const HostTransport& t = g.t;
  if (t.net_channels <= t.gdrdma_channels || uses_socket_transport(t) || is_tcp_provider(t.provider)) {
    return std::nullopt;
  }
  if (t.socket_channels > 0 && t.net_channels - t.socket_channels <= t.gdrdma_channels) return std::nullopt;
  Finding f = make(Tag::kConcern, "nccl.no_gdrdma", g.host);
  const std::string net = t.net.empty() ? "<net>" : t.net;
  f.observed = where(g.host) + fmt::format("{} of {} channels via NET/{}/<dev> without /GDRDMA",
                                           t.net_channels - t.gdrdma_channels, t.net_channels, net);
  if (t.gdrdma_channels > 0) f.observed += " (other channels of this host use GDRDMA)";
  f.expected = fmt::format("every inter-node channel via NET/{}/<dev>/GDRDMA", net);
  f.meaning =
      "NCCL does not use GPUDirect RDMA on these channels: data is staged through host memory because "
      "the NIC cannot reach GPU memory directly (peer-memory or DMA-BUF support missing, or GDR "
      "disabled by NCCL_NET_GDR_LEVEL / FI_EFA_USE_DEVICE_RDMA)";
  f.effect = "Lower inter-node bandwidth and higher latency; extra host memory traffic and CPU use";
  f.next_step =
      "`lsmod | grep -e nvidia_peermem -e efa`, `env | grep -e NCCL_NET_GDR -e FI_EFA_USE_DEVICE_RDMA` "
      "in the job, the 'GPU Direct RDMA' / 'DMA-BUF' lines of this log, `nvidia-smi topo -m` for the "
      "GPU-NIC distance";
  return f;
}

// nccl.shm_intra_node: SHM inside a node: no peer-to-peer access between the GPUs.
std::optional<Finding> shm_intra_node(const HostGroup& g, int /*expected_efa_nics*/) {
  const HostTransport& t = g.t;
  if (t.intra.count("SHM") == 0) return std::nullopt;
  std::vector<std::string> p2p_paths;
  for (const auto& path : t.intra)
    if (path != "SHM") p2p_paths.push_back(path);
  Finding f = make(Tag::kConcern, "nccl.shm_intra_node", g.host);
  f.observed = where(g.host) + "via SHM (SHM/direct) between GPUs of this node";
  if (!p2p_paths.empty()) f.observed += " (other pairs via " + text::join(p2p_paths, ", ") + ")";
  f.expected = "via P2P/CUMEM or P2P/IPC (NVLink) inside a node";
  f.meaning =
      "NCCL cannot use peer-to-peer access between these GPUs and copies through host shared memory: "
      "PCIe ACS or IOMMU settings, a virtualized topology, NCCL_P2P_DISABLE / NCCL_P2P_LEVEL, or "
      "ranks in containers without a shared IPC namespace";
  f.effect =
      "Intra-node bandwidth drops from NVLink speed (hundreds of GB/s) to host-memory speed (tens of "
      "GB/s): every collective on this node slows";
  f.next_step =
      "`nvidia-smi topo -m` and `nvidia-smi topo -p2p r` (peer access OK between the GPUs), "
      "`sudo lspci -vvv | grep -i acsctl`, `cat /proc/cmdline` (iommu), `env | grep NCCL_P2P` in the job";
  return f;
}

// nccl.memlock: memory registration failed for lack of locked memory.
std::optional<Finding> memlock_failure(const HostGroup& g, int /*expected_efa_nics*/) {
  const auto fs = findings_where(g, "FAIL", is_memlock_check);
  if (fs.empty()) return std::nullopt;
  Finding f = make(Tag::kConcern, "nccl.memlock", g.host);
  f.observed = where(g.host) + quote_first(evidence_of(fs));
  f.expected = "memory registration succeeds; `ulimit -l` is unlimited inside the job";
  f.meaning = "The locked-memory limit (RLIMIT_MEMLOCK) of the job is too low for RDMA memory registration";
  f.effect =
      "NCCL cannot register its buffers with the NIC: communicator init or the first collective fails, "
      "or traffic falls back to a slower path";
  f.next_step =
      "`ulimit -l` inside the job (expect unlimited); /etc/security/limits.conf `* - memlock unlimited`; "
      "Slurm: LimitMEMLOCK=infinity for slurmd and PropagateResourceLimitsExcept=MEMLOCK; Docker: "
      "--ulimit memlock=-1:-1";
  return f;
}

// nccl.dev_shm: a /dev/shm segment could not be created, extended or attached.
std::optional<Finding> shm_failure(const HostGroup& g, int /*expected_efa_nics*/) {
  const auto fs = findings_where(g, "FAIL", is_shm_check);
  if (fs.empty()) return std::nullopt;
  Finding f = make(Tag::kConcern, "nccl.dev_shm", g.host);
  f.observed = where(g.host) + quote_first(evidence_of(fs));
  f.expected = "/dev/shm large enough for NCCL's shared-memory buffers (GBs for 8 GPUs)";
  f.meaning =
      "The /dev/shm tmpfs is too small for NCCL's shared-memory segments (Docker's default is 64 MB), or the "
      "segment was removed underneath NCCL";
  f.effect = "Communicator init fails with a system error, or NCCL cannot use its SHM and proxy buffers";
  f.next_step = fs.front()->next_step;
  return f;
}

// nccl.errors: the FAIL-class lines of the host other than memlock and /dev/shm, root cause first.
std::optional<Finding> error_lines(const HostGroup& g, int /*expected_efa_nics*/) {
  const auto fs =
      findings_where(g, "FAIL", [](const std::string& c) { return !is_memlock_check(c) && !is_shm_check(c); });
  if (fs.empty()) return std::nullopt;
  std::size_t lines = 0;
  for (const TriageFinding* x : fs) lines += x->occurrences;
  Finding f = make(Tag::kConcern, "nccl.errors", g.host);
  f.observed = where(g.host) + fmt::format("{} error line(s): {}", lines, quote_first(evidence_of(fs)));
  f.expected = "no NCCL errors";
  f.meaning = fs.front()->cause;
  f.effect = "The affected communicator aborted: results of the cases it ran are missing or timed out";
  f.next_step = fs.front()->next_step +
                "; for 'remote process exited' or a closed connection read the peer host's log first: the peer "
                "usually failed first";
  return f;
}

// nccl.degraded: WARN-class lines of the pattern table and NCCL WARNs the table does not know.
std::optional<Finding> degraded_lines(const HostGroup& g, int /*expected_efa_nics*/) {
  const auto fs = findings_where(g, "WARN", [](const std::string&) { return true; });
  if (fs.empty()) return std::nullopt;
  Finding f = make(Tag::kConcern, "nccl.degraded", g.host);
  f.observed = where(g.host) + quote_first(evidence_of(fs));
  f.expected = "no NCCL warnings";
  f.meaning = fs.front()->cause;
  f.effect = "A slower or fragile path (GDR off, a port event, a fallback), or a warning podperf does not know";
  f.next_step = fs.front()->next_step;
  return f;
}

// nccl.nvls_unavailable: NVLink SHARP is off.
std::optional<Finding> nvls_unavailable(const HostGroup& g, int /*expected_efa_nics*/) {
  if (g.t.nvls != "not available") return std::nullopt;
  Finding f = make(Tag::kInfo, "nccl.nvls_unavailable", g.host);
  f.observed = where(g.host) + "NVLS multicast support is not available";
  f.expected = "NVLS available on NVSwitch systems (HGX H100/H200/B200) with Fabric Manager running";
  f.meaning =
      "NVLink SHARP (in-switch reduction) is off: no NVSwitch, Fabric Manager not running, driver or "
      "CUDA too old, or NCCL_NVLS_ENABLE=0";
  f.effect = "On NVSwitch systems intra-node all-reduce loses the NVLS bandwidth gain; elsewhere none";
  f.next_step =
      "`nvidia-smi -q | grep -i -A2 fabric`, `systemctl status nvidia-fabricmanager`, "
      "`env | grep NCCL_NVLS` in the job";
  return f;
}

// nccl.warnings: the distinct NCCL WARN messages of the host.
std::optional<Finding> warn_lines(const HostGroup& g, int /*expected_efa_nics*/) {
  const HostTransport& t = g.t;
  if (t.warnings.empty()) return std::nullopt;
  Finding f = make(Tag::kInfo, "nccl.warnings", g.host);
  f.observed =
      where(g.host) + fmt::format("{} distinct NCCL WARN message(s): {}", t.warnings.size(), quote_first(t.warnings));
  f.expected = "no NCCL WARN lines";
  f.meaning =
      "NCCL or the network plugin warned; the findings nccl.errors, nccl.degraded, nccl.memlock and "
      "nccl.dev_shm say what the pattern table makes of them";
  f.effect = "None by itself; see this host's other findings";
  f.next_step = "grep 'NCCL WARN' in this host's NCCL debug log (nccl.<host>.<pid>)";
  return f;
}

// nccl.summary: the OK line of a named host without a CONCERN.
Finding summary(const HostGroup& g, int expected_efa_nics) {
  const HostTransport& t = g.t;
  Finding f = make(Tag::kOk, "nccl.summary", g.host);
  std::vector<std::string> parts{describe_transport(t)};
  if (!t.fabric.empty()) parts.push_back("fabric " + t.fabric);
  if (!t.intra.empty()) parts.push_back(text::join(t.intra, "+"));
  if (t.coll_channels > 0) parts.push_back(fmt::format("{} channels", t.coll_channels));
  if (!t.nccl_version.empty()) parts.push_back("NCCL " + t.nccl_version);
  f.observed = text::join(parts, ", ");
  f.expected = "a network plugin with GDRDMA between nodes, P2P (NVLink) inside the node";
  if (expected_efa_nics > 0) f.expected += fmt::format(", {} EFA NICs", expected_efa_nics);
  f.meaning = fmt::format("NCCL's transport on this host looks healthy ({} process(es) logged)", g.processes);
  f.effect = "None";
  f.next_step = "None";
  return f;
}

using HostStep = std::optional<Finding> (*)(const HostGroup& g, int expected_efa_nics);
constexpr HostStep kHostSteps[] = {tcp_fallback,   ofi_tcp,          efa_nic_count, no_gdrdma,
                                   shm_intra_node, memlock_failure,  shm_failure,   error_lines,
                                   degraded_lines, nvls_unavailable, warn_lines};

// The host's findings in kHostSteps order, then nccl.summary when none is a CONCERN and the host is named.
void host_findings(const HostGroup& g, int expected_efa_nics, std::vector<Finding>& out) {
  bool concern = false;
  for (HostStep step : kHostSteps) {
    std::optional<Finding> f = step(g, expected_efa_nics);
    if (!f) continue;
    if (f->tag == Tag::kConcern) concern = true;
    out.push_back(std::move(*f));
  }
  if (!concern && !g.host.empty()) out.push_back(summary(g, expected_efa_nics));
}

// ---- run-wide ----

// nccl.version_drift: one finding listing each version with its hosts, when hosts differ.
void version_drift(const std::vector<HostGroup>& groups, std::vector<Finding>& out) {
  std::vector<std::pair<std::string, std::vector<std::string>>> versions;
  for (const HostGroup& g : groups) {
    const std::string& v = g.t.nccl_version;
    if (v.empty()) continue;
    auto it = std::find_if(versions.begin(), versions.end(), [&](const auto& e) { return e.first == v; });
    if (it == versions.end()) {
      versions.push_back({v, {}});
      it = std::prev(versions.end());
    }
    it->second.push_back(g.host.empty() ? std::string("(no host)") : g.host);
  }
  if (versions.size() <= 1) return;
  Finding f = make(Tag::kConcern, "nccl.version_drift", "");
  std::vector<std::string> parts;
  for (const auto& [v, hosts] : versions) parts.push_back(fmt::format("NCCL {} on {}", v, text::join(hosts, ", ")));
  f.observed = text::join(parts, "; ");
  f.expected = "one NCCL version (and CUDA build) across every process of the job";
  f.meaning =
      "Processes loaded different NCCL libraries: different container images, Python wheels, or "
      "LD_LIBRARY_PATH on some nodes";
  f.effect =
      "Mixed versions can disagree on protocols and algorithms: hangs or errors at init, or every "
      "communicator runs at the older version's speed; results are not comparable across nodes";
  f.next_step =
      "On the odd hosts: `ldconfig -p | grep libnccl`, `echo $LD_LIBRARY_PATH`, the container image "
      "tag, `python -c 'import torch; print(torch.cuda.nccl.version())'` where PyTorch is used";
  out.push_back(std::move(f));
}

// nccl.unreadable: no NCCL line at all, or nine in ten lines not NCCL's.
void unreadable(const logs::TriageResult& r, std::vector<Finding>& out) {
  std::size_t lines = 0;
  for (const logs::ReadStats& s : r.files) lines += s.lines;
  const bool no_nccl = r.nccl_lines == 0;
  const bool mostly_other = !no_nccl && lines - r.nccl_lines > 9 * r.nccl_lines;
  if (!no_nccl && !mostly_other) return;
  Finding f = make(Tag::kInfo, "nccl.unreadable", "");
  if (lines == 0) {
    f.observed = "no NCCL debug log (no file, or empty)";
  } else if (no_nccl) {
    f.observed = fmt::format("no NCCL INFO/WARN line in {} line(s) of input", lines);
  } else {
    f.observed = fmt::format("only {} of {} lines are NCCL lines", r.nccl_lines, lines);
  }
  f.expected = "NCCL_DEBUG=INFO output: 'host:pid:tid [dev] NCCL INFO ...' lines";
  f.meaning = no_nccl ? "The log is empty, not an NCCL debug log, or damaged: nothing about NCCL's transport can "
                        "be concluded from it"
                      : "Most of the input is not NCCL output (application output or damaged text); the NCCL "
                        "lines found were used";
  f.effect = no_nccl ? "No transport diagnosis for this run" : "None if the NCCL lines are complete";
  f.next_step =
      "Run with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET NCCL_DEBUG_FILE=<run dir>/nccl.%h.%p and "
      "check a file is written for every process on every node";
  out.push_back(std::move(f));
}

// nccl.truncated: a log ends inside a line.
void truncated(const logs::TriageResult& r, std::vector<Finding>& out) {
  std::vector<std::string> cut;
  for (const logs::ReadStats& s : r.files)
    if (s.unterminated_last_line) cut.push_back(s.file);
  if (cut.empty()) return;
  Finding f = make(Tag::kInfo, "nccl.truncated", "");
  f.observed = "the NCCL log ends in the middle of a line: " + quote_first(cut);
  f.expected = "every line ends with a newline";
  f.meaning =
      "The process was probably killed (or the disk filled) while NCCL was writing; the cut line was "
      "not used";
  f.effect = "Facts printed after the cut are missing: a failure at the end of the run may not be reported";
  f.next_step =
      "Look at how the process ended (scheduler log, `dmesg` for the OOM killer) and at the last "
      "complete lines of the log";
  out.push_back(std::move(f));
}

}  // namespace

std::vector<Finding> nccl_log_findings(const logs::TriageResult& r, int expected_efa_nics) {
  std::vector<Finding> out;
  const std::vector<HostGroup> groups = group_by_host(r);
  for (const HostGroup& g : groups) host_findings(g, expected_efa_nics, out);
  version_drift(groups, out);
  unreadable(r, out);
  truncated(r, out);
  return out;
}

}  // namespace podperf

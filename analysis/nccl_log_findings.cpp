// The rules of FIELD-NOTES section 5 on the facts of parsed NCCL debug logs (analysis/nccl_log.hpp):
// per host (the processes of a host combined) one step per finding, run-wide the version drift, an
// unreadable input and a truncated log, and the one-line transport description. The parser is
// analysis/nccl_log_parse.cpp. Pure, local, never throws (except std::bad_alloc).
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "analysis/nccl_log.hpp"
#include "analysis/nccl_log_facts.hpp"
#include "analysis/text.hpp"

namespace podperf {
namespace {

using nccl_log_detail::add_unique;
using nccl_log_detail::combine;
using nccl_log_detail::is_memlock;
using nccl_log_detail::is_shm_failure;
using nccl_log_detail::is_socket_net;
using nccl_log_detail::is_tcp_provider;
using nccl_log_detail::kMaxDevices;
using std::string_view;

constexpr std::size_t kShownInFinding = 3;  // messages quoted in a finding
constexpr const char* kSource = "nccl-log";

// "a | b | c | (+N more)": the first kShownInFinding messages.
std::string quote_first(const std::vector<std::string>& msgs) {
  std::vector<std::string> shown(msgs.begin(),
                                 msgs.begin() + static_cast<std::ptrdiff_t>(std::min(msgs.size(), kShownInFinding)));
  std::string out = text::join(shown, " | ");
  if (msgs.size() > shown.size()) out += fmt::format(" | (+{} more)", msgs.size() - shown.size());
  return out;
}

// "2.28.3+cuda13.0", "2.28.3", or "" when unknown.
std::string version_label(const NcclProcessFacts& f) {
  if (f.nccl_version.empty()) return "";
  return f.nccl_cuda.empty() ? f.nccl_version : f.nccl_version + "+cuda" + f.nccl_cuda;
}

// "in 3 of 8 processes" when only some processes of a host show it.
std::string share(std::size_t k, std::size_t n) {
  if (n <= 1 || k == n) return "";
  return fmt::format(" (in {} of {} processes)", k, n);
}

// The first warning, else error, that `pred` accepts; `fallback` if none.
std::string first_matching(const NcclProcessFacts& f, bool (*pred)(string_view), string_view fallback) {
  for (const auto& w : f.warnings)
    if (pred(w)) return w;
  for (const auto& e : f.errors)
    if (pred(e)) return e;
  return std::string(fallback);
}

// The processes of one host and their facts combined.
struct HostGroup {
  std::string host;
  std::vector<const NcclProcessFacts*> procs;
  NcclProcessFacts all;  // the processes combined
};

// One group per host, in first-seen order.
std::vector<HostGroup> group_by_host(const NcclLogSummary& s) {
  std::vector<HostGroup> groups;
  std::unordered_map<std::string, std::size_t> index;
  for (const auto& p : s.processes) {
    auto [it, inserted] = index.try_emplace(p.host, groups.size());
    if (inserted) {
      groups.push_back({p.host, {}, {}});
      groups.back().all.host = p.host;
    }
    HostGroup& g = groups[it->second];
    g.procs.push_back(&p);
    combine(g.all, p);
  }
  return groups;
}

// A finding of source "nccl-log"; the caller fills in the texts.
Finding make(Tag tag, string_view check, const std::string& host) {
  Finding f;
  f.tag = tag;
  f.source = kSource;
  f.check = std::string(check);
  f.host = host;
  return f;
}

// The observed text's lead for lines that carried no host.
std::string where(const std::string& host) {
  return host.empty() ? "lines without a host:pid prefix: " : "";
}

// How many processes of the host `pred` accepts.
template <class Pred>
std::size_t count_procs(const HostGroup& g, Pred pred) {
  return static_cast<std::size_t>(
      std::count_if(g.procs.begin(), g.procs.end(), [&](const auto* p) { return pred(*p); }));
}

// ---- per host: one step per finding, in the order they are reported ----

// nccl.tcp_fallback: NCCL's own socket transport instead of a network plugin (INFO when every
// communicator was single-node and no channel used the network).
std::optional<Finding> tcp_fallback(const HostGroup& g, int /*expected_efa_nics*/) {
  const NcclProcessFacts& all = g.all;
  const std::size_t n = g.procs.size();
  const std::size_t socket_procs = count_procs(g, [](const NcclProcessFacts& p) { return is_socket_net(p); });
  if (socket_procs == 0) return std::nullopt;
  const bool single_node = all.nodes == 1 && !all.gdrdma_seen && !all.net_without_gdrdma_seen;
  Finding f = make(single_node ? Tag::kInfo : Tag::kConcern, "nccl.tcp_fallback", g.host);
  const bool socket_logged =
      std::any_of(g.procs.begin(), g.procs.end(), [](const auto* p) { return p->net == "Socket"; });
  if (socket_logged) {
    f.observed = where(g.host) + "NET/Socket (NCCL's TCP fallback)";
    if (!all.socket_ifaces.empty()) f.observed += " on " + text::join(all.socket_ifaces, ",");
    if (all.plugin_missing) f.observed += "; NET/Plugin: libnccl-net.so not found";
  } else {
    f.observed = where(g.host) +
                 "NET/Plugin: libnccl-net.so not found and no network plugin loaded (the "
                 "network in use was not logged: NCCL falls back to its TCP sockets unless "
                 "InfiniBand verbs work)";
  }
  std::vector<std::string> ofi_warnings;
  for (const auto& w : all.warnings)
    if (w.starts_with("NET/OFI")) ofi_warnings.push_back(w);
  if (!ofi_warnings.empty()) f.observed += "; plugin warned: " + quote_first(ofi_warnings);
  f.observed += share(socket_procs, n);
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
  const std::size_t n = g.procs.size();
  const std::size_t tcp_procs =
      count_procs(g, [](const NcclProcessFacts& p) { return is_tcp_provider(p.ofi_provider); });
  if (tcp_procs == 0) return std::nullopt;
  const NcclProcessFacts* p =
      *std::find_if(g.procs.begin(), g.procs.end(), [](const auto* q) { return is_tcp_provider(q->ofi_provider); });
  Finding f = make(Tag::kConcern, "nccl.ofi_tcp", g.host);
  f.observed = where(g.host) + "NET/OFI Selected provider is " + p->ofi_provider;
  if (!p->ofi_fabric.empty()) f.observed += ", fabric is " + p->ofi_fabric;
  if (p->nic_count >= 0) f.observed += fmt::format(" (found {} nics)", p->nic_count);
  f.observed += share(tcp_procs, n);
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

// nccl.efa_nic_count: the NICs the efa provider found against the instance baseline (only when
// expected_efa_nics > 0).
std::optional<Finding> efa_nic_count(const HostGroup& g, int expected_efa_nics) {
  if (expected_efa_nics <= 0) return std::nullopt;
  std::vector<int> counts;
  for (const auto* p : g.procs) {
    if (p->nic_count >= 0 && p->ofi_provider.starts_with("efa")) add_unique(counts, p->nic_count, kMaxDevices);
  }
  std::vector<std::string> wrong;
  for (int c : counts)
    if (c != expected_efa_nics) wrong.push_back(std::to_string(c));
  if (wrong.empty()) return std::nullopt;
  const bool fewer = std::any_of(counts.begin(), counts.end(), [&](int c) { return c < expected_efa_nics; });
  Finding f = make(Tag::kConcern, "nccl.efa_nic_count", g.host);
  f.observed = where(g.host) + fmt::format("NET/OFI found {} nics (provider efa)", text::join(wrong, " and "));
  f.expected = fmt::format("found {} nics (the instance type's EFA count)", expected_efa_nics);
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
  const NcclProcessFacts& all = g.all;
  const std::size_t n = g.procs.size();
  const std::size_t no_gdr_procs = count_procs(g, [](const NcclProcessFacts& p) {
    return p.net_without_gdrdma_seen && !is_socket_net(p) && !is_tcp_provider(p.ofi_provider);
  });
  if (no_gdr_procs == 0) return std::nullopt;
  Finding f = make(Tag::kConcern, "nccl.no_gdrdma", g.host);
  const std::string net = all.net.empty() ? "<net>" : all.net;
  f.observed = where(g.host) + fmt::format("channels via NET/{}/<dev> without /GDRDMA", net);
  if (all.gdrdma_seen) f.observed += " (other channels of this host use GDRDMA)";
  f.observed += share(no_gdr_procs, n);
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
  const NcclProcessFacts& all = g.all;
  std::vector<std::string> shm_paths;
  std::vector<std::string> p2p_paths;
  for (const auto& path : all.intra_paths) (path.starts_with("SHM/") ? shm_paths : p2p_paths).push_back(path);
  if (shm_paths.empty()) return std::nullopt;
  Finding f = make(Tag::kConcern, "nccl.shm_intra_node", g.host);
  f.observed = where(g.host) + "via " + text::join(shm_paths, ", ") + " between GPUs of this node";
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
  const NcclProcessFacts& all = g.all;
  if (!all.memlock_failure) return std::nullopt;
  Finding f = make(Tag::kConcern, "nccl.memlock", g.host);
  f.observed = where(g.host) + first_matching(all, is_memlock, "memory registration failed (ENOMEM)");
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

// nccl.dev_shm: a /dev/shm segment could not be created or extended.
std::optional<Finding> shm_failure(const HostGroup& g, int /*expected_efa_nics*/) {
  const NcclProcessFacts& all = g.all;
  if (!all.shm_failure) return std::nullopt;
  Finding f = make(Tag::kConcern, "nccl.dev_shm", g.host);
  f.observed = where(g.host) + first_matching(all, is_shm_failure, "shared memory segment creation failed");
  f.expected = "/dev/shm large enough for NCCL's shared-memory buffers (GBs for 8 GPUs)";
  f.meaning = "The /dev/shm tmpfs is too small for NCCL's shared-memory segments (Docker's default is 64 MB)";
  f.effect = "Communicator init fails with a system error, or NCCL cannot use its SHM and proxy buffers";
  f.next_step =
      "`df -h /dev/shm` inside the job; Docker: --shm-size=<size> or --ipc=host; Kubernetes: an "
      "emptyDir with medium: Memory mounted at /dev/shm";
  return f;
}

// nccl.errors: the error lines of the host.
std::optional<Finding> error_lines(const HostGroup& g, int /*expected_efa_nics*/) {
  const NcclProcessFacts& all = g.all;
  if (all.errors.empty()) return std::nullopt;
  Finding f = make(Tag::kConcern, "nccl.errors", g.host);
  f.observed = where(g.host) + fmt::format("{} error line(s): {}", all.errors.size(), quote_first(all.errors));
  f.expected = "no NCCL errors";
  f.meaning =
      "NCCL reported a failure: a system call (sockets, shared memory, registration), CUDA, an internal "
      "error, or a peer process or network failure";
  f.effect = "The affected communicator aborted: results of the cases it ran are missing or timed out";
  f.next_step =
      "Read the NCCL WARN lines just before the error in this host's log (they name the failing call); "
      "for 'remote process exited' read the peer host's log first: the peer usually failed first";
  return f;
}

// nccl.nvls_unavailable: NVLink SHARP is off.
std::optional<Finding> nvls_unavailable(const HostGroup& g, int /*expected_efa_nics*/) {
  const NcclProcessFacts& all = g.all;
  const std::size_t n = g.procs.size();
  if (!all.nvls_unavailable) return std::nullopt;
  Finding f = make(Tag::kInfo, "nccl.nvls_unavailable", g.host);
  f.observed = where(g.host) + "NVLS multicast support is not available" +
               share(count_procs(g, [](const NcclProcessFacts& p) { return p.nvls_unavailable; }), n);
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
  const NcclProcessFacts& all = g.all;
  if (all.warnings.empty()) return std::nullopt;
  Finding f = make(Tag::kInfo, "nccl.warnings", g.host);
  f.observed = where(g.host) +
               fmt::format("{} distinct NCCL WARN message(s): {}", all.warnings.size(), quote_first(all.warnings));
  f.expected = "no NCCL WARN lines";
  f.meaning =
      "NCCL or the network plugin warned; some warnings are harmless probes, others explain a failure "
      "or a fallback reported in another finding";
  f.effect = "None by itself; see this host's other findings";
  f.next_step = "grep 'NCCL WARN' in this host's NCCL debug log (nccl.<host>.<pid>)";
  return f;
}

// nccl.summary: the OK line of a named host without a CONCERN.
Finding summary(const HostGroup& g, int expected_efa_nics) {
  const NcclProcessFacts& all = g.all;
  const std::size_t n = g.procs.size();
  Finding f = make(Tag::kOk, "nccl.summary", g.host);
  std::vector<std::string> parts{describe_transport(all)};
  if (!all.ofi_fabric.empty()) parts.push_back("fabric " + all.ofi_fabric);
  if (!all.intra_paths.empty()) parts.push_back(text::join(all.intra_paths, "+"));
  if (all.channels > 0) parts.push_back(fmt::format("{} channels", all.channels));
  if (!all.nccl_version.empty()) parts.push_back("NCCL " + version_label(all));
  f.observed = text::join(parts, ", ");
  f.expected = "a network plugin with GDRDMA between nodes, P2P (NVLink) inside the node";
  if (expected_efa_nics > 0) f.expected += fmt::format(", {} EFA NICs", expected_efa_nics);
  f.meaning = fmt::format("NCCL's transport on this host looks healthy ({} process(es) logged)", n);
  f.effect = "None";
  f.next_step = "None";
  return f;
}

using HostStep = std::optional<Finding> (*)(const HostGroup& g, int expected_efa_nics);
constexpr HostStep kHostSteps[] = {tcp_fallback,    ofi_tcp,     efa_nic_count, no_gdrdma,        shm_intra_node,
                                   memlock_failure, shm_failure, error_lines,   nvls_unavailable, warn_lines};

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

// nccl.version_drift: one finding listing each version with its hosts, when processes differ.
void version_drift(const NcclLogSummary& s, std::vector<Finding>& out) {
  std::vector<std::pair<std::string, std::vector<std::string>>> versions;  // first-seen order
  for (const auto& p : s.processes) {
    const std::string v = version_label(p);
    if (v.empty()) continue;
    auto it = std::find_if(versions.begin(), versions.end(), [&](const auto& e) { return e.first == v; });
    if (it == versions.end()) {
      versions.push_back({v, {}});
      it = std::prev(versions.end());
    }
    add_unique(it->second, p.host.empty() ? std::string("(no host)") : p.host, s.processes.size());
  }
  if (versions.size() <= 1) return;
  Finding f = make(Tag::kConcern, "nccl.version_drift", "");
  std::vector<std::string> groups;
  for (const auto& [v, hosts] : versions) groups.push_back(fmt::format("NCCL {} on {}", v, text::join(hosts, ", ")));
  f.observed = text::join(groups, "; ");
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
void unreadable(const NcclLogSummary& s, std::vector<Finding>& out) {
  const bool no_nccl = s.nccl_lines == 0;
  const bool mostly_other = !no_nccl && s.unparsed_lines > 9 * s.nccl_lines;
  if (!no_nccl && !mostly_other) return;
  Finding f = make(Tag::kInfo, "nccl.unreadable", "");
  if (s.lines == 0) {
    f.observed = "no NCCL debug log (no file, or empty)";
  } else if (no_nccl) {
    f.observed = fmt::format("no NCCL INFO/WARN line in {} line(s) of input", s.lines);
  } else {
    f.observed = fmt::format("only {} of {} lines are NCCL lines", s.nccl_lines, s.lines);
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

// nccl.truncated: the log ends inside a line.
void truncated(const NcclLogSummary& s, std::vector<Finding>& out) {
  if (!s.truncated_last_line) return;
  Finding f = make(Tag::kInfo, "nccl.truncated", "");
  f.observed = "the NCCL log ends in the middle of a line";
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

std::vector<Finding> nccl_log_findings(const NcclLogSummary& s, int expected_efa_nics) {
  std::vector<Finding> out;
  for (const HostGroup& g : group_by_host(s)) host_findings(g, expected_efa_nics, out);
  version_drift(s, out);
  unreadable(s, out);
  truncated(s, out);
  return out;
}

std::string describe_transport(const NcclProcessFacts& f) {
  if (is_socket_net(f)) {
    std::string s = "Socket (TCP fallback)";
    if (!f.socket_ifaces.empty()) s += " on " + text::join(f.socket_ifaces, ",");
    return s;
  }
  if (f.net.empty() && f.ofi_provider.empty()) {
    if (!f.intra_paths.empty()) {
      return "intra-node only (" + text::join(f.intra_paths, "+") + ")";
    }
    return "unknown transport";
  }
  std::string s = f.net.empty() ? std::string("Libfabric") : f.net;
  if (!f.ofi_provider.empty()) {
    s += "/" + f.ofi_provider;
    if (is_tcp_provider(f.ofi_provider)) s += " (TCP, not EFA)";
  }
  if (f.nic_count >= 0) s += fmt::format(" {} NIC{}", f.nic_count, f.nic_count == 1 ? "" : "s");
  if (f.net_without_gdrdma_seen) {
    s += f.gdrdma_seen ? " GDRDMA on some channels only" : " without GDRDMA";
  } else if (f.gdrdma_seen) {
    s += " GDRDMA";
  }
  return s;
}

}  // namespace podperf

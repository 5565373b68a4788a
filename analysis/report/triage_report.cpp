// Triage printers (contract in triage_report.hpp).
#include "analysis/report/triage_report.hpp"

#include <fmt/format.h>

#include "analysis/base/text.hpp"

namespace podperf {
namespace {

std::string ints(const std::set<int>& v) {
  std::vector<std::string> s;
  for (int i : v) s.push_back(std::to_string(i));
  return text::join(s, ",");
}

std::string or_dash(const std::string& s) {
  return s.empty() ? "-" : s;
}

std::string num_or_dash(int v) {
  return v < 0 ? "-" : std::to_string(v);
}

std::string gdr(const logs::HostTransport& t) {
  if (t.net_channels == 0) return "-";
  return fmt::format("{}/{}", t.gdrdma_channels, t.net_channels);
}

struct TransportRow {
  std::string host, net, provider, nics, gdr, pxn, intra, nvls, channels, nccl, driver, plugin;
};

TransportRow row_of(const logs::HostTransport& t) {
  std::string nics = num_or_dash(t.nics_found);
  if (t.sku_efa_devices > 0) nics += fmt::format(" of {}", t.sku_efa_devices);
  if (!t.nic_indices.empty()) nics += " [" + ints(t.nic_indices) + "]";
  std::string net = t.net;
  if (net.empty() && t.ib_used) net = "IB";
  if (net.empty() && t.ofi_seen) net = "OFI";
  return {t.host,
          or_dash(net),
          or_dash(t.provider),
          nics,
          gdr(t),
          t.pxn ? "yes" : "-",
          t.intra.empty() ? "-" : text::join(t.intra, ","),
          or_dash(t.nvls),
          num_or_dash(t.coll_channels),
          or_dash(t.nccl_version),
          or_dash(t.cuda_driver),
          or_dash(t.plugin_version)};
}

std::string finding_head(const logs::TriageFinding& f) {
  std::string head = fmt::format("{} P{} {}", f.tag, f.priority, f.check);
  if (!f.host.empty()) head += " [" + f.host + "]";
  if (!f.peer.empty()) head += " peer " + f.peer;
  if (f.role == "cause") head += "  <- root cause";
  if (f.occurrences > 1) head += fmt::format("  ({} lines)", f.occurrences);
  return head;
}

// "first failure in time: CHECK at TIME [host]" when the first FAIL line in time is not the root cause
// named first (a cascade whose root came later, or a consequence that happened first); "" otherwise.
std::string first_failure_line(const logs::TriageResult& r) {
  if (r.first_failure.empty() || r.findings.empty() || r.findings.front().check == r.first_failure) return "";
  for (const logs::TriageFinding& f : r.findings) {
    if (f.check != r.first_failure || f.tag != "FAIL") continue;
    std::string line = "first failure in time: " + f.check;
    if (!f.first_time.empty()) line += " at " + f.first_time;
    if (!f.host.empty()) line += " [" + f.host + "]";
    return line + " (ranked below the root cause: " + (f.role.empty() ? "lower cause rank" : f.role) + ")\n";
  }
  return "";
}

// What follows the verdict in the headline: the root cause, that the logs lack it, or what a PASS saw.
std::string headline_detail(const logs::TriageResult& r) {
  if (r.findings.empty()) return "";
  if (r.findings.front().role == "cause") return r.findings.front().cause;
  if (r.verdict == "FAIL") {
    return "the job failed; its root cause is not in these logs (first failure: " +
           (r.first_failure.empty() ? r.findings.front().check : r.first_failure) + ")";
  }
  for (const logs::TriageFinding& f : r.findings) {
    if ((r.verdict == "PASS" && f.tag == "PASS") || (r.verdict == "WARN" && f.tag == "WARN")) return f.cause;
  }
  return "";
}

}  // namespace

std::string triage_text(const logs::TriageResult& r) {
  std::string out = "podperf triage: " + r.verdict;
  if (const std::string detail = headline_detail(r); !detail.empty()) out += ": " + detail;
  out += "\n";
  if (!r.collect_next.empty()) out += "collect next: " + r.collect_next + "\n";
  out += first_failure_line(r);
  out += fmt::format("read {} file(s), {} recognised line(s)\n\n", r.files.size(), r.events);
  for (const logs::TriageFinding& f : r.findings) {
    out += finding_head(f) + "\n";
    out += "  cause: " + f.cause + "\n";
    for (const std::string& e : f.evidence) out += "  | " + e + "\n";
    out += "  next:  " + f.next_step + "\n";
  }
  if (!r.transport.empty()) {
    out += "\ntransport per host (GDR = NET channel lines with /GDRDMA of all NET channel lines)\n";
    out += fmt::format("{:<24} {:<14} {:<9} {:<16} {:<7} {:<4} {:<22} {:<14} {:<5} {:<18} {:<7} {}\n", "host", "net",
                       "provider", "nics", "GDR", "PXN", "intra-node", "NVLS", "chan", "NCCL", "driver", "plugin");
    for (const logs::HostTransport& t : r.transport) {
      const TransportRow w = row_of(t);
      out += fmt::format("{:<24} {:<14} {:<9} {:<16} {:<7} {:<4} {:<22} {:<14} {:<5} {:<18} {:<7} {}\n", w.host, w.net,
                         w.provider, w.nics, w.gdr, w.pxn, w.intra, w.nvls, w.channels, w.nccl, w.driver, w.plugin);
    }
  }
  return out;
}

std::string triage_markdown(const logs::TriageResult& r) {
  std::string out = "## podperf triage: " + r.verdict + "\n\n";
  if (!r.findings.empty() && r.findings.front().role == "cause") {
    out += "**Root cause:** " + r.findings.front().cause + "\n\n";
  } else if (const std::string detail = headline_detail(r); !detail.empty()) {
    const char* label = r.verdict == "PASS" ? "Seen" : r.verdict == "WARN" ? "First warning" : "Root cause";
    out += "**" + std::string(label) + ":** " + detail + "\n\n";
  }
  if (!r.collect_next.empty()) out += "**Collect next:** " + r.collect_next + "\n\n";
  if (const std::string first = first_failure_line(r); !first.empty()) out += first + "\n";
  for (const logs::TriageFinding& f : r.findings) {
    out += "### " + finding_head(f) + "\n\n";
    out += "- cause: " + f.cause + "\n- next step: " + f.next_step + "\n";
    if (!f.evidence.empty()) {
      out += "\n```\n";
      for (const std::string& e : f.evidence) out += e + "\n";
      out += "```\n";
    }
    out += "\n";
  }
  if (!r.transport.empty()) {
    out +=
        "### Transport per host\n\n| host | net | provider | nics | GDR | PXN | intra-node | NVLS | channels | NCCL | "
        "driver | plugin |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const logs::HostTransport& t : r.transport) {
      const TransportRow w = row_of(t);
      out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", w.host, w.net, w.provider,
                         w.nics, w.gdr, w.pxn, w.intra, w.nvls, w.channels, w.nccl, w.driver, w.plugin);
    }
  }
  return out;
}

nlohmann::json triage_json(const logs::TriageResult& r) {
  nlohmann::json j;
  j["verdict"] = r.verdict;
  j["collect_next"] = r.collect_next;
  j["root_cause"] = (!r.findings.empty() && r.findings.front().role == "cause") ? r.findings.front().check : "";
  j["first_failure"] = r.first_failure;
  j["findings"] = nlohmann::json::array();
  for (const logs::TriageFinding& f : r.findings) {
    j["findings"].push_back({{"tag", f.tag},
                             {"priority", "P" + std::to_string(f.priority)},
                             {"check", f.check},
                             {"host", f.host},
                             {"hosts", f.hosts},
                             {"peer", f.peer},
                             {"role", f.role},
                             {"evidence", f.evidence},
                             {"occurrences", f.occurrences},
                             {"first_time", f.first_time},
                             {"cause", f.cause},
                             {"next_step", f.next_step}});
  }
  j["transport"] = nlohmann::json::array();
  for (const logs::HostTransport& t : r.transport) {
    j["transport"].push_back({{"host", t.host},
                              {"net", t.net},
                              {"ib_used", t.ib_used},
                              {"ofi", t.ofi_seen},
                              {"provider", t.provider},
                              {"fabric", t.fabric},
                              {"processes", t.pids.size()},
                              {"plugin_missing", t.plugin_missing},
                              {"socket_ifaces", t.socket_ifaces},
                              {"nics_found", t.nics_found},
                              {"sku_efa_devices", t.sku_efa_devices},
                              {"instance_type", t.instance_type},
                              {"nic_indices", t.nic_indices},
                              {"net_channels", t.net_channels},
                              {"gdrdma_channels", t.gdrdma_channels},
                              {"socket_channels", t.socket_channels},
                              {"pxn", t.pxn},
                              {"intra_node", t.intra},
                              {"nvls", t.nvls},
                              {"coll_channels", t.coll_channels},
                              {"nnodes", t.nnodes},
                              {"nranks", t.nranks},
                              {"nccl_version", t.nccl_version},
                              {"cuda_driver", t.cuda_driver},
                              {"plugin_version", t.plugin_version},
                              {"env_overrides", t.env_overrides}});
  }
  j["files"] = nlohmann::json::array();
  for (const logs::ReadStats& s : r.files) {
    j["files"].push_back({{"file", s.file},
                          {"format", s.format},
                          {"lines", s.lines},
                          {"recognised", s.recognised},
                          {"bytes", s.bytes},
                          {"truncated_lines", s.truncated_lines},
                          {"binary", s.binary},
                          {"error", s.error}});
  }
  return j;
}

}  // namespace podperf

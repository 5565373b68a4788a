// The acceptance verdict for people (podperf accept) and the drain commands to paste. Floor: the
// printers' wing (analysis/report/); pure, local; throws nothing. A projection of run.verdict.
#include "analysis/report/accept_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "analysis/report/format_append.hpp"

namespace podperf {

std::string render_drain_commands(const Run& run) {
  const Verdict& v = run.verdict;
  if (v.drain.empty()) return "";
  // Each host's failed check ids (virtual nodes of one host together), then hosts grouped by them.
  std::map<std::string, std::set<std::string>> checks_of_host;
  std::map<std::string, std::string> host_of_label;
  for (const NodeInfo& n : run.nodes) host_of_label[n.label] = n.hostname;
  for (const VerdictCheck& c : v.checks) {
    if (c.status == "FAIL" && !c.node.empty()) checks_of_host[host_of_label[c.node]].insert(c.check);
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // reason -> hosts, in drain order
  for (const std::string& host : v.drain) {
    const std::string reason = fmt::format("{}", fmt::join(checks_of_host[host], ","));
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == reason; });
    if (it == groups.end()) {
      groups.push_back({reason, {host}});
    } else {
      it->second.push_back(host);
    }
  }
  std::string out;
  for (const auto& [reason, hosts] : groups) {
    out += fmt::format("scontrol update NodeName={} State=DRAIN Reason=\"podperf accept: {}\"\n", fmt::join(hosts, ","),
                       reason);
  }
  out += fmt::format("kubectl cordon {}\n", fmt::join(v.drain, " "));
  return out;
}

std::string render_verdict(const Run& run) {
  const Verdict& v = run.verdict;
  std::string out;
  append(out, "\nAcceptance verdict: {} (profile {}, SKU {}, run {})\n", v.status.empty() ? "not judged" : v.status,
         v.profile, v.sku.empty() ? "none" : v.sku, run.run_id);
  std::size_t width = 4;
  for (const NodeVerdict& n : v.nodes) width = std::max(width, n.node.size());
  for (const NodeVerdict& n : v.nodes) {
    append(out, "  {:<{}}  {}\n", n.node, width, n.status);
    for (const std::string& r : n.reasons) append(out, "  {:<{}}    {}\n", "", width, r);
    // The number people look for, also when it passes: the node's busbw against the SKU minimum.
    for (const VerdictCheck& c : v.checks) {
      if (c.node == n.node && c.check == "busbw_min" && c.status == "PASS") {
        append(out, "  {:<{}}    PASS busbw_min: {}\n", "", width, c.detail);
      }
    }
  }
  std::map<std::string, int> counts;
  std::vector<std::pair<std::string, int>> skipped;  // "check: detail" -> nodes
  std::vector<const VerdictCheck*> run_wide;
  for (const VerdictCheck& c : v.checks) {
    ++counts[c.status];
    if (c.node.empty()) {
      run_wide.push_back(&c);
    } else if (c.status == "SKIP") {
      const std::string key = fmt::format("{}: {}", c.check, c.detail);
      auto it = std::find_if(skipped.begin(), skipped.end(), [&](const auto& s) { return s.first == key; });
      if (it == skipped.end()) {
        skipped.push_back({key, 1});
      } else {
        ++it->second;
      }
    }
  }
  append(out, "Run-wide:\n");
  for (const VerdictCheck* c : run_wide) append(out, "  {} {}: {}\n", c->status, c->check, c->detail);
  for (const auto& [what, nodes] : skipped) append(out, "  SKIP {} ({} node{})\n", what, nodes, nodes == 1 ? "" : "s");
  append(out, "Checks: {} PASS, {} WARN, {} FAIL, {} SKIP\n", counts["PASS"], counts["WARN"], counts["FAIL"],
         counts["SKIP"]);
  if (v.drain.empty()) {
    append(out, "Nothing to drain{}.\n", v.status == "FAIL" ? " (the failure is run-wide, not a node's)" : "");
  } else {
    append(out, "Drain or replace {} (printed only; podperf never runs these):\n", fmt::join(v.drain, " "));
    const std::string commands = render_drain_commands(run);
    std::size_t start = 0;
    while (start < commands.size()) {
      const std::size_t end = commands.find('\n', start);
      append(out, "  {}\n", commands.substr(start, end - start));
      start = end + 1;
    }
  }
  return out;
}

}  // namespace podperf

// The acceptance verdict for people (podperf accept) and the commands to paste. Floor: the printers'
// wing (analysis/report/); pure, local; throws nothing. A projection of run.verdict.
#include "analysis/report/accept_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/base/text.hpp"
#include "analysis/report/accept_actions.hpp"
#include "analysis/report/format_append.hpp"

namespace podperf {
namespace {

// "quick", or "quick with overrides -b 1M -e 4M -n 5".
std::string profile_label(const Verdict& v) {
  if (v.overrides.empty()) return v.profile;
  std::vector<std::string> given;
  for (const ProfileOverride& o : v.overrides) given.push_back(o.option + " " + o.value);
  return fmt::format("{} with overrides {}", v.profile, text::join(given, " "));
}

// The first screen under the headline: the profile check, and every distinct reason busbw_min was skipped.
void first_screen(const Verdict& v, std::string& out) {
  for (const VerdictCheck& c : v.checks) {
    if (c.node.empty() && c.check == "profile") append(out, "Profile: {} {}\n", c.status, c.detail);
  }
  std::vector<std::pair<std::string, int>> skipped;  // detail -> nodes
  int judged = 0;
  for (const VerdictCheck& c : v.checks) {
    if (c.check != "busbw_min" || c.node.empty()) continue;
    ++judged;
    if (c.status != "SKIP") continue;
    auto it = std::find_if(skipped.begin(), skipped.end(), [&](const auto& s) { return s.first == c.detail; });
    if (it == skipped.end()) {
      skipped.push_back({c.detail, 1});
    } else {
      ++it->second;
    }
  }
  for (const auto& [detail, nodes] : skipped) {
    append(out, "Bandwidth against the SKU NOT CHECKED on {} of {} node{} (busbw_min SKIP): {}\n", nodes, judged,
           judged == 1 ? "" : "s", detail);
  }
}

void node_actions(const Run& run, const std::string& cluster_name, std::string& out) {
  const Verdict& v = run.verdict;
  const std::vector<ActionHost> hosts = action_hosts(run);
  if (hosts.empty()) {
    append(out, "Nothing to drain{}.\n", v.status == "FAIL" ? " (the failure is run-wide, not a node's)" : "");
    return;
  }
  std::vector<std::string> labels;
  for (const ActionHost& h : hosts) labels.push_back(h.label);
  append(out,
         "Drain, reboot or replace {} FAIL node{}: {} (printed only; podperf never runs these).\n"
         "Drain first. Reboot a slow or hung node; replace one with a hardware fault or one that fails again after\n"
         "a reboot: replacing terminates the instance and destroys its volumes, root and secondary.\n",
         hosts.size(), hosts.size() == 1 ? "" : "s", text::join(labels, " "));
  out += render_node_actions(run, hosts, cluster_name);
}

}  // namespace

std::string render_verdict(const Run& run, const std::string& cluster_name) {
  const Verdict& v = run.verdict;
  std::string out;
  append(out, "\nAcceptance verdict: {} (profile {}, SKU {}, run {})\n", v.status.empty() ? "not judged" : v.status,
         profile_label(v), v.sku.empty() ? "none" : v.sku, run.run_id);
  first_screen(v, out);
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
      if (c.check != "profile") run_wide.push_back(&c);  // on the first screen already
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
  node_actions(run, cluster_name, out);
  return out;
}

}  // namespace podperf

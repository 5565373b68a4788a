// The findings table and JSON of podperf signals. Printers' wing, pure.
#include "analysis/report/findings_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace podperf {
namespace {

// The OBSERVED column's width: the longest value up to this; a longer value is printed whole and its next
// step goes on the line below.
constexpr std::size_t kObservedColumn = 100;

}  // namespace

std::string findings_to_json(const std::vector<Finding>& findings) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();  // keeps the Finding field order
  for (const auto& f : findings) {
    a.push_back({{"tag", tag_name(f.tag)},
                 {"source", f.source},
                 {"check", f.check},
                 {"host", f.host},
                 {"observed", f.observed},
                 {"expected", f.expected},
                 {"meaning", f.meaning},
                 {"effect", f.effect},
                 {"next_step", f.next_step}});
  }
  // replace: a stray non-UTF-8 byte must not throw
  return a.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string findings_to_table(const std::vector<Finding>& findings) {
  std::size_t check_w = 5;
  std::size_t observed_w = 8;
  for (const auto& f : findings) {
    check_w = std::max(check_w, f.check.size());
    observed_w = std::max(observed_w, std::min(f.observed.size(), kObservedColumn));
  }
  std::string out =
      fmt::format("{:<7}  {:<{}}  {:<{}}  {}\n", "TAG", "CHECK", check_w, "OBSERVED", observed_w, "NEXT STEP");
  for (const auto& f : findings) {
    const std::string next = f.tag == Tag::kOk ? "" : f.next_step;
    if (f.observed.size() <= observed_w) {
      out += fmt::format("{:<7}  {:<{}}  {:<{}}  {}", tag_name(f.tag), f.check, check_w, f.observed, observed_w, next);
    } else {
      out += fmt::format("{:<7}  {:<{}}  {}", tag_name(f.tag), f.check, check_w, f.observed);
      if (!next.empty()) out += fmt::format("\n{:<7}  {:<{}}  {:<{}}  {}", "", "", check_w, "", observed_w, next);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += '\n';
  }
  const auto count = [&](Tag t) {
    return std::count_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.tag == t; });
  };
  out += fmt::format("{} CONCERN, {} INFO, {} OK\n", count(Tag::kConcern), count(Tag::kInfo), count(Tag::kOk));
  return out;
}

std::string findings_by_host(const std::vector<std::string>& hosts, const std::vector<Finding>& findings) {
  std::string out = fmt::format("{} host{}: each host's CONCERN findings, then the differences across hosts\n",
                                hosts.size(), hosts.size() == 1 ? "" : "s");
  std::size_t hosts_with_concerns = 0;
  std::size_t concerns = 0;
  for (const std::string& host : hosts) {
    std::vector<Finding> concern;
    std::size_t info = 0, ok = 0;
    for (const Finding& f : findings) {
      if (f.host != host) continue;
      if (f.tag == Tag::kConcern) {
        concern.push_back(f);
      } else if (f.tag == Tag::kInfo) {
        ++info;
      } else {
        ++ok;
      }
    }
    out += fmt::format("\nhost {}: {} CONCERN, {} INFO, {} OK\n", host, concern.size(), info, ok);
    if (!concern.empty()) {
      ++hosts_with_concerns;
      concerns += concern.size();
      std::string table = findings_to_table(concern);
      table.erase(table.rfind('\n', table.size() - 2) + 1);  // its own count line: said above
      out += table;
    }
  }
  std::vector<Finding> drift;
  for (const Finding& f : findings) {
    if (f.host.empty() && f.tag != Tag::kOk) drift.push_back(f);
  }
  out += fmt::format("\nAcross the {} hosts (drift):\n", hosts.size());
  if (drift.empty()) {
    out += "no difference in the versions, settings and environment compared\n";
  } else {
    out += findings_to_table(drift);
  }
  const auto drift_concerns = static_cast<std::size_t>(
      std::count_if(drift.begin(), drift.end(), [](const Finding& f) { return f.tag == Tag::kConcern; }));
  out += fmt::format("\nTotal: {} CONCERN on {} of {} hosts; {} CONCERN across hosts\n", concerns, hosts_with_concerns,
                     hosts.size(), drift_concerns);
  return out;
}

}  // namespace podperf

// The findings table and JSON of podperf signals. Printers' wing, pure.
#include "analysis/report/findings_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace podperf {
namespace {

// Cuts to `width` characters (ASCII; findings are cleaned to printable ASCII by the collectors).
std::string cell(const std::string& s, std::size_t width) {
  if (s.size() <= width) return s;
  return s.substr(0, width - 3) + "...";
}

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
  for (const auto& f : findings) check_w = std::max(check_w, f.check.size());
  std::string out = fmt::format("{:<7}  {:<{}}  {:<60}  {}\n", "TAG", "CHECK", check_w, "OBSERVED", "NEXT STEP");
  for (const auto& f : findings) {
    out += fmt::format("{:<7}  {:<{}}  {:<60}  {}\n", tag_name(f.tag), f.check, check_w, cell(f.observed, 60),
                       f.tag == Tag::kOk ? "" : cell(f.next_step, 160));
  }
  const auto count = [&](Tag t) {
    return std::count_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.tag == t; });
  };
  out += fmt::format("{} CONCERN, {} INFO, {} OK\n", count(Tag::kConcern), count(Tag::kInfo), count(Tag::kOk));
  return out;
}

}  // namespace podperf

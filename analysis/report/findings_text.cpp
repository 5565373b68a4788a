#include "analysis/report/findings_text.hpp"

#include <fmt/format.h>

#include <iterator>

namespace podperf {

std::vector<const Finding*> concerns_for(const Run& run, const std::string& host) {
  std::vector<const Finding*> out;
  for (const Finding& f : run.findings) {
    if (f.tag == Tag::kConcern && (f.host == host || f.host.empty())) out.push_back(&f);
  }
  return out;
}

std::string render_findings(const Run& run, const std::string& prefix) {
  std::string out;
  auto line = [&](const std::string& text) { out += prefix + text + "\n"; };
  if (!run.nccl_log.empty()) line(fmt::format("NCCL log: {}", run.nccl_log));
  int ok = 0;
  int info = 0;
  for (const Finding& f : run.findings) {
    if (f.tag != Tag::kConcern) {
      (f.tag == Tag::kOk ? ok : info) += 1;
      continue;
    }
    line(fmt::format("CONCERN {} [{}]: {}", f.host.empty() ? "all nodes" : f.host, f.check, f.observed));
    if (!f.effect.empty()) line(fmt::format("        effect: {}", f.effect));
    if (!f.next_step.empty()) line(fmt::format("        next:   {}", f.next_step));
  }
  if (ok + info > 0)
    line(fmt::format("{} OK and {} INFO findings (what was absent or unreadable) in run.json", ok, info));
  return out;
}

}  // namespace podperf

// PyTorch ProcessGroupNCCL watchdog lines compared across ranks (LOG-PATTERNS.md c10d table and ranking
// rule 6): the same SeqNum/OpType everywhere is a hang, different ones a desync, a watchdog that fired
// far past its timeout was itself blocked. Contract in triage_rules.hpp and triage.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "analysis/logs/triage_rules.hpp"
#include "analysis/text.hpp"

namespace podperf::logs {
namespace {

long long number_after(const std::string& s, std::string_view key) {
  const std::size_t at = s.find(key);
  if (at == std::string::npos) return -1;
  long long v = 0;
  std::size_t i = at + key.size(), n = 0;
  while (i < s.size() && n < 18 && s[i] >= '0' && s[i] <= '9') v = v * 10 + (s[i++] - '0'), ++n;
  return n > 0 ? v : -1;
}

constexpr std::string_view kFlightRecorder =
    "rerun with TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1 and NCCL_DEBUG=INFO on every rank, "
    "then compare the dumps with torchfrtrace";

}  // namespace

bool parse_watchdog(const std::string& text, WatchdogTimeout& out) {
  out.seq = number_after(text, "SeqNum=");
  if (out.seq < 0) return false;
  const std::size_t op = text.find("OpType=");
  if (op != std::string::npos) {
    std::size_t e = op + 7;
    while (e < text.size() && text[e] != ',' && text[e] != ')' && text[e] != ' ') ++e;
    out.op = text.substr(op + 7, e - op - 7);
  }
  out.numel_in = number_after(text, "NumelIn=");
  out.numel_out = number_after(text, "NumelOut=");
  out.timeout_ms = number_after(text, "Timeout(ms)=");
  out.ran_for_ms = number_after(text, "ran for ");
  const long long r = number_after(text, "[Rank ");
  if (r >= 0 && r < (1LL << 30)) out.rank = static_cast<int>(r);
  return true;
}

void watchdog_findings(const std::map<std::string, WatchdogSeen>& timeouts, std::vector<TriageFinding>& out) {
  if (timeouts.empty()) return;
  std::map<std::string, std::vector<std::string>> by_position;  // "SeqNum=5 OpType=ALLREDUCE" -> ranks
  std::size_t order = SIZE_MAX;
  std::vector<std::string> late;
  std::vector<std::string> evidence;
  for (const auto& [key, seen] : timeouts) {
    const WatchdogTimeout& w = seen.timeout;
    if (evidence.size() < kEvidencePerFinding) evidence.push_back(seen.evidence);
    by_position[fmt::format("SeqNum={} OpType={}", w.seq, w.op.empty() ? "?" : w.op)].push_back(key);
    order = std::min(order, seen.order);
    if (w.timeout_ms > 0 && w.ran_for_ms > 2 * w.timeout_ms && w.ran_for_ms - w.timeout_ms > 60000 && late.size() < 8) {
      late.push_back(
          fmt::format("{}: ran for {} s against a {} s timeout", key, w.ran_for_ms / 1000, w.timeout_ms / 1000));
    }
  }
  std::vector<std::string> parts;
  for (const auto& [pos, keys] : by_position) {
    std::vector<std::string> shown(keys.begin(),
                                   keys.begin() + static_cast<long>(std::min<std::size_t>(keys.size(), 8)));
    parts.push_back(fmt::format("{} on {} rank(s) ({}{})", pos, keys.size(), text::join(shown),
                                keys.size() > shown.size() ? ", ..." : ""));
  }
  TriageFinding f;
  f.tag = "FAIL";
  f.priority = 0;
  f.first_order = order;
  f.occurrences = timeouts.size();
  f.next_step = std::string(kFlightRecorder);
  f.evidence = evidence;
  if (by_position.size() > 1) {
    f.check = "pytorch.desync";
    f.cause =
        "ranks timed out in different collectives (a desync or a program-order bug: ranks did not issue the "
        "same collectives in the same order): " +
        text::join(parts, "; ");
    f.cause_rank = 45;
  } else {
    f.check = "pytorch.hang";
    f.cause = "every rank seen timed out in the same collective, " + text::join(parts, "; ") +
              ": a hang (a rank that never reached it, or a transport stall); watchdog lines alone do not say "
              "which";
    f.cause_rank = 30;
  }
  out.push_back(f);
  if (!late.empty()) {
    TriageFinding l;
    l.tag = "WARN";
    l.priority = 1;
    l.check = "pytorch.watchdog_late";
    l.cause = "the watchdog fired long after its timeout (" + text::join(late, "; ") +
              "): the watchdog thread itself was blocked (a stuck CUDA call or a held lock)";
    l.next_step = "py-spy dump --pid <pid> on a hung rank; " + std::string(kFlightRecorder);
    l.cause_rank = 25;
    l.first_order = order;
    l.occurrences = late.size();
    l.evidence = evidence;
    out.push_back(l);
  }
}

}  // namespace podperf::logs

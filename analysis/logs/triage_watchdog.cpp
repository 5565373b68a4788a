// PyTorch ProcessGroupNCCL watchdog lines compared across ranks: the same SeqNum/OpType everywhere is
// a hang, different ones a desync, a watchdog that fired far past its timeout was itself blocked. Contract in
// triage_rules.hpp and triage.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>

#include "analysis/base/text.hpp"
#include "analysis/logs/triage_rules.hpp"

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

constexpr std::string_view kWatchdogFlightRecorder =
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
  bool several = false;
  for (const auto& [key, seen] : timeouts) {
    several = several || seen.several;
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
  f.next_step = std::string(kWatchdogFlightRecorder);
  f.evidence = evidence;
  if (by_position.size() > 1 && several) {
    // A rank that timed out in several collectives runs several process groups, whose sequence numbers
    // count separately: different numbers across ranks are then no desync.
    f.check = "pytorch.hang";
    f.cause = "ranks timed out in collectives of several process groups (" + text::join(parts, "; ") +
              "): a hang; sequence numbers of different groups cannot be compared, so these lines do not say "
              "whether the ranks diverged";
    f.cause_rank = 30;
  } else if (by_position.size() > 1) {
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
    l.next_step = "py-spy dump --pid <pid> on a hung rank; " + std::string(kWatchdogFlightRecorder);
    l.cause_rank = 25;
    l.first_order = order;
    l.occurrences = late.size();
    l.evidence = evidence;
    out.push_back(l);
  }
}

}  // namespace podperf::logs

namespace podperf::logs {
namespace {

// "rank 3 (dump file): last completed 41, pending 42 nccl:all_reduce (started)".
std::string fr_line(const FlightRecorderRank& r) {
  std::string s =
      fmt::format("{}: rank {} pg {}: last completed collective {}", r.file, r.rank, r.pg, r.last_completed);
  if (r.pending_seq >= 0) s += fmt::format(", pending {} {} ({})", r.pending_seq, r.pending_op, r.pending_state);
  return s;
}

// The highest collective a rank entered: its pending one, else its last completed.
long long next_seq(const FlightRecorderRank& r) {
  return r.pending_seq >= 0 ? r.pending_seq : r.last_completed;
}

TriageFinding fr_finding(const char* check, const char* tag, int priority, int rank, std::string cause,
                         const std::vector<const FlightRecorderRank*>& shown) {
  TriageFinding f;
  f.tag = tag;
  f.priority = priority;
  f.check = check;
  f.cause_rank = rank;
  f.cause = std::move(cause);
  f.next_step = std::string(kWatchdogFlightRecorder);
  f.first_order = SIZE_MAX;
  for (const FlightRecorderRank* r : shown) {
    ++f.occurrences;
    f.first_order = std::min(f.first_order, r->order);
    if (f.evidence.size() < kEvidencePerFinding) f.evidence.push_back(text::printable(fr_line(*r), 300, true));
  }
  return f;
}

// One process group's dumps compared.
void fr_group(const std::vector<const FlightRecorderRank*>& ranks, std::vector<TriageFinding>& out) {
  long long lo = LLONG_MAX, hi = LLONG_MIN;
  for (const FlightRecorderRank* r : ranks) {
    lo = std::min(lo, next_seq(*r));
    hi = std::max(hi, next_seq(*r));
  }
  const std::string pg = ranks.front()->pg;
  if (lo != hi) {
    std::vector<const FlightRecorderRank*> behind;
    std::vector<std::string> who;
    for (const FlightRecorderRank* r : ranks) {
      if (next_seq(*r) == lo) {
        behind.push_back(r);
        if (who.size() < 8) who.push_back(std::to_string(r->rank));
      }
    }
    TriageFinding f = fr_finding(
        "pytorch.fr_behind", "FAIL", 0, 45,
        fmt::format("flight recorder, process group {}: rank(s) {} never reached collective {} that the other ranks "
                    "entered (they last entered {}): the ranks behind are where to look (their own first error, their "
                    "host's dmesg, a py-spy dump of their stack)",
                    pg, text::join(who), hi, lo),
        behind);
    out.push_back(std::move(f));
    return;
  }
  std::map<std::string, std::vector<const FlightRecorderRank*>> by_op;
  for (const FlightRecorderRank* r : ranks) by_op[r->pending_seq >= 0 ? r->pending_op : ""].push_back(r);
  if (by_op.size() > 1) {
    std::vector<std::string> parts;
    for (const auto& [op, rs] : by_op)
      parts.push_back(fmt::format("{} on {} rank(s)", op.empty() ? "none" : op, rs.size()));
    out.push_back(fr_finding("pytorch.fr_desync", "FAIL", 0, 45,
                             fmt::format("flight recorder, process group {}: ranks disagree on collective {} ({}): "
                                         "a desync or program-order bug",
                                         pg, lo, text::join(parts, "; ")),
                             ranks));
    return;
  }
  if (ranks.front()->pending_seq < 0) {
    out.push_back(fr_finding("pytorch.fr_complete", "INFO", 2, 5,
                             fmt::format("flight recorder, process group {}: every dumped rank completed collective "
                                         "{}; nothing was pending",
                                         pg, lo),
                             ranks));
    return;
  }
  out.push_back(fr_finding(
      "pytorch.fr_hang", "FAIL", 0, 30,
      fmt::format("flight recorder, process group {}: every dumped rank ({}) is in collective {} {}: a hang inside it "
                  "(a transport stall, or a rank whose dump is missing); the dumps alone do not say which",
                  pg, ranks.size(), lo, ranks.front()->pending_op),
      ranks));
}

}  // namespace

void flight_recorder_findings(const std::vector<FlightRecorderRank>& ranks, std::vector<TriageFinding>& out) {
  std::map<std::string, std::vector<const FlightRecorderRank*>> by_pg;
  for (const FlightRecorderRank& r : ranks) by_pg[r.pg].push_back(&r);
  for (const auto& [pg, rs] : by_pg) {
    if (rs.size() == 1) {
      out.push_back(fr_finding("pytorch.fr_one_rank", rs.front()->pending_seq >= 0 ? "WARN" : "INFO", 1, 25,
                               "flight recorder of one rank only: " + fr_line(*rs.front()) +
                                   "; the dumps of the other ranks are needed to see who is behind",
                               rs));
      continue;
    }
    fr_group(rs, out);
  }
}

}  // namespace podperf::logs

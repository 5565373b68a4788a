#pragma once
// The error families of shared/LOG-PATTERNS.md as data: one row per verbatim string (or string pair),
// with its source, class (FAIL / WARN / INFO), priority (P0 blocks training, P1 degraded, P2
// informational), cause, next step (a read-only command or a fix; podperf runs none) and a cause rank
// that orders cause before cascade (higher = more likely the root: local resources 100, configuration
// 90, network 70, benchmarks 60, generic 40, consequences 10, teardown 0). Pure, analysis floor.
#include <span>
#include <string_view>

#include "analysis/logs/log_event.hpp"

namespace podperf::logs {

struct LogPattern {
  std::string_view check;  // stable id, e.g. "nccl.cuda_oom"; several rows may share one
  std::string_view match;  // substring of the event text (case-sensitive, verbatim)
  std::string_view also;   // a second substring that must also be present ("" none)
  LogSource source;        // where the string comes from (documentation; any source matches)
  SeverityClass cls;
  int priority;    // 0, 1, 2
  int cause_rank;  // 0..100
  std::string_view cause;
  std::string_view next_step;
};

// Every row, most specific first (the first matching row wins).
std::span<const LogPattern> log_patterns();

// The first row whose strings are all in `text`; nullptr when none.
const LogPattern* match_log_pattern(std::string_view text);

}  // namespace podperf::logs

#pragma once
// The error families of NCCL, aws-ofi-nccl, libfabric, PyTorch, the launchers and the kernel as data: one
// row per verbatim string (or string pair), with its source, class (FAIL / WARN / INFO), priority (P0
// blocks training, P1 degraded, P2 informational), cause, next step (a read-only command or a fix;
// podperf runs none) and a cause rank that orders cause before cascade (higher = more likely the root:
// local resources 100, configuration 90, network 70, benchmarks 60, generic 40, consequences 10,
// teardown 0). A row with a `rule` is an anchor: the line is read further by that rule (the CUDA error
// table, the Xid table, NCCL's result codes, signals, exit statuses, Python exceptions, progress lines)
// and the rule may decline it, when the next matching row is tried. Next steps may hold "{host}", the
// host the finding names. Pure, analysis floor.
#include <span>
#include <string_view>

#include "analysis/logs/line_bigrams.hpp"
#include "analysis/logs/log_event.hpp"

namespace podperf::logs {

// How a matched row's line is read further (triage_rows.cpp).
enum class RowRule : unsigned char {
  plain,             // the row is the finding
  cuda_error,        // the CUDA error it quotes, through the CUDA error table
  quoted_error,      // the row's finding, its cause naming the CUDA or NCCL error the line quotes
  xid,               // an Xid code, through the Xid table
  signal,            // a process killed by a signal (banners, "core dumped", launcher lines)
  exit_status,       // a launcher's exit status of a rank (non-zero is a failure; negative is a signal)
  traceback,         // "Traceback (most recent call last):" opens a Python traceback (no finding)
  python_exception,  // "Name(Error|Exception): text" ending an open traceback
  elastic_field,     // a field of torchelastic's failure summary ("host : node-1")
  libfabric_warn,    // a libfabric "<warn>" line
  progress,          // a training or benchmark progress line (health evidence, no finding)
  completion,        // a line saying a rank, the training or the server finished or started fine (evidence)
  env_assignment,    // "NCCL_X=value" in a shell trace or environment dump
  loss_scale,        // an fp16 loss scaler that lowered its scale: a finding only when the scale is tiny
};

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
  RowRule rule = RowRule::plain;
};

// Every row, most specific first (the first matching row wins).
std::span<const LogPattern> log_patterns();

// The first row whose strings are all in `text`; nullptr when none. `after`: continue after that row (a
// row of the table) instead of from the top.
const LogPattern* match_log_pattern(std::string_view text, const LogPattern* after = nullptr);
// The same with the text's byte pairs already computed (LogEvent::pairs).
const LogPattern* match_log_pattern(std::string_view text, const BigramSet& pairs, const LogPattern* after = nullptr);

}  // namespace podperf::logs

#pragma once
// A finding: one tagged observation about a node, a rank or the run, with what it means and what to
// do next. Produced by signal rules and log parsers; joined with slow results by the analysis.
#include <string>

#include "analysis/base/cause_rank.hpp"

namespace podperf {

enum class Tag { kOk, kConcern, kInfo };

inline const char* tag_name(Tag t) {
  switch (t) {
    case Tag::kOk: return "OK";
    case Tag::kConcern: return "CONCERN";
    case Tag::kInfo: return "INFO";
  }
  return "INFO";
}

struct Finding {
  Tag tag = Tag::kInfo;
  std::string source;     // "nccl-log", "signals", ...
  std::string check;      // short stable id, e.g. "nccl.tcp_fallback"
  std::string host;       // node hostname ("" for run-wide findings)
  std::string observed;   // the value seen, e.g. "NET/Socket (NCCL's TCP fallback)"
  std::string expected;   // the threshold or what healthy looks like
  std::string meaning;    // what it means
  std::string effect;     // likely effect on NCCL or filesystem performance
  std::string next_step;  // a read-only command to confirm, or the remediation (never run by podperf)
  // Where it ranks among the likely causes of a slow pair and of a slow filesystem node
  // (analysis/base/cause_rank.hpp), set from the row of the table that wrote it.
  int pair_cause_rank = cause_rank::kOther;
  int fs_cause_rank = cause_rank::kFsOther;
};

}  // namespace podperf

#pragma once
// Whole-document JSON dumps a triage reads beside line logs: NCCL RAS JSON (`ncclras` with JSON output:
// "nccl_version", "communicators"[{"hash", "ranks"[{"rank", "host", "pid", "status"{"async_error",
// "abort_flag", ...}, "collective_counts"{...}}], "missing_ranks"[{"status"{"unresponsive",
// "considered_dead"}}]}]; NCCL 2.30 ras/client_support.cc) and PyTorch flight-recorder dumps in their JSON
// form ("entries"[{"pg_id", "collective_seq_id", "profiling_name", "state", ...}], "pg_status"; what
// torch._C._distributed_c10d._dump_nccl_trace_json writes). The default pickle form of flight-recorder
// dumps is NOT read: it is recognised by its first bytes and reported with the command that converts it.
// Pure except read_json_dump_file (reads one file); never throws on content.
#include <cstddef>
#include <string>
#include <string_view>

#include "analysis/logs/log_reader.hpp"
#include "analysis/logs/triage.hpp"

namespace podperf::logs {

enum class DumpKind { not_a_dump, ras_json, flight_recorder_json, pickle };

inline constexpr std::size_t kMaxDumpBytes = 256u << 20;  // JSON dumps are read whole, up to this size

// Classifies `text` and, for a RAS or flight-recorder JSON document, hands what it shows to `acc`
// (findings, flight-recorder ranks) with `file` as the evidence's file name. `order` is advanced by one.
// not_a_dump when it is not one JSON document of either kind (the caller then reads it as lines).
DumpKind read_json_dump(std::string_view text, const std::string& file, std::size_t& order, TriageAccumulator& acc);

// The same for a file (plain or .gz): only a file whose first non-blank byte is '{' is parsed, up to
// kMaxDumpBytes; a pickle (first byte 0x80) is reported in `stats` as binary with format "pickle".
// `stats` is filled for every kind but not_a_dump.
DumpKind read_json_dump_file(const std::string& path, std::size_t& order, TriageAccumulator& acc, ReadStats& stats);

}  // namespace podperf::logs

// Rebuilds a Run from events.jsonl (see run_events.hpp). Floor: analysis/, pure but for reading the
// file line by line (run_from_events_file): never the whole file at once. Each line goes through the
// fast reader (run_json_scan.hpp) and, where it leaves the line to nlohmann, through nlohmann's parser.
#include "analysis/io/run_events.hpp"

#include <fmt/format.h>

#include <fstream>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/io/json_numbers.hpp"
#include "analysis/io/run_checks.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/io/run_json_scan.hpp"
#include "analysis/model/attach_retest.hpp"
#include "analysis/model/run_blocks.hpp"

namespace podperf {
namespace {

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// One event line, parsed: its members, and its top-level "pairs" already converted when the fast
// reader took the line (nullopt: they are still in `event`).
struct ParsedEvent {
  nlohmann::json event;
  std::optional<std::vector<PairResult>> pairs;
};

// Takes the lines of events.jsonl in order. A line that is not JSON is an error only when something
// other than whitespace follows it; otherwise the writer died in the middle of it (cut).
class EventsBuilder {
 public:
  explicit EventsBuilder(const std::string& path) : path_(path) {}

  // `line` without its newline; `start` its byte offset in the file.
  void line(std::string_view line, std::size_t start) {
    ++line_no_;
    if (blank(line)) return;
    if (bad_line_) throw InputError(*bad_line_);  // a line that is not JSON, and more after it
    std::optional<ParsedEvent> parsed = parse(line, start);
    if (!parsed) return;
    try {
      apply(*parsed);
    } catch (const InputError&) {
      throw;
    } catch (const nlohmann::json::exception& e) {
      throw InputError(fmt::format("{}:{}: bad event: {}", path_, line_no_, e.what()));
    }
    ++out_.events;
  }

  RebuiltRun finish() {
    out_.cut = bad_line_.has_value();
    if (!started_) throw InputError(fmt::format("{}: no start event (empty or not a podperf events.jsonl)", path_));
    check_run_fields(out_.run, path_);
    if (!out_.ended) {
      out_.run.status = "aborted";
      out_.run.error = fmt::format("rebuilt from events.jsonl: the run has no end event (the process died{})",
                                   out_.cut ? " while writing its last line" : "");
    }
    return std::move(out_);
  }

 private:
  // nullopt: not JSON (remembered: an error if more follows).
  std::optional<ParsedEvent> parse(std::string_view line, std::size_t start) {
    std::optional<ParsedEvent> parsed = parse_json(line, start);
    if (!parsed) return parsed;
    // A number no field can hold is refused before it is converted (json_numbers.hpp).
    if (std::string e = normalize_json_numbers(parsed->event, ""); !e.empty()) {
      bad_line_ = fmt::format("{}:{}: bad field: {}", path_, line_no_, e);
      return std::nullopt;
    }
    return parsed;
  }

  std::optional<ParsedEvent> parse_json(std::string_view line, std::size_t start) {
    try {
      JsonCursor in(line);
      ScannedObject scanned = scan_object_with_pairs(in, /*to_end=*/true);
      ParsedEvent parsed{std::move(scanned.rest), std::nullopt};
      if (scanned.has_pairs) parsed.pairs = std::move(scanned.pairs);
      return parsed;
    } catch (const ScanUnsupported&) {
    }
    try {
      return ParsedEvent{nlohmann::json::parse(line), std::nullopt};
    } catch (const nlohmann::json::exception& e) {
      bad_line_ = fmt::format("{}:{}: not valid JSON (byte {} of the file): {}", path_, line_no_, start, e.what());
      return std::nullopt;
    }
  }

  // The event's pairs, converted.
  static std::vector<PairResult> pairs_of(ParsedEvent& e) {
    if (e.pairs) return std::move(*e.pairs);
    std::vector<PairResult> pairs;
    for (const nlohmann::json& p : e.event.at("pairs")) pairs.push_back(p.get<PairResult>());
    return pairs;
  }

  void apply(ParsedEvent& parsed) {
    nlohmann::json& event = parsed.event;
    const std::string kind = event.value("event", "");
    if (!started_) {
      if (kind != "start") {
        throw InputError(fmt::format("{}:{}: the first event is '{}', not start", path_, line_no_, kind));
      }
      event.erase("event");
      if (event.value("schema_version", 0) != kSchemaVersion) {
        throw InputError(fmt::format("{}:{}: schema_version {} is not supported (this podperf reads {})", path_,
                                     line_no_, event.value("schema_version", 0), kSchemaVersion));
      }
      out_.run = event.get<Run>();
      if (parsed.pairs) out_.run.pairs = std::move(*parsed.pairs);
      started_ = true;
    } else if (kind == "round") {
      std::vector<PairResult> pairs = pairs_of(parsed);
      const int round = event.at("round").get<int>();
      // --repeat: a later block's pairs join the results of the earlier blocks (analysis/model/run_blocks).
      const int block = event.value("block", 1);
      for (PairResult& p : pairs) pairs_index_.add(out_.run, std::move(p), block);
      rounds_seen_.insert({block, round});
      out_.run.rounds_completed =
          has_blocks(out_.run) ? static_cast<int>(rounds_seen_.size()) : std::max(out_.run.rounds_completed, round);
    } else if (kind == "retest") {
      for (const PairResult& p : pairs_of(parsed)) attach_retest(out_.run, p);
    } else if (kind == "collective") {
      const int block = event.value("block", 1);  // --repeat: later blocks join their results
      for (const nlohmann::json& r : event.at("results")) {
        collectives_index_.add(out_.run, r.get<CollectiveResult>(), block);
      }
    } else if (kind == "fs_setup") {
      out_.run.fs = event.at("fs").get<FsRun>();
    } else if (kind == "fs_probe") {
      out_.run.fs.probes.push_back(event.at("probe").get<FsProbeResult>());
    } else if (kind == "end") {
      out_.ended = true;
      out_.run.status = event.value("status", "complete");
      out_.run.error = event.value("error", "");
      out_.run.finished_at = event.value("finished_at", "");  // absent in files of podperf before 2026-12
      if (event.contains("unfinished")) out_.run.unfinished = event.at("unfinished").get<std::vector<std::string>>();
    } else {
      throw InputError(fmt::format("{}:{}: unknown event '{}'", path_, line_no_, kind));
    }
  }

  const std::string& path_;
  RebuiltRun out_;
  PairBlockIndex pairs_index_;
  CollectiveBlockIndex collectives_index_;
  std::set<std::pair<int, int>> rounds_seen_;  // (block, round) of the round events
  std::size_t line_no_ = 0;
  bool started_ = false;
  std::optional<std::string> bad_line_;  // the error of a line that was not JSON
};

}  // namespace

RebuiltRun run_from_events(std::string_view jsonl, const std::string& path) {
  EventsBuilder builder(path);
  std::size_t at = 0;
  while (at < jsonl.size()) {
    const std::size_t nl = jsonl.find('\n', at);
    const std::size_t end = nl == std::string_view::npos ? jsonl.size() : nl;
    builder.line(jsonl.substr(at, end - at), at);
    at = nl == std::string_view::npos ? jsonl.size() : nl + 1;
  }
  return builder.finish();
}

RebuiltRun run_from_events_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open", path));
  EventsBuilder builder(path);
  std::string line;
  std::size_t at = 0;
  while (std::getline(in, line)) {
    builder.line(line, at);
    at += line.size() + 1;
  }
  if (in.bad()) throw InputError(fmt::format("{}: read failed", path));
  return builder.finish();
}

}  // namespace podperf

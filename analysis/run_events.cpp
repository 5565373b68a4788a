#include "analysis/run_events.hpp"

#include <fmt/format.h>

#include "analysis/errors.hpp"
#include "analysis/pair_flags.hpp"
#include "analysis/run_json.hpp"

namespace podperf {

RebuiltRun run_from_events(std::string_view jsonl, const std::string& path) {
  RebuiltRun out;
  std::size_t line_no = 0;
  std::size_t at = 0;
  bool started = false;
  while (at < jsonl.size()) {
    const std::size_t nl = jsonl.find('\n', at);
    const bool last = nl == std::string_view::npos;
    const std::string_view line = jsonl.substr(at, last ? std::string_view::npos : nl - at);
    const std::size_t line_start = at;
    at = last ? jsonl.size() : nl + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    nlohmann::json event;
    try {
      event = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {
      if (last || jsonl.find_first_not_of(" \t\r\n", at) == std::string_view::npos) {
        out.cut = true;  // the writer died in the middle of its last line
        break;
      }
      throw InputError(fmt::format("{}:{}: not valid JSON (byte {} of the file): {}", path, line_no, line_start,
                                   e.what()));
    }
    try {
      const std::string kind = event.value("event", "");
      if (!started) {
        if (kind != "start") throw InputError(fmt::format("{}:{}: the first event is '{}', not start", path, line_no, kind));
        event.erase("event");
        if (event.value("schema_version", 0) != kSchemaVersion) {
          throw InputError(fmt::format("{}:{}: schema_version {} is not supported (this podperf reads {})", path,
                                       line_no, event.value("schema_version", 0), kSchemaVersion));
        }
        out.run = event.get<Run>();
        started = true;
      } else if (kind == "round") {
        for (const nlohmann::json& p : event.at("pairs")) out.run.pairs.push_back(p.get<PairResult>());
        out.run.rounds_completed = std::max(out.run.rounds_completed, event.at("round").get<int>());
      } else if (kind == "retest") {
        for (const nlohmann::json& p : event.at("pairs")) attach_retest(out.run, p.get<PairResult>());
      } else if (kind == "collective") {
        for (const nlohmann::json& r : event.at("results")) out.run.collectives.push_back(r.get<CollectiveResult>());
      } else if (kind == "fs_setup") {
        out.run.fs = event.at("fs").get<FsRun>();
      } else if (kind == "fs_probe") {
        out.run.fs.probes.push_back(event.at("probe").get<FsProbeResult>());
      } else if (kind == "end") {
        out.ended = true;
        out.run.status = event.value("status", "complete");
        out.run.error = event.value("error", "");
        if (event.contains("unfinished")) out.run.unfinished = event.at("unfinished").get<std::vector<std::string>>();
      } else {
        throw InputError(fmt::format("{}:{}: unknown event '{}'", path, line_no, kind));
      }
    } catch (const InputError&) {
      throw;
    } catch (const nlohmann::json::exception& e) {
      throw InputError(fmt::format("{}:{}: bad event: {}", path, line_no, e.what()));
    }
    ++out.events;
  }
  if (!started) throw InputError(fmt::format("{}: no start event (empty or not a podperf events.jsonl)", path));
  if (!out.ended) {
    out.run.status = "aborted";
    out.run.error = fmt::format("rebuilt from events.jsonl: the run has no end event (the process died{})",
                                out.cut ? " while writing its last line" : "");
  }
  return out;
}

}  // namespace podperf

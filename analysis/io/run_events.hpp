#pragma once
// Rebuilds a Run from events.jsonl alone (a crashed run has no run.json): the start event carries the
// run's metadata and plan, then each round, retest, collective, fs_setup and fs_probe event adds its
// results, and the end event the outcome. Pure (text in, Run out) but for run_from_events_file, which
// reads the file; the caller runs the analysis.
#include <string>
#include <string_view>

#include "analysis/model/run.hpp"

namespace podperf {

struct RebuiltRun {
  Run run;
  std::size_t events = 0;  // complete events used
  bool ended = false;      // an end event was found
  bool cut = false;        // the last line was incomplete (the process died while writing it) and ignored
};

// Throws InputError naming `path`, the line and the byte when a line other than an incomplete last
// one is not JSON, when the first event is not a start event, or when an event's fields are wrong.
// Without an end event the run gets status "aborted" and an error saying it was rebuilt.
RebuiltRun run_from_events(std::string_view jsonl, const std::string& path);

// The same on the file at `path`, read line by line (a line at a time in memory, never the file:
// events.jsonl of 4096 nodes is gigabytes). Also throws InputError when it cannot be opened or read.
RebuiltRun run_from_events_file(const std::string& path);

}  // namespace podperf

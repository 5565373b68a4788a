#pragma once
// What every reader of a run (run.json, events.jsonl) checks before any command judges or prints it:
// the fields docs/run.schema.json constrains, and the thresholds the run was judged with. One place,
// so every offline command (report, compare, accept --from, triage of a results directory) refuses the
// same inputs. Pure, local; throws InputError naming the file, the field and the value.
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

// Checks `run` as read from `path`, and completes what older files lack: a run.json written before
// runs recorded their thresholds gets the built-in ones with its options.threshold applied (source
// says so). Throws InputError on the first field out of its documented range.
void check_run_fields(Run& run, const std::string& path);

}  // namespace podperf

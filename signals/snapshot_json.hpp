#pragma once
// HostSnapshot <-> JSON, so each node's snapshot can travel to rank 0 (MPI gather of strings) or into
// run.json, and evaluate_drift runs on the gathered list. Field names are the struct member names.
#include <nlohmann/json.hpp>
#include <string>

#include "signals/snapshot.hpp"

namespace podperf {

// Schema version of the object written by snapshot_to_json ("snapshot_version").
inline constexpr int kSnapshotJsonVersion = 1;

nlohmann::json snapshot_to_json(const HostSnapshot& s);
// Missing keys keep their defaults (a missing Reading is "not readable"). Throws InputError when a value
// has the wrong type or snapshot_version is newer than this build knows.
HostSnapshot snapshot_from_json(const nlohmann::json& j);

}  // namespace podperf

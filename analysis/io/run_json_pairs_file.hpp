#pragma once
// pairs.bin: the pairs of a large run (kPairsFileMinPairs or more) beside its run.json, in a compact
// binary form (232 bytes a pair with 10 samples, against about 1.1 KB as JSON text), every field and
// every sample kept bit for bit. run.json then holds "pairs": [] and a "pairs_file" member naming it,
// with schema_version 2 (so a podperf that predates it refuses the file instead of seeing no pairs).
// Format in docs/schema.md ("pairs.bin"). Floor: analysis/, local; reads and writes files only
// through the given sink and path. Little-endian hosts only (x86-64, arm64).
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

inline constexpr std::size_t kPairsFileMinPairs = 100000;  // from about 448 nodes of one size
inline constexpr int kSchemaVersionPairsFile = 2;          // run.json whose pairs are in pairs.bin
inline constexpr const char* kPairsFileName = "pairs.bin";
inline constexpr const char* kPairsFileFormat = "podperf-pairs-1";

// Writes `pairs` in the pairs.bin format to `sink`, in pieces of about 1 MiB. Throws what sink throws;
// std::length_error when more than 65535 distinct op, dtype or status strings (never in practice).
void write_pairs_file(const std::vector<PairResult>& pairs, const std::function<void(std::string_view)>& sink);

// run.json's "pairs_file" member for `pairs` written to `file_name` (relative to run.json).
nlohmann::json pairs_file_member(const std::vector<PairResult>& pairs, const std::string& file_name);

// The pairs of a run.json whose `member` is its "pairs_file" (`run_json_path` names the run.json, the
// file is found relative to its directory). Throws InputError naming the file and what is wrong
// (missing, short, not the format, a count that disagrees with run.json).
std::vector<PairResult> read_pairs_file(const nlohmann::json& member, const std::string& run_json_path);

}  // namespace podperf

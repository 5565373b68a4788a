#pragma once
// Private to signals/: what the rule domains (rules_host, rules_efa, rules_gpu, rules_nvml,
// rules_storage) share: the readers of configs/rules.toml keys, the finding builder and the text helpers
// of findings, and the signatures a rule row of signals/rules.cpp points at. Pure, local; the readers
// throw ConfigError "<source>:<line>: '<prefix><key>' ... (expected ...)", nothing else throws.
#include <toml++/toml.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/base/finding.hpp"
#include "signals/rules.hpp"
#include "signals/snapshot.hpp"

namespace podperf::signal_rules {

// ---- the signatures of the rule table (signals/rules.cpp) ----

// Reads one [section] of rules.toml into `r` (the table was found by the caller). Throws ConfigError.
using SectionParser = void (*)(const toml::table& section, const std::string& source, Rules& r);
// Appends the findings of one check about one snapshot.
using SnapshotCheck = void (*)(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
// Appends the findings of one check about what changed between two snapshots of one host.
using DeltaCheck = void (*)(const HostSnapshot& before, const HostSnapshot& after, const Rules& r,
                            std::vector<Finding>& out);
// Appends run-wide findings about all nodes.
using DriftCheck = void (*)(const std::vector<HostSnapshot>& nodes, std::vector<Finding>& out);

// ---- rules.toml readers ----

// [prefix key] of `parent`: "missing table [prefix key]", "... must be a table".
const toml::table& require_table(const toml::table& parent, std::string_view key, std::string_view prefix,
                                 const std::string& source);
// "missing key 'prefix key'" when absent.
const toml::node& require_key(const toml::table& table, std::string_view key, std::string_view prefix,
                              const std::string& source);
// A number (integer or float) in [lo, hi].
double require_number(const toml::table& table, std::string_view key, std::string_view prefix, double lo, double hi,
                      const std::string& source);
// A whole number in [lo, hi]; `name` is the key as errors spell it.
std::int64_t require_integer(const toml::node& node, std::string_view name, std::int64_t lo, std::int64_t hi,
                             const std::string& source);
// A byte count, 1 B to 1 PiB.
std::uint64_t require_bytes(const toml::table& table, std::string_view key, std::string_view prefix,
                            const std::string& source);
// An array (entries checked by the caller).
const toml::array& require_array(const toml::table& table, std::string_view key, std::string_view prefix,
                                 const std::string& source);

// ---- findings ----

// A finding of source "signals".
Finding make(Tag tag, std::string check, const std::string& host, std::string observed, std::string expected,
             std::string meaning, std::string effect, std::string next_step);
// "12.3%".
std::string percent(double v);
// "a, b, c" with at most `cap` items, then "+N more".
std::string list(const std::vector<std::string>& items, std::size_t cap = 8);
// The mount at exactly `mount_point` of a readable mount list, else nullptr.
const MountInfo* find_mount(const HostSnapshot& s, const std::string& mount_point);
// "535.104.05: a, b; 550.54.15: c" (hosts per value, at most 6 named each).
std::string groups_text(const std::map<std::string, std::vector<std::string>>& groups);
// The EFA device count [efa.expected_count] lists for the node's instance type; nullopt when the type is
// unknown or not listed.
std::optional<int> expected_efa_count(const HostSnapshot& s, const Rules& r);

}  // namespace podperf::signal_rules

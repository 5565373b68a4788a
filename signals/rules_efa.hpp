#pragma once
// Private to signals/: the EFA and network domain of the signal rules: EFA devices against the instance
// type's count, EFA software versions, libfabric's providers and EFA error counter rises. Reads
// rules.toml [efa]. Pure, local; the section parser throws ConfigError, the checks never throw. Each
// function is one row of the rule table in signals/rules.cpp.
#include "signals/rules_common.hpp"

namespace podperf::signal_rules {

// [efa]: concern_counters (counter names, each once), [efa.expected_count] (instance type -> devices).
void parse_efa_section(const toml::table& efa, const std::string& source, Rules& r);

void check_efa_count(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);  // signals.efa_count
// signals.efa_versions; nothing when neither version is readable and no EFA is present or expected.
void check_efa_versions(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_libfabric(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);  // signals.libfabric

// signals.efa_counters: any rise of r.efa_concern_counters on a device present in both snapshots.
void delta_efa_counters(const HostSnapshot& before, const HostSnapshot& after, const Rules& r,
                        std::vector<Finding>& out);

}  // namespace podperf::signal_rules

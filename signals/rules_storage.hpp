#pragma once
// Private to signals/: the filesystem domain of the signal rules: the root filesystem's fill, the data
// mounts and Lustre OST balance. Reads rules.toml [storage]. Pure, local; the section parser throws
// ConfigError, the checks never throw. Each function is one row of the rule table in signals/rules.cpp.
#include "signals/rules_common.hpp"

namespace podperf::signal_rules {

// [storage]: root_used_concern_fraction, ost_fill_imbalance_points.
void parse_storage_section(const toml::table& storage, const std::string& source, Rules& r);

// signals.root_fs; nothing when the mounts are unreadable (signals.mounts says so).
void check_root_fs(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
// signals.mounts: an INFO when mountinfo is unreadable, else an INFO listing the data filesystems (if any).
void check_mounts(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);
void check_lustre(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out);  // signals.lustre_ost

}  // namespace podperf::signal_rules

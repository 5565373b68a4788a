#pragma once
// Helpers shared by the config loaders (configs/thresholds.toml, configs/rules.toml): every error
// names the file and line, the key, and what was expected, as a ConfigError.
#include <set>
#include <string>
#include <string_view>
#include <toml++/toml.h>

namespace podperf {

// "file:line" of a node.
std::string toml_where(const std::string& source, const toml::node& node);

// Throws ConfigError for the first key of `table` not in `known` ("unknown key 'prefix.key'").
void toml_reject_unknown(const toml::table& table, const std::set<std::string_view>& known, std::string_view prefix,
                         const std::string& source);

}  // namespace podperf

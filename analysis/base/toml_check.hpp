#pragma once
// Helpers shared by the config loaders (configs/thresholds.toml, configs/rules.toml): every error
// names the file and line, the key, and what was expected, as a ConfigError.
#include <toml++/toml.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

// Parses TOML text; a syntax error becomes a ConfigError "source:line:column: description".
toml::table toml_parse(std::string_view text, const std::string& source);

// The text of a config: the file at `path`, or, when `path` is empty, configs/<embedded_name> as
// built into the binary. `source` is set to what errors should name. ConfigError when the file
// cannot be read ("<path>: cannot read <what>").
std::string config_text(const std::string& path, const std::string& embedded_name, std::string_view what,
                        std::string& source);

// A config chosen by name or path (--profile, --sku): a path (it has a '/' or ends in .toml) is read
// from disk; a name is configs/<dir><name>.toml as built into the binary. ConfigError for an unknown
// name lists the built-in ones: "unknown <what> 'x' (built in: a, b; or give a file path)".
bool is_config_path(const std::string& name_or_file);
std::string named_config_text(const std::string& name_or_file, std::string_view dir, std::string_view what,
                              std::string& source);
// The names (without ".toml") of the configs built in under `dir` ("profiles/"), sorted.
std::vector<std::string> embedded_config_names(std::string_view dir);

// "file:line" of a node.
std::string toml_where(const std::string& source, const toml::node& node);

// Throws ConfigError for the first key of `table` not in `known` ("unknown key 'prefix.key'").
void toml_reject_unknown(const toml::table& table, const std::set<std::string_view>& known, std::string_view prefix,
                         const std::string& source);

}  // namespace podperf

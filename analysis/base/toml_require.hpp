#pragma once
// Typed, required keys of a TOML table for the config loaders of podperf accept (profiles, SKUs).
// Every function throws ConfigError "source:line: 'prefix.key' must be ..." (or "source: missing key
// 'prefix.key'" naming the table's line when the key is absent).
#include <toml++/toml.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

struct TomlCtx {
  const toml::table& table;
  std::string prefix;  // "pairs." for keys of [pairs]
  const std::string& source;
};

const toml::table& toml_require_table(const toml::table& parent, std::string_view key, const std::string& source);
std::string toml_require_string(const TomlCtx& c, std::string_view key);
double toml_require_number(const TomlCtx& c, std::string_view key, double lo, double hi);
std::int64_t toml_require_int(const TomlCtx& c, std::string_view key, std::int64_t lo, std::int64_t hi);
bool toml_require_bool(const TomlCtx& c, std::string_view key);
std::vector<std::string> toml_require_strings(const TomlCtx& c, std::string_view key);
// The node of a key that must exist (for "source:line" in the caller's own errors).
const toml::node& toml_require_node(const TomlCtx& c, std::string_view key);

}  // namespace podperf

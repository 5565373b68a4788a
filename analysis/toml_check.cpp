#include "analysis/toml_check.hpp"

#include <fmt/format.h>

#include "analysis/errors.hpp"

namespace podperf {

std::string toml_where(const std::string& source, const toml::node& node) {
  return fmt::format("{}:{}", source, node.source().begin.line);
}

void toml_reject_unknown(const toml::table& table, const std::set<std::string_view>& known, std::string_view prefix,
                         const std::string& source) {
  for (const auto& [key, value] : table) {
    if (!known.contains(key.str())) {
      throw ConfigError(fmt::format("{}: unknown key '{}{}' (expected one of: {})", toml_where(source, value), prefix,
                                    key.str(), fmt::join(known, ", ")));
    }
  }
}

}  // namespace podperf

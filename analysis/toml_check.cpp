#include "analysis/toml_check.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "analysis/embedded_configs.hpp"
#include "analysis/errors.hpp"

namespace podperf {

toml::table toml_parse(std::string_view text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw ConfigError(
        fmt::format("{}:{}:{}: {}", source, e.source().begin.line, e.source().begin.column, e.description()));
  }
}

std::string config_text(const std::string& path, const std::string& embedded_name, std::string_view what,
                        std::string& source) {
  if (path.empty()) {
    const auto& configs = embedded_configs();
    auto it = configs.find(embedded_name);
    if (it == configs.end()) {
      throw ConfigError(fmt::format("built-in configs/{} is missing from this build", embedded_name));
    }
    source = fmt::format("configs/{} (built in)", embedded_name);
    return std::string(it->second);
  }
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("{}: cannot read {}", path, what));
  std::stringstream text;
  text << in.rdbuf();
  source = path;
  return text.str();
}

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

#include "analysis/base/toml_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "analysis/base/embedded_configs.hpp"
#include "analysis/base/errors.hpp"
#include "analysis/base/toml_text_guard.hpp"

namespace podperf {

toml::table toml_parse(std::string_view text, const std::string& source) {
  try {
    return toml::parse(toml_text_guarded(text, source), source);
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

bool is_config_path(const std::string& name_or_file) {
  return name_or_file.find('/') != std::string::npos || (name_or_file.size() > 5 && name_or_file.ends_with(".toml"));
}

std::vector<std::string> embedded_config_names(std::string_view dir) {
  std::vector<std::string> names;
  for (const auto& [path, text] : embedded_configs()) {
    if (path.starts_with(dir) && path.ends_with(".toml")) {
      names.push_back(path.substr(dir.size(), path.size() - dir.size() - 5));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string named_config_text(const std::string& name_or_file, std::string_view dir, std::string_view what,
                              std::string& source) {
  if (is_config_path(name_or_file)) return config_text(name_or_file, "", what, source);
  const std::string embedded = fmt::format("{}{}.toml", dir, name_or_file);
  if (!embedded_configs().contains(embedded)) {
    throw ConfigError(fmt::format("unknown {} '{}' (built in: {}; or give a file path)", what, name_or_file,
                                  fmt::join(embedded_config_names(dir), ", ")));
  }
  return config_text("", embedded, what, source);
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

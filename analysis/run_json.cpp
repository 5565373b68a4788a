#include "analysis/run_json.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iterator>

#include "analysis/errors.hpp"

namespace podperf {

Run read_run_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open", path));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_run_json(text, path);
}

Run parse_run_json(std::string_view text, const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(fmt::format("{}: not valid JSON at byte {}: {}", path, e.byte, e.what()));
  } catch (const nlohmann::json::exception& e) {
    // e.g. out_of_range 406, a number too large for a double (found by fuzz_run_json)
    throw InputError(fmt::format("{}: not valid JSON: {}", path, e.what()));
  }
  if (!j.is_object() || !j.contains("schema_version")) {
    throw InputError(fmt::format("{}: not a podperf run.json (no schema_version)", path));
  }
  if (j["schema_version"] != kSchemaVersion) {
    throw InputError(fmt::format("{}: schema_version {} is not supported (this podperf reads {})", path,
                                 j["schema_version"].dump(), kSchemaVersion));
  }
  try {
    return j.get<Run>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: bad field: {}", path, e.what()));
  }
}

}  // namespace podperf

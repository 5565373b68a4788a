#include "analysis/run_json.hpp"

#include <fmt/format.h>

#include <fstream>

#include "analysis/errors.hpp"

namespace podperf {

Run read_run_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open", path));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(fmt::format("{}: not valid JSON at byte {}: {}", path, e.byte, e.what()));
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

// CSV topology: a header "node,<level>,<level>,..." and one row per node ("# ..." and blank lines skipped).
#include <fmt/format.h>

#include "analysis/base/errors.hpp"
#include "analysis/base/text.hpp"
#include "analysis/topology/topology.hpp"

namespace podperf {
namespace {

std::vector<std::string> split_fields(std::string_view line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    out.emplace_back(
        text::trim(line.substr(start, comma == std::string_view::npos ? line.size() - start : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

Topology parse_csv_topology(std::string_view text, const std::string& source) {
  Topology t;
  t.source = source;
  t.format = "csv";
  const std::vector<std::string_view> lines = text::split_lines(text);
  std::map<std::string, std::size_t> line_of;
  bool header = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = text::trim(lines[i]);
    const std::size_t lineno = i + 1;
    if (line.empty() || line.front() == '#') continue;
    if (line.find('"') != std::string_view::npos) {
      throw InputError(
          fmt::format("{}:{}: quoted CSV fields are not supported (names hold no commas or quotes)", source, lineno));
    }
    std::vector<std::string> fields = split_fields(line);
    if (!header) {
      if (fields.front() != "node") {
        throw InputError(fmt::format("{}:{}: the header must start with 'node' (e.g. node,zone,spine,leaf), not '{}'",
                                     source, lineno, fields.front()));
      }
      if (fields.size() < 2) {
        throw InputError(
            fmt::format("{}:{}: the header names no level after 'node' (e.g. node,spine,leaf)", source, lineno));
      }
      for (std::size_t f = 1; f < fields.size(); ++f) {
        if (fields[f].empty())
          throw InputError(fmt::format("{}:{}: level {} of the header is empty", source, lineno, f));
        for (std::size_t g = 1; g < f; ++g) {
          if (fields[g] == fields[f]) {
            throw InputError(fmt::format("{}:{}: level '{}' appears twice in the header", source, lineno, fields[f]));
          }
        }
        t.levels.push_back(fields[f]);
      }
      header = true;
      continue;
    }
    if (fields.size() != t.levels.size() + 1) {
      throw InputError(fmt::format("{}:{}: {} fields, expected {} (node and {} level{})", source, lineno, fields.size(),
                                   t.levels.size() + 1, t.levels.size(), t.levels.size() == 1 ? "" : "s"));
    }
    if (fields.front().empty()) throw InputError(fmt::format("{}:{}: empty node name", source, lineno));
    for (std::size_t f = 1; f < fields.size(); ++f) {
      if (fields[f].empty()) {
        throw InputError(fmt::format("{}:{}: node '{}' has no value for level '{}'", source, lineno, fields.front(),
                                     t.levels[f - 1]));
      }
    }
    const auto [at, inserted] = line_of.emplace(fields.front(), lineno);
    if (!inserted) {
      throw InputError(fmt::format("{}:{}: node '{}' is listed twice (first on line {})", source, lineno,
                                   fields.front(), at->second));
    }
    t.paths[fields.front()] = std::vector<std::string>(fields.begin() + 1, fields.end());
  }
  if (!header) throw InputError(fmt::format("{}: no header line (node,<level>,...)", source));
  if (t.paths.empty()) throw InputError(fmt::format("{}: the header is followed by no node", source));
  return t;
}

}  // namespace podperf

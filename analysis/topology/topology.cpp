#include "analysis/topology/topology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>

#include "analysis/base/errors.hpp"
#include "analysis/base/text.hpp"

namespace podperf {
namespace {

std::string short_name(const std::string& host) {
  return host.substr(0, host.find('.'));
}

}  // namespace

std::string detect_topology_format(std::string_view text, const std::string& source) {
  const std::string_view all = text::trim(text);
  if (all.empty()) throw InputError(fmt::format("{}: the topology file is empty", source));
  if (all.front() == '{') return "eks";
  for (std::string_view line : text::split_lines(text)) {
    line = text::trim(line);
    if (line.empty() || line.front() == '#') continue;
    for (const char* key : {"SwitchName=", "BlockName=", "BlockSizes="}) {
      const std::string_view k(key);
      if (line.size() >= k.size() && std::equal(k.begin(), k.end(), line.begin(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
          })) {
        return "slurm";
      }
    }
    if (line.substr(0, line.find(',')) == "node" && line.find(',') != std::string_view::npos) return "csv";
    throw InputError(
        fmt::format("{}: cannot tell the topology format from '{}': expected `kubectl get nodes -o json` output, Slurm "
                    "topology.conf or `scontrol show topology` lines (SwitchName=... / BlockName=...), or a CSV with "
                    "the header node,<level>,...; --topology-format eks|slurm|csv says which",
                    source, line.substr(0, std::min<std::size_t>(line.size(), 60))));
  }
  throw InputError(fmt::format("{}: the topology file has only comments", source));
}

Topology parse_topology(std::string_view text, const std::string& source, const std::string& format) {
  const std::string f = format.empty() || format == "auto" ? detect_topology_format(text, source) : format;
  if (f == "eks") return parse_eks_topology(text, source);
  if (f == "slurm") return parse_slurm_topology(text, source);
  if (f == "csv") return parse_csv_topology(text, source);
  throw UsageError(fmt::format("--topology-format {}: expected eks, slurm, csv or auto", format));
}

Topology load_topology(const std::string& path, const std::string& format) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open the topology file", path));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(fmt::format("{}: cannot read the topology file", path));
  return parse_topology(text, path, format);
}

void apply_topology(Run& run, const Topology& topology) {
  // Short names that stand for exactly one entry (an ambiguous short name matches nothing).
  std::map<std::string, const std::vector<std::string>*> by_short;
  std::map<std::string, int> short_count;
  for (const auto& [name, path] : topology.paths) {
    const std::string s = short_name(name);
    by_short[s] = &path;
    ++short_count[s];
  }
  run.topology_levels = topology.levels;
  run.topology_source = topology.source;
  for (NodeInfo& node : run.nodes) {
    node.topology.clear();
    for (const std::string* key : {&node.label, &node.hostname}) {
      const auto it = topology.paths.find(*key);
      if (it != topology.paths.end()) {
        node.topology = it->second;
        break;
      }
    }
    if (!node.topology.empty()) continue;
    const std::string s = short_name(node.hostname);
    const auto it = by_short.find(s);
    if (it != by_short.end() && short_count[s] == 1) node.topology = *it->second;
  }
}

}  // namespace podperf

#pragma once
// Where each node sits in the network, read from a file: EKS node labels (`kubectl get nodes -o
// json`), Slurm's topology.conf or `scontrol show topology` output (tree or block plugin), or a CSV
// (`node,<level>,...`). Pure parsers: text in, a Topology out; errors name file:line and what was wrong.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

struct Topology {
  std::string source;               // the file (or what the caller named the text)
  std::string format;               // eks | slurm | csv
  std::vector<std::string> levels;  // level names, outermost first
  // Node name (as the file spells it) -> one name per level, outermost first.
  std::map<std::string, std::vector<std::string>> paths;
};

// "eks", "slurm" or "csv" from the text: '{' first is kubectl JSON; SwitchName= / BlockName= /
// BlockSizes= lines are Slurm; a first line "node,..." is CSV. Throws InputError naming `source`.
std::string detect_topology_format(std::string_view text, const std::string& source);

// Parses `text` in `format` ("" or "auto": detected). Throws InputError (file:line, what was wrong)
// for malformed input, a node listed twice, a node under two leaf switches, an empty topology;
// UsageError for an unknown format.
Topology parse_topology(std::string_view text, const std::string& source, const std::string& format);

// Reads `path` and parses it. Throws InputError when the file cannot be read.
Topology load_topology(const std::string& path, const std::string& format);

// The format parsers (parse_topology dispatches to them).
Topology parse_eks_topology(std::string_view text, const std::string& source);
Topology parse_slurm_topology(std::string_view text, const std::string& source);
Topology parse_csv_topology(std::string_view text, const std::string& source);

// Sets every node's topology (matched by label, then hostname, then short hostname: the part before
// the first dot, on either side), run.topology_levels and run.topology_source. Nodes not found get an
// empty topology (judge_topology lists them in an INFO finding).
void apply_topology(Run& run, const Topology& topology);

}  // namespace podperf

#pragma once
// The modelled fabric's description (podperf pairs --backend sim --sim-model NAME|FILE): a TOML file
// in configs/sim/ (built in) or on disk. It exists to test scheduling and detection at scale, not to
// predict real numbers. The model, in a few lines:
//   - a pair's time for one iteration = latency + bus_bytes / (busbw x f) (alpha-beta), where
//     bus_bytes = message size x the op's bus factor, so a healthy pair's busbw approaches busbw_gbps;
//   - f = min(nic_a, nic_b) x link factor x crossing factor x (1 + pair_cv x N(0,1)), drawn once per
//     measurement of a pair at one size; nic = nic_factor x slow node/rack factors (x a flapping
//     node's factor with its probability, drawn per measurement); crossing factor: the topology
//     level at which the two nodes' groups first differ;
//   - each iteration's time is then multiplied by exp(iteration_cv x N(0,1));
//   - heavy tails ([noise] pair_tail_df, outlier_probability, outlier_factor): the pair noise from a
//     Student t, and now and then a measurement far off (an outlier factor of 1/3: a "3x" outlier);
//   - [[group_factor]]: pairs inside one group (both nodes in it) get the factor: a faster domain
//     (NVLink, UltraServer) above 1, a slow switch below; [[node_kind]]: a range of nodes with another
//     ranks_per_node and a capacity factor (nodes of another kind, judged in their own class).
// Faults: slow nodes, slow links (a pair factor), a slow rack (innermost topology group), a slow
// uplink (a group at a level: pairs with exactly one node inside it get its factor, pairs inside it
// do not), flapping nodes, and random slow nodes chosen by the seed.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

struct SimNodeFault {
  int node = 0;
  double factor = 1.0;
  double probability = 1.0;  // flapping: slow in this share of measurements; 1 for a slow node
  std::string where;         // file:line, for errors
};

struct SimLinkFault {
  std::array<int, 2> nodes{0, 0};
  double factor = 1.0;
  std::string where;
};

struct SimRackFault {
  int rack = 0;  // group index at the innermost topology level
  double factor = 1.0;
  std::string where;
};

// Pairs with both nodes in one group at a level get the factor (above 1: faster, an NVLink domain or
// UltraServer; below 1: a slow switch).
struct SimGroupFactor {
  int level = 0;
  int group = 0;
  double factor = 1.0;
  std::string where;
};

// Nodes of another kind: nodes first..first+count-1 have this many ranks and their NIC factor times
// `factor` (fewer GPUs and NICs: a lower capacity by design).
struct SimNodeKind {
  int first = 0;
  int count = 0;
  int ranks_per_node = 8;
  double factor = 1.0;
  std::string where;
};

struct SimUplinkFault {
  int level = 0;  // index into SimModel::levels
  int group = 0;  // group index at that level (nodes group*size .. (group+1)*size - 1)
  double factor = 1.0;
  std::string where;
};

struct SimModel {
  std::string name;    // what --sim-model named ("healthy" or a path)
  std::string source;  // the file errors name ("configs/sim/healthy.toml (built in)" or the path)
  std::string description;
  int ranks_per_node = 8;
  double latency_us = 25.0;
  double busbw_gbps = 360.0;
  double nic_factor = 1.0;
  double pair_cv = 0.01;
  double iteration_cv = 0.03;
  // Heavy tails: the pair noise drawn from Student's t with this many degrees of freedom (scaled to
  // pair_cv; 0: normal), and a measurement whose busbw is multiplied by outlier_factor (1/3: a "3x"
  // outlier) with outlier_probability.
  double pair_tail_df = 0.0;
  double outlier_probability = 0.0;
  double outlier_factor = 1.0;
  // Topology: level names outermost first, nodes per group at each level (each divides the one
  // before), and the busbw factor of a pair whose groups first differ at that level.
  std::vector<std::string> levels;
  std::vector<int> group_sizes;
  std::vector<double> crossing_factors;
  std::string topology_where;
  std::vector<SimNodeFault> slow_nodes;
  std::vector<SimNodeFault> flapping_nodes;
  std::vector<SimLinkFault> slow_links;
  std::vector<SimRackFault> slow_racks;
  std::vector<SimUplinkFault> slow_uplinks;
  std::vector<SimGroupFactor> group_factors;
  std::vector<SimNodeKind> node_kinds;
  int random_slow_nodes = 0;  // chosen by the seed among the nodes without another fault
  double random_min_factor = 0.6;
  double random_max_factor = 0.9;
};

// Parses and validates a model (ConfigError "source:line: ..." naming the key).
SimModel parse_sim_model(std::string_view toml_text, const std::string& name, const std::string& source);

// NAME (configs/sim/NAME.toml, built in) or FILE.
SimModel load_sim_model(const std::string& name_or_file);

std::vector<std::string> builtin_sim_models();

}  // namespace podperf

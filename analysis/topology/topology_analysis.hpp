#pragma once
// Are pairs that cross a topology level slower than pairs inside one? Pure: works on a Run whose
// nodes carry topology paths (NodeInfo::topology, Run::topology_levels), from a file or a model.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"

namespace podperf {

// The pairs at the judged size whose two nodes first differ at one level (or nowhere: same leaf).
struct TopologyClass {
  std::string name;  // "crosses <level>" | "same leaf" | "topology unknown"
  int level = -1;    // index in topology_levels where the nodes differ; levels.size() for same leaf; -1 unknown
  std::size_t pairs = 0;
  double median_busbw_gbps = 0.0;
  double ratio = 0.0;   // median / the reference (0 when there is none)
  bool judged = false;  // enough pairs here and in the reference to be judged (min_pairs)
};

struct TopologyComparison {
  std::uint64_t size_bytes = 0;  // the judged size
  std::string reference;         // "same leaf" | "run baseline" | "" (nothing to compare against)
  double reference_gbps = 0.0;
  std::size_t reference_pairs = 0;
  std::size_t straggler_pairs_left_out = 0;  // pairs of straggler nodes (they would slow every class); none
                                             // left out when every pair has a straggler
  std::vector<TopologyClass> classes;        // outermost crossing first, then same leaf, then unknown
};

// "same leaf", "crosses <level>" or "topology unknown" for nodes a and b of `run`, and the level index
// (see TopologyClass::level). A level of a Slurm tree (Slurm names switches, not levels) is named by
// its switches and those above them, as Slurm names them: "crosses leafA, leafB under spine".
int topology_split_level(const Run& run, int a, int b);
std::string topology_class_name(const Run& run, int level);

// True for the levels the Slurm parser counted ("switch-level-N"; analysis/topology/topology_slurm.cpp).
bool topology_level_is_slurm(const Run& run, std::size_t level);
// How a level is named in the findings: as the input names it (a CSV header, an EKS label), "switch"
// for a Slurm level (its group is then the switch's own name).
std::string topology_level_label(const Run& run, std::size_t level);

// The per-class numbers of the ok pairs at run.judged_size_bytes (after judge_pairs). Empty classes
// when the run has no topology or no pairs at that size. `min_pairs` decides TopologyClass::judged.
TopologyComparison compare_topology(const Run& run, int min_pairs);

// Replaces the run's topology.* findings (not the adaptive search's, source adaptive-search):
// topology.cross_layer (CONCERN when a judged crossing class is more than slower_fraction below the
// reference, else INFO) and topology.unmatched (INFO: nodes the topology did not name). Nothing more
// when the run has no topology.
void judge_topology(Run& run, const TopologyThresholds& thresholds);

// Node indices sorted by topology path (nodes without one last), then index: nodes under one leaf
// next to each other. The identity order when the run has no topology.
std::vector<int> topology_node_order(const Run& run);

}  // namespace podperf

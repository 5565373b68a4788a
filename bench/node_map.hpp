#pragma once
// Node map: which world ranks form which node. Ranks are grouped by shared memory
// (MPI_Comm_split_type), named by hostname, and may be split into virtual nodes for local demos.
#include <string>
#include <vector>

#include "analysis/model/run.hpp"
#include "bench/mpi.hpp"

namespace podperf {

struct RankRecord {
  int world_rank = 0;
  std::string hostname;
  int shared_leader = 0;  // lowest world rank sharing memory with this rank
  int local_rank = 0;     // rank within the shared-memory group
  int local_size = 1;
  std::string instance_id;
  std::string instance_type;
};

struct NodeMap {
  std::vector<NodeInfo> nodes;     // ordered by lowest world rank
  std::vector<int> node_of_rank;   // world rank -> node index
};

// Pure: groups records (one per world rank, any order) into nodes. virtual_nodes > 0 splits each
// host's ranks into that many contiguous blocks labelled "host/v0".. (throws UsageError when a host
// has fewer ranks than virtual_nodes). Hosts sharing a hostname but not memory get "name#2" labels.
NodeMap build_node_map(std::vector<RankRecord> records, int virtual_nodes);

// Collective over the world: gathers every rank's record and builds the map (same on all ranks).
// `dmi_root` prefixes /sys/devices/virtual/dmi/id for the instance id and type.
NodeMap gather_node_map(const Comm& world, int virtual_nodes, const std::string& dmi_root = "");

}  // namespace podperf

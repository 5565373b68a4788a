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
  std::string slurm_node_name;       // SLURMD_NODENAME; "" when unset or not a node name
  std::string kubernetes_node_name;  // PODPERF_NODE_NAME; "" when unset or not a node name
};

struct NodeMap {
  std::vector<NodeInfo> nodes;     // ordered by lowest world rank
  std::vector<int> node_of_rank;   // world rank -> node index
};

// Pure: groups records (one per world rank, any order) into nodes. virtual_nodes > 0 splits each
// host's ranks into that many contiguous blocks labelled "host/v0".. (throws UsageError when a host
// has fewer ranks than virtual_nodes). Hosts sharing a hostname but not memory get "name#2" labels.
// Each node carries its host's first record's instance id, type and scheduler node names, except that
// Slurm node names are dropped from every node (with a warning in `warnings`) when two hosts report the
// same one: Slurm gives each node its own NodeName, so the value was copied across hosts (a launcher
// forwarding its own environment) and would name the wrong node in accept's drain lines. Kubernetes
// node names may repeat (two worker pods can share a node) but not across instances: when two nodes with
// different instance ids report one, every node's is dropped the same way.
NodeMap build_node_map(std::vector<RankRecord> records, int virtual_nodes,
                       std::vector<std::string>* warnings = nullptr);

// Collective over the world: gathers every rank's record and builds the map (same on all ranks).
// `dmi_root` prefixes /sys/devices/virtual/dmi/id for the instance id and type; the scheduler's node
// names come from SLURMD_NODENAME and PODPERF_NODE_NAME (a value that is not a node name is dropped with a
// warning on stderr from that host). Rank 0 prints build_node_map's warnings on stderr.
NodeMap gather_node_map(const Comm& world, int virtual_nodes, const std::string& dmi_root = "");

}  // namespace podperf

#pragma once
// EFA error counters read around every pair round by the lowest rank of each host, so that a rise
// (retransmits, timeouts, unresponsive or impaired remotes, drops) is attributed to the round and
// the pair in which it happened, not just to the run. Read-only.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/base/finding.hpp"
#include "bench/mpi.hpp"
#include "signals/snapshot.hpp"

namespace podperf {

// Pure: rises of `counters` (summed over devices) from `before` to `after`; counters that fell
// (a reset) are ignored.
std::map<std::string, std::uint64_t> efa_counter_rises(const std::vector<EfaDevice>& before,
                                                       const std::vector<EfaDevice>& after,
                                                       const std::vector<std::string>& counters);

// Pure: one CONCERN for a host whose counters rose during the listed rounds.
Finding efa_round_finding(const std::string& host, const std::vector<std::string>& rises_by_round);

class EfaRoundWatch {
 public:
  // Collective over `world` (finds each host's lowest rank). `root` as --signals-root (%h expanded).
  EfaRoundWatch(const Comm& world, const std::string& root);
  // Local: before and after a round; `what` names this host's pair in it.
  void begin();
  void end(const std::string& what);
  // Collective: rank 0 gets one finding per host whose counters rose (empty elsewhere).
  std::vector<Finding> gather_findings(const Comm& world) const;

 private:
  bool leader_ = false;
  bool has_efa_ = false;
  std::string root_;
  std::vector<std::string> counters_;
  std::vector<EfaDevice> start_;
  std::vector<std::string> rises_;  // "retrans_timeout_events +1200 in round 2 (pair h3 <-> h1)"
};

}  // namespace podperf

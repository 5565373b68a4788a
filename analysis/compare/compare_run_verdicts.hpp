#pragma once
// The runs' own verdicts in a comparison (podperf compare): the stragglers, slow links and slow
// crossings each run's own judge named (Run::stragglers, Run::links, pairs.slow_crossing findings),
// counted per side. A straggler that AFTER names and BEFORE does not is a finding of the comparison in
// its own right: the runs already said so, and compare must not call the same data "no regression".
// Floor: analysis/compare; pure, deterministic.
#include <string>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

struct RunVerdictChange;  // analysis/compare/types.hpp
struct Comparison;

// What one run's own judge named (kept when the run is added to a comparison: its pairs may be dropped).
struct RunOwnVerdicts {
  struct Named {
    std::string name;           // the node's label, "a<->b" (labels sorted), or the crossing's sides
    double slow_percent = 0.0;  // how much below its run's baseline (0 when the run does not say)
  };
  std::vector<Named> stragglers;
  std::vector<Named> links;
  std::vector<Named> crossings;
  // Nodes the run says are slow now and then (pairs.intermittent_node, pairs.recovered_in_retest,
  // pairs.stalling_node): their hostnames.
  std::vector<std::string> intermittent;
};

RunOwnVerdicts run_own_verdicts(const Run& run);

// Per straggler, link and crossing named by some run: how many runs of each side named it, how slow,
// and its status: new (named by at least half of the AFTER runs and by no BEFORE run), gone (the
// reverse), both (named on both sides), sometimes (named by fewer than half of the AFTER runs and no
// BEFORE run, or the reverse). Ordered: new first, then gone, both, sometimes; by name within.
std::vector<RunVerdictChange> compare_run_verdicts(const std::vector<RunOwnVerdicts>& before,
                                                   const std::vector<RunOwnVerdicts>& after);

// Whether the comparison's own tests agree with each of c.run_verdicts (RunVerdictChange::confirmed)
// and what they could have seen of it (compare_mde_percent). After the families are judged.
void confirm_run_verdicts(Comparison& c);

}  // namespace podperf

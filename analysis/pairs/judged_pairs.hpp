#pragma once
// What judge_pairs hands on to correlate: the pairs it judged ok at the judged size (both need
// exactly these: the stragglers' and the hosts' median ratios), so correlate does not read every
// pair again (at scale a sweep over gigabytes).
#include <cstddef>
#include <vector>

namespace podperf {

struct JudgedRatio {
  int a = 0;  // the pair's nodes, as in PairResult::nodes
  int b = 0;
  double ratio = 0.0;  // PairResult::ratio
};

// The pairs with status ok at run.judged_size_bytes, in chunks in pair order. Valid for the Run it
// was filled from until its pairs or analysis change.
struct JudgedPairs {
  std::vector<std::vector<JudgedRatio>> chunks;
  bool filled = false;
};

}  // namespace podperf

#pragma once
// Whether a run measured what an acceptance profile asks (the `profile` check of podperf accept): for
// each stage of the profile the run has, the sizes (the acceptance size, the profile's largest, measured and
// the nodes judged there or above: what the verdict rests on), iterations, warm-up, retests, concurrency and op of the
// pair test; the probes, file and shard sizes, block size, random reads, metadata files, shards and O_DIRECT of the
// filesystem stage. Missing stages are the `stages` check's. Pure, local; throws nothing.
#include <string>
#include <vector>

#include "analysis/config/accept_profiles.hpp"
#include "analysis/model/run.hpp"

namespace podperf {

// One requirement of the profile the run did not meet.
struct UnmetRequirement {
  std::string measured;              // "sizes 1M..4M (3) judged at 4M"
  std::string wanted;                // "256M..1G, judged at 1G"
  std::vector<std::string> options;  // the command-line options that set it ("-b", "-e", "-f", "-i")
  bool overridden = false;           // one of them is among the run's overrides: the user asked for it
};

struct ProfileRequirements {
  std::vector<std::string> met;  // "sizes 256M..1G (3) judged at 1G", "20 iterations", ...
  std::vector<UnmetRequirement> unmet;
  // SKIP: no stage of the profile in the run; PASS: every requirement met; WARN: every unmet one was overridden on the
  // measuring command line; FAIL: the run measured less than the profile asks and nobody asked for it (accept --from
  // with a profile the run was not measured under).
  std::string status;
  std::string detail;  // the check's text: what was met, what was not and which options changed it
};

// The profile's requirements against `run` (its options and results), with `overrides` the options the
// measuring command line gave in place of the profile's values.
ProfileRequirements check_profile_requirements(const Run& run, const Profile& profile,
                                               const std::vector<ProfileOverride>& overrides);

}  // namespace podperf

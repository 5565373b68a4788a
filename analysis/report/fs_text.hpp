#pragma once
// The filesystem section of the terminal summary: one line per probe (aggregate, first and last
// done, slowest node), rand-read latency percentiles, slow nodes with their likely causes, and the
// expected throughput when known. A projection of run.fs; computes nothing.
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

// "" when run.fs has no probes.
std::string render_fs_section(const Run& run);

}  // namespace podperf

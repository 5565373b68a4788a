#pragma once
// The nccl-tests style table of a collective run: per group, op and type, one row per size with
// out-of-place and in-place time, algbw, busbw and #wrong, plus the per-iteration spread. A
// projection of the Run: computes no numbers but the column layout. Floor: the printers' wing
// (analysis/report/); pure, local; throws nothing. (The run's exit code is analysis/model/collective_outcome.)
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

std::string render_collective_table(const Run& run, const std::string& results_dir);

}  // namespace podperf

#pragma once
// Terminal summary of a Run: the pair matrix at the judged size, flagged pairs, stragglers with
// their evidence, failures, where the files are. A projection: computes no numbers.
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

// `results_dir` is printed as where the files were written (empty: not printed).
std::string render_summary(const Run& run, const std::string& results_dir);

}  // namespace podperf

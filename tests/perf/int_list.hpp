#pragma once
// "4,8,16" -> {4, 8, 16}: the node-count and seed lists of the modelled-fabric benchmark programs
// (adaptive_search, inference_scenarios). std::stoi throws on a non-number, which they report.
#include <string>
#include <vector>

namespace podperf::perf {

inline std::vector<int> parse_int_list(const std::string& text) {
  std::vector<int> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    out.push_back(std::stoi(text.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace podperf::perf

// The adaptive straggler search on the modelled fabric, over many seeds: recall and precision of the
// stragglers the run names (run.stragglers after the run's own analysis, as in run.json), false
// links, and the rounds used against the full schedule. Measures; passes or fails on nothing but a
// failure to run. See tests/perf/adaptive_search.sh and tests/perf/README.md.
//
//   podperf_adaptive_search [--nodes 1024] [--seeds 100] [--first-seed 1] [--model random4]
//                           [--slow 0,1,2,4] [--iters 20] [--size 256M] [--pair-cv X] [--iteration-cv Y]
//                           [--min-factor 0.6] [--max-factor 0.9]
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <set>
#include <string>
#include <vector>

#include "bench/sim_pairs.hpp"
#include "sweep/pair_schedule.hpp"

namespace {

std::vector<int> parse_list(const std::string& text) {
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

}  // namespace

int main(int argc, char** argv) {
  using namespace podperf;
  int nodes = 1024, seeds = 100, iters = 20;
  std::uint64_t first_seed = 1;
  std::string model_name = "random4", slow_list = "0,1,2,4", size = "256M";
  double pair_cv = -1.0, iteration_cv = -1.0, min_factor = -1.0, max_factor = -1.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--nodes") nodes = std::stoi(value);
    else if (key == "--seeds") seeds = std::stoi(value);
    else if (key == "--first-seed") first_seed = std::stoull(value);
    else if (key == "--model") model_name = value;
    else if (key == "--slow") slow_list = value;
    else if (key == "--iters") iters = std::stoi(value);
    else if (key == "--size") size = value;
    else if (key == "--pair-cv") pair_cv = std::stod(value);
    else if (key == "--iteration-cv") iteration_cv = std::stod(value);
    else if (key == "--min-factor") min_factor = std::stod(value);
    else if (key == "--max-factor") max_factor = std::stod(value);
    else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      return 2;
    }
  }
  try {
    SimModel base = load_sim_model(model_name);
    if (pair_cv >= 0.0) base.pair_cv = pair_cv;
    if (iteration_cv >= 0.0) base.iteration_cv = iteration_cv;
    if (min_factor > 0.0) base.random_min_factor = min_factor;
    if (max_factor > 0.0) base.random_max_factor = max_factor;
    PairsOptions o;
    o.min_bytes = size;
    o.max_bytes = size;
    o.iters = iters;
    o.schedule = "adaptive";
    const int full_rounds = static_cast<int>(circle_schedule(nodes).size());
    int log2n = 0;
    while ((1 << log2n) < nodes) ++log2n;
    std::printf(
        "adaptive search on the modelled fabric (%s, %s): %d nodes, seeds %llu..%llu, one size %s, %d iters; noise: "
        "pair cv %.3f, iteration cv %.3f; slow nodes %.0f-%.0f%% slower\n",
        model_name.c_str(), base.source.c_str(), nodes, static_cast<unsigned long long>(first_seed),
        static_cast<unsigned long long>(first_seed + static_cast<std::uint64_t>(seeds) - 1), size.c_str(), iters,
        base.pair_cv, base.iteration_cv, (1.0 - base.random_max_factor) * 100.0, (1.0 - base.random_min_factor) * 100.0);
    std::printf("full schedule: %d rounds, %lld pairs; round target 2*log2(N) = %d\n", full_rounds,
                static_cast<long long>(nodes) * (nodes - 1) / 2, 2 * log2n);
    std::printf("%-6s %6s %9s %9s %8s %11s %10s %11s %9s %12s\n", "slow", "runs", "recall", "precision", "perfect",
                "false_links", "rounds_max", "rounds_mean", "in_budget", "measurements");
    for (int slow : parse_list(slow_list)) {
      SimModel model = base;
      model.random_slow_nodes = slow;
      long injected = 0, found = 0, named = 0, false_links = 0;
      int perfect = 0, rounds_max = 0, in_budget = 0;
      double rounds_sum = 0.0, measurements = 0.0;
      for (int k = 0; k < seeds; ++k) {
        const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(k);
        SimFabric fabric(model, nodes, seed);
        const NodeMap map = sim_node_map(fabric);
        const Plan plan = make_plan(o, map);
        ScheduleOptions so;
        so.schedule = "adaptive";
        so.seed = seed;
        const SimRunResult r = simulate_pairs(fabric, plan, map, so, iters);
        const std::set<int> truth(fabric.faulty_nodes().begin(), fabric.faulty_nodes().end());
        std::set<int> blamed;
        for (const Straggler& s : r.run.stragglers) blamed.insert(s.node);
        int hits = 0;
        for (int n : blamed) hits += truth.count(n) > 0 ? 1 : 0;
        injected += static_cast<long>(truth.size());
        found += hits;
        named += static_cast<long>(blamed.size());
        false_links += static_cast<long>(r.run.links.size());  // no link fault is injected here
        if (blamed == truth && r.run.links.empty()) ++perfect;
        rounds_max = std::max(rounds_max, r.outcome.rounds);
        rounds_sum += r.outcome.rounds;
        if (r.outcome.rounds <= 2 * log2n) ++in_budget;
        measurements += r.outcome.search.measurements;
      }
      const double recall = injected > 0 ? static_cast<double>(found) / static_cast<double>(injected) : 1.0;
      const double precision = named > 0 ? static_cast<double>(found) / static_cast<double>(named) : 1.0;
      std::printf("%-6d %6d %9.4f %9.4f %8d %11ld %10d %11.2f %9d %12.0f\n", slow, seeds, recall, precision, perfect,
                  false_links, rounds_max, rounds_sum / seeds, in_budget, measurements / seeds);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "podperf_adaptive_search: %s\n", e.what());
    return 1;
  }
  return 0;
}

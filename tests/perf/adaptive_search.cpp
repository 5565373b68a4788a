// The adaptive straggler search on the modelled fabric, over many seeds: recall and precision of the
// stragglers the run names (run.stragglers after the run's own analysis, as in run.json), false
// links, and the rounds used against the full schedule. Measures; passes or fails on nothing but a
// failure to run. See tests/perf/adaptive_search.sh and tests/perf/README.md.
//
//   podperf_adaptive_search [--nodes 1024] [--seeds 100] [--first-seed 1] [--model random4]
//                           [--slow 0,1,2,4] [--iters 20] [--size 256M] [--pair-cv X] [--iteration-cv Y]
//                           [--min-factor 0.6] [--max-factor 0.9] [--schedule adaptive|all]
//                           [--topology racks [--rack 16] [--layer 64] [--uplinks 0,1,2]
//                            [--uplink-min 0.6] [--uplink-max 0.85] [--scope layered|within|flat]]
//
// --topology racks: the nodes sit in racks of --rack under network-node layers of --layer (pairs
// crossing a rack 1% and a layer 3% slower by design); per seed, --uplinks racks chosen by the seed get
// a slow uplink (pairs leaving the rack --uplink-min..max of their speed) on top of the random slow
// nodes; the search runs topology-aware (--scope, default layered). Prints node recall/precision (from
// run.stragglers) and uplink recall/precision (the search's slow groups) per (uplinks, slow) case.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <set>
#include <string>
#include <vector>

#include "bench/adaptive_scope.hpp"
#include "bench/sim_pairs.hpp"
#include "sweep/pair_schedule.hpp"
#include "tests/perf/int_list.hpp"

namespace {

// --topology racks: one line per (uplinks, slow nodes) case.
int run_topology(podperf::SimModel base, int nodes, int seeds, std::uint64_t first_seed, int iters,
                 const std::string& size, const std::string& slow_list, const std::string& uplink_list, int rack,
                 int layer, double uplink_min, double uplink_max, const std::string& scope) {
  using namespace podperf;
  base.levels = {"network-node-layer", "rack"};
  base.group_sizes = {layer, rack};
  base.crossing_factors = {0.97, 0.99};
  PairsOptions o;
  o.min_bytes = size;
  o.max_bytes = size;
  o.iters = iters;
  o.schedule = "adaptive";
  o.adaptive_scope = scope;
  const int full_rounds = static_cast<int>(circle_schedule(nodes).size());
  int log2n = 0;
  while ((1 << log2n) < nodes) ++log2n;
  const int racks = (nodes + rack - 1) / rack;
  std::printf(
      "topology-aware adaptive search (scope %s) on the modelled fabric: %d nodes in racks of %d under layers of %d "
      "(%d racks; crossing a rack x0.99, a layer x0.97), seeds %llu..%llu, one size %s, %d iters; noise: pair cv "
      "%.3f, iteration cv %.3f; slow nodes %.0f-%.0f%% slower; slow uplinks: pairs leaving the rack %.0f-%.0f%% "
      "slower\n",
      scope.c_str(), nodes, rack, layer, racks, static_cast<unsigned long long>(first_seed),
      static_cast<unsigned long long>(first_seed + static_cast<std::uint64_t>(seeds) - 1), size.c_str(), iters,
      base.pair_cv, base.iteration_cv, (1.0 - base.random_max_factor) * 100.0, (1.0 - base.random_min_factor) * 100.0,
      (1.0 - uplink_max) * 100.0, (1.0 - uplink_min) * 100.0);
  std::printf("full schedule: %d rounds; round target 2*log2(N) = %d\n", full_rounds, 2 * log2n);
  std::printf("%-7s %-5s %5s %8s %8s %8s %8s %7s %6s %9s %10s %11s %9s %9s %12s\n", "uplinks", "slow", "runs",
              "n_recall", "n_prec", "u_recall", "u_prec", "perfect", "links", "blamed_up", "rounds_max", "rounds_mean",
              "in_2log2", "in_budget", "measurements");
  for (int uplinks : podperf::perf::parse_int_list(uplink_list)) {
    for (int slow : podperf::perf::parse_int_list(slow_list)) {
      SimModel model = base;
      model.random_slow_nodes = slow;
      long injected = 0, found = 0, named = 0, up_injected = 0, up_found = 0, up_named = 0, links = 0, blamed_up = 0;
      int perfect = 0, rounds_max = 0, in_log = 0, in_budget = 0;
      double rounds_sum = 0.0, measurements = 0.0;
      for (int k = 0; k < seeds; ++k) {
        const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(k);
        model.slow_uplinks.clear();
        SplitMix pick{seed ^ 0x0f1a7e5ULL};
        std::vector<int> order(static_cast<std::size_t>(racks));
        for (int i = 0; i < racks; ++i) order[static_cast<std::size_t>(i)] = i;
        for (int u = 0; u < uplinks && u < racks; ++u) {
          std::swap(order[static_cast<std::size_t>(u)],
                    order[static_cast<std::size_t>(u) + pick.below(static_cast<std::size_t>(racks - u))]);
          model.slow_uplinks.push_back(
              {1, order[static_cast<std::size_t>(u)], uplink_min + (uplink_max - uplink_min) * pick.uniform(), ""});
        }
        SimFabric fabric(model, nodes, seed);
        const NodeMap map = sim_node_map(fabric);
        const Plan plan = make_plan(o, map);
        ScheduleOptions so;
        so.schedule = "adaptive";
        so.seed = seed;
        resolve_adaptive_scope(o, model.levels, map.nodes, so);
        const SimRunResult r = simulate_pairs(fabric, plan, map, so, iters);
        // Slow nodes: the injected ones, except a slow node in a slow-uplink rack may be named or not
        // by the uplink alone; none are excluded here (the truth is the node list).
        const std::set<int> truth(fabric.faulty_nodes().begin(), fabric.faulty_nodes().end());
        std::set<int> blamed;
        for (const Straggler& s : r.run.stragglers) blamed.insert(s.node);
        int hits = 0;
        for (int n : blamed) hits += truth.count(n) > 0 ? 1 : 0;
        injected += static_cast<long>(truth.size());
        found += hits;
        named += static_cast<long>(blamed.size());
        std::set<int> up_truth, up_got;
        for (const auto& u : fabric.slow_uplinks()) up_truth.insert(u[1]);
        for (const SlowGroup& g : r.outcome.search.slow_groups) up_got.insert(g.members.front() / rack);
        int up_hits = 0;
        for (int g : up_got) up_hits += up_truth.count(g) > 0 ? 1 : 0;
        up_injected += static_cast<long>(up_truth.size());
        up_found += up_hits;
        up_named += static_cast<long>(up_got.size());
        for (int n : blamed) blamed_up += up_truth.count(n / rack) > 0 && truth.count(n) == 0 ? 1 : 0;
        links += static_cast<long>(r.run.links.size());  // no link fault is injected
        if (blamed == truth && up_got == up_truth && r.run.links.empty()) ++perfect;
        rounds_max = std::max(rounds_max, r.outcome.rounds);
        rounds_sum += r.outcome.rounds;
        if (r.outcome.rounds <= 2 * log2n) ++in_log;
        if (r.outcome.rounds <= r.outcome.search.max_rounds) ++in_budget;
        measurements += r.outcome.search.measurements;
      }
      auto ratio = [](long a, long b) { return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 1.0; };
      std::printf("%-7d %-5d %5d %8.4f %8.4f %8.4f %8.4f %7d %6ld %9ld %10d %11.2f %9d %9d %12.0f\n", uplinks, slow,
                  seeds, ratio(found, injected), ratio(found, named), ratio(up_found, up_injected),
                  ratio(up_found, up_named), perfect, links, blamed_up, rounds_max, rounds_sum / seeds, in_log,
                  in_budget, measurements / seeds);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace podperf;
  int nodes = 1024, seeds = 100, iters = 20;
  std::uint64_t first_seed = 1;
  std::string model_name = "random4", slow_list = "0,1,2,4", size = "256M";
  double pair_cv = -1.0, iteration_cv = -1.0, min_factor = -1.0, max_factor = -1.0;
  std::string topology, uplink_list = "0,1,2", scope = "layered";
  int rack = 16, layer = 64;
  double uplink_min = 0.6, uplink_max = 0.85;
  std::string schedule = "adaptive";  // --schedule all: every pair, judged by the same inference
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--nodes")
      nodes = std::stoi(value);
    else if (key == "--seeds")
      seeds = std::stoi(value);
    else if (key == "--first-seed")
      first_seed = std::stoull(value);
    else if (key == "--model")
      model_name = value;
    else if (key == "--slow")
      slow_list = value;
    else if (key == "--iters")
      iters = std::stoi(value);
    else if (key == "--size")
      size = value;
    else if (key == "--pair-cv")
      pair_cv = std::stod(value);
    else if (key == "--iteration-cv")
      iteration_cv = std::stod(value);
    else if (key == "--min-factor")
      min_factor = std::stod(value);
    else if (key == "--max-factor")
      max_factor = std::stod(value);
    else if (key == "--topology")
      topology = value;
    else if (key == "--rack")
      rack = std::stoi(value);
    else if (key == "--layer")
      layer = std::stoi(value);
    else if (key == "--uplinks")
      uplink_list = value;
    else if (key == "--uplink-min")
      uplink_min = std::stod(value);
    else if (key == "--uplink-max")
      uplink_max = std::stod(value);
    else if (key == "--scope")
      scope = value;
    else if (key == "--schedule")
      schedule = value;
    else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      return 2;
    }
  }
  if (!topology.empty() && topology != "racks") {
    std::fprintf(stderr, "--topology %s: only 'racks' is known\n", topology.c_str());
    return 2;
  }
  try {
    SimModel base = load_sim_model(model_name);
    if (!topology.empty())
      return run_topology(base, nodes, seeds, first_seed, iters, size, slow_list, uplink_list, rack, layer, uplink_min,
                          uplink_max, scope);
    if (pair_cv >= 0.0) base.pair_cv = pair_cv;
    if (iteration_cv >= 0.0) base.iteration_cv = iteration_cv;
    if (min_factor > 0.0) base.random_min_factor = min_factor;
    if (max_factor > 0.0) base.random_max_factor = max_factor;
    PairsOptions o;
    o.min_bytes = size;
    o.max_bytes = size;
    o.iters = iters;
    o.schedule = schedule;
    const int full_rounds = static_cast<int>(circle_schedule(nodes).size());
    int log2n = 0;
    while ((1 << log2n) < nodes) ++log2n;
    std::printf(
        "%s schedule on the modelled fabric (%s, %s): %d nodes, seeds %llu..%llu, one size %s, %d iters; noise: "
        "pair cv %.3f, iteration cv %.3f; slow nodes %.0f-%.0f%% slower\n",
        schedule.c_str(), model_name.c_str(), base.source.c_str(), nodes, static_cast<unsigned long long>(first_seed),
        static_cast<unsigned long long>(first_seed + static_cast<std::uint64_t>(seeds) - 1), size.c_str(), iters,
        base.pair_cv, base.iteration_cv, (1.0 - base.random_max_factor) * 100.0,
        (1.0 - base.random_min_factor) * 100.0);
    std::printf("full schedule: %d rounds, %lld pairs; round target 2*log2(N) = %d\n", full_rounds,
                static_cast<long long>(nodes) * (nodes - 1) / 2, 2 * log2n);
    std::printf("%-6s %6s %9s %9s %8s %11s %10s %11s %9s %12s\n", "slow", "runs", "recall", "precision", "perfect",
                "false_links", "rounds_max", "rounds_mean", "in_budget", "measurements");
    for (int slow : podperf::perf::parse_int_list(slow_list)) {
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
        so.schedule = schedule;
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

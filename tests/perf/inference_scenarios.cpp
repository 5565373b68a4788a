// The pair inference (analysis/pairs/pair_inference.*) on the modelled fabric, per scenario family, over
// seeds: the full schedule measured by sim/ and judged by the one analysis chain every run goes
// through (judge_run). Per family and node count: node recall and precision (run.stragglers against
// the injected slow nodes), link recall and precision, slow crossings found, runs that said
// "ambiguous" (pairs.ambiguous), runs judged exactly right, runs whose pairs.recovered_in_retest INFO
// named a faulty node / a healthy one. Measures; fails on nothing but a failure to
// run. Numbers in tests/perf/README.md ("The pair inference per scenario family").
//
//   podperf_inference_scenarios [--seeds 20] [--nodes 4,8,16,64] [--iters 10] [--size 64M] [--config FILE]
//
// Families (faults chosen by the seed; noise of configs/sim/random4.toml: pair cv 1%, iteration cv 3%):
//   nodes-K    K random slow nodes, 10-40% slower (K = 0, 1, 2, 4 and N/2)
//   links-2    two random slow links at 50-80%
//   nodes-2-deep  two random slow nodes at 30-45% of healthy (the two hosts shaped to about 40%)
//   fast-pair  a healthy cluster with one pair on a faster path, 1.3-1.9x (its retest as fast): should
//              name nobody (with 4 nodes, two slow hosts look the same: ambiguous is the honest answer)
//   flapping   one node at 50% in 30% of its measurements (intermittent: should name no straggler)
//   group      every node of one rack of 4 at 50% (four slow nodes)
//   uplink     one rack of 4's uplink at 50% (pairs leaving it), with the topology / without it
//   lucky-pair a healthy cluster where one pair's first measurement ran 1.3-2.2x fast (its retest
//              normal): how often the baseline is anchored on it, with the anchor check
//              ([pairs] anchor_min_pairs 3, the default) and without it (1: main before the check)
#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/judge_run.hpp"
#include "analysis/model/attach_retest.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "bench/pair_payload.hpp"
#include "bench/sim_pairs.hpp"
#include "sim/sim_model.hpp"
#include "sweep/splitmix.hpp"
#include "tests/perf/int_list.hpp"

namespace {

using namespace podperf;

struct Tally {
  long nodes_injected = 0, nodes_found = 0, nodes_named = 0;
  long links_injected = 0, links_found = 0, links_named = 0;
  int runs = 0, crossings = 0, ambiguous = 0, exact = 0, intermittent = 0;
  int recovered_faulty = 0, recovered_healthy = 0;  // runs with a pairs.recovered_in_retest on a faulty / healthy node
};

std::pair<int, int> ordered(int a, int b) {
  return a < b ? std::pair{a, b} : std::pair{b, a};
}

// One seed of one family: the model, the run, the tally.
void one_run(const SimModel& model, int nodes, std::uint64_t seed, const PairsOptions& o, int iters, bool with_topology,
             bool want_crossing, Tally& t) {
  SimFabric fabric(model, nodes, seed);
  const NodeMap map = sim_node_map(fabric);
  const Plan plan = make_plan(o, map);
  ScheduleOptions so;
  so.schedule = "all";
  so.seed = seed;
  so.retest = 1;
  SimRunResult r = simulate_pairs(fabric, plan, map, so, iters);
  if (with_topology) {
    r.run.topology_levels = model.levels;
    record_thresholds(r.run, plan.thresholds);
    judge_run(r.run);
  }
  const std::set<int> truth(fabric.faulty_nodes().begin(), fabric.faulty_nodes().end());
  const bool flapping = !model.flapping_nodes.empty();
  std::set<int> blamed;
  for (const Straggler& s : r.run.stragglers) blamed.insert(s.node);
  std::set<std::pair<int, int>> true_links, named_links;
  for (const SimLinkFault& l : model.slow_links) {
    if (l.factor < 1.0) true_links.insert(ordered(l.nodes[0], l.nodes[1]));  // a faster path is no fault
  }
  for (const LinkFinding& l : r.run.links) named_links.insert(ordered(l.nodes[0], l.nodes[1]));
  bool crossing = false, ambiguous = false, intermittent = false;
  for (const Finding& f : r.run.findings) {
    crossing |= f.check == "pairs.slow_crossing";
    ambiguous |= f.check == "pairs.ambiguous";
    intermittent |= f.check == "pairs.intermittent_node";
  }
  bool recovered_faulty = false, recovered_healthy = false;
  for (const Finding& f : r.run.findings) {
    if (f.check != "pairs.recovered_in_retest") continue;
    for (std::size_t i = 0; i < r.run.nodes.size(); ++i) {
      if (r.run.nodes[i].hostname != f.host) continue;
      (truth.contains(static_cast<int>(i)) ? recovered_faulty : recovered_healthy) = true;
    }
  }
  t.recovered_faulty += recovered_faulty ? 1 : 0;
  t.recovered_healthy += recovered_healthy ? 1 : 0;
  ++t.runs;
  const std::set<int> slow_truth = flapping ? std::set<int>{} : truth;  // a flapping node is no straggler
  t.nodes_injected += static_cast<long>(slow_truth.size());
  t.nodes_named += static_cast<long>(blamed.size());
  for (int n : blamed) t.nodes_found += slow_truth.count(n) > 0 ? 1 : 0;
  t.links_injected += static_cast<long>(true_links.size());
  t.links_named += static_cast<long>(named_links.size());
  for (const auto& l : named_links) t.links_found += true_links.count(l) > 0 ? 1 : 0;
  t.crossings += crossing ? 1 : 0;
  t.ambiguous += ambiguous ? 1 : 0;
  t.intermittent += intermittent ? 1 : 0;
  const bool links_right = flapping || named_links == true_links;
  if (blamed == slow_truth && links_right && crossing == want_crossing && !ambiguous) ++t.exact;
}

// The lucky-pair family: runs, runs whose judged baseline rests on the lucky pair (above 1.1x the
// median pair), runs naming anything (a straggler, a link or a slow crossing: every node is healthy),
// runs saying they cannot tell (pairs.ambiguous), runs with exit 0.
struct LuckyTally {
  int runs = 0, anchored = 0, blamed = 0, ambiguous = 0, clean = 0;
};

// The full schedule with retest 1 on a healthy fabric, as simulate_pairs, except that the first
// measurement of pair `lucky` runs `factor` times faster (its retest does not).
void lucky_run(const SimModel& model, int nodes, std::uint64_t seed, const PairsOptions& o, int iters,
               const Thresholds& thresholds, NodePair lucky, double factor, LuckyTally& t) {
  SimFabric fabric(model, nodes, seed);
  const NodeMap map = sim_node_map(fabric);
  Plan plan = make_plan(o, map);
  plan.thresholds = thresholds;
  ScheduleOptions so;
  so.schedule = "all";
  so.seed = seed;
  so.retest = 1;
  Run run;
  run.command = "pairs";
  record_thresholds(run, plan.thresholds);
  run.nodes = map.nodes;
  const StepFn step = [&](const Round& pairs, int round, const std::vector<std::uint64_t>& sizes, bool retest, bool) {
    std::vector<PairResult> results;
    for (const NodePair& p : pairs) {
      const Slot slot = sim_slot(fabric, plan, map, p, round, sizes, iters);
      for (PairResult& r : decode_payload(slot.payload, slot.ctx)) {
        if (!retest && p == lucky) {
          r.busbw_gbps *= factor, r.algbw_gbps *= factor, r.median_s /= factor;
          for (double& x : r.samples_s) x /= factor;
        }
        results.push_back(std::move(r));
      }
    }
    for (const PairResult& r : results) {
      if (retest) {
        attach_retest(run, r);
      } else {
        run.pairs.push_back(r);
      }
    }
    return results;
  };
  const SuspectsFn suspects = [&] { return retest_candidates(run); };
  drive_schedule(nodes, plan.steps, plan.round_of_step, plan.sizes, plan.thresholds.pairs, so,
                 {step, suspects, nullptr, nullptr, nullptr});
  judge_run(run);
  std::vector<double> values;
  for (const PairResult& p : run.pairs) values.push_back(p.busbw_gbps);
  std::sort(values.begin(), values.end());
  const double median_pair = values[values.size() / 2];
  ++t.runs;
  t.anchored += !run.baselines.empty() && run.baselines.back().baseline_gbps > 1.1 * median_pair ? 1 : 0;
  bool crossing = false, ambiguous = false;
  for (const Finding& f : run.findings) {
    crossing |= f.check == "pairs.slow_crossing";
    ambiguous |= f.check == "pairs.ambiguous";
  }
  t.blamed += !run.stragglers.empty() || !run.links.empty() || crossing ? 1 : 0;
  t.ambiguous += ambiguous ? 1 : 0;
  t.clean += pairs_exit_code(run) == 0 ? 1 : 0;
}

// Two distinct random nodes of `nodes`, the lower first.
std::array<int, 2> random_pair(SplitMix& rng, int nodes) {
  const int a = static_cast<int>(rng.next() % static_cast<std::uint64_t>(nodes));
  int b = static_cast<int>(rng.next() % static_cast<std::uint64_t>(nodes - 1));
  if (b >= a) ++b;
  return {std::min(a, b), std::max(a, b)};
}

// A factor from lo to lo + span, in steps of span / 1000.
double random_factor(SplitMix& rng, double lo, double span) {
  return lo + span * static_cast<double>(rng.next() % 1000) / 1000.0;
}

void lucky_family(const SimModel& base, int nodes, int seeds, const PairsOptions& o, int iters) {
  const Thresholds with = load_thresholds("");
  Thresholds without = with;
  without.pairs.anchor_min_pairs = 1;  // every anchor taken as it stands: main before the check
  LuckyTally t_with, t_without;
  for (int s = 0; s < seeds; ++s) {
    SimModel model = base;
    model.random_slow_nodes = 0;
    SplitMix rng{500 + static_cast<std::uint64_t>(s)};
    const std::array<int, 2> pair = random_pair(rng, nodes);
    const NodePair lucky{pair[0], pair[1]};
    const double factor = random_factor(rng, 1.3, 0.9);
    lucky_run(model, nodes, 5000 + static_cast<std::uint64_t>(s), o, iters, with, lucky, factor, t_with);
    lucky_run(model, nodes, 5000 + static_cast<std::uint64_t>(s), o, iters, without, lucky, factor, t_without);
  }
  std::printf(
      "%-16s %5d %5d anchored on it %d (without the check %d), blamed %d (%d), ambiguous %d (%d), exit 0 %d (%d)\n",
      "lucky-pair", nodes, t_with.runs, t_with.anchored, t_without.anchored, t_with.blamed, t_without.blamed,
      t_with.ambiguous, t_without.ambiguous, t_with.clean, t_without.clean);
  std::fflush(stdout);
}

void print(const std::string& family, int nodes, const Tally& t) {
  const auto ratio = [](long a, long b) { return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 1.0; };
  std::printf("%-16s %5d %5d %7.3f %9.3f %7.3f %9.3f %9d %9d %12d %6d %5d/%d\n", family.c_str(), nodes, t.runs,
              ratio(t.nodes_found, t.nodes_injected), ratio(t.nodes_found, t.nodes_named),
              ratio(t.links_found, t.links_injected), ratio(t.links_found, t.links_named), t.crossings, t.ambiguous,
              t.intermittent, t.exact, t.recovered_faulty, t.recovered_healthy);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 20, iters = 10;
  std::string node_list = "4,8,16,64", size = "64M", config;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--seeds") {
      seeds = std::stoi(value);
    } else if (key == "--nodes") {
      node_list = value;
    } else if (key == "--iters") {
      iters = std::stoi(value);
    } else if (key == "--size") {
      size = value;
    } else if (key == "--config") {
      config = value;  // a thresholds file instead of configs/thresholds.toml (a variant's numbers)
    } else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      return 2;
    }
  }
  try {
    const SimModel base = load_sim_model("random4");
    PairsOptions o;
    o.min_bytes = size;
    o.max_bytes = size;
    o.iters = iters;
    o.schedule = "all";
    o.config = config;
    std::printf(
        "full schedule on the modelled fabric (random4 noise: pair cv %.3f, iteration cv %.3f), %d seeds, %s, %d "
        "iters\n",
        base.pair_cv, base.iteration_cv, seeds, size.c_str(), iters);
    std::printf("%-16s %5s %5s %7s %9s %7s %9s %9s %9s %12s %6s %s\n", "family", "nodes", "runs", "recall", "precision",
                "l_rec", "l_prec", "crossing", "ambiguous", "intermittent", "exact", "recovered(faulty/healthy)");
    for (int nodes : podperf::perf::parse_int_list(node_list)) {
      std::vector<int> counts = {0, 1, 2, 4, nodes / 2};
      std::set<int> seen;
      for (int k : counts) {
        if (k > nodes || !seen.insert(k).second) continue;
        SimModel model = base;
        model.random_slow_nodes = k;
        Tally t;
        for (int s = 0; s < seeds; ++s) one_run(model, nodes, 1000 + s, o, iters, false, false, t);
        print("nodes-" + std::to_string(k), nodes, t);
      }
      // A family of `seeds` runs without the model's random slow nodes, each with the faults
      // `inject(model, seed index)` adds, run seed run_seed + s.
      const auto run_family = [&](const char* name, std::uint64_t run_seed,
                                  const std::function<void(SimModel&, int)>& inject) {
        Tally t;
        for (int s = 0; s < seeds; ++s) {
          SimModel model = base;
          model.random_slow_nodes = 0;
          inject(model, s);
          one_run(model, nodes, run_seed + static_cast<std::uint64_t>(s), o, iters, false, false, t);
        }
        print(name, nodes, t);
      };
      run_family("nodes-2-deep", 6000, [&](SimModel& model, int s) {
        SplitMix rng{900 + static_cast<std::uint64_t>(s)};
        for (int node : random_pair(rng, nodes)) {
          SimNodeFault f;
          f.node = node;
          f.factor = random_factor(rng, 0.30, 0.15);
          model.slow_nodes.push_back(f);
        }
      });
      run_family("fast-pair", 7000, [&](SimModel& model, int s) {
        SplitMix rng{950 + static_cast<std::uint64_t>(s)};
        SimLinkFault f;
        f.nodes = random_pair(rng, nodes);
        f.factor = random_factor(rng, 1.3, 0.6);
        model.slow_links.push_back(f);
      });
      run_family("links-2", 2000, [&](SimModel& model, int s) {
        SplitMix rng{77 + static_cast<std::uint64_t>(s)};
        std::set<std::pair<int, int>> links;
        while (links.size() < 2 && nodes >= 3) {
          const int a = static_cast<int>(rng.next() % static_cast<std::uint64_t>(nodes));
          const int b = static_cast<int>(rng.next() % static_cast<std::uint64_t>(nodes));
          if (a != b) links.insert(ordered(a, b));
        }
        for (const auto& [a, b] : links) {
          SimLinkFault f;
          f.nodes = {a, b};
          f.factor = random_factor(rng, 0.5, 0.3);
          model.slow_links.push_back(f);
        }
      });
      run_family("flapping", 3000, [&](SimModel& model, int s) {
        SimNodeFault f;
        f.node = s % nodes;
        f.factor = 0.5;
        f.probability = 0.3;
        model.flapping_nodes.push_back(f);
      });
      lucky_family(base, nodes, seeds, o, iters);
      if (nodes < 8) continue;  // a group of 4 and at least one other group
      for (const char* family : {"group", "uplink-topology", "uplink-none"}) {
        Tally t;
        const std::string name = family;
        for (int s = 0; s < seeds; ++s) {
          SimModel model = base;
          model.random_slow_nodes = 0;
          model.levels = {"spine", "rack"};
          model.group_sizes = {nodes, 4};
          model.crossing_factors = {1.0, 1.0};
          const int rack = s % (nodes / 4);
          if (name == "group") {
            SimRackFault f;
            f.rack = rack;
            f.factor = 0.5;
            model.slow_racks.push_back(f);
          } else {
            SimUplinkFault f;
            f.level = 1;
            f.group = rack;
            f.factor = 0.5;
            model.slow_uplinks.push_back(f);
          }
          one_run(model, nodes, 4000 + s, o, iters, name == "uplink-topology", name != "group", t);
        }
        print(name, nodes, t);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "podperf_inference_scenarios: %s\n", e.what());
    return 1;
  }
  return 0;
}

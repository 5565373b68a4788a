// The pair verdicts at realistic noise, on the modelled fabric (sim/), judged by the one analysis chain
// every run goes through (judge_run, analysis/pairs/): per cell (scenario family, schedule, node count,
// noise), over seeds, the exact-verdict rate (the stragglers named are exactly the slow nodes, the
// links exactly the slow links that were measured, the crossing or group said when there is one, the
// intermittent node said and nothing more, no pairs.ambiguous), nodes missed, runs naming a healthy
// node, and links reported, each with its 95% interval (Wilson for rates; a percentile bootstrap over
// the runs for means). It measures; it fails on nothing but a failure to run. Numbers in
// tests/perf/README.md ("Pair verdicts at realistic noise").
//
//   podperf_inference_scenarios [--seeds 50] [--nodes 4,8,16,64,256] [--noise 0.01,0.03,0.05]
//       [--schedules all,adaptive] [--families healthy,nodes-moderate,...] [--iters 10] [--size 64M]
//
// Noise: pair cv as given, its tails a Student t with 4 degrees of freedom, a measurement at a third of
// its busbw with probability 0.002 (an occasional 3x outlier), iteration cv 3%. Families (faults chosen
// by the seed):
//   healthy         nothing wrong
//   healthy-topology  2 to 8 groups (the topology known), crossing as fast as inside: nothing wrong
//   nodes-moderate  1 to max(1, N/4) slow nodes at 0.85-0.93 (a 7-15% fault)
//   nodes-small     1 to max(1, N/4) slow nodes at 0.93-0.95 (5-7%: below the goal's reach)
//   nodes-severe    1 to max(1, N/4) slow nodes at 0.5-0.8
//   links           1 to 3 slow links at 0.5-0.8 (between healthy nodes)
//   nodes-links     1 to max(1, N/8) slow nodes at 0.85-0.93 and one slow link at 0.5-0.8
//   groups          2 to 8 groups (the topology known), crossing at 0.6-0.95, and 0 to N/8 slow nodes at 0.85-0.93
//   groups-hidden   the same, the topology not given (blocks found in the matrix)
//   fast-class      4 to 8 groups (known), one of them 1.3-2x faster inside (an NVLink domain), and 0 to
//                   N/8 slow nodes at 0.85-0.93
//   mixed-ranks     a quarter of the nodes with 4 ranks instead of 8 and half the capacity (their own
//                   kind), and 1 to max(1, N/8) slow nodes at 0.85-0.93
//   flapping        one node at 0.5 in 30% of its measurements (an intermittent node, no straggler)
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/base/units.hpp"
#include "analysis/config/thresholds.hpp"
#include "analysis/judge_run.hpp"
#include "bench/adaptive_scope.hpp"
#include "bench/sim_pairs.hpp"
#include "sim/sim_model.hpp"
#include "sweep/splitmix.hpp"
#include "tests/perf/int_list.hpp"

namespace {

using namespace podperf;

struct Truth {
  std::set<int> slow;                   // nodes a straggler verdict should name
  std::set<std::pair<int, int>> links;  // slow links between healthy nodes
  int flapping = -1;                    // the intermittent node, if any
  bool crossing = false;                // a slow crossing (a class gap) to be said
  bool crossing_either = false;         // a crossing near the threshold: said or not, both right
};

struct Outcome {
  bool exact = false;
  int missed = 0;         // slow nodes not named
  int injected = 0;       // slow nodes
  int healthy_named = 0;  // healthy nodes named stragglers
  int links = 0;          // links reported
  int real_links = 0;     // slow links measured
  bool ambiguous = false;
};

struct Cell {
  int runs = 0, exact = 0, healthy_named_runs = 0, ambiguous = 0, links_over = 0;
  long missed = 0, injected = 0;
  std::vector<double> links;  // per run
  int max_links = 0;
};

std::pair<int, int> ordered(int a, int b) {
  return a < b ? std::pair{a, b} : std::pair{b, a};
}

double uniform(SplitMix& rng, double lo, double hi) {
  return lo + (hi - lo) * rng.uniform();
}

int below(SplitMix& rng, int n) {
  return static_cast<int>(rng.below(static_cast<std::uint64_t>(n)));
}

// `count` distinct random nodes of `n`.
std::vector<int> pick_nodes(SplitMix& rng, int n, int count, const std::set<int>& avoid = {}) {
  std::vector<int> free;
  for (int i = 0; i < n; ++i) {
    if (!avoid.contains(i)) free.push_back(i);
  }
  std::vector<int> out;
  for (int k = 0; k < count && !free.empty(); ++k) {
    const int at = below(rng, static_cast<int>(free.size()));
    out.push_back(free[static_cast<std::size_t>(at)]);
    free.erase(free.begin() + at);
  }
  return out;
}

// The model and the truth of one seed of `family`.
std::pair<SimModel, Truth> scenario(const std::string& family, int n, double noise, std::uint64_t seed,
                                    bool& hide_topology) {
  SimModel m = load_sim_model("healthy");
  m.pair_cv = noise;
  m.iteration_cv = 0.03;
  m.pair_tail_df = 4.0;
  m.outlier_probability = 0.002;
  m.outlier_factor = 1.0 / 3.0;
  Truth truth;
  SplitMix rng{seed * 7919 + 17};
  hide_topology = false;
  const int quarter = std::max(1, n / 4), eighth = std::max(1, n / 8);
  const auto slow_nodes = [&](int count, double lo, double hi, const std::set<int>& avoid = {}) {
    for (int node : pick_nodes(rng, n, count, avoid)) {
      SimNodeFault f;
      f.node = node;
      f.factor = uniform(rng, lo, hi);
      m.slow_nodes.push_back(f);
      truth.slow.insert(node);
    }
  };
  const auto groups = [&](int g) {
    const int size = std::max(1, n / g);
    m.levels = {"leaf"};
    m.group_sizes = {size};
    m.crossing_factors = {1.0};
  };
  if (family == "nodes-moderate") {
    slow_nodes(1 + below(rng, quarter), 0.85, 0.93);
  } else if (family == "nodes-small") {
    slow_nodes(1 + below(rng, quarter), 0.93, 0.95);
  } else if (family == "nodes-severe") {
    slow_nodes(1 + below(rng, quarter), 0.5, 0.8);
  } else if (family == "links" || family == "nodes-links") {
    if (family == "nodes-links") slow_nodes(1 + below(rng, eighth), 0.85, 0.93);
    const int count = family == "links" ? 1 + below(rng, 3) : 1;
    while (static_cast<int>(truth.links.size()) < count && n >= 3) {
      const std::vector<int> ab = pick_nodes(rng, n, 2, truth.slow);
      if (ab.size() < 2) break;
      const auto key = ordered(ab[0], ab[1]);
      if (truth.links.contains(key)) continue;
      SimLinkFault f;
      f.nodes = {key.first, key.second};
      f.factor = uniform(rng, 0.5, 0.8);
      m.slow_links.push_back(f);
      truth.links.insert(key);
    }
  } else if (family == "groups" || family == "groups-hidden") {
    const int g = std::min(2 + below(rng, 7), std::max(2, n / 2));
    groups(g);
    m.crossing_factors = {uniform(rng, 0.6, 0.95)};
    slow_nodes(below(rng, eighth + 1), 0.85, 0.93);
    truth.crossing = m.crossing_factors[0] < 0.93;  // beyond the threshold (5%) and the noise: said
    truth.crossing_either = !truth.crossing;        // 0.93-0.95: at the threshold, either is right
    hide_topology = family == "groups-hidden";
  } else if (family == "healthy-topology") {  // 2-8 groups given, crossing as fast as inside: nothing to say
    groups(std::min(2 + below(rng, 7), std::max(2, n / 2)));
  } else if (family == "fast-class") {
    const int g = std::min(4 + below(rng, 5), std::max(2, n / 2));
    groups(g);
    SimGroupFactor f;
    f.level = 0;
    f.group = below(rng, std::max(1, n / m.group_sizes[0]));
    f.factor = uniform(rng, 1.3, 2.0);
    m.group_factors.push_back(f);
    std::set<int> inside;
    for (int i = f.group * m.group_sizes[0]; i < std::min(n, (f.group + 1) * m.group_sizes[0]); ++i) inside.insert(i);
    slow_nodes(below(rng, eighth + 1), 0.85, 0.93, inside);
  } else if (family == "mixed-ranks") {
    SimNodeKind k;
    k.first = n - quarter;
    k.count = quarter;
    k.ranks_per_node = 4;
    k.factor = 0.5;
    m.node_kinds.push_back(k);
    slow_nodes(1 + below(rng, eighth), 0.85, 0.93);
  } else if (family == "flapping") {
    SimNodeFault f;
    f.node = below(rng, n);
    f.factor = 0.5;
    f.probability = 0.3;
    m.flapping_nodes.push_back(f);
    truth.flapping = f.node;
  }
  return {m, truth};
}

bool g_verbose = false;  // --verbose 1: one line per run that is not exact

Outcome one_run(const std::string& family, const std::string& schedule, int n, double noise, std::uint64_t seed,
                const PairsOptions& o, int iters) {
  bool hide = false;
  auto [model, truth] = scenario(family, n, noise, seed, hide);
  SimFabric fabric(model, n, seed);
  NodeMap map = sim_node_map(fabric);
  if (hide) {
    for (NodeInfo& node : map.nodes) node.topology.clear();
  }
  const Plan plan = make_plan(o, map);
  ScheduleOptions so;
  so.schedule = schedule;
  so.seed = seed;
  so.retest = 1;
  if (schedule == "adaptive" && !hide) {
    PairsOptions scope = o;
    scope.schedule = "adaptive";
    resolve_adaptive_scope(scope, model.levels, map.nodes, so);
  }
  SimFabric run_fabric(model, n, seed);
  SimRunResult r = simulate_pairs(run_fabric, plan, map, so, iters);
  if (hide) {
    r.run.topology_levels.clear();
    for (NodeInfo& node : r.run.nodes) node.topology.clear();
    judge_run(r.run, judge_inputs(r.outcome.search.slow_groups));
  }
  // Links: only those the schedule measured can be found.
  std::set<std::pair<int, int>> measured;
  for (const PairResult& p : r.run.pairs) measured.insert(ordered(p.nodes[0], p.nodes[1]));
  std::set<std::pair<int, int>> real_links;
  for (const auto& l : truth.links) {
    if (measured.contains(l)) real_links.insert(l);
  }
  Outcome out;
  std::set<int> named;
  for (const Straggler& s : r.run.stragglers) named.insert(s.node);
  std::set<std::pair<int, int>> links;
  for (const LinkFinding& l : r.run.links) links.insert(ordered(l.nodes[0], l.nodes[1]));
  bool crossing = false, intermittent_right = truth.flapping < 0, intermittent_wrong = false;
  for (const Finding& f : r.run.findings) {
    crossing |= f.check == "pairs.slow_crossing";
    out.ambiguous |= f.check == "pairs.ambiguous";
    if (f.check == "pairs.intermittent_node") {
      const bool right =
          truth.flapping >= 0 && f.host == r.run.nodes[static_cast<std::size_t>(truth.flapping)].hostname;
      intermittent_right |= right;
      intermittent_wrong |= !right;
    }
  }
  out.injected = static_cast<int>(truth.slow.size());
  for (int node : truth.slow) out.missed += named.contains(node) ? 0 : 1;
  for (int node : named) out.healthy_named += truth.slow.contains(node) ? 0 : 1;
  out.links = static_cast<int>(links.size());
  out.real_links = static_cast<int>(truth.links.size());
  out.exact = named == truth.slow && links == real_links && (crossing == truth.crossing || truth.crossing_either) &&
              !out.ambiguous && intermittent_right && !intermittent_wrong;
  if (g_verbose && !out.exact) {
    std::string text = fmt::format("  seed {}: truth slow", seed);
    for (int node : truth.slow) {
      text += fmt::format(" {}({:.3f})", node, fabric.node_factor(node));
    }
    text += "; named";
    for (const Straggler& st : r.run.stragglers) text += fmt::format(" {}({:.3f})", st.node, st.median_ratio);
    text += "; links truth";
    for (const auto& l : truth.links) text += fmt::format(" {}:{}", l.first, l.second);
    text += " named";
    for (const LinkFinding& l : r.run.links) text += fmt::format(" {}:{}({:.2f})", l.nodes[0], l.nodes[1], l.ratio);
    text += fmt::format("; crossing {} want {}; findings", crossing, truth.crossing);
    for (const Finding& f : r.run.findings) {
      if (f.check == "pairs.slow_crossing" || f.check == "pairs.faster_class" || f.check == "pairs.intermittent_node")
        text += " [" + f.observed + "]";
      if (f.check.starts_with("pairs.") && f.check != "pairs.recovered_in_retest") text += " " + f.check;
    }
    text += fmt::format("; node cut {:.3f} noise {:.3f} df {:.0f}", r.run.pair_judgement.node_cut,
                        r.run.pair_judgement.pair_noise, r.run.pair_judgement.noise_df);
    if (std::getenv("PODPERF_BENCH_DUMP") != nullptr) {
      for (const NodeEstimate& e : r.run.node_estimates) {
        text += fmt::format(" <{} {:.3f} {}>", e.node, e.ratio, e.pairs);
      }
      for (const PairResult& p : r.run.pairs) {
        text += fmt::format(
            " ({}:{} {:.3f}{})", p.nodes[0], p.nodes[1], p.ratio,
            p.retest_samples_s.empty() ? "" : fmt::format(" r{:.3f}", p.retest_busbw_gbps / p.baseline_gbps));
      }
    }
    for (const NodeEstimate& e : r.run.node_estimates) {
      if (truth.slow.contains(e.node) && e.verdict != "straggler") {
        text += fmt::format(" [missed {} {:.3f} ({:.3f}-{:.3f}) {}]", e.node, e.ratio, e.low, e.high, e.verdict);
      }
    }
    std::printf("%s\n", text.c_str());
  }
  return out;
}

// Wilson 95% interval of k of n.
std::pair<double, double> wilson(int k, int n) {
  if (n == 0) return {0.0, 1.0};
  const double z = 1.959964, p = static_cast<double>(k) / n, nn = n;
  const double centre = (p + z * z / (2 * nn)) / (1 + z * z / nn);
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / (1 + z * z / nn);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

// Percentile bootstrap 95% interval of the mean of `v` (2000 resamples, fixed seed).
std::pair<double, double> bootstrap_mean(const std::vector<double>& v) {
  if (v.empty()) return {0.0, 0.0};
  SplitMix rng{12345};
  std::vector<double> means;
  for (int b = 0; b < 2000; ++b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < v.size(); ++i) sum += v[rng.below(v.size())];
    means.push_back(sum / static_cast<double>(v.size()));
  }
  std::sort(means.begin(), means.end());
  return {means[50], means[1949]};
}

void print_cell(const std::string& family, const std::string& schedule, int n, double noise, const Cell& c) {
  const auto [elo, ehi] = wilson(c.exact, c.runs);
  const auto [hlo, hhi] = wilson(c.healthy_named_runs, c.runs);
  const auto [mlo, mhi] = wilson(static_cast<int>(c.missed), static_cast<int>(c.injected));
  double links = 0.0;
  for (double l : c.links) links += l;
  links /= static_cast<double>(std::max<std::size_t>(1, c.links.size()));
  const auto [llo, lhi] = bootstrap_mean(c.links);
  std::printf(
      "| %s | %s | %d | %.0f%% | %d | %.1f%% (%.1f-%.1f) | %ld/%ld = %.1f%% (%.1f-%.1f) | %.1f%% (%.1f-%.1f) | "
      "%.2f (%.2f-%.2f), max %d, over real+1: %d | %d |\n",
      family.c_str(), schedule.c_str(), n, noise * 100.0, c.runs, 100.0 * c.exact / std::max(1, c.runs), 100.0 * elo,
      100.0 * ehi, c.missed, c.injected,
      c.injected > 0 ? 100.0 * static_cast<double>(c.missed) / static_cast<double>(c.injected) : 0.0, 100.0 * mlo,
      100.0 * mhi, 100.0 * c.healthy_named_runs / std::max(1, c.runs), 100.0 * hlo, 100.0 * hhi, links, llo, lhi,
      c.max_links, c.links_over, c.ambiguous);
  std::fflush(stdout);
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 50, iters = 10, first_seed = 1000;
  std::string node_list = "4,8,16,64,256", noise_list = "0.01,0.03,0.05", schedules = "all,adaptive", size = "64M";
  std::string families =
      "healthy,healthy-topology,nodes-moderate,nodes-small,nodes-severe,links,nodes-links,groups,groups-hidden,fast-class,mixed-ranks,"
      "flapping";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--seeds") {
      seeds = std::stoi(value);
    } else if (key == "--nodes") {
      node_list = value;
    } else if (key == "--noise") {
      noise_list = value;
    } else if (key == "--schedules") {
      schedules = value;
    } else if (key == "--families") {
      families = value;
    } else if (key == "--iters") {
      iters = std::stoi(value);
    } else if (key == "--first-seed") {
      first_seed = std::stoi(value);
    } else if (key == "--verbose") {
      g_verbose = value != "0";
    } else if (key == "--size") {
      size = value;
    } else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      return 2;
    }
  }
  try {
    PairsOptions o;
    o.min_bytes = size;
    o.max_bytes = size;
    o.iters = iters;
    std::printf(
        "pair verdicts on the modelled fabric, %d seeds a cell, %s, %d iterations, retest 1; noise: pair cv "
        "as given (Student t, 4 df), 0.2%% of measurements at a third, iteration cv 3%%\n\n",
        seeds, size.c_str(), iters);
    std::printf(
        "| family | schedule | N | pair cv | runs | exact verdict | slow nodes missed | runs naming a healthy "
        "node | links reported (mean, 95%% CI) | ambiguous runs |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const std::string& family : split(families)) {
      for (const std::string& schedule : split(schedules)) {
        for (int n : podperf::perf::parse_int_list(node_list)) {
          if (family == "flapping" && n < 4) continue;
          for (const std::string& noise_text : split(noise_list)) {
            const double noise = std::stod(noise_text);
            Cell c;
            for (int s = 0; s < seeds; ++s) {
              const std::uint64_t seed = static_cast<std::uint64_t>(first_seed + s);
              const Outcome r = one_run(family, schedule, n, noise, seed, o, iters);
              ++c.runs;
              c.exact += r.exact ? 1 : 0;
              c.missed += r.missed;
              c.injected += r.injected;
              c.healthy_named_runs += r.healthy_named > 0 ? 1 : 0;
              c.ambiguous += r.ambiguous ? 1 : 0;
              c.links.push_back(r.links);
              c.max_links = std::max(c.max_links, r.links);
              c.links_over += r.links > r.real_links + 1 ? 1 : 0;
            }
            print_cell(family, schedule, n, noise, c);
          }
        }
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "podperf_inference_scenarios: %s\n", e.what());
    return 1;
  }
  return 0;
}

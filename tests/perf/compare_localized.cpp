// podperf compare on the modelled fabric, one job per run with its own seed (as separate `podperf pairs
// --backend sim --seed S` jobs, in one process for speed): detection of localized changes (one link,
// one node) and false alarms of healthy splits, over seed sets, with 95% Wilson intervals; and the
// power at the printed minimum detectable effect (MDE) by Monte Carlo. Measures; fails on nothing but a
// failure to run. Numbers in tests/perf/README.md ("podperf compare: localized changes").
//
//   podperf_compare_localized [--seeds 200] [--nodes 16,64] [--sides 1:1,3:3] [--fault link:0.75]
//                             [--pair-cv 0.03] [--iters 10] [--size 64M] [--power-at-mde] [--fail-on 0]
//                             [--moderate 1] [--flapping 0] [--outliers 0] [--outlier-drop 0.2]
//                             [--transients-in-run] [--verbose]
//
// --fault: none | link:F (sim0003<->sim0011 at busbw x F in every AFTER run) | node:F (sim0005 at x F).
// Per seed set k the BEFORE runs get seeds 1000k+1.., the AFTER runs 1000k+501.. (every run its own).
// Counted per comparison: exit 1 (the outcome's REGRESSION); found (link: the pair's metric slower;
// node: the node's level slower); other findings (a slower metric or node that is not the fault);
// INCONCLUSIVE; No regression (the outcome: with a fault injected, a false "no change"); the printed MDE
// of the fault's test (median over the seed sets).
// --power-at-mde: per seed set the healthy comparison's printed MDE of that link (or node) is read, and
// a change of exactly that size is injected into the AFTER runs' values of that link (node) in the next
// seed set: the share found is the power at the printed MDE (goal >= 80%).
// --flapping F: node sim0007 on both sides at busbw x 0.5 in F of its measurements (a noisy node in a
// healthy comparison: the moderation's false alarms).
// --outliers P: in every run, on both sides, each pair's value is hit by a transient with probability P
// (busbw x (1 - --outlier-drop) at all its iterations): heavy-tailed pair noise, not a fault. The
// transient is injected after the run's own judge, so its retest never sees it (the worst case).
// --transients-in-run: the transients hit the measurements instead (the model's outlier_probability and
// outlier_factor: the first measurement and the retest alike, each with probability P), so the run's
// own judge retests a pair it finds slow, and compare takes a cleared pair's retest, as on a real run.
// --verbose: per seed set, the link sim0003<->sim0011's injected change, measured and tested change, its
// standard error, degrees of freedom, p, adjusted p, printed MDE and verdict (to see why a set missed).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/compare/compare.hpp"
#include "analysis/config/compare_settings.hpp"
#include "analysis/config/thresholds.hpp"
#include "bench/sim_pairs.hpp"
#include "sim/sim_model.hpp"
#include "tests/perf/int_list.hpp"

namespace {

using namespace podperf;

struct Options {
  int seeds = 200;
  std::string nodes = "16,64";
  std::string sides = "1:1,3:3";
  std::string fault = "none";
  double pair_cv = 0.03;
  double iteration_cv = 0.03;
  int iters = 10;
  std::string size = "64M";
  bool power_at_mde = false;
  double fail_on = 0.0;
  bool moderate = true;
  double flapping = 0.0;
  bool verbose = false;
  double outliers = 0.0;      // share of (run, pair) values hit by a transient
  double outlier_drop = 0.2;  // busbw drop of such a value
  bool transients_in_run = false;  // the transients hit the measurements (the run's retest sees them)
};

// 95% Wilson interval of k of n, in percent.
std::string wilson(int k, int n) {
  if (n == 0) return "-";
  const double z = 1.959964, p = static_cast<double>(k) / n, nn = static_cast<double>(n);
  const double centre = (p + z * z / (2 * nn)) / (1 + z * z / nn);
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / (1 + z * z / nn);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%d/%d %.1f%% [%.1f, %.1f]", k, n, 100.0 * p, 100.0 * (centre - half),
                100.0 * (centre + half));
  return buf;
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

SimModel model_of(const Options& o, const std::string& fault, double factor) {
  SimModel m = load_sim_model("healthy");
  m.pair_cv = o.pair_cv;
  m.iteration_cv = o.iteration_cv;
  if (fault == "link") {
    SimLinkFault f;
    f.nodes = {3, 11};
    f.factor = factor;
    m.slow_links.push_back(f);
  } else if (fault == "node") {
    SimNodeFault f;
    f.node = 5;
    f.factor = factor;
    m.slow_nodes.push_back(f);
  }
  if (o.transients_in_run && o.outliers > 0.0) {
    m.outlier_probability = o.outliers;
    m.outlier_factor = 1.0 - o.outlier_drop;
  }
  if (o.flapping > 0.0) {
    SimNodeFault f;
    f.node = 7;
    f.factor = 0.5;
    f.probability = o.flapping;
    m.flapping_nodes.push_back(f);
  }
  return m;
}

Run one_run(const SimModel& model, int nodes, std::uint64_t seed, const Options& o) {
  SimFabric fabric(model, nodes, seed);
  const NodeMap map = sim_node_map(fabric);
  PairsOptions po;
  po.min_bytes = o.size;
  po.max_bytes = o.size;
  po.iters = o.iters;
  po.schedule = "all";
  const Plan plan = make_plan(po, map);
  ScheduleOptions so;
  so.schedule = "all";
  so.seed = seed;
  so.retest = 1;
  SimRunResult r = simulate_pairs(fabric, plan, map, so, o.iters);
  r.run.run_id = "seed-" + std::to_string(seed);
  if (o.outliers > 0.0 && !o.transients_in_run) {
    // Outliers: a share of the pairs of this job measured as if hit by a transient (busbw lower by
    // outlier_drop at every iteration: compare reads busbw x median time / iteration time), on both sides.
    std::mt19937_64 rng(seed * 7919 + 17);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (PairResult& p : r.run.pairs) {
      if (u(rng) >= o.outliers) continue;
      p.busbw_gbps *= 1.0 - o.outlier_drop;
      p.algbw_gbps *= 1.0 - o.outlier_drop;
    }
  }
  return std::move(r.run);
}

struct Result {
  bool exit1 = false, found = false, other = false, inconclusive = false, no_regression = false;
  double mde = NAN;  // the printed MDE of the fault's test
};

Result judge(const Comparison& c, const std::string& fault) {
  Result r;
  r.exit1 = c.outcome.exit_code == 1;
  r.inconclusive = c.outcome.verdict == "inconclusive";
  r.no_regression = c.outcome.verdict == "no_regression";
  for (const MetricComparison& m : c.metrics) {
    const MetricKey k = m.key();
    const bool target = fault == "link" && k.nodes == "sim0003<->sim0011";
    if (fault == "link" && k.nodes == "sim0003<->sim0011") r.mde = m.mde_percent;
    if (m.verdict != "slower") continue;
    if (target) {
      r.found = true;
    } else if (!(fault == "node" && m.explained_by == "sim0005")) {
      r.other = true;
    }
  }
  for (const PairLevelTest& t : c.pair_levels) {
    const bool target = fault == "node" && t.level == "node" && t.node == "sim0005";
    if (target) r.mde = t.mde_percent;
    if (t.verdict != "slower") continue;
    if (target) {
      r.found = true;
    } else {
      r.other = true;
    }
  }
  return r;
}

void scenario(const Options& o, int nodes, int kb, int ka, const CompareSettings& settings) {
  const std::size_t colon = o.fault.find(':');
  const std::string fault = o.fault.substr(0, colon);
  const double factor = colon == std::string::npos ? 1.0 : std::stod(o.fault.substr(colon + 1));
  const SimModel healthy = model_of(o, "none", 1.0);
  int exit1 = 0, found = 0, other = 0, inconclusive = 0, no_regression = 0, n = 0;
  std::vector<double> mdes;
  for (int k = 0; k < o.seeds; ++k) {
    std::vector<Run> before, after;
    const auto base = 1000ULL * static_cast<std::uint64_t>(k + 1);
    for (int i = 0; i < kb; ++i) before.push_back(one_run(healthy, nodes, base + 1 + i, o));
    double f = factor;
    if (o.power_at_mde) {
      // The printed MDE of this link (node) in a healthy comparison of the previous seed set, injected.
      std::vector<Run> hb, ha;
      const auto prev = 1000ULL * static_cast<std::uint64_t>(k + 1) + 700;
      for (int i = 0; i < kb; ++i) hb.push_back(one_run(healthy, nodes, prev + 1 + i, o));
      for (int i = 0; i < ka; ++i) ha.push_back(one_run(healthy, nodes, prev + 101 + i, o));
      const Result h = judge(compare_runs(hb, ha, settings), fault);
      if (!std::isfinite(h.mde)) continue;
      f = 1.0 / (1.0 + h.mde / 100.0);
      mdes.push_back(h.mde);
    }
    // --power-at-mde injects the MDE into the runs' values themselves: a fault of the modelled fabric
    // scales the bandwidth term only, so its busbw moves less than its factor (at 64M by about 85% of
    // it; injected that way, the printed MDE was reached in only about 50% of seed sets).
    const SimModel changed = fault == "none" || o.power_at_mde ? healthy : model_of(o, fault, f);
    for (int i = 0; i < ka; ++i) {
      after.push_back(one_run(changed, nodes, base + 501 + i, o));
      if (!o.power_at_mde) continue;
      for (PairResult& p : after.back().pairs) {
        // node indices of the modelled fabric: index i is sim000i
        const bool link = std::min(p.nodes[0], p.nodes[1]) == 3 && std::max(p.nodes[0], p.nodes[1]) == 11;
        const bool node = p.nodes[0] == 5 || p.nodes[1] == 5;
        if (fault == "link" ? link : node) {
          p.busbw_gbps *= f;
          p.algbw_gbps *= f;
          // A lasting change moves every measurement of the pair, its retests too.
          p.retest_busbw_gbps *= f;
          for (double& v : p.later_retest_busbw_gbps) v *= f;
        }
      }
    }
    const Comparison c = compare_runs(before, after, settings);
    const Result r = judge(c, fault);
    if (o.verbose) {
      for (const MetricComparison& m : c.metrics) {
        if (m.verdict == "slower" && m.key().nodes != "sim0003<->sim0011" && m.explained_by != "sim0005")
          std::printf("  set %d: other slower %s %.2f%% (tested %.2f%%) p_adj %.3g, explained by '%s'\n", k,
                      m.key().nodes.c_str(), m.change_percent, m.tested_change_percent, m.p_adjusted,
                      m.explained_by.c_str());
      }
      for (const PairLevelTest& t : c.pair_levels) {
        if (t.verdict == "slower" && !(t.level == "node" && t.node == "sim0005"))
          std::printf("  set %d: other slower level %s %s %.2f%%\n", k, t.level.c_str(), t.node.c_str(), t.change_percent);
        if (fault != "node" || t.level != "node" || t.node != "sim0005") continue;
        std::printf("  set %d: injected %.2f%%, node change %.2f%%, se %.4f, df %.1f, p %.3g, p_adj %.3g, mde %.1f%%, %s\n",
                    k, 100.0 * (f - 1.0), t.change_percent, t.se_log, t.df, t.p_value, t.p_adjusted, t.mde_percent,
                    t.verdict.c_str());
      }
      for (const MetricComparison& m : c.metrics) {
        if (m.key().nodes != "sim0003<->sim0011") continue;
        std::printf(
            "  set %d: injected %.2f%%, change %.2f%%, tested %.2f%%, se %.4f, df %.0f, p %.3g, p_adj %.3g, mde "
            "%.1f%%, %s%s\n",
            k, 100.0 * (f - 1.0), m.change_percent, m.tested_change_percent, m.se_log, m.df, m.p_value, m.p_adjusted,
            m.mde_percent, m.verdict.c_str(), m.explained_by.c_str());
      }
    }
    ++n;
    exit1 += r.exit1;
    found += r.found;
    other += r.other;
    inconclusive += r.inconclusive;
    no_regression += r.no_regression;
    if (!o.power_at_mde && std::isfinite(r.mde)) mdes.push_back(r.mde);
  }
  std::printf("%5d %3dv%-3d %-12s %6.3f %-28s %-28s %-28s %-28s %-28s %8.1f%%\n", nodes, kb, ka,
              o.power_at_mde ? (fault + "@MDE").c_str() : o.fault.c_str(), o.pair_cv, wilson(exit1, n).c_str(),
              fault == "none" ? "-" : wilson(found, n).c_str(), wilson(other, n).c_str(),
              wilson(inconclusive, n).c_str(), wilson(no_regression, n).c_str(), median(mdes));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(key + " needs a value");
      return argv[++i];
    };
    try {
      if (key == "--seeds")
        o.seeds = std::stoi(value());
      else if (key == "--nodes")
        o.nodes = value();
      else if (key == "--sides")
        o.sides = value();
      else if (key == "--fault")
        o.fault = value();
      else if (key == "--pair-cv")
        o.pair_cv = std::stod(value());
      else if (key == "--iteration-cv")
        o.iteration_cv = std::stod(value());
      else if (key == "--iters")
        o.iters = std::stoi(value());
      else if (key == "--size")
        o.size = value();
      else if (key == "--power-at-mde")
        o.power_at_mde = true;
      else if (key == "--fail-on")
        o.fail_on = std::stod(value());
      else if (key == "--moderate")
        o.moderate = std::stoi(value()) != 0;
      else if (key == "--flapping")
        o.flapping = std::stod(value());
      else if (key == "--outliers")
        o.outliers = std::stod(value());
      else if (key == "--transients-in-run")
        o.transients_in_run = true;
      else if (key == "--outlier-drop")
        o.outlier_drop = std::stod(value());
      else if (key == "--verbose")
        o.verbose = true;
      else {
        std::fprintf(stderr, "unknown option %s\n", key.c_str());
        return 2;
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", key.c_str(), e.what());
      return 2;
    }
  }
  try {
    CompareSettings settings = load_compare_settings("");
    settings.fail_on_percent = o.fail_on;
    settings.moderate_variance = o.moderate;
    std::printf("seed sets %d, pair cv %.3f, iteration cv %.3f, %d iters, %s, fail-on %g, moderation %s%s", o.seeds,
                o.pair_cv, o.iteration_cv, o.iters, o.size.c_str(), o.fail_on, o.moderate ? "on" : "off",
                o.flapping > 0 ? (", flapping node sim0007 at 0.5 in " + std::to_string(o.flapping)).c_str() : "");
    if (o.outliers > 0)
      std::printf(", outliers %g of pair values at -%g%% (%s)", o.outliers, 100.0 * o.outlier_drop,
                  o.transients_in_run ? "in the measurements: the run's retest sees them" : "after the run's judge");
    std::printf("\n");
    std::printf("%5s %-7s %-12s %6s %-28s %-28s %-28s %-28s %-28s %9s\n", "nodes", "sides", "fault", "pairCV",
                "exit 1 [95% CI]", "found [95% CI]", "other slower [95% CI]", "INCONCLUSIVE [95% CI]",
                "No regression [95% CI]", "MDE(med)");
    for (int nodes : perf::parse_int_list(o.nodes)) {
      std::size_t start = 0;
      while (start < o.sides.size()) {
        const std::size_t comma = o.sides.find(',', start);
        const std::string side = o.sides.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const std::size_t colon = side.find(':');
        scenario(o, nodes, std::stoi(side.substr(0, colon)), std::stoi(side.substr(colon + 1)), settings);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "podperf_compare_localized: %s\n", e.what());
    return 1;
  }
  return 0;
}

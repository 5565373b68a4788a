// podperf sweep's ranking: per-job medians pooled per point and size, ranked, #1 against #2 at the
// run level (contract in the header). Floor: analysis/; pure, deterministic.
#include "analysis/compare/sweep_ranking.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <tuple>

#include "analysis/stats/change_stats.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf {
namespace {

void add_samples(std::vector<SweepCase>& cases, const std::string& op, const std::string& dtype, std::uint64_t size,
                 const std::vector<double>& samples_s, double busbw_gbps, double median_s) {
  if (samples_s.empty() || median_s <= 0.0) return;
  auto it = std::find_if(cases.begin(), cases.end(),
                         [&](const SweepCase& c) { return c.op == op && c.dtype == dtype && c.size_bytes == size; });
  if (it == cases.end()) {
    cases.push_back(SweepCase{op, dtype, size, {}});
    it = std::prev(cases.end());
  }
  for (double s : samples_s) {
    if (s > 0.0) it->busbw_gbps.push_back(busbw_gbps * median_s / s);
  }
}

}  // namespace

std::vector<SweepCase> sweep_cases(const Run& run) {
  std::vector<SweepCase> cases;
  for (const CollectiveResult& c : run.collectives) {
    if (c.in_place || !status_ok(c.status)) continue;
    add_samples(cases, c.op, c.dtype, c.size_bytes, c.samples_s, c.busbw_gbps, c.median_s);
  }
  for (const PairResult& p : run.pairs) {
    if (!status_ok(p.status)) continue;
    add_samples(cases, p.op, p.dtype, p.size_bytes, p.samples_s, p.busbw_gbps, p.median_s);
  }
  return cases;
}

std::pair<double, double> bootstrap_median_interval(const std::vector<double>& values, double confidence, int resamples,
                                                    std::uint64_t seed) {
  if (values.empty()) return {0.0, 0.0};
  const double m = median(values);
  if (values.size() < 2 || resamples < 1) return {m, m};
  std::mt19937_64 rng(seed);
  std::vector<double> medians;
  medians.reserve(static_cast<std::size_t>(resamples));
  std::vector<double> draw(values.size());
  for (int r = 0; r < resamples; ++r) {
    for (double& d : draw) d = values[static_cast<std::size_t>(rng() % values.size())];
    medians.push_back(median(draw));
  }
  const double tail = (1.0 - confidence) / 2.0;
  return {quantile(medians, tail), quantile(medians, 1.0 - tail)};
}

namespace {

// Pools the jobs: per (op, dtype, size), per point, one median per job and every iteration.
struct PointCase {
  int point = 0;
  std::string label;
  std::vector<double> run_medians;
  std::vector<double> iterations;
};
struct CaseKey {
  std::string op, dtype;
  std::uint64_t size_bytes = 0;
  bool operator<(const CaseKey& o) const {
    return std::tie(op, dtype, size_bytes) < std::tie(o.op, o.dtype, o.size_bytes);
  }
};

SweepRankEntry entry_of(const PointCase& pc, std::uint64_t size_bytes) {
  SweepRankEntry e;
  e.point = pc.point;
  e.label = pc.label;
  e.samples = pc.iterations.size();
  e.run_medians_gbps = pc.run_medians;
  if (pc.run_medians.size() >= 2) {
    double mean = 0.0;
    for (double v : pc.run_medians) mean += std::log(v);
    const double n = static_cast<double>(pc.run_medians.size());
    mean /= n;
    double ss = 0.0;
    for (double v : pc.run_medians) ss += (std::log(v) - mean) * (std::log(v) - mean);
    const double se = std::sqrt(ss / (n - 1.0) / n);
    const double t = student_t_quantile(0.5 + kSweepConfidence / 2.0, n - 1.0);
    e.median_gbps = std::exp(mean);
    e.ci_low_gbps = std::exp(mean - t * se);
    e.ci_high_gbps = std::exp(mean + t * se);
  } else {
    e.median_gbps = pc.run_medians.front();
    // A fixed seed per point and size: the same runs always print the same intervals.
    const std::uint64_t seed = (static_cast<std::uint64_t>(pc.point) << 40) ^ size_bytes;
    std::tie(e.ci_low_gbps, e.ci_high_gbps) =
        bootstrap_median_interval(pc.iterations, kSweepConfidence, kSweepResamples, seed);
  }
  return e;
}

// #1 against #2: the run-level test when both have two jobs or more, else the allowance.
void judge_best(SweepRankGroup& g, const SweepRankSettings& s) {
  if (g.entries.size() < 2) {
    g.method = "only_point";
    return;
  }
  const SweepRankEntry& a = g.entries[0];
  const SweepRankEntry& b = g.entries[1];
  g.change_percent = b.median_gbps > 0.0 ? 100.0 * (a.median_gbps / b.median_gbps - 1.0) : 0.0;
  if (a.run_medians_gbps.size() >= 2 && b.run_medians_gbps.size() >= 2) {
    const RunLevelChange w =
        welch_log_change(b.run_medians_gbps, a.run_medians_gbps, kSweepConfidence, s.alpha, s.power);
    g.method = "runs";
    g.p_value = w.valid ? w.p_value : 1.0;
    g.zero_variance = w.zero_variance;
  } else {
    g.method = "single_run";
    g.best_clear = g.change_percent > std::max(s.single_run_allowance_percent, s.min_change_percent);
  }
}

}  // namespace

std::vector<SweepRankGroup> rank_sweep(const std::vector<SweepPointResult>& jobs, const SweepRankSettings& s) {
  std::map<CaseKey, std::vector<PointCase>> pooled;
  for (const SweepPointResult& job : jobs) {
    for (const SweepCase& c : job.cases) {
      std::vector<double> v;
      for (double x : c.busbw_gbps) {
        if (x > 0.0 && std::isfinite(x)) v.push_back(x);
      }
      if (v.empty()) continue;
      std::vector<PointCase>& points = pooled[CaseKey{c.op, c.dtype, c.size_bytes}];
      auto it = std::find_if(points.begin(), points.end(), [&](const PointCase& p) { return p.point == job.index; });
      if (it == points.end()) {
        points.push_back(PointCase{job.index, job.label, {}, {}});
        it = std::prev(points.end());
      }
      it->run_medians.push_back(median(v));
      it->iterations.insert(it->iterations.end(), v.begin(), v.end());
    }
  }
  std::vector<SweepRankGroup> groups;
  for (auto& [key, points] : pooled) {
    SweepRankGroup g;
    g.op = key.op;
    g.dtype = key.dtype;
    g.size_bytes = key.size_bytes;
    for (const PointCase& pc : points) g.entries.push_back(entry_of(pc, key.size_bytes));
    std::stable_sort(g.entries.begin(), g.entries.end(), [](const SweepRankEntry& a, const SweepRankEntry& b) {
      if (a.median_gbps != b.median_gbps) return a.median_gbps > b.median_gbps;
      return a.point < b.point;
    });
    judge_best(g, s);
    groups.push_back(std::move(g));
  }
  // The run-level tests of all sizes together: p adjusted for how many rankings were tested.
  std::vector<double> p;
  for (const SweepRankGroup& g : groups) p.push_back(g.method == "runs" ? g.p_value : -1.0);
  const std::vector<double> adjusted = benjamini_hochberg(p);
  const auto tested = static_cast<double>(std::count_if(p.begin(), p.end(), [](double x) { return x >= 0.0; }));
  for (std::size_t i = 0; i < groups.size(); ++i) {
    SweepRankGroup& g = groups[i];
    if (g.method != "runs") continue;
    g.p_adjusted = adjusted[i];
    const bool significant = !g.zero_variance && adjusted[i] < s.alpha;
    g.below_min_change = significant && g.change_percent < s.min_change_percent;
    g.best_clear = significant && !g.below_min_change;
    // The sensitivity at the alpha one lone difference among the sizes must reach.
    const RunLevelChange w = welch_log_change(g.entries[1].run_medians_gbps, g.entries[0].run_medians_gbps,
                                              kSweepConfidence, s.alpha / std::max(1.0, tested), s.power);
    g.mde_percent = w.zero_variance ? INFINITY : std::max(w.mde_percent, s.min_change_percent);
  }
  return groups;
}

}  // namespace podperf

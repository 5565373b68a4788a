#include "analysis/sweep_ranking.hpp"

#include <algorithm>
#include <random>
#include <tuple>

#include "analysis/stats.hpp"

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
    if (c.in_place || c.status != "ok") continue;
    add_samples(cases, c.op, c.dtype, c.size_bytes, c.samples_s, c.busbw_gbps, c.median_s);
  }
  for (const PairResult& p : run.pairs) {
    if (p.status != "ok") continue;
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

std::vector<SweepRankGroup> rank_sweep(const std::vector<SweepPointResult>& points) {
  std::vector<SweepRankGroup> groups;
  for (const SweepPointResult& p : points) {
    for (const SweepCase& c : p.cases) {
      if (c.busbw_gbps.empty()) continue;
      auto it = std::find_if(groups.begin(), groups.end(), [&](const SweepRankGroup& g) {
        return g.op == c.op && g.dtype == c.dtype && g.size_bytes == c.size_bytes;
      });
      if (it == groups.end()) {
        groups.push_back(SweepRankGroup{c.op, c.dtype, c.size_bytes, {}, false});
        it = std::prev(groups.end());
      }
      SweepRankEntry e;
      e.point = p.index;
      e.label = p.label;
      e.median_gbps = median(c.busbw_gbps);
      // A fixed seed per point and size: the same runs always print the same intervals.
      const std::uint64_t seed = (static_cast<std::uint64_t>(p.index) << 40) ^ c.size_bytes;
      std::tie(e.ci_low_gbps, e.ci_high_gbps) =
          bootstrap_median_interval(c.busbw_gbps, kSweepConfidence, kSweepResamples, seed);
      e.samples = c.busbw_gbps.size();
      it->entries.push_back(std::move(e));
    }
  }
  for (SweepRankGroup& g : groups) {
    std::stable_sort(g.entries.begin(), g.entries.end(), [](const SweepRankEntry& a, const SweepRankEntry& b) {
      if (a.median_gbps != b.median_gbps) return a.median_gbps > b.median_gbps;
      return a.point < b.point;
    });
    g.best_clear = g.entries.size() >= 2 && g.entries[0].ci_low_gbps > g.entries[1].ci_high_gbps;
  }
  std::sort(groups.begin(), groups.end(), [](const SweepRankGroup& a, const SweepRankGroup& b) {
    return std::tie(a.op, a.dtype, a.size_bytes) < std::tie(b.op, b.dtype, b.size_bytes);
  });
  return groups;
}

}  // namespace podperf

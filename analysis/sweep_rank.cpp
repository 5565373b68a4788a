#include "analysis/sweep_rank.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <tuple>

#include "analysis/stats.hpp"
#include "analysis/units.hpp"

namespace podperf {
namespace {

constexpr double kConfidence = 0.95;
constexpr int kResamples = 2000;

void add_samples(std::vector<SweepCase>& cases, const std::string& op, const std::string& dtype, std::uint64_t size,
                 const std::vector<double>& samples_s, double busbw_gbps, double median_s) {
  if (samples_s.empty() || median_s <= 0.0) return;
  auto it = std::find_if(cases.begin(), cases.end(), [&](const SweepCase& c) {
    return c.op == op && c.dtype == dtype && c.size_bytes == size;
  });
  if (it == cases.end()) {
    cases.push_back(SweepCase{op, dtype, size, {}});
    it = std::prev(cases.end());
  }
  for (double s : samples_s) {
    if (s > 0.0) it->busbw_gbps.push_back(busbw_gbps * median_s / s);
  }
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
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

std::pair<double, double> bootstrap_median_interval(const std::vector<double>& values, double confidence,
                                                    int resamples, std::uint64_t seed) {
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
      std::tie(e.ci_low_gbps, e.ci_high_gbps) = bootstrap_median_interval(c.busbw_gbps, kConfidence, kResamples, seed);
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

std::string sweep_ranking_text(const std::vector<SweepRankGroup>& groups, const std::vector<SweepPointResult>& points) {
  std::string out;
  out += fmt::format(
      "Ranking by busbw (GB/s) per op, type and message size: the median of the per-iteration busbw, with its 95% "
      "percentile-bootstrap interval ({} resamples)\n",
      kResamples);
  if (groups.empty()) out += "  no point measured anything\n";
  for (const SweepRankGroup& g : groups) {
    out += fmt::format("\n{} {} {}\n", g.op, g.dtype, format_size(g.size_bytes));
    out += fmt::format("  {:>4}  {:>10}  {:>21}  {:>5}  {}\n", "rank", "busbw", "95% interval", "n", "point");
    for (std::size_t i = 0; i < g.entries.size(); ++i) {
      const SweepRankEntry& e = g.entries[i];
      out += fmt::format("  {:>4}  {:>10.4g}  [{:>9.4g}, {:>9.4g}]  {:>5}  #{} {}\n", i + 1, e.median_gbps,
                         e.ci_low_gbps, e.ci_high_gbps, e.samples, e.point, e.label);
    }
  }
  if (!groups.empty()) {
    out += "\nBest setting per message size:\n";
    for (const SweepRankGroup& g : groups) {
      const SweepRankEntry& b = g.entries.front();
      std::string note;
      if (g.entries.size() < 2) {
        note = "the only point measured";
      } else if (g.best_clear) {
        note = fmt::format("ahead of #{} beyond both intervals", g.entries[1].point);
      } else {
        note = fmt::format("within noise of #{} (intervals overlap)", g.entries[1].point);
      }
      out += fmt::format("  {} {} {:>6}: #{} {}  {:.4g} GB/s [{:.4g}, {:.4g}]  {}\n", g.op, g.dtype,
                         format_size(g.size_bytes), b.point, b.label, b.median_gbps, b.ci_low_gbps, b.ci_high_gbps,
                         note);
    }
  }
  std::size_t failed = 0;
  for (const SweepPointResult& p : points) failed += p.status != "ok" ? 1 : 0;
  if (failed > 0) {
    out += fmt::format("\nPoints that did not complete ({}):\n", failed);
    for (const SweepPointResult& p : points) {
      if (p.status == "ok") continue;
      if (p.status == "not_run") {
        out += fmt::format("  #{} {}: not run\n", p.index, p.label);
      } else {
        out += fmt::format("  #{} {}: {} (exit {})\n", p.index, p.label, p.status, p.exit_code);
      }
    }
  }
  return out;
}

std::string sweep_csv(const std::vector<SweepRankGroup>& groups) {
  std::string out = "op,dtype,size_bytes,rank,point,settings,median_busbw_gbps,ci_low_gbps,ci_high_gbps,samples,best\r\n";
  for (const SweepRankGroup& g : groups) {
    for (std::size_t i = 0; i < g.entries.size(); ++i) {
      const SweepRankEntry& e = g.entries[i];
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\r\n", csv_field(g.op), csv_field(g.dtype), g.size_bytes,
                         i + 1, e.point, csv_field(e.label), e.median_gbps, e.ci_low_gbps, e.ci_high_gbps, e.samples,
                         i == 0 ? "true" : "false");
    }
  }
  return out;
}

nlohmann::json sweep_points_json(const std::vector<SweepPointResult>& points) {
  nlohmann::json out = nlohmann::json::array();
  for (const SweepPointResult& p : points) {
    nlohmann::json cases = nlohmann::json::array();
    for (const SweepCase& c : p.cases) {
      cases.push_back({{"op", c.op},
                       {"dtype", c.dtype},
                       {"size_bytes", c.size_bytes},
                       {"median_busbw_gbps", median(c.busbw_gbps)},
                       {"samples", c.busbw_gbps.size()}});
    }
    out.push_back({{"index", p.index},
                   {"name", p.name},
                   {"settings", p.label},
                   {"env", p.env},
                   {"argv", p.argv},
                   {"status", p.status},
                   {"exit_code", p.exit_code},
                   {"error", p.error},
                   {"run_dir", p.run_dir},
                   {"duration_s", p.duration_s},
                   {"cases", cases}});
  }
  return out;
}

nlohmann::json sweep_ranking_json(const std::vector<SweepRankGroup>& groups) {
  nlohmann::json out = nlohmann::json::array();
  for (const SweepRankGroup& g : groups) {
    nlohmann::json entries = nlohmann::json::array();
    for (const SweepRankEntry& e : g.entries) {
      entries.push_back({{"point", e.point},
                         {"settings", e.label},
                         {"median_busbw_gbps", e.median_gbps},
                         {"ci_low_gbps", e.ci_low_gbps},
                         {"ci_high_gbps", e.ci_high_gbps},
                         {"samples", e.samples}});
    }
    out.push_back({{"op", g.op},
                   {"dtype", g.dtype},
                   {"size_bytes", g.size_bytes},
                   {"best_point", g.entries.front().point},
                   {"best_clear", g.best_clear},
                   {"entries", entries}});
  }
  return out;
}

}  // namespace podperf

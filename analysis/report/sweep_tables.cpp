// The ranking of a sweep's points (podperf sweep) as terminal text, sweep.csv and the JSON of
// sweep.json. Floor: the printers' wing (analysis/report/); pure, local; throws nothing.
#include "analysis/report/sweep_tables.hpp"

#include <fmt/format.h>

#include "analysis/base/units.hpp"
#include "analysis/report/csv.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf {

namespace {

// "ahead of #2 beyond run-to-run noise (+12.3%, Welch p_adj=0.004, 3 vs 3 jobs)" and its kin.
std::string best_note(const SweepRankGroup& g, const SweepRankSettings& s) {
  if (g.entries.size() < 2) return "the only point measured";
  const SweepRankEntry& a = g.entries[0];
  const SweepRankEntry& b = g.entries[1];
  if (g.method == "runs") {
    if (g.best_clear) {
      return fmt::format("ahead of #{} beyond run-to-run noise ({:+.1f}%, Welch p_adj={:.2g}, {} vs {} jobs)", b.point,
                         g.change_percent, g.p_adjusted, a.run_medians_gbps.size(), b.run_medians_gbps.size());
    }
    if (g.zero_variance) {
      return fmt::format("not told apart from #{} ({:+.1f}%): zero variance, every job of both gave the same value",
                         b.point, g.change_percent);
    }
    if (g.below_min_change) {
      return fmt::format("not ahead of #{}: {:+.1f}% (p_adj={:.2g}) is below the minimum change of {:g}%", b.point,
                         g.change_percent, g.p_adjusted, s.min_change_percent);
    }
    return fmt::format(
        "within run-to-run noise of #{} ({:+.1f}%, p_adj={:.2g}; a difference above {:.1f}% would "
        "have been seen)",
        b.point, g.change_percent, g.p_adjusted, g.mde_percent);
  }
  if (g.best_clear) {
    return fmt::format("ahead of #{} by {:+.1f}%, more than the single-run allowance of {:g}% (one job per point)",
                       b.point, g.change_percent, std::max(s.single_run_allowance_percent, s.min_change_percent));
  }
  return fmt::format(
      "not told apart from #{} ({:+.1f}%, within the single-run allowance of {:g}%: one job per point "
      "cannot separate a setting from run-to-run noise)",
      b.point, g.change_percent, s.single_run_allowance_percent);
}

}  // namespace

std::string sweep_ranking_text(const std::vector<SweepRankGroup>& groups, const std::vector<SweepPointResult>& points,
                               const SweepRankSettings& settings) {
  std::string out;
  out += fmt::format(
      "Ranking by busbw (GB/s) per op, type and message size. The unit is the job: with 2+ jobs per point, the "
      "geometric mean of the per-job medians and its 95% t interval over jobs; with 1 job, its median and the 95% "
      "percentile-bootstrap interval over its iterations ({} resamples; within-run only)\n",
      kSweepResamples);
  if (groups.empty()) out += "  no point measured anything\n";
  for (const SweepRankGroup& g : groups) {
    out += fmt::format("\n{} {} {}\n", g.op, g.dtype, format_size(g.size_bytes));
    out += fmt::format("  {:>4}  {:>10}  {:>21}  {:>4}  {:>5}  {}\n", "rank", "busbw", "95% interval", "jobs", "n",
                       "point");
    for (std::size_t i = 0; i < g.entries.size(); ++i) {
      const SweepRankEntry& e = g.entries[i];
      out += fmt::format("  {:>4}  {:>10.4g}  [{:>9.4g}, {:>9.4g}]  {:>4}  {:>5}  #{} {}\n", i + 1, e.median_gbps,
                         e.ci_low_gbps, e.ci_high_gbps, e.run_medians_gbps.size(), e.samples, e.point, e.label);
    }
  }
  if (!groups.empty()) {
    out += "\nBest setting per message size:\n";
    for (const SweepRankGroup& g : groups) {
      const SweepRankEntry& b = g.entries.front();
      out += fmt::format("  {} {} {:>6}: #{} {}  {:.4g} GB/s [{:.4g}, {:.4g}]  {}\n", g.op, g.dtype,
                         format_size(g.size_bytes), b.point, b.label, b.median_gbps, b.ci_low_gbps, b.ci_high_gbps,
                         best_note(g, settings));
    }
  }
  std::size_t failed = 0;
  for (const SweepPointResult& p : points) failed += !status_ok(p.status) ? 1 : 0;
  if (failed > 0) {
    out += fmt::format("\nJobs that did not complete ({}):\n", failed);
    for (const SweepPointResult& p : points) {
      if (status_ok(p.status)) continue;
      if (p.status == "not_run") {
        out += fmt::format("  #{} repeat {} {}: not run\n", p.index, p.repeat, p.label);
      } else {
        out += fmt::format("  #{} repeat {} {}: {} (exit {})\n", p.index, p.repeat, p.label, p.status, p.exit_code);
      }
    }
  }
  return out;
}

std::string sweep_csv(const std::vector<SweepRankGroup>& groups) {
  std::string out =
      "op,dtype,size_bytes,rank,point,settings,median_busbw_gbps,ci_low_gbps,ci_high_gbps,jobs,samples,best,"
      "best_clear\r\n";
  for (const SweepRankGroup& g : groups) {
    for (std::size_t i = 0; i < g.entries.size(); ++i) {
      const SweepRankEntry& e = g.entries[i];
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\r\n", csv_field(g.op), csv_field(g.dtype),
                         g.size_bytes, i + 1, e.point, csv_field(e.label), e.median_gbps, e.ci_low_gbps, e.ci_high_gbps,
                         e.run_medians_gbps.size(), e.samples, i == 0 ? "true" : "false",
                         i == 0 && g.best_clear ? "true" : "false");
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
                   {"repeat", p.repeat},
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
                         {"jobs", e.run_medians_gbps.size()},
                         {"run_medians_gbps", e.run_medians_gbps},
                         {"samples", e.samples}});
    }
    out.push_back({{"op", g.op},
                   {"dtype", g.dtype},
                   {"size_bytes", g.size_bytes},
                   {"best_point", g.entries.front().point},
                   {"best_clear", g.best_clear},
                   {"method", g.method},
                   {"change_percent", g.change_percent},
                   {"p_value", g.p_value},
                   {"p_adjusted", g.p_adjusted},
                   {"mde_percent", g.mde_percent},
                   {"entries", entries}});
  }
  return out;
}

}  // namespace podperf

#pragma once
// The ranking of a sweep's points (podperf sweep) for people and machines: the terminal tables and
// best setting per size, sweep.csv, and the points and ranking of sweep.json. Floor: the printers'
// wing (analysis/report/); pure, local; throws nothing. A projection of rank_sweep's groups.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/compare/sweep_ranking.hpp"

namespace podperf {

// The ranking tables and the best setting per size, for the terminal.
std::string sweep_ranking_text(const std::vector<SweepRankGroup>& groups, const std::vector<SweepPointResult>& points,
                               const SweepRankSettings& settings = {});
// One CSV row (RFC 4180, CRLF) per group and point: the ranking tables (sweep.csv).
std::string sweep_csv(const std::vector<SweepRankGroup>& groups);
// sweep.json's "points": each point as it ran, with each case's median busbw (the one number this
// wing takes itself: the median of the case's samples, as the ranking does).
nlohmann::json sweep_points_json(const std::vector<SweepPointResult>& points);
// sweep.json's "ranking": the groups, best first, with the best point and whether it is clear.
nlohmann::json sweep_ranking_json(const std::vector<SweepRankGroup>& groups);

}  // namespace podperf

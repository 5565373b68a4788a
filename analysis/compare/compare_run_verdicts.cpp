// The runs' own stragglers, slow links and slow crossings, side against side (see
// compare_run_verdicts.hpp). Floor: analysis/compare; pure, deterministic.
#include "analysis/compare/compare_run_verdicts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>
#include <tuple>

#include "analysis/compare/types.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf {
namespace compare_run_verdicts_detail {

// The crossing a pairs.slow_crossing finding names: "between A and B" of its observation, without the
// numbers around it (the same crossing in two runs reads alike); the whole meaning when not found.
std::string crossing_name(const Finding& f) {
  const std::size_t at = f.observed.find("between ");
  if (at == std::string::npos) return f.meaning;
  std::size_t end = f.observed.find(" (", at);
  if (end == std::string::npos) end = f.observed.find(';', at);
  return f.observed.substr(at + 8, end == std::string::npos ? std::string::npos : end - at - 8);
}

double slow_percent_of_ratio(double ratio) {
  return ratio > 0.0 && ratio < 1.0 ? 100.0 * (1.0 - ratio) : 0.0;
}

struct Tally {
  int before = 0, after = 0;
  std::vector<double> slow_before, slow_after;
};

using Key = std::pair<std::string, std::string>;  // kind, name

void count(const std::vector<RunOwnVerdicts>& runs, bool after, std::map<Key, Tally>& out) {
  for (const RunOwnVerdicts& r : runs) {
    std::map<Key, double> named;  // a run naming one thing twice counts once
    for (const auto& s : r.stragglers) named.try_emplace({"straggler", s.name}, s.slow_percent);
    for (const auto& l : r.links) named.try_emplace({"slow link", l.name}, l.slow_percent);
    for (const auto& x : r.crossings) named.try_emplace({"slow crossing", x.name}, x.slow_percent);
    for (const auto& [key, slow] : named) {
      Tally& t = out[key];
      ++(after ? t.after : t.before);
      (after ? t.slow_after : t.slow_before).push_back(slow);
    }
  }
}

int status_rank(const std::string& status) {
  return status == "new" ? 0 : status == "gone" ? 1 : status == "both" ? 2 : 3;
}

}  // namespace compare_run_verdicts_detail

using namespace compare_run_verdicts_detail;

RunOwnVerdicts run_own_verdicts(const Run& run) {
  RunOwnVerdicts out;
  for (const Straggler& s : run.stragglers)
    out.stragglers.push_back({s.hostname, slow_percent_of_ratio(s.median_ratio)});
  for (const LinkFinding& l : run.links) {
    std::string a = l.hostnames[0], b = l.hostnames[1];
    if (b < a) std::swap(a, b);
    out.links.push_back({a + "<->" + b, slow_percent_of_ratio(l.ratio)});
  }
  for (const Finding& f : run.findings) {
    if (f.check == "pairs.slow_crossing") out.crossings.push_back({crossing_name(f), 0.0});
    if ((f.check == "pairs.intermittent_node" || f.check == "pairs.recovered_in_retest" ||
         f.check == "pairs.stalling_node") &&
        !f.host.empty())
      out.intermittent.push_back(f.host);
  }
  return out;
}

std::vector<RunVerdictChange> compare_run_verdicts(const std::vector<RunOwnVerdicts>& before,
                                                   const std::vector<RunOwnVerdicts>& after) {
  std::map<Key, Tally> tallies;
  count(before, false, tallies);
  count(after, true, tallies);
  const int nb = static_cast<int>(before.size()), na = static_cast<int>(after.size());
  std::vector<RunVerdictChange> out;
  for (const auto& [key, t] : tallies) {
    RunVerdictChange c;
    c.kind = key.first;
    c.name = key.second;
    c.before_named = t.before;
    c.after_named = t.after;
    c.before_runs = nb;
    c.after_runs = na;
    const bool most_after = 2 * t.after >= na && t.after > 0;
    const bool most_before = 2 * t.before >= nb && t.before > 0;
    if (t.before == 0 && most_after) {
      c.status = "new";
    } else if (t.after == 0 && most_before) {
      c.status = "gone";
    } else if (t.before > 0 && t.after > 0) {
      c.status = "both";
    } else {
      c.status = "sometimes";
    }
    const std::vector<double>& slow = t.after > 0 ? t.slow_after : t.slow_before;
    c.slow_percent = median(slow);
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(), [](const RunVerdictChange& x, const RunVerdictChange& y) {
    return std::make_tuple(status_rank(x.status), x.kind, x.name) <
           std::make_tuple(status_rank(y.status), y.kind, y.name);
  });
  return out;
}

void confirm_run_verdicts(Comparison& c) {
  constexpr double kNone = std::numeric_limits<double>::infinity();
  for (RunVerdictChange& v : c.run_verdicts) {
    v.confirmed = false;
    v.compare_mde_percent = kNone;
    if (v.kind == "straggler") {
      for (const PairLevelTest& t : c.pair_levels) {
        if (t.level != "node" || t.node != v.name) continue;
        v.confirmed = v.confirmed || t.verdict == "slower";
        if (t.p_value >= 0.0) v.compare_mde_percent = std::min(v.compare_mde_percent, t.mde_percent);
      }
      continue;
    }
    if (!c.registry) continue;
    const std::size_t split = v.name.find("<->");
    const std::string_view a =
        split == std::string::npos ? std::string_view() : std::string_view(v.name).substr(0, split);
    const std::string_view b =
        split == std::string::npos ? std::string_view() : std::string_view(v.name).substr(split + 3);
    std::vector<double> mde;
    for (const MetricComparison& m : c.metrics) {
      const MetricIdentity& id = c.registry->identity(m.metric);
      if (id.kind != MetricKind::kPair) continue;
      const bool this_link = v.kind == "slow link" && c.registry->text(id.a) == a && c.registry->text(id.b) == b;
      if (v.kind == "slow link" && !this_link) continue;
      // A crossing: any pair slower, beyond what the common shift of all pairs explains.
      if (m.verdict == "slower" && m.explained_by != "all pairs") v.confirmed = true;
      if (m.p_value >= 0.0) mde.push_back(m.mde_percent);
    }
    if (!mde.empty()) {
      v.compare_mde_percent = v.kind == "slow link" ? *std::min_element(mde.begin(), mde.end()) : median(mde);
    }
  }
}

}  // namespace podperf

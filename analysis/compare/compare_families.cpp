// The families of a comparison: alpha shares, adjustment, verdicts, the true sensitivity per
// hypothesis and per level (see compare_families.hpp). Floor: analysis/compare; pure, deterministic for
// any thread count.
#include "analysis/compare/compare_families.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>

#include "analysis/base/chunks.hpp"
#include "analysis/compare/compare_pair_levels.hpp"
#include "analysis/stats/change_stats.hpp"
#include "analysis/stats/stats.hpp"
#include "analysis/stats/t_power.hpp"

namespace podperf {
namespace compare_families_detail {

constexpr const char* kFamilies[] = {"pairs", "topology classes", "collectives", "filesystem"};
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// One hypothesis of a family, whichever object holds it.
struct Hypothesis {
  double* p_value;
  double* p_adjusted;
  std::string* verdict;
  double* mde_percent;
  double tested_change_percent;
  bool higher_is_better;
  double se_log;
  double df;
};

// The log reach a --min-change of `percent` sets: the smaller relative change in either direction
// that counts (a slowdown by percent%).
double floor_log(double percent) {
  return percent <= 0.0 ? 0.0 : percent >= 100.0 ? kInfinity : -std::log1p(-percent / 100.0);
}

// detectable_noncentrality and the power quantile per df, computed once per distinct df.
class Reach {
 public:
  Reach(double alpha, double power, double min_change_percent)
      : alpha_(alpha), power_(power), floor_(floor_log(min_change_percent)) {}
  double percent(double se_log, double df) {
    if (!(se_log > 0.0) || !(df > 0.0)) return kInfinity;
    auto it = cache_.find(df);
    if (it == cache_.end()) {
      it = cache_.emplace(df, Entry{detectable_noncentrality(df, alpha_, power_), t_quantile(power_, df),
                                    sigma_upper_factor(df, kSigmaBoundP)})
               .first;
    }
    // The standard error is itself an estimate: the MDE printed from it is at its one-sided 84% upper
    // bound (one standard deviation of a chi-square), so that the power at the printed MDE holds over
    // the comparisons that print it, not only at the true noise (at the estimate, the power at the
    // printed MDE was 64-76% for nodes, since a noise estimate low by chance printed a small MDE).
    const double upper = it->second.third * se_log;
    const double statistical = it->second.first * upper;
    const double with_floor = floor_ + it->second.second * upper;
    const double reach = std::max(statistical, with_floor);
    return std::isfinite(reach) ? 100.0 * std::expm1(reach) : kInfinity;
  }

 private:
  struct Entry {
    double first, second, third;  // detectable noncentrality, power quantile, sigma_upper_factor
  };
  static constexpr double kSigmaBoundP = 0.1587;  // the chi-square's quantile one sd below its centre
  double alpha_, power_, floor_;
  std::map<double, Entry> cache_;
};

bool tested(const Hypothesis& h) {
  return *h.p_value >= 0.0;
}

}  // namespace compare_families_detail

using namespace compare_families_detail;

const char* family_of(MetricKind kind) {
  switch (kind) {
    case MetricKind::kPair: return kFamilies[0];
    case MetricKind::kTopologyClass: return kFamilies[1];
    case MetricKind::kCollective: return kFamilies[2];
    case MetricKind::kFsProbe:
    case MetricKind::kFsNode: return kFamilies[3];
  }
  return kFamilies[0];
}

double detectable_change_percent(double se_log, double df, double alpha, double power, double min_change_percent) {
  return Reach(alpha, power, min_change_percent).percent(se_log, df);
}

namespace compare_families_detail {

Hypothesis of(MetricComparison& m) {
  return {&m.p_value,         &m.p_adjusted, &m.verdict, &m.mde_percent, m.tested_change_percent,
          m.higher_is_better, m.se_log,      m.df};
}
Hypothesis of(PairLevelTest& t) {
  return {&t.p_value, &t.p_adjusted, &t.verdict, &t.mde_percent, t.change_percent, true, t.se_log, t.df};
}

// Adjusts one stage's p values together and judges each hypothesis at `alpha`.
FamilyStage judge_stage(const std::string& name, std::vector<Hypothesis>& list, double alpha,
                        const CompareSettings& s) {
  FamilyStage stage;
  stage.name = name;
  stage.alpha = alpha;
  std::vector<double> p;
  p.reserve(list.size());
  for (const Hypothesis& h : list) {
    p.push_back(*h.p_value);
    (tested(h) ? stage.hypotheses : stage.untestable) += 1;
  }
  stage.alpha_effective =
      s.correction == "none" || stage.hypotheses == 0 ? alpha : alpha / static_cast<double>(stage.hypotheses);
  const std::vector<double> adjusted = s.correction == "benjamini-hochberg" ? benjamini_hochberg(p) : p;
  Reach reach(stage.alpha_effective, s.power, s.min_change_percent);
  for (std::size_t i = 0; i < list.size(); ++i) {
    Hypothesis& h = list[i];
    if (!tested(h)) {
      *h.verdict = "untestable";
      *h.mde_percent = kInfinity;
      continue;
    }
    *h.p_adjusted = adjusted[i];
    *h.mde_percent = reach.percent(h.se_log, h.df);
    const bool significant = adjusted[i] < alpha && std::fabs(h.tested_change_percent) >= s.min_change_percent;
    const bool better = h.higher_is_better ? h.tested_change_percent > 0.0 : h.tested_change_percent < 0.0;
    *h.verdict = !significant ? "no_change" : better ? "faster" : "slower";
  }
  return stage;
}

bool will_test(const MetricComparison& m) {
  return std::string_view(m.test) != "untestable";
}

}  // namespace compare_families_detail

void judge_families(Comparison& c, const CompareSettings& s) {
  for (MetricComparison& m : c.metrics) {
    m.family = c.registry ? family_of(c.registry->identity(m.metric).kind) : kFamilies[0];
  }
  // Which families have something to test (the pairs' second stage is tested between the stages).
  std::map<std::string_view, bool> testable;
  for (const MetricComparison& m : c.metrics) testable[m.family] = testable[m.family] || will_test(m);
  const bool levels_testable =
      std::any_of(c.pair_levels.begin(), c.pair_levels.end(), [](const PairLevelTest& t) { return t.p_value >= 0.0; });
  testable[kFamilies[0]] = testable[kFamilies[0]] || levels_testable;
  const auto families_tested = static_cast<double>(
      std::max<long>(1, std::count_if(testable.begin(), testable.end(), [](const auto& x) { return x.second; })));
  c.families.clear();
  for (const char* name : kFamilies) {
    const bool present = std::any_of(c.metrics.begin(), c.metrics.end(),
                                     [&](const MetricComparison& m) { return std::string_view(m.family) == name; });
    if (!present) continue;
    FamilySummary f;
    f.name = name;
    f.alpha = s.alpha / families_tested;
    if (std::string_view(name) == kFamilies[0]) {
      // Pairs: the common shifts and the nodes first, then each pair beyond the levels found; alpha split
      // between the two stages when both have something to test.
      const bool links_testable =
          testable[kFamilies[0]] && std::any_of(c.metrics.begin(), c.metrics.end(), [&](const MetricComparison& m) {
            return std::string_view(m.family) == name && will_test(m);
          });
      const double share = levels_testable && links_testable ? f.alpha / 2.0 : f.alpha;
      if (!c.pair_levels.empty()) {
        std::vector<Hypothesis> levels;
        for (PairLevelTest& t : c.pair_levels) levels.push_back(of(t));
        f.stages.push_back(judge_stage("levels", levels, share, s));
      }
      test_pairs_beyond_levels(c, s);
      std::vector<Hypothesis> links;
      for (MetricComparison& m : c.metrics) {
        if (std::string_view(m.family) == name) links.push_back(of(m));
      }
      f.stages.push_back(judge_stage("links", links, share, s));
      explain_pairs(c);
    } else {
      std::vector<Hypothesis> list;
      for (MetricComparison& m : c.metrics) {
        if (std::string_view(m.family) == name) list.push_back(of(m));
      }
      f.stages.push_back(judge_stage("metrics", list, f.alpha, s));
    }
    for (const FamilyStage& stage : f.stages) {
      f.hypotheses += stage.hypotheses;
      f.untestable += stage.untestable;
    }
    c.families.push_back(std::move(f));
  }
}

namespace compare_families_detail {

struct LevelEntry {
  double mde_percent;
  bool tested;
  const char* why;
  std::string name;  // made only for the worst
  double se_log, df, units_before, units_after;
};

// Runs per side that bring the worst hypothesis to `target`: its per-unit spread scaled to n units a
// side. 0 when it already sees it; -1 when no count up to 1000 does or it cannot be told.
int runs_needed(const LevelEntry& worst, double target, double alpha, const CompareSettings& s) {
  if (!worst.tested) return -1;
  if (worst.mde_percent <= target) return 0;
  const double per_unit = worst.se_log / std::sqrt(1.0 / worst.units_before + 1.0 / worst.units_after);
  Reach reach(alpha, s.power, s.min_change_percent);
  const int from = static_cast<int>(std::max(worst.units_before, worst.units_after)) + 1;
  for (int n = std::max(2, from); n <= 1000; ++n) {
    const double se = per_unit * std::sqrt(2.0 / n);
    if (reach.percent(se, std::max(worst.df, 2.0 * (n - 1))) <= target) return n;
  }
  return -1;
}

}  // namespace compare_families_detail

void describe_sensitivity(Comparison& c, const CompareSettings& s, double target_percent) {
  c.sensitivity.clear();
  // The alpha one lone change must reach, per family and stage.
  std::map<std::pair<std::string, std::string>, double> stage_alpha;
  for (const FamilySummary& f : c.families) {
    for (const FamilyStage& st : f.stages) stage_alpha[{f.name, st.name}] = st.alpha_effective;
  }
  // family, level -> entries (names made later, only for the worst)
  std::vector<std::pair<std::pair<std::string, std::string>, std::vector<LevelEntry>>> levels;
  auto level = [&](const std::string& family, const std::string& name) -> std::vector<LevelEntry>& {
    for (auto& [key, entries] : levels) {
      if (key.first == family && key.second == name) return entries;
    }
    levels.push_back({{family, name}, {}});
    return levels.back().second;
  };
  const auto units_b = static_cast<double>(std::max<std::size_t>(1, c.units_before));
  const auto units_a = static_cast<double>(std::max<std::size_t>(1, c.units_after));
  for (const PairLevelTest& t : c.pair_levels) {
    level("pairs", t.level == "node" ? "nodes" : "all pairs")
        .push_back(
            {t.mde_percent, t.p_value >= 0.0, t.untestable_why, pair_level_name(t), t.se_log, t.df, units_b, units_a});
  }
  for (const MetricComparison& m : c.metrics) {
    const bool pair = std::string_view(m.family) == "pairs";
    level(m.family, pair ? "links" : "metrics")
        .push_back({m.mde_percent, m.p_value >= 0.0, m.untestable_why, "", m.se_log, m.df,
                    static_cast<double>(std::max<std::size_t>(1, m.runs_before.size())),
                    static_cast<double>(std::max<std::size_t>(1, m.runs_after.size()))});
  }
  // Metric names are made for the worst of each level only (millions of pairs): find them by index.
  std::map<std::pair<std::string, std::string>, std::vector<const MetricComparison*>> metric_of;
  for (const MetricComparison& m : c.metrics) {
    metric_of[{m.family, std::string_view(m.family) == "pairs" ? "links" : "metrics"}].push_back(&m);
  }
  // The pairs family first: all pairs, nodes, links; then the others in family order.
  std::stable_sort(levels.begin(), levels.end(), [](const auto& x, const auto& y) {
    auto rank = [](const std::pair<std::string, std::string>& k) {
      int family = 4;
      for (int i = 0; i < 4; ++i) family = k.first == kFamilies[i] ? std::min(family, i) : family;
      const int lvl = k.second == "all pairs" ? 0 : k.second == "nodes" ? 1 : 2;
      return family * 3 + lvl;
    };
    return rank(x.first) < rank(y.first);
  });
  for (auto& [key, entries] : levels) {
    LevelSensitivity l;
    l.family = key.first;
    l.level = key.second;
    std::vector<double> mde;
    std::size_t worst = entries.size();
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const LevelEntry& e = entries[i];
      if (!e.tested) {
        if (l.untestable == 0) l.untestable_why = e.why;
        ++l.untestable;
        if (worst == entries.size() || entries[worst].tested) worst = i;
        continue;
      }
      ++l.tested;
      mde.push_back(e.mde_percent);
      if (worst == entries.size() || (entries[worst].tested && e.mde_percent > entries[worst].mde_percent)) worst = i;
    }
    if (!mde.empty()) {
      l.mde_median_percent = median(mde);
      l.mde_worst_percent = *std::max_element(mde.begin(), mde.end());
    }
    if (worst < entries.size()) {
      const auto names = metric_of.find(key);
      l.worst = names != metric_of.end() ? names->second[worst]->name() : entries[worst].name;
    }
    const std::string stage = l.level == "links" ? "links" : l.level == "metrics" ? "metrics" : "levels";
    const auto found = stage_alpha.find({l.family, stage});
    const double alpha = found != stage_alpha.end() ? found->second : s.alpha;
    l.alpha_effective = alpha;
    l.sees_target = l.tested > 0 && l.untestable == 0 && l.mde_worst_percent <= target_percent;
    l.runs_needed = l.sees_target            ? 0
                    : worst < entries.size() ? runs_needed(entries[worst], target_percent, alpha, s)
                                             : -1;
    c.sensitivity.push_back(std::move(l));
  }
}

}  // namespace podperf

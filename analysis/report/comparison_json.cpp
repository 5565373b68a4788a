// The machine projection of a comparison (podperf compare --json), as one tree or written metric by
// metric. Floor: the printers' wing (analysis/report/); pure, local; throws nothing but the stream's
// errors. Every number is the Comparison's.
#include "analysis/report/comparison_json.hpp"

#include <cmath>
#include <ostream>
#include <string>

#include "analysis/base/chunks.hpp"
#include "analysis/compare/compare_pair_levels.hpp"
#include "analysis/report/comparison_text.hpp"
#include "analysis/report/comparison_words.hpp"

namespace podperf {

nlohmann::json metric_comparison_json(const MetricComparison& m) {
  using nlohmann::json;
  const MetricKey k = m.key();
  json key = {{"kind", k.kind}, {"quantity", k.quantity}};
  if (!k.op.empty()) key["op"] = k.op;
  if (!k.dtype.empty()) key["dtype"] = k.dtype;
  if (k.kind == "pair" || k.kind == "collective" || k.kind == "topology_class") key["size_bytes"] = k.size_bytes;
  if (k.kind == "collective") key["in_place"] = k.in_place;
  if (!k.nodes.empty()) key["nodes"] = k.nodes;
  if (!k.group.empty()) key["group"] = k.group;
  if (!k.probe.empty()) key["probe"] = k.probe;
  if (!k.node.empty()) key["node"] = k.node;
  const bool tested = m.p_value >= 0.0;
  const auto finite = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  return {{"key", key},
          {"name", m.name()},
          {"unit", std::string(m.unit())},
          {"higher_is_better", m.higher_is_better},
          {"before", m.before},
          {"after", m.after},
          {"change_percent", m.change_percent},
          {"tested_change_percent", m.tested_change_percent},
          {"ci_low_percent", tested ? json(m.ci_low_percent) : json(nullptr)},
          {"ci_high_percent", tested ? json(m.ci_high_percent) : json(nullptr)},
          {"p_value", tested ? json(m.p_value) : json(nullptr)},
          {"p_adjusted", tested ? json(m.p_adjusted) : json(nullptr)},
          {"exact", m.exact},
          {"mde_percent", finite(m.mde_percent)},
          {"family", m.family},
          {"test", m.test},
          {"df", tested ? json(m.df) : json(nullptr)},
          {"untestable_why", tested ? json(nullptr) : json(m.untestable_why)},
          {"zero_variance", m.zero_variance},
          {"variance_outlier", m.variance_outlier},
          {"explained_by", m.explained_by.empty() ? json(nullptr) : json(m.explained_by)},
          {"beyond_level", m.beyond_level},
          {"iteration_share", m.iteration_share >= 0.0 ? json(m.iteration_share) : json(nullptr)},
          {"runs_before", m.runs_before},
          {"runs_after", m.runs_after},
          {"n_before", m.n_before},
          {"n_after", m.n_after},
          {"verdict", m.verdict}};
}

namespace {

using nlohmann::json;

json finite_or_null(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

json failures_json(const std::vector<ComparedFailure>& list) {
  json out = json::array();
  for (const ComparedFailure& f : list) {
    out.push_back({{"what", f.what},
                   {"status", f.status},
                   {"error", f.error},
                   {"runs", f.runs},
                   {"other_side_too", f.other_side_too}});
  }
  return out;
}

json pair_levels_json(const Comparison& c) {
  json levels = json::array();
  for (const PairLevelTest& t : c.pair_levels) {
    const bool tested = t.p_value >= 0.0;
    levels.push_back({{"level", t.level},
                      {"node", t.node.empty() ? json(nullptr) : json(t.node)},
                      {"name", pair_level_name(t)},
                      {"op", t.op},
                      {"dtype", t.dtype},
                      {"size_bytes", t.size_bytes},
                      {"pairs", t.pairs},
                      {"change_percent", t.change_percent},
                      {"ci_low_percent", tested ? json(t.ci_low_percent) : json(nullptr)},
                      {"ci_high_percent", tested ? json(t.ci_high_percent) : json(nullptr)},
                      {"p_value", tested ? json(t.p_value) : json(nullptr)},
                      {"p_adjusted", tested ? json(t.p_adjusted) : json(nullptr)},
                      {"mde_percent", finite_or_null(t.mde_percent)},
                      {"df", tested ? json(t.df) : json(nullptr)},
                      {"test", t.test},
                      {"untestable_why", tested ? json(nullptr) : json(t.untestable_why)},
                      {"verdict", t.verdict},
                      {"explains", t.explains},
                      {"tail_df_faster", t.tail_df_faster > 0.0 ? json(t.tail_df_faster) : json(nullptr)},
                      {"tail_df_slower", t.tail_df_slower > 0.0 ? json(t.tail_df_slower) : json(nullptr)}});
  }
  return levels;
}

json families_json(const Comparison& c) {
  json families = json::array();
  for (const FamilySummary& f : c.families) {
    json stages = json::array();
    for (const FamilyStage& st : f.stages) {
      stages.push_back({{"name", st.name},
                        {"hypotheses", st.hypotheses},
                        {"untestable", st.untestable},
                        {"alpha", st.alpha},
                        {"alpha_effective", st.alpha_effective}});
    }
    families.push_back({{"name", f.name},
                        {"hypotheses", f.hypotheses},
                        {"untestable", f.untestable},
                        {"alpha", f.alpha},
                        {"stages", stages}});
  }
  return families;
}

json sensitivity_json(const Comparison& c) {
  json sensitivity = json::array();
  for (const LevelSensitivity& l : c.sensitivity) {
    sensitivity.push_back({{"family", l.family},
                           {"level", l.level},
                           {"alpha_effective", l.alpha_effective},
                           {"tested", l.tested},
                           {"untestable", l.untestable},
                           {"untestable_why", l.untestable > 0 ? json(l.untestable_why) : json(nullptr)},
                           {"mde_median_percent", l.tested > 0 ? json(l.mde_median_percent) : json(nullptr)},
                           {"mde_worst_percent", l.tested > 0 ? json(l.mde_worst_percent) : json(nullptr)},
                           {"worst", l.worst},
                           {"sees_target", l.sees_target},
                           {"runs_needed", l.runs_needed >= 0 ? json(l.runs_needed) : json(nullptr)}});
  }
  return sensitivity;
}

json side_json(const SideConsistency& x) {
  return json{{"runs", x.runs},
              {"run_offsets_percent", x.run_offsets_percent},
              {"spread_percent", x.spread_percent},
              {"farthest_run", x.farthest_run},
              {"farthest_percent", x.farthest_percent}};
}

json consistency_json(const Comparison& c) {
  const ConsistencyVerdict& cv = c.consistency;
  if (!cv.tested) return json{{"tested", false}};
  return json{{"tested", true},
              {"before", side_json(cv.before)},
              {"after", side_json(cv.after)},
              {"less_consistent", cv.less_consistent.empty() ? json(nullptr) : json(cv.less_consistent)},
              {"spread_ratio", finite_or_null(cv.spread_ratio)},
              {"p_value", cv.p_value},
              {"words", consistency_words(cv)}};
}

json run_verdicts_json(const Comparison& c) {
  json run_verdicts = json::array();
  for (const RunVerdictChange& v : c.run_verdicts) {
    run_verdicts.push_back({{"kind", v.kind},
                            {"name", v.name},
                            {"status", v.status},
                            {"after_named", v.after_named},
                            {"after_runs", v.after_runs},
                            {"before_named", v.before_named},
                            {"before_runs", v.before_runs},
                            {"slow_percent", v.slow_percent}});
  }
  return run_verdicts;
}

json outcome_json(const Comparison& c) {
  const CompareOutcome& o = c.outcome;
  json regressions = json::array();
  for (const RegressionItem& r : o.regressions) {
    regressions.push_back({{"kind", r.kind},
                           {"name", r.name},
                           {"regression_percent", r.regression_percent},
                           {"count", r.count},
                           {"runs", r.runs},
                           {"words", regression_words(c, r)}});
  }
  json blind = json::array();
  for (std::size_t i : o.blind) blind.push_back(blind_words(c, c.sensitivity[i]));
  return {{"verdict", o.verdict},
          {"fail_on_percent", o.fail_on_percent},
          {"target_percent", o.target_percent},
          {"max_mde_percent", o.max_mde_percent >= 0.0 ? json(o.max_mde_percent) : json(nullptr)},
          {"exit_code", o.exit_code},
          {"slower_beyond", o.slower_beyond},
          {"regressions", regressions},
          {"blind", blind},
          {"single_run_caveat", o.single_run_sides.empty() ? json(nullptr) : json(single_run_words(o))},
          {"heavy_tail_note", heavy_tail_note(c).empty() ? json(nullptr) : json(heavy_tail_note(c))}};
}

json settings_json(const CompareSettings& settings) {
  return {{"alpha", settings.alpha},
          {"min_change_percent", settings.min_change_percent},
          {"confidence", settings.confidence},
          {"power", settings.power},
          {"single_run_allowance_percent", settings.single_run_allowance_percent},
          {"correction", settings.correction},
          {"moderate_variance", settings.moderate_variance},
          {"variance_outlier_p", settings.variance_outlier_p},
          {"consistency_ratio", settings.consistency_ratio},
          {"source", settings.source}};
}

json summary_json(const ComparisonSummary& s) {
  return {{"faster", s.faster},
          {"slower", s.slower},
          {"no_change", s.no_change},
          {"untested", s.untested},
          {"explained", s.explained},
          {"zero_variance", s.zero_variance},
          {"mde_median_percent", finite_or_null(s.mde_median_percent)},
          {"mde_max_percent", finite_or_null(s.mde_max_percent)},
          {"iteration_share_median", s.iteration_share_median >= 0.0 ? json(s.iteration_share_median) : json(nullptr)},
          {"iteration_share_metrics", s.iteration_share_metrics},
          {"only_before", s.only_before},
          {"only_after", s.only_after},
          {"failures_new", s.failures_new},
          {"failures_fixed", s.failures_fixed},
          {"failures_both", s.failures_both}};
}

// Everything but the metrics (an empty array in their place).
json comparison_json_head(const Comparison& c) {
  json notes = json::array();
  for (const ComparabilityNote& n : c.comparability) {
    notes.push_back({{"what", n.what}, {"before", n.before}, {"after", n.after}});
  }
  return {{"verdict", outcome_word(c)},
          {"verdict_line", outcome_line(c)},
          {"outcome", outcome_json(c)},
          {"pair_levels", pair_levels_json(c)},
          {"families", families_json(c)},
          {"sensitivity", sensitivity_json(c)},
          {"consistency", consistency_json(c)},
          {"run_verdicts", run_verdicts_json(c)},
          {"before", {{"source", c.before_source}, {"run_id", c.before_run_id}, {"runs", c.runs_before}}},
          {"after", {{"source", c.after_source}, {"run_id", c.after_run_id}, {"runs", c.runs_after}}},
          {"method", c.method},
          {"units", c.units},
          {"units_before", c.units_before},
          {"units_after", c.units_after},
          {"unit_warnings", c.unit_warnings},
          {"method_text", method_text(c)},
          {"settings", settings_json(c.settings)},
          {"summary", summary_json(c.summary)},
          {"comparability", notes},
          {"metrics", json::array()},
          {"only_before", c.only_before},
          {"only_after", c.only_after},
          {"from_retest", {{"before", c.from_retest_before}, {"after", c.from_retest_after}}},
          {"failures", {{"before", failures_json(c.failures_before)}, {"after", failures_json(c.failures_after)}}}};
}

}  // namespace

nlohmann::json comparison_json(const Comparison& c) {
  nlohmann::json j = comparison_json_head(c);
  nlohmann::json& metrics = j["metrics"];
  for (const MetricComparison& m : c.metrics) metrics.push_back(metric_comparison_json(m));
  return j;
}

void write_comparison_json(const Comparison& c, const nlohmann::json& extra, std::ostream& out) {
  nlohmann::json head = comparison_json_head(c);
  for (const auto& [key, value] : extra.items()) head[key] = value;
  // The verdict first: the rest in nlohmann's (sorted) order.
  const nlohmann::json verdict = head["verdict"], verdict_line = head["verdict_line"];
  head.erase("verdict");
  head.erase("verdict_line");
  std::string text = head.dump(2);
  text.insert(1, "\n  \"verdict\": " + verdict.dump() + ",\n  \"verdict_line\": " + verdict_line.dump() + ",");
  // The top-level members are the only lines indented by exactly two spaces before a quote.
  const std::string marker = "\n  \"metrics\": []";
  const std::size_t at = text.find(marker);
  if (at == std::string::npos || c.metrics.empty()) {
    out << text << "\n";
    return;
  }
  const std::size_t open = at + marker.size() - 1;  // the ']' of "[]"
  out.write(text.data(), static_cast<std::streamsize>(open));
  // Each metric as nlohmann writes it inside the tree: its lines shifted by the array's 4 spaces.
  constexpr std::size_t kBlock = 65536;
  std::vector<std::string> texts;
  for (std::size_t first = 0; first < c.metrics.size(); first += kBlock) {
    const std::size_t count = std::min(kBlock, c.metrics.size() - first);
    texts.assign(count, std::string());
    in_chunks(count, analysis_threads(4 * count), [&](std::size_t, std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        const std::string dumped = metric_comparison_json(c.metrics[first + i]).dump(2);
        std::string& t = texts[i];
        t.reserve(dumped.size() + 256);
        t += first + i == 0 ? "\n    " : ",\n    ";
        for (char ch : dumped) {
          t += ch;
          if (ch == '\n') t += "    ";
        }
      }
    });
    for (const std::string& t : texts) out << t;
  }
  out << "\n  ";
  out.write(text.data() + open, static_cast<std::streamsize>(text.size() - open));
  out << "\n";
}

}  // namespace podperf

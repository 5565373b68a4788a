// The machine projection of a comparison (podperf compare --json), as one tree or written metric by
// metric. Floor: the printers' wing (analysis/report/); pure, local; throws nothing but the stream's
// errors. Every number is the Comparison's.
#include "analysis/report/comparison_json.hpp"

#include <ostream>
#include <string>

#include "analysis/base/chunks.hpp"
#include "analysis/report/comparison_text.hpp"

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
  return {{"key", key},
          {"name", m.name()},
          {"unit", std::string(m.unit())},
          {"higher_is_better", m.higher_is_better},
          {"before", m.before},
          {"after", m.after},
          {"change_percent", m.change_percent},
          {"ci_low_percent", tested ? json(m.ci_low_percent) : json(nullptr)},
          {"ci_high_percent", tested ? json(m.ci_high_percent) : json(nullptr)},
          {"p_value", tested ? json(m.p_value) : json(nullptr)},
          {"p_adjusted", tested ? json(m.p_adjusted) : json(nullptr)},
          {"exact", m.exact},
          {"mde_percent", m.mde_percent},
          {"iteration_share", m.iteration_share >= 0.0 ? json(m.iteration_share) : json(nullptr)},
          {"runs_before", m.runs_before},
          {"runs_after", m.runs_after},
          {"n_before", m.n_before},
          {"n_after", m.n_after},
          {"verdict", m.verdict}};
}

namespace {

// Everything but the metrics (an empty array in their place).
nlohmann::json comparison_json_head(const Comparison& c) {
  using nlohmann::json;
  json notes = json::array();
  for (const ComparabilityNote& n : c.comparability) {
    notes.push_back({{"what", n.what}, {"before", n.before}, {"after", n.after}});
  }
  auto failures = [](const std::vector<ComparedFailure>& list) {
    json out = json::array();
    for (const ComparedFailure& f : list) {
      out.push_back({{"what", f.what},
                     {"status", f.status},
                     {"error", f.error},
                     {"runs", f.runs},
                     {"other_side_too", f.other_side_too}});
    }
    return out;
  };
  const ComparisonSummary& s = c.summary;
  return {{"before", {{"source", c.before_source}, {"run_id", c.before_run_id}, {"runs", c.runs_before}}},
          {"after", {{"source", c.after_source}, {"run_id", c.after_run_id}, {"runs", c.runs_after}}},
          {"method", c.method},
          {"units", c.units},
          {"units_before", c.units_before},
          {"units_after", c.units_after},
          {"unit_warnings", c.unit_warnings},
          {"method_text", method_text(c)},
          {"settings",
           {{"alpha", c.settings.alpha},
            {"min_change_percent", c.settings.min_change_percent},
            {"confidence", c.settings.confidence},
            {"power", c.settings.power},
            {"single_run_allowance_percent", c.settings.single_run_allowance_percent},
            {"correction", c.settings.correction},
            {"source", c.settings.source}}},
          {"summary",
           {{"faster", s.faster},
            {"slower", s.slower},
            {"no_change", s.no_change},
            {"untested", s.untested},
            {"beyond_allowance", s.beyond_allowance},
            {"mde_median_percent", s.mde_median_percent},
            {"mde_max_percent", s.mde_max_percent},
            {"iteration_share_median",
             s.iteration_share_median >= 0.0 ? json(s.iteration_share_median) : json(nullptr)},
            {"iteration_share_metrics", s.iteration_share_metrics},
            {"only_before", s.only_before},
            {"only_after", s.only_after},
            {"failures_new", s.failures_new},
            {"failures_fixed", s.failures_fixed},
            {"failures_both", s.failures_both}}},
          {"comparability", notes},
          {"metrics", json::array()},
          {"only_before", c.only_before},
          {"only_after", c.only_after},
          {"from_retest", {{"before", c.from_retest_before}, {"after", c.from_retest_after}}},
          {"failures", {{"before", failures(c.failures_before)}, {"after", failures(c.failures_after)}}}};
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
  const std::string text = head.dump(2);
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

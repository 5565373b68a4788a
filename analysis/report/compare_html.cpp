#include "analysis/report/compare_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <string_view>

#include "analysis/base/units.hpp"
#include "analysis/compare/compare_pair_levels.hpp"
#include "analysis/report/comparison_text.hpp"
#include "analysis/report/comparison_words.hpp"
#include "analysis/report/format_append.hpp"
#include "analysis/report/html.hpp"
#include "analysis/report/svg.hpp"

namespace podperf {
namespace {

using svg::escape;

constexpr const char* kCompareStyle = R"(.tag-slower { color: #c62828; font-weight: bold; }
.tag-faster { color: #2e7d32; font-weight: bold; }
.tag-untested { color: #555; }
details { font-size: 13px; margin: 4px 0 12px 0; }
)";

// A chart with more rows than this shows the slower and faster ones and the largest few of the rest.
constexpr std::size_t kMaxChartRows = 60;
constexpr std::size_t kMaxChangedRows = 200;  // slower and faster rows per chart
constexpr std::size_t kMaxOtherRows = 20;     // no change and not tested rows per capped chart
constexpr std::size_t kMaxTableRows = 500;    // per table
constexpr std::size_t kMaxUntestedRows = 25;
constexpr std::size_t kMaxOnlyListed = 50;

constexpr const char* kSlowerColour = "#d62728";
constexpr const char* kFasterColour = "#2ca02c";
constexpr const char* kNeutralColour = "#8c8c8c";

bool is_untested(const MetricComparison& m) {
  return m.p_value < 0.0;
}

std::string verdict_words(const MetricComparison& m, const CompareSettings& s) {
  if (m.verdict == "slower") return "SLOWER";
  if (m.verdict == "faster") return "faster";
  (void)s;
  if (m.verdict == "no_change")
    return fmt::format("no change within noise (a change of more than {:.1f}% would have been seen)", m.mde_percent);
  if (m.p_value < 0.0) return "not tested: " + untestable_words(m.untestable_why);
  return verdict_text(m.verdict);
}

std::string interval_text(const MetricComparison& m) {
  if (m.p_value < 0.0) return "-";
  return fmt::format("[{:+.1f}%, {:+.1f}%]", m.ci_low_percent, m.ci_high_percent);
}

// `units`: what one entry of runs_before/runs_after is, "runs" or "blocks" (Comparison::units).
std::string tooltip(const MetricComparison& m, const CompareSettings& s, const char* units) {
  std::string t =
      fmt::format("{}: before {} -> after {}; change {:+.1f}%", m.name(), format_metric_value(m.before, m.unit()),
                  format_metric_value(m.after, m.unit()), m.change_percent);
  if (m.p_value >= 0.0) {
    t += fmt::format(", {:.0f}% interval {}; p adjusted {} (p {}{})", s.confidence * 100.0, interval_text(m),
                     format_p_value(m.p_adjusted), format_p_value(m.p_value), m.exact ? ", exact" : "");
  }
  t += fmt::format("; {} {}/{}, n {}/{}; {}", units, m.runs_before.size(), m.runs_after.size(), m.n_before, m.n_after,
                   verdict_words(m, s));
  if (!m.explained_by.empty()) t += fmt::format(" (explained by {})", m.explained_by);
  if (!m.higher_is_better) t += " (lower is better)";
  return t;
}

// Ids are made of letters, digits, - and _ only.
std::string id_part(const std::string& text) {
  std::string out;
  for (char ch : text) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    out += ok ? ch : '-';
  }
  return out;
}

std::string strip(std::string text, const std::string& prefix, const std::string& suffix) {
  if (text.starts_with(prefix)) text.erase(0, prefix.size());
  if (!suffix.empty() && text.ends_with(suffix)) text.erase(text.size() - suffix.size());
  return text;
}

// One chart: metrics of one kind that read well side by side.
struct Group {
  std::string id;
  std::string caption;
  std::vector<const MetricComparison*> metrics;  // run order
};

struct GroupOf {
  std::string id;
  std::string caption;
};

GroupOf group_of(const MetricComparison& m) {
  const MetricKey k = m.key();
  if (k.kind == "pair") {
    return {fmt::format("pair-{}-{}-{}", k.op, k.dtype, format_size(k.size_bytes)),
            fmt::format("pair busbw: {} {} {}", k.op, k.dtype, format_size(k.size_bytes))};
  }
  if (k.kind == "collective") return {"collective-" + k.op, fmt::format("collective {} busbw", k.op)};
  if (k.kind == "topology_class") {
    return {fmt::format("topology-{}-{}-{}", k.op, k.dtype, format_size(k.size_bytes)),
            fmt::format("pair busbw by topology class (one value per pair): {} {} {}", k.op, k.dtype,
                        format_size(k.size_bytes))};
  }
  if (k.kind == "fs_probe") return {"fs-probes", "filesystem: per probe (every rank)"};
  if (k.kind == "fs_node") return {"fs-nodes-" + k.probe, fmt::format("filesystem {}: per node", k.probe)};
  return {"other-" + k.kind, k.kind};
}

std::string row_label(const MetricComparison& m) {
  const MetricKey k = m.key();
  if (k.kind == "pair") return k.nodes;
  if (k.kind == "collective") {
    return fmt::format("{} {} {} {}", k.group, k.dtype, format_size(k.size_bytes),
                       k.in_place ? "in-place" : "out-of-place");
  }
  if (k.kind == "topology_class") return k.group;
  if (k.kind == "fs_probe") return strip(m.name(), "fs ", " per rank");
  if (k.kind == "fs_node") return strip(m.name(), "fs " + k.probe + " ", " per rank");
  return m.name();
}

std::vector<Group> groups_of(const Comparison& c) {
  std::vector<Group> groups;
  std::map<std::string, std::size_t> index;
  for (const MetricComparison& m : c.metrics) {
    const GroupOf g = group_of(m);
    auto [it, added] = index.emplace(g.id, groups.size());
    if (added) groups.push_back({g.id, g.caption, {}});
    groups[it->second].metrics.push_back(&m);
  }
  return groups;
}

// Largest |change| first; stable, so equal changes keep run order.
void sort_by_change(std::vector<const MetricComparison*>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const MetricComparison* a, const MetricComparison* b) {
    return std::fabs(a->change_percent) > std::fabs(b->change_percent);
  });
}

void render_header(const Comparison& c, std::string& out) {
  append(out, "<h1>podperf compare: {}</h1>\n", outcome_word(c));
  append(out, "<p class=\"sub\">BEFORE <code>{}</code> (run {}) &rarr; AFTER <code>{}</code> (run {})</p>\n",
         escape(c.before_source), escape(c.before_run_id), escape(c.after_source), escape(c.after_run_id));
}

void render_summary(const Comparison& c, std::string& out) {
  const CompareOutcome& o = c.outcome;
  const ComparisonSummary& sum = c.summary;
  const char* css = o.verdict == "regression" ? "fail"
                    : (o.verdict == "inconclusive" || sum.slower > 0 || !c.comparability.empty() ||
                       sum.failures_both > 0 || !c.consistency.less_consistent.empty())
                        ? "warn"
                        : "pass";
  append(out, "<section id=\"summary\" class=\"verdict {}\">\n", css);
  append(out, "<h2>{}</h2>\n", escape(outcome_line(c)));
  for (std::size_t i = 1; i < o.regressions.size(); ++i) {
    append(out, "<h2>REGRESSION: {}</h2>\n", escape(regression_words(c, o.regressions[i])));
  }
  for (std::size_t i = o.verdict == "inconclusive" ? 1 : 0; i < o.blind.size(); ++i) {
    append(out, "<p class=\"warning\">{}: could not have seen {:g}%: {}.</p>\n",
           o.verdict == "inconclusive" ? "INCONCLUSIVE" : "NOTE", o.target_percent,
           escape(blind_words(c, c.sensitivity[o.blind[i]])));
  }
  if (!c.consistency.less_consistent.empty()) {
    append(out, "<p class=\"warning\">{}.</p>\n", escape(consistency_words(c.consistency)));
  }
  for (const RunVerdictChange& v : c.run_verdicts) {
    append(out, "<p class=\"{}\">Runs' own verdicts: {}.</p>\n", v.status == "new" ? "warning" : "note",
           escape(run_verdict_words(v)));
  }
  append(out,
         "<p><span class=\"tag-slower\">{} slower</span>, <span class=\"tag-faster\">{} faster</span>, {} no change "
         "within noise, <span class=\"tag-untested\">{} not tested</span>; {} metrics in both runs",
         sum.slower, sum.faster, sum.no_change, sum.untested, c.metrics.size());
  if (sum.only_before + sum.only_after > 0) {
    append(out, " ({} only in BEFORE, {} only in AFTER)", sum.only_before, sum.only_after);
  }
  if (sum.explained > 0)
    append(out, "; {} of the slower and faster explained by a node or the common shift", sum.explained);
  out += ".</p>\n";
  append(out, "<p>Runs: {} BEFORE, {} AFTER; {}.", c.runs_before, c.runs_after, escape(method_line(c)));
  if (sum.no_change > 0) append(out, " No change: {}.", escape(mde_words(c)));
  const std::string spread = spread_words(c);
  if (!spread.empty()) append(out, " Spread: {}.", escape(spread));
  out += "</p>\n";
  if (!c.sensitivity.empty()) {
    append(out, "<p>Sensitivity (the change each level finds with {:.0f}% power; the target is {:g}%):</p>\n<ul>\n",
           c.settings.power * 100.0, o.target_percent);
    for (const LevelSensitivity& l : c.sensitivity) append(out, "<li>{}</li>\n", escape(sensitivity_words(c, l)));
    out += "</ul>\n";
  }
  if (c.consistency.tested && c.consistency.less_consistent.empty()) {
    append(out, "<p>Consistency: {}.</p>\n", escape(consistency_words(c.consistency)));
  }
  for (const std::string& w : c.unit_warnings) append(out, "<p class=\"warning\">WARNING: {}.</p>\n", escape(w));
  const std::string retest_note = from_retest_note(c);
  if (!retest_note.empty()) append(out, "<p class=\"note\">NOTE: {}.</p>\n", escape(retest_note));
  const std::string single_run = single_run_words(c.outcome);
  if (!single_run.empty()) append(out, "<p class=\"note\">NOTE: {}.</p>\n", escape(single_run));
  const std::string tails = heavy_tail_note(c);
  if (!tails.empty()) append(out, "<p class=\"note\">NOTE: {}.</p>\n", escape(tails));
  if (!c.comparability.empty()) {
    append(out, "<p>The runs are not comparable in every way: {} difference{} below.</p>\n", c.comparability.size(),
           c.comparability.size() == 1 ? "" : "s");
  }
  out += "</section>\n";
}

void render_comparability(const Comparison& c, std::string& out) {
  out += "<section id=\"comparability\">\n<h2>Comparability</h2>\n";
  if (c.comparability.empty()) {
    out +=
        "<p>Comparable in every way podperf checks (command, backend, nodes, sizes, options, versions, "
        "environment, filesystem).</p>\n</section>\n";
    return;
  }
  out +=
      "<p class=\"tag-CONCERN\">WARNING: the runs are not comparable in every way (the common metrics are still "
      "compared):</p>\n<table><tr><th>what</th><th>BEFORE</th><th>AFTER</th></tr>\n";
  for (const ComparabilityNote& n : c.comparability) {
    append(out, "<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", escape(n.what), escape(n.before), escape(n.after));
  }
  out += "</table>\n</section>\n";
}

svg::ChangeRow change_row(const MetricComparison& m, const CompareSettings& s, const char* units) {
  svg::ChangeRow r;
  r.label = row_label(m);
  r.change_percent = m.change_percent;
  r.has_interval = m.p_value >= 0.0;
  r.low_percent = m.ci_low_percent;
  r.high_percent = m.ci_high_percent;
  r.colour = m.verdict == "slower" ? kSlowerColour : m.verdict == "faster" ? kFasterColour : kNeutralColour;
  r.hollow = is_untested(m);
  r.css_class = is_untested(m) ? "untested" : m.verdict == "no_change" ? "no-change" : m.verdict;
  r.value_text = fmt::format("{:+.1f}%", m.change_percent);
  r.tooltip = tooltip(m, s, units);
  if (m.before > 0.0 && m.runs_before.size() + m.runs_after.size() > 2) {
    // Only with repeats: one run a side would draw its two points on the dot's two ends.
    for (double v : m.runs_before) r.before_points_percent.push_back(100.0 * (v / m.before - 1.0));
    for (double v : m.runs_after) r.after_points_percent.push_back(100.0 * (v / m.before - 1.0));
  }
  return r;
}

void render_chart(const Group& g, const CompareSettings& s, const char* units, std::string& out) {
  std::vector<const MetricComparison*> rows = g.metrics;
  if (rows.size() > kMaxChartRows) {
    std::vector<const MetricComparison*> slower, faster, other;
    for (const MetricComparison* m : g.metrics) {
      (m->verdict == "slower" ? slower : m->verdict == "faster" ? faster : other).push_back(m);
    }
    sort_by_change(slower);
    sort_by_change(faster);
    sort_by_change(other);
    const std::size_t changed = slower.size() + faster.size();
    rows = slower;
    rows.insert(rows.end(), faster.begin(), faster.end());
    if (rows.size() > kMaxChangedRows) rows.resize(kMaxChangedRows);
    const std::size_t changed_drawn = rows.size();
    const std::size_t other_drawn = std::min(other.size(), kMaxOtherRows);
    rows.insert(rows.end(), other.begin(), other.begin() + static_cast<std::ptrdiff_t>(other_drawn));
    append(out,
           "<p class=\"note\">{}: {} metrics. Drawn: {} of the {} slower and faster (slower first, largest change "
           "first), then the {} of the other {} with the largest change; {} left out (<code>--json</code> lists "
           "every metric).</p>\n",
           escape(g.caption), g.metrics.size(), changed_drawn, changed, other_drawn, other.size(),
           g.metrics.size() - rows.size());
  }
  svg::ChangeChart chart;
  chart.id = "compare-chart-" + id_part(g.id);
  chart.caption = g.caption;
  chart.x_label = "change of the median, AFTER against BEFORE (%)";
  chart.band_percent = s.min_change_percent;
  chart.band_label =
      fmt::format("|change| < {:g}%: no change whatever the p value ({})", s.min_change_percent,
                  std::string_view(units) == "blocks" ? "the run-to-run allowance: blocks of one job" : "--min-change");
  for (const MetricComparison* m : rows) chart.rows.push_back(change_row(*m, s, units));
  out += svg::change_chart(chart);
}

void render_charts(const Comparison& c, std::string& out) {
  out += "<section id=\"changes\">\n<h2>Change per metric</h2>\n";
  if (c.metrics.empty()) {
    out += "<p>No metric was measured in both runs.</p>\n</section>\n";
    return;
  }
  append(out,
         "<p class=\"note\">Dot: the change of the median, AFTER against BEFORE; whisker: its {:.0f}% interval; red "
         "slower, green faster, grey no change within noise, open dot not tested (no interval); with repeats, "
         "small squares: each run's median (BEFORE grey above the row, AFTER below). For busbw, MB/s, "
         "IOPS and ops/s a negative change is slower; for latency a positive one. Hover a row for the medians, p "
         "value and sample counts.</p>\n",
         c.settings.confidence * 100.0);
  const char* units = c.units == "blocks" ? "blocks" : "runs";
  for (const Group& g : groups_of(c)) render_chart(g, c.settings, units, out);
  out += "</section>\n";
}

void render_metric_table(const std::vector<const MetricComparison*>& rows, const CompareSettings& s, std::string& out) {
  append(out,
         "<table><tr><th>metric</th><th>before</th><th>after</th><th>change</th><th>{:.0f}% interval</th><th>p "
         "adjusted</th><th>n</th></tr>\n",
         s.confidence * 100.0);
  for (std::size_t i = 0; i < rows.size() && i < kMaxTableRows; ++i) {
    const MetricComparison& m = *rows[i];
    append(out,
           "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num tag-{}\">{:+.1f}%</td>"
           "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}/{}</td></tr>\n",
           escape(m.name()), escape(format_metric_value(m.before, m.unit())),
           escape(format_metric_value(m.after, m.unit())), m.verdict, m.change_percent, interval_text(m),
           escape(format_p_value(m.p_adjusted)), m.n_before, m.n_after);
  }
  out += "</table>\n";
  if (rows.size() > kMaxTableRows) {
    append(out, "<p class=\"note\">... and {} more (<code>--json</code> lists every metric).</p>\n",
           rows.size() - kMaxTableRows);
  }
}

// The nodes and common shifts that changed, with the pairs they explain.
void render_levels(const Comparison& c, std::string& out) {
  std::vector<const PairLevelTest*> changed;
  for (const PairLevelTest& t : c.pair_levels) {
    if (t.verdict == "slower" || t.verdict == "faster") changed.push_back(&t);
  }
  if (changed.empty()) return;
  append(out,
         "<section id=\"levels\">\n<h2>Nodes and common shifts changed ({})</h2>\n<table><tr><th>what</th><th>change"
         "</th><th>{:.0f}% interval</th><th>p adjusted</th><th>pair metrics rolled up</th></tr>\n",
         changed.size(), c.settings.confidence * 100.0);
  for (const PairLevelTest* t : changed) {
    append(out,
           "<tr><td>{}</td><td class=\"num tag-{}\">{:+.1f}%</td><td class=\"num\">[{:+.1f}%, {:+.1f}%]</td>"
           "<td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
           escape(pair_level_name(*t)), t->verdict, t->change_percent, t->ci_low_percent, t->ci_high_percent,
           escape(format_p_value(t->p_adjusted)), t->explains);
  }
  out += "</table>\n</section>\n";
}

void render_tables(const Comparison& c, std::string& out) {
  std::vector<const MetricComparison*> slower, faster, untested;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == "slower" && m.explained_by.empty()) slower.push_back(&m);
    if (m.verdict == "faster" && m.explained_by.empty()) faster.push_back(&m);
    if (is_untested(m)) untested.push_back(&m);
  }
  sort_by_change(slower);
  sort_by_change(faster);
  sort_by_change(untested);
  out += "<section id=\"changed\">\n<h2>Slower and faster metrics</h2>\n";
  if (slower.empty() && faster.empty()) {
    out += c.summary.explained > 0 ? "<p>None beyond the nodes and common shifts above.</p>\n"
                                   : "<p>None: every tested metric is within noise.</p>\n";
  }
  if (!slower.empty()) {
    append(out, "<h3 class=\"tag-slower\">Slower ({}), largest first</h3>\n", slower.size());
    render_metric_table(slower, c.settings, out);
  }
  if (!faster.empty()) {
    append(out, "<h3 class=\"tag-faster\">Faster ({}), largest first</h3>\n", faster.size());
    render_metric_table(faster, c.settings, out);
  }
  if (!untested.empty()) {
    append(out, "<h3>Not tested ({}): change only, no test could be made; largest first</h3>\n", untested.size());
    out += "<table><tr><th>metric</th><th>before</th><th>after</th><th>change</th><th>n</th><th>why</th></tr>\n";
    for (std::size_t i = 0; i < untested.size() && i < kMaxUntestedRows; ++i) {
      const MetricComparison& m = *untested[i];
      append(out,
             "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:+.1f}%</td>"
             "<td class=\"num\">{}/{}</td><td>{}</td></tr>\n",
             escape(m.name()), escape(format_metric_value(m.before, m.unit())),
             escape(format_metric_value(m.after, m.unit())), m.change_percent, m.n_before, m.n_after,
             escape(verdict_words(m, c.settings)));
    }
    out += "</table>\n";
    if (untested.size() > kMaxUntestedRows) {
      append(out, "<p class=\"note\">... and {} more.</p>\n", untested.size() - kMaxUntestedRows);
    }
  }
  out += "</section>\n";
}

// Failed measurements and incomplete runs: new in AFTER, on both sides, fixed (failed only in BEFORE).
void render_failures(const Comparison& c, std::string& out) {
  if (c.failures_before.empty() && c.failures_after.empty()) return;
  out += "<section id=\"failures\">\n<h2>Failed measurements</h2>\n";
  const auto list = [&out](const char* title, const std::vector<ComparedFailure>& failures, bool shared) {
    std::size_t n = 0;
    for (const ComparedFailure& f : failures) n += f.other_side_too == shared ? 1 : 0;
    if (n == 0) return;
    append(out, "<h3>{}: {}</h3>\n<table>\n<tr><th>measurement</th><th>status</th><th>runs</th><th>message</th></tr>\n",
           title, n);
    std::size_t shown = 0;
    for (const ComparedFailure& f : failures) {
      if (f.other_side_too != shared || shown++ == kMaxOnlyListed) continue;
      append(out, "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", escape(f.what), escape(f.status),
             escape(text::join(f.runs, ", ")), escape(f.error));
    }
    out += "</table>\n";
    if (n > kMaxOnlyListed) append(out, "<p class=\"note\">... and {} more.</p>\n", n - kMaxOnlyListed);
  };
  list("Failed in AFTER, in no BEFORE run (a regression)", c.failures_after, false);
  list("Failed on both sides", c.failures_after, true);
  list("Fixed: failed in BEFORE, in no AFTER run", c.failures_before, false);
  out += "</section>\n";
}

void render_only(const Comparison& c, std::string& out) {
  if (c.only_before.empty() && c.only_after.empty()) return;
  out += "<section id=\"only\">\n<h2>Measured in one run only</h2>\n";
  const auto list = [&out](const char* which, const std::vector<std::string>& names) {
    if (names.empty()) return;
    append(out, "<details><summary>Only in {}: {} metric{}</summary><ul>", which, names.size(),
           names.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < names.size() && i < kMaxOnlyListed; ++i) append(out, "<li>{}</li>", escape(names[i]));
    if (names.size() > kMaxOnlyListed) append(out, "<li>... and {} more</li>", names.size() - kMaxOnlyListed);
    out += "</ul></details>\n";
  };
  list("BEFORE", c.only_before);
  list("AFTER", c.only_after);
  out += "</section>\n";
}

void render_method(const Comparison& c, std::string& out) {
  append(out, "<section id=\"method\">\n<h2>Method</h2>\n<p class=\"note\">{}.</p>\n</section>\n",
         escape(method_text(c)));
}

}  // namespace

std::string render_compare_html(const Comparison& c) {
  std::string out = html_page_head(
      fmt::format("podperf compare {} -> {}: {}", c.before_run_id, c.after_run_id, outcome_word(c)), kCompareStyle);
  render_header(c, out);
  render_summary(c, out);
  render_comparability(c, out);
  render_levels(c, out);
  render_charts(c, out);
  render_failures(c, out);
  render_tables(c, out);
  render_only(c, out);
  render_method(c, out);
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace podperf

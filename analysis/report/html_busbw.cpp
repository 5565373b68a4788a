// The busbw section of the HTML report: one line chart per op against message size, with the run's
// robust baseline and the SKU's published figures. Floor: the printers' wing (analysis/report/); pure, local.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/base/units.hpp"
#include "analysis/report/common.hpp"
#include "analysis/report/html_sections.hpp"

namespace podperf::html {
namespace {

using svg::escape;

// ---- busbw against message size ----

// Beyond this, one line per pair would make the file too large to open: the busbw chart draws only
// flagged pairs and the baseline.
constexpr std::size_t kMaxChartPairs = 2000;

// How many distinct node pairs measured `op` (packed and sorted: 8 bytes a pair, no tree).
std::size_t distinct_pairs(const Run& run, const std::string& op) {
  std::vector<std::uint64_t> keys;
  for (const PairResult& p : run.pairs) {
    if (p.op == op) {
      keys.push_back(static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.nodes[0])) << 32 |
                     static_cast<std::uint32_t>(p.nodes[1]));
    }
  }
  std::sort(keys.begin(), keys.end());
  return static_cast<std::size_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
}

// The run's robust baseline per size (pairs), and the SKU's where the hook gives one.
void add_baseline_series(const Run& run, const std::string& op, const std::vector<std::uint64_t>& sizes,
                         std::vector<svg::Series>& series) {
  svg::Series own;
  own.name = "robust baseline (this run's pairs)";
  own.colour = "#000000";
  own.dashed = true;
  for (const SizeBaseline& b : run.baselines) {
    own.points.push_back({static_cast<double>(b.size_bytes), b.baseline_gbps,
                          fmt::format("baseline at {}: {:.3f} GB/s (robust mean of {} of {} pairs)",
                                      format_size(b.size_bytes), b.baseline_gbps, b.pairs_kept, b.pairs_total)});
  }
  if (!own.points.empty()) series.push_back(std::move(own));
  if (sizes.empty()) return;
  const auto [lo, hi] = std::minmax_element(sizes.begin(), sizes.end());
  svg::Series sku;
  sku.name = "published " + run.verdict.sku + " 2-node busbw";
  sku.colour = "#6a1b9a";
  sku.dashed = true;
  for (const SkuBusbwPoint& p : sku_baseline_in_range(run, op, *lo, *hi)) {
    sku.points.push_back({static_cast<double>(p.size_bytes), p.busbw_gbps,
                          fmt::format("published {} 2-node {} busbw at {}: {:.1f} GB/s", run.verdict.sku, op,
                                      format_size(p.size_bytes), p.busbw_gbps)});
  }
  if (!sku.points.empty()) series.push_back(std::move(sku));
}

// Why no published SKU line is on the charts (empty when one is).
std::string sku_line_note(const Run& run, bool drawn) {
  if (drawn || run.pairs.empty()) return "";
  if (run.verdict.sku.empty()) {
    return "No published SKU baseline drawn: the run was not judged against an instance type "
           "(<code>podperf accept</code> records its SKU's published figures).";
  }
  if (run.verdict.sku_busbw.empty() && run.backend != "nccl") {
    return fmt::format(
        "No published SKU baseline drawn: {}'s figures are NCCL between GPUs, and this run used the {} "
        "backend.",
        escape(run.verdict.sku), escape(run.backend));
  }
  if (run.verdict.sku_busbw.empty()) {
    return fmt::format("No published SKU baseline drawn: {} publishes no 2-node busbw figure.",
                       escape(run.verdict.sku));
  }
  std::vector<std::string> sizes;
  for (const SkuBusbwPoint& p : run.verdict.sku_busbw) sizes.push_back(format_size(p.size_bytes));
  return fmt::format(
      "No published SKU baseline drawn: {} publishes figures at {}, outside the sizes this run measured.",
      escape(run.verdict.sku), fmt::join(sizes, ", "));
}

}  // namespace

void render_busbw_charts(const Run& run, std::string& out) {
  std::vector<std::string> ops;  // in first-seen order
  const auto note_op = [&ops](const std::string& op) {
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
  };
  for (const PairResult& p : run.pairs) note_op(p.op);
  for (const CollectiveResult& r : run.collectives) note_op(r.op);
  if (ops.empty()) return;
  out += "<section id=\"busbw\">\n<h2>Bus bandwidth against message size</h2>\n";
  bool any_sku = false;
  for (const std::string& op : ops) {
    svg::LineChart chart;
    chart.id = "busbw-chart-" + op;
    chart.caption = op + " busbw";
    chart.y_label = "busbw (GB/s)";
    std::vector<std::uint64_t> sizes;
    // Pairs: one thin line per pair, red when flagged at any size.
    // Which pairs are drawn is decided first (all up to kMaxChartPairs, else those flagged at some
    // size), so that millions of pairs (4096 nodes) are not all indexed: that took seconds and GiB.
    std::set<std::pair<int, int>> seen, flagged_pairs;
    for (const PairResult& p : run.pairs) {
      if (p.op != op) continue;
      if (seen.size() <= kMaxChartPairs) seen.insert({p.nodes[0], p.nodes[1]});
      if (p.flagged) flagged_pairs.insert({p.nodes[0], p.nodes[1]});
    }
    const bool all_pairs = seen.size() <= kMaxChartPairs;
    std::map<std::pair<int, int>, std::vector<const PairResult*>> by_pair;
    for (const PairResult& p : run.pairs) {
      if (p.op == op && (all_pairs || flagged_pairs.contains({p.nodes[0], p.nodes[1]}))) {
        by_pair[{p.nodes[0], p.nodes[1]}].push_back(&p);
      }
    }
    bool legend_ok = false, legend_flagged = false;
    if (!all_pairs) {
      append(out, "<p class=\"note\">{} pairs: only the flagged ones are drawn.</p>\n", distinct_pairs(run, op));
    }
    for (const auto& [nodes, results] : by_pair) {
      const bool flagged = std::any_of(results.begin(), results.end(), [](const PairResult* p) { return p->flagged; });
      if (!flagged && !all_pairs) continue;
      svg::Series s;
      s.name = flagged ? "flagged pair" : "pair";
      s.colour = flagged ? "#d62728" : "#4c78a8";
      s.stroke_width = flagged ? 2.0 : 1.0;
      s.opacity = flagged ? 1.0 : 0.45;
      s.in_legend = flagged ? !legend_flagged : !legend_ok;
      (flagged ? legend_flagged : legend_ok) = true;
      for (const PairResult* p : results) {
        if (!status_ok(p->status)) continue;
        sizes.push_back(p->size_bytes);
        s.points.push_back(
            {static_cast<double>(p->size_bytes), p->busbw_gbps,
             fmt::format("{} <-> {} at {}: busbw {:.3f} GB/s ({:.0f}% of baseline), median {}{}",
                         node_label(run, nodes.first), node_label(run, nodes.second), format_size(p->size_bytes),
                         p->busbw_gbps, p->ratio * 100.0, format_seconds(p->median_s), p->flagged ? ", FLAGGED" : "")});
      }
      chart.series.push_back(std::move(s));
    }
    // Collectives: one line per group, type and placement.
    std::vector<std::string> keys;
    std::map<std::string, svg::Series> by_key;
    for (const CollectiveResult& r : run.collectives) {
      if (r.op != op || !status_ok(r.status)) continue;
      const std::string key = fmt::format("{} {} {}", r.group, r.dtype, r.in_place ? "in-place" : "out-of-place");
      if (!by_key.count(key)) keys.push_back(key);
      svg::Series& s = by_key[key];
      s.name = key;
      sizes.push_back(r.size_bytes);
      s.points.push_back(
          {static_cast<double>(r.size_bytes), r.busbw_gbps,
           fmt::format("{} {} at {}: busbw {:.3f} GB/s, algbw {:.3f} GB/s, median {}, cv {:.3f}", op, key,
                       format_size(r.size_bytes), r.busbw_gbps, r.algbw_gbps, format_seconds(r.median_s), r.cv)});
    }
    for (std::size_t i = 0; i < keys.size(); ++i) {
      svg::Series s = std::move(by_key[keys[i]]);
      s.colour = svg::palette()[i % svg::palette().size()];
      s.dashed = keys[i].find("in-place") == 0 || keys[i].find(" in-place") != std::string::npos;
      s.in_legend = keys.size() <= 16;
      chart.series.push_back(std::move(s));
    }
    if (!run.pairs.empty()) add_baseline_series(run, op, sizes, chart.series);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    if (!sizes.empty()) any_sku = any_sku || !sku_baseline_in_range(run, op, sizes.front(), sizes.back()).empty();
    out += svg::line_chart(chart);
  }
  const std::string note = sku_line_note(run, any_sku);
  if (!note.empty() || !run.baselines.empty()) {
    append(out, "<p class=\"note\">{}{}{}</p>\n", note, note.empty() || run.baselines.empty() ? "" : " ",
           run.baselines.empty() ? "" : "The dashed black line is this run's own robust baseline of its pairs.");
  }
  out += "</section>\n";
}

}  // namespace podperf::html

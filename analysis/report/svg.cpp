#include "analysis/report/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>

#include "analysis/base/units.hpp"

namespace podperf::svg {
namespace {

template <typename... Args>
void append(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

// Coordinates with one decimal: deterministic and small.
std::string num(double v) {
  return fmt::format("{:.1f}", v);
}

// Approximate text width in pixels at the 12px sans-serif the charts use.
double text_width(std::string_view s, double px_per_char = 7.0) {
  return static_cast<double>(s.size()) * px_per_char;
}

// A "nice" step (1, 2 or 5 times a power of ten) giving about `ticks` intervals up to `max`.
double nice_step(double max, int ticks) {
  if (max <= 0.0) return 1.0;
  const double raw = max / ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / mag;
  const double step = norm <= 1.0 ? 1.0 : norm <= 2.0 ? 2.0 : norm <= 5.0 ? 5.0 : 10.0;
  return step * mag;
}

std::string tick_text(double v, double step) {
  if (step >= 1.0) return fmt::format("{:.0f}", v);
  if (step >= 0.1) return fmt::format("{:.1f}", v);
  return fmt::format("{:.2f}", v);
}

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string ratio_colour(double ratio) {
  const double t = std::clamp((ratio - 0.5) / 0.5, 0.0, 1.0);
  return fmt::format("hsl({:.0f},70%,{:.0f}%)", 120.0 * t, 42.0 + 8.0 * (1.0 - std::abs(t - 0.5) * 2.0));
}

namespace {

// The heatmap's fills besides the ratio colours.
constexpr const char* kHeatmapEmpty = "#f4f4f4";
constexpr const char* kHeatmapFailed = "#222222";
constexpr const char* kHeatmapUnjudged = "#b0b8c0";

// The heatmap's geometry: cells shrink with the node count (at least 8 px, so 256 nodes stay legible when
// zoomed), labels shrink with the cells (never taller than a cell), and column labels stand upright once
// cells are narrower than a label's slanted spacing would allow.
struct HeatmapLayout {
  double cell = 56.0;
  double label_font = 12.0;
  int column_angle = -45;
  double label_width = 40.0;  // the row labels' column, and the column labels' height (upright)
  double top = 0.0;           // where the matrix starts, below the column labels
};

HeatmapLayout heatmap_layout(const std::vector<std::string>& labels) {
  const std::size_t n = labels.size();
  HeatmapLayout lay;
  lay.cell = n <= 12 ? 56.0 : n <= 24 ? 28.0 : std::max(8.0, 720.0 / static_cast<double>(n));
  // A slanted label's neighbour is cell * sin(45) away across the text: it must exceed the font size.
  lay.label_font = std::min(12.0, std::floor(lay.cell - 1.0));
  lay.column_angle = lay.cell * std::sqrt(0.5) >= lay.label_font + 1.0 ? -45 : -90;
  for (const std::string& l : labels) {
    lay.label_width = std::max(lay.label_width, text_width(l, 7.0 * lay.label_font / 12.0) + 12.0);
  }
  lay.top = (lay.column_angle == -45 ? lay.label_width * 0.75 : lay.label_width) + 10.0;
  return lay;
}

struct HeatmapLegendItem {
  std::string fill;
  bool heavy_border = false;
  std::string text;
};

// What each colour and mark of the heatmap means.
std::vector<HeatmapLegendItem> heatmap_legend() {
  std::vector<HeatmapLegendItem> items;
  items.push_back({ratio_colour(0.5), false, "50% of the level or less"});
  for (int pct : {60, 70, 80, 90}) items.push_back({ratio_colour(pct / 100.0), false, fmt::format("{}%", pct)});
  items.push_back({ratio_colour(1.0), false, "100% or more"});
  items.push_back({"#ffffff", true, "flagged (heavy border)"});
  items.push_back({kHeatmapFailed, false, "failed"});
  items.push_back({kHeatmapUnjudged, false, "no baseline"});
  items.push_back({kHeatmapEmpty, false, "not measured"});
  return items;
}

}  // namespace

const std::vector<std::string>& palette() {
  static const std::vector<std::string> colours = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd",
                                                   "#8c564b", "#e377c2", "#17becf", "#7f7f7f"};
  return colours;
}

std::string heatmap(const Heatmap& h) {
  const std::size_t n = h.labels.size();
  const HeatmapLayout lay = heatmap_layout(h.labels);
  const double cell = lay.cell;
  const double label_w = lay.label_width;
  const double top = lay.top;
  const bool cell_text = cell >= 28.0;
  const double matrix_w = label_w + cell * static_cast<double>(n) + 20.0;
  // The colour legend under the matrix, wrapped to the matrix's width (at least 560 px).
  const std::vector<HeatmapLegendItem> legend = heatmap_legend();
  const double legend_w = std::max(560.0, matrix_w - 20.0);
  double lx = 10.0, ly = 0.0;
  std::vector<std::pair<double, double>> legend_at;
  for (const HeatmapLegendItem& item : legend) {
    const double item_w = 18.0 + 6.0 + text_width(item.text) + 16.0;
    if (lx > 10.0 && lx + item_w > legend_w) {
      lx = 10.0;
      ly += 20.0;
    }
    legend_at.emplace_back(lx, ly);
    lx += item_w;
  }
  const double legend_top = top + cell * static_cast<double>(n) + 34.0;
  const double width = std::max(matrix_w, legend_w + 20.0);
  const double height = legend_top + ly + 24.0;
  std::string out;
  append(out, "<svg id=\"{}\" class=\"chart heatmap\" role=\"img\" aria-label=\"{}\" width=\"{}\" height=\"{}\" ",
         escape(h.id), escape(h.caption), num(width), num(height));
  append(out, "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n", num(width), num(height));
  const auto red = [&h](std::size_t i) { return i < h.highlighted.size() && h.highlighted[i]; };
  const std::string font = lay.label_font == 12.0 ? "" : fmt::format(" font-size=\"{}\"", num(lay.label_font));
  for (std::size_t i = 0; i < n; ++i) {
    const std::string style = red(i) ? " fill=\"#c00\" font-weight=\"bold\"" : "";
    const double y = top + cell * (static_cast<double>(i) + 0.5) + lay.label_font / 3.0;
    append(out, "<text class=\"row-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\"{}{}>{}</text>\n", num(label_w - 6.0),
           num(y), font, style, escape(h.labels[i]));
    // Column labels: at -45 degrees while the cells are wide, upright (-90) when they are narrow, so that
    // neighbours never overlap (their distance across the text is the cell, at least the font size).
    const double x =
        label_w + cell * (static_cast<double>(i) + 0.5) + (lay.column_angle == -90 ? lay.label_font / 3.0 : 0.0);
    append(out, "<text class=\"column-label\" x=\"{}\" y=\"{}\" transform=\"rotate({} {} {})\"{}{}>{}</text>\n", num(x),
           num(top - 6.0), lay.column_angle, num(x), num(top - 6.0), font, style, escape(h.labels[i]));
  }
  for (std::size_t r = 0; r < n && r < h.cells.size(); ++r) {
    for (std::size_t c = 0; c < n && c < h.cells[r].size(); ++c) {
      const HeatmapCell& cl = h.cells[r][c];
      const double x = label_w + cell * static_cast<double>(c);
      const double y = top + cell * static_cast<double>(r);
      std::string fill = "#eeeeee";
      std::string text_colour = "#000";
      switch (cl.kind) {
        case HeatmapCell::Kind::kEmpty: fill = kHeatmapEmpty; break;
        case HeatmapCell::Kind::kDiagonal: fill = "#ffffff"; break;
        case HeatmapCell::Kind::kValue: fill = ratio_colour(cl.ratio); break;
        case HeatmapCell::Kind::kFailed:
          fill = kHeatmapFailed;
          text_colour = "#fff";
          break;
        case HeatmapCell::Kind::kUnjudged: fill = kHeatmapUnjudged; break;
      }
      append(out, "<g class=\"cell{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"",
             cl.flagged ? " flagged" : "", num(x), num(y), num(cell - 1.0), num(cell - 1.0), fill);
      if (cl.flagged) out += " stroke=\"#000\" stroke-width=\"2\"";
      out += ">";
      if (!cl.tooltip.empty()) append(out, "<title>{}</title>", escape(cl.tooltip));
      out += "</rect>";
      if (cell_text && !cl.text.empty()) {
        append(out,
               "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{}\" font-size=\"{}\" "
               "pointer-events=\"none\">{}</text>",
               num(x + cell / 2.0 - 0.5), num(y + cell / 2.0 + 4.0), text_colour, cell >= 56.0 ? 12 : 9,
               escape(cl.text));
      }
      out += "</g>\n";
    }
  }
  // Group boundaries (topology leaves): a line across the matrix before the group's first row and column.
  for (std::size_t g : h.group_starts) {
    if (g == 0 || g >= n) continue;
    const double at = cell * static_cast<double>(g) - 0.5;
    append(out,
           "<line class=\"group\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\" stroke-width=\"1.5\"/>\n",
           num(label_w), num(top + at), num(label_w + cell * static_cast<double>(n)), num(top + at));
    append(out,
           "<line class=\"group\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\" stroke-width=\"1.5\"/>\n",
           num(label_w + at), num(top), num(label_w + at), num(top + cell * static_cast<double>(n)));
  }
  // The legend: a swatch and its meaning per colour and mark.
  append(out, "<g class=\"legend\" transform=\"translate(0 {})\">\n", num(legend_top));
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const auto [x, y] = legend_at[i];
    append(out, "<rect x=\"{}\" y=\"{}\" width=\"18\" height=\"12\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
           num(x), num(y), legend[i].fill, legend[i].heavy_border ? "#000" : "#999",
           legend[i].heavy_border ? "2" : "0.5");
    append(out, "<text x=\"{}\" y=\"{}\">{}</text>\n", num(x + 24.0), num(y + 10.0), escape(legend[i].text));
  }
  out += "</g>\n</svg>\n";
  return out;
}

std::string interval_chart(const IntervalChart& c) {
  constexpr double kWidth = 900.0, kHeight = 320.0, kLeft = 56.0, kRight = 16.0, kTop = 30.0, kBottom = 40.0;
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  double lo = 1.0, hi = 1.0;
  for (const IntervalPoint& p : c.points) lo = std::min(lo, p.low), hi = std::max(hi, p.high);
  lo = std::max(0.0, std::floor((lo - 0.02) * 20.0) / 20.0);
  hi = std::ceil((hi + 0.02) * 20.0) / 20.0;
  const double n = static_cast<double>(std::max<std::size_t>(1, c.points.size()));
  const auto px = [&](std::size_t i) { return kLeft + plot_w * (static_cast<double>(i) + 0.5) / n; };
  const auto py = [&](double v) { return kTop + plot_h * (hi - v) / (hi - lo); };
  std::string out;
  append(out, "<svg id=\"{}\" class=\"chart intervals\" role=\"img\" aria-label=\"{}\" width=\"{}\" height=\"{}\" ",
         escape(c.id), escape(c.caption), num(kWidth), num(kHeight));
  append(out, "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n", num(kWidth), num(kHeight));
  append(out, "<text x=\"{}\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{}</text>\n", num(kLeft),
         escape(c.caption));
  const double step = nice_step(hi - lo, 5);
  for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9; v += step) {
    append(out, "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#eee\"/>", num(kLeft), num(py(v)),
           num(kLeft + plot_w), num(py(v)));
    append(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:.0f}%</text>\n", num(kLeft - 6.0), num(py(v) + 4.0),
           v * 100.0);
  }
  for (const auto& [value, label, colour] : c.lines) {
    if (value < lo || value > hi) continue;
    append(out, "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-dasharray=\"5 3\"/>", num(kLeft),
           num(py(value)), num(kLeft + plot_w), num(py(value)), colour);
    append(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"{}\">{}</text>\n", num(kLeft + plot_w - 4.0),
           num(py(value) - 4.0), colour, escape(label));
  }
  const double mark = std::clamp(plot_w / n * 0.35, 0.6, 4.0);
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const IntervalPoint& p = c.points[i];
    const std::string colour = p.marked ? "#c00" : "#1f77b4";
    append(out, "<g class=\"estimate{}\"><title>{}</title>", p.marked ? " marked" : "", escape(p.tooltip));
    append(out,
           "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"{4}\" opacity=\"0.6\"/>",
           num(px(i)), num(py(p.low)), num(py(p.high)), colour, num(std::max(0.5, mark * 0.5)));
    append(out, "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/></g>\n", num(px(i)), num(py(p.value)), num(mark),
           colour);
  }
  append(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", num(kLeft + plot_w / 2.0),
         num(kHeight - 10.0), escape(c.x_label));
  out += "</svg>\n";
  return out;
}

std::string line_chart(const LineChart& c) {
  constexpr double kWidth = 820.0, kHeight = 380.0;
  constexpr double kLeft = 64.0, kTop = 34.0, kBottom = 46.0;
  double legend_w = 0.0;
  for (const Series& s : c.series) {
    if (s.in_legend) legend_w = std::max(legend_w, text_width(s.name) + 40.0);
  }
  legend_w = std::min(legend_w, 320.0);
  const double right = 16.0 + legend_w;
  const double plot_w = kWidth - kLeft - right;
  const double plot_h = kHeight - kTop - kBottom;

  double x_min = 0.0, x_max = 0.0, y_max = 0.0;
  bool any = false;
  for (const Series& s : c.series) {
    for (const Point& p : s.points) {
      if (p.x <= 0.0) continue;
      const double lx = std::log2(p.x);
      x_min = any ? std::min(x_min, lx) : lx;
      x_max = any ? std::max(x_max, lx) : lx;
      y_max = std::max(y_max, p.y);
      any = true;
    }
  }
  x_min = std::floor(x_min);
  x_max = std::ceil(x_max);
  if (x_max <= x_min) {
    x_min -= 1.0;
    x_max += 1.0;
  }
  const double step = nice_step(y_max > 0.0 ? y_max * 1.05 : 1.0, 5);
  const double y_top = std::max(step, std::ceil(y_max * 1.05 / step) * step);
  const auto px = [&](double x) { return kLeft + (std::log2(x) - x_min) / (x_max - x_min) * plot_w; };
  const auto py = [&](double y) { return kTop + plot_h - y / y_top * plot_h; };

  std::string out;
  append(out, "<svg id=\"{}\" class=\"chart line-chart\" role=\"img\" aria-label=\"{}\" width=\"{}\" height=\"{}\" ",
         escape(c.id), escape(c.caption), num(kWidth), num(kHeight));
  append(out, "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n", num(kWidth), num(kHeight));
  append(out, "<text x=\"{}\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{}</text>\n", num(kLeft),
         escape(c.caption));
  // Axes, grid and ticks.
  for (double y = 0.0; y <= y_top + step / 2.0; y += step) {
    append(out, "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#ddd\"/>", num(kLeft), num(py(y)),
           num(kLeft + plot_w), num(py(y)));
    append(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", num(kLeft - 6.0), num(py(y) + 4.0),
           tick_text(y, step));
  }
  const int span = static_cast<int>(x_max - x_min);
  const int every = std::max(1, (span + 11) / 12);
  for (int k = 0; k <= span; ++k) {
    const double lx = x_min + k;
    const double x = kLeft + static_cast<double>(k) / span * plot_w;
    append(out, "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#eee\"/>", num(x), num(kTop), num(x),
           num(kTop + plot_h));
    if (k % every == 0 && lx >= 0.0 && lx < 63.0) {
      append(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", num(x), num(kTop + plot_h + 16.0),
             format_size(std::uint64_t{1} << static_cast<int>(lx)));
    }
  }
  append(out, "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#000\"/>", num(kLeft), num(kTop),
         num(kTop + plot_h));
  append(out, "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#000\"/>\n", num(kLeft), num(kTop + plot_h),
         num(kLeft + plot_w));
  append(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">message size (bytes, log2 scale)</text>\n",
         num(kLeft + plot_w / 2.0), num(kHeight - 8.0));
  append(out, "<text x=\"14\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {0})\">{1}</text>\n",
         num(kTop + plot_h / 2.0), escape(c.y_label));
  // Series: a polyline each, markers with their tooltips.
  for (const Series& s : c.series) {
    std::string points;
    for (const Point& p : s.points) {
      if (p.x <= 0.0) continue;
      if (!points.empty()) points += ' ';
      points += num(px(p.x)) + "," + num(py(p.y));
    }
    append(out, "<g class=\"series\"><title>{}</title>", escape(s.name));
    append(out, "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-opacity=\"{}\"{}/>",
           points, s.colour, num(s.stroke_width), fmt::format("{:.2f}", s.opacity),
           s.dashed ? " stroke-dasharray=\"6 4\"" : "");
    if (s.markers) {
      for (const Point& p : s.points) {
        if (p.x <= 0.0) continue;
        append(out, "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\" fill-opacity=\"{}\"><title>{}</title></circle>",
               num(px(p.x)), num(py(p.y)), s.colour, fmt::format("{:.2f}", s.opacity), escape(p.tooltip));
      }
    }
    out += "</g>\n";
  }
  // Legend.
  double ly = kTop + 4.0;
  for (const Series& s : c.series) {
    if (!s.in_legend) continue;
    const double lx = kWidth - right + 12.0;
    append(out, "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>", num(lx), num(ly),
           num(lx + 22.0), num(ly), s.colour, num(s.stroke_width), s.dashed ? " stroke-dasharray=\"6 4\"" : "");
    append(out, "<text x=\"{}\" y=\"{}\">{}</text>\n", num(lx + 28.0), num(ly + 4.0), escape(s.name));
    ly += 18.0;
  }
  out += "</svg>\n";
  return out;
}

std::string bar_chart(const BarChart& c) {
  constexpr double kWidth = 820.0, kBar = 20.0, kGap = 6.0, kTop = 34.0;
  double label_w = 40.0;
  for (const Bar& b : c.bars) label_w = std::max(label_w, text_width(b.label) + 12.0);
  double value_w = 40.0;
  for (const Bar& b : c.bars) value_w = std::max(value_w, text_width(b.value_text + "  " + c.marker_text) + 10.0);
  const double plot_w = kWidth - label_w - value_w - 10.0;
  double max = c.reference;
  for (const Bar& b : c.bars) max = std::max(max, b.value);
  if (max <= 0.0) max = 1.0;
  const double height = kTop + static_cast<double>(c.bars.size()) * (kBar + kGap) + 30.0;
  const auto px = [&](double v) { return label_w + std::max(0.0, v) / max * plot_w; };

  std::string out;
  append(out, "<svg id=\"{}\" class=\"chart bar-chart\" role=\"img\" aria-label=\"{}\" width=\"{}\" height=\"{}\" ",
         escape(c.id), escape(c.caption), num(kWidth), num(height));
  append(out, "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n", num(kWidth), num(height));
  append(out, "<text x=\"{}\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{}</text>\n", num(label_w),
         escape(c.caption));
  double y = kTop;
  for (const Bar& b : c.bars) {
    const std::string fill = b.marked ? "#d62728" : "#4c78a8";
    append(out, "<g class=\"bar{}\"><title>{}</title>", b.marked ? " marked" : "", escape(b.tooltip));
    append(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\"{}>{}</text>", num(label_w - 6.0),
           num(y + kBar / 2.0 + 4.0), b.marked ? " fill=\"#c00\" font-weight=\"bold\"" : "", escape(b.label));
    append(out, "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>", num(label_w), num(y),
           num(px(b.value) - label_w), num(kBar), fill);
    append(out, "<text x=\"{}\" y=\"{}\"{}>{}{}</text></g>\n", num(px(b.value) + 6.0), num(y + kBar / 2.0 + 4.0),
           b.marked ? " fill=\"#c00\" font-weight=\"bold\"" : "", escape(b.value_text),
           b.marked ? "  " + escape(c.marker_text) : "");
    y += kBar + kGap;
  }
  if (c.reference > 0.0) {
    const double x = px(c.reference);
    append(out,
           "<line class=\"reference\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#000\" "
           "stroke-dasharray=\"5 4\"><title>{3}</title></line>\n",
           num(x), num(kTop - 4.0), num(y), escape(c.reference_label));
    append(out, "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", num(label_w), num(y + 16.0),
           escape("dashed line: " + c.reference_label));
  }
  out += "</svg>\n";
  return out;
}

std::string change_chart(const ChangeChart& c) {
  constexpr double kWidth = 820.0, kRow = 18.0, kTop = 34.0;
  double label_w = 40.0;
  for (const ChangeRow& r : c.rows) label_w = std::max(label_w, text_width(r.label, 8.0) + 16.0);
  label_w = std::min(label_w, 360.0);
  double value_w = 50.0;
  for (const ChangeRow& r : c.rows) value_w = std::max(value_w, text_width(r.value_text) + 10.0);
  const double plot_l = label_w, plot_r = kWidth - value_w - 10.0;
  // The axis: every dot and whisker, zero and the band, with a margin.
  double lo = std::min(0.0, -std::max(0.0, c.band_percent));
  double hi = std::max(0.0, c.band_percent);
  for (const ChangeRow& r : c.rows) {
    lo = std::min(lo, r.change_percent);
    hi = std::max(hi, r.change_percent);
    if (r.has_interval) {
      lo = std::min(lo, r.low_percent);
      hi = std::max(hi, r.high_percent);
    }
    for (const auto* points : {&r.before_points_percent, &r.after_points_percent}) {
      for (double v : *points) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
  }
  if (hi - lo < 2.0) {
    lo -= 1.0;
    hi += 1.0;
  }
  const double pad = 0.05 * (hi - lo);
  lo -= pad;
  hi += pad;
  const double step = nice_step(hi - lo, 8);
  const auto px = [&](double v) { return plot_l + (v - lo) / (hi - lo) * (plot_r - plot_l); };
  const double rows_h = static_cast<double>(c.rows.size()) * kRow;
  const double bottom = kTop + rows_h;
  const double height = bottom + (c.band_percent > 0.0 ? 52.0 : 38.0);

  std::string out;
  append(out, "<svg id=\"{}\" class=\"chart change-chart\" role=\"img\" aria-label=\"{}\" width=\"{}\" height=\"{}\" ",
         escape(c.id), escape(c.caption), num(kWidth), num(height));
  append(out, "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n", num(kWidth), num(height));
  append(out, "<text x=\"{}\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{}</text>\n", num(plot_l),
         escape(c.caption));
  if (c.band_percent > 0.0) {
    append(
        out,
        "<rect class=\"band\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#ececec\"><title>{}</title></rect>\n",
        num(px(-c.band_percent)), num(kTop), num(px(c.band_percent) - px(-c.band_percent)), num(rows_h),
        escape(c.band_label));
  }
  // Grid and ticks (below the rows).
  for (double t = std::ceil(lo / step) * step; t <= hi; t += step) {
    const double v = std::fabs(t) < step / 2.0 ? 0.0 : t;
    append(out, "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#ddd\"/>", num(px(v)), num(kTop),
           num(bottom));
    append(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>\n", num(px(v)), num(bottom + 14.0),
           v > 0.0 ? "+" : "", tick_text(v, step));
  }
  append(out, "<line class=\"zero\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#000\"/>\n", num(px(0.0)),
         num(kTop - 4.0), num(bottom));
  double y = kTop;
  for (const ChangeRow& r : c.rows) {
    const double yc = y + kRow / 2.0;
    append(out, "<g class=\"change{}{}\"><title>{}</title>", r.css_class.empty() ? "" : " ", escape(r.css_class),
           escape(r.tooltip));
    append(out, "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#f4f4f4\"/>", num(plot_l), num(yc),
           num(plot_r));
    append(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", num(plot_l - 6.0), num(yc + 4.0),
           escape(r.label));
    if (r.has_interval) {
      append(out, "<line x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"2\"/>",
             num(px(r.low_percent)), num(px(r.high_percent)), num(yc), r.colour);
      for (double v : {r.low_percent, r.high_percent}) {
        append(out, "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"2\"/>", num(px(v)),
               num(yc - 4.0), num(yc + 4.0), r.colour);
      }
    }
    // The runs: BEFORE as grey marks above the row's line, AFTER in the row's colour below it.
    for (double v : r.before_points_percent) {
      append(out, "<rect class=\"run before\" x=\"{}\" y=\"{}\" width=\"3\" height=\"3\" fill=\"#999\"/>",
             num(px(v) - 1.5), num(yc - 8.0));
    }
    for (double v : r.after_points_percent) {
      append(out, "<rect class=\"run after\" x=\"{}\" y=\"{}\" width=\"3\" height=\"3\" fill=\"{}\"/>",
             num(px(v) - 1.5), num(yc + 5.0), r.colour);
    }
    append(out, "<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.5\"/>",
           num(px(r.change_percent)), num(yc), r.hollow ? "#fff" : r.colour, r.colour);
    append(out, "<text x=\"{}\" y=\"{}\">{}</text></g>\n", num(plot_r + 6.0), num(yc + 4.0), escape(r.value_text));
    y += kRow;
  }
  append(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", num((plot_l + plot_r) / 2.0),
         num(bottom + 30.0), escape(c.x_label));
  if (c.band_percent > 0.0) {
    append(out, "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", num(plot_l), num(bottom + 45.0),
           escape("shaded: " + c.band_label));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace podperf::svg

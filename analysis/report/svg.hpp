#pragma once
// Inline SVG charts for the HTML reports: a heatmap, a line chart with a log2 x axis (message sizes),
// a horizontal bar chart, and a change chart (before/after: a change in percent with its interval).
// Every mark carries a <title> (the browser shows it on hover), so no script is needed. Pure layout:
// the callers pass the numbers and the words; these functions compute positions, axis ticks and
// colours only. Output is deterministic (fixed float formatting) and has no external reference (no
// xmlns URL, fonts or links): it is meant to be inlined in HTML5.
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace podperf::svg {

// Escapes & < > " ' for HTML/XML text and attribute values.
std::string escape(std::string_view text);

// Fill colour of a ratio against a baseline: green at >= 1.0, through yellow to red at <= 0.5.
std::string ratio_colour(double ratio);

struct HeatmapCell {
  enum class Kind { kEmpty, kDiagonal, kValue, kFailed, kUnjudged };
  Kind kind = Kind::kEmpty;  // kUnjudged: a value without a ratio (grey)
  double ratio = 0.0;        // colour (kValue)
  bool flagged = false;      // drawn with a heavy border
  std::string text;          // printed in the cell when cells are large enough
  std::string tooltip;       // the <title>
};

struct Heatmap {
  std::string id;                               // the <svg> id
  std::string caption;                          // aria-label
  std::vector<std::string> labels;              // rows and columns, in display order
  std::vector<bool> highlighted;                // labels drawn in red (stragglers); same size as labels or empty
  std::vector<std::vector<HeatmapCell>> cells;  // [row][column], labels.size() squared
  std::vector<std::size_t> group_starts;        // rows/columns where a new group begins: a line before each
};
// The matrix, its labels and a colour legend under it. Cells shrink with the label count (56 px to at least
// 8 px), labels with the cells (never taller than a cell); column labels are slanted at -45 degrees while
// the cells are wide enough and upright beyond, so no label overlaps its neighbour.
std::string heatmap(const Heatmap& h);

// Estimates with intervals, in the given order (sorted by the caller), one column each: a dot at the
// value and a bar from low to high; marked points red. Reads at any count (1024 points are a band).
struct IntervalPoint {
  double value = 0.0;
  double low = 0.0;
  double high = 0.0;
  bool marked = false;
  std::string tooltip;
};
struct IntervalChart {
  std::string id;
  std::string caption;  // drawn as the title
  std::string x_label;
  std::vector<IntervalPoint> points;
  // Horizontal reference lines: value, label, colour.
  std::vector<std::tuple<double, std::string, std::string>> lines;
};
std::string interval_chart(const IntervalChart& c);

struct Point {
  double x = 0.0;  // message size in bytes (> 0; drawn on a log2 axis)
  double y = 0.0;
  std::string tooltip;
};

struct Series {
  std::string name;
  std::vector<Point> points;  // drawn in the given order
  std::string colour;         // CSS colour
  bool dashed = false;
  double stroke_width = 2.0;
  double opacity = 1.0;
  bool in_legend = true;
  bool markers = true;  // a circle (with its tooltip) at each point
};

struct LineChart {
  std::string id;
  std::string caption;  // drawn as the chart's title
  std::string y_label;  // "busbw (GB/s)"
  std::vector<Series> series;
};
// x ticks at powers of two, labelled 1K/1M/1G; y from 0 to above the largest value.
std::string line_chart(const LineChart& c);

struct Bar {
  std::string label;
  double value = 0.0;
  std::string value_text;  // printed after the bar
  std::string tooltip;
  bool marked = false;  // flagged: red, with the marker text
};

struct BarChart {
  std::string id;
  std::string caption;
  std::string unit;             // "MB/s"
  double reference = 0.0;       // a dashed vertical line (the baseline); <= 0: none
  std::string reference_label;  // its legend text
  std::string marker_text = "slow";
  std::vector<Bar> bars;
};
std::string bar_chart(const BarChart& c);

// One row of a change chart: a dot at the change and a whisker over its interval.
struct ChangeRow {
  std::string label;
  double change_percent = 0.0;
  bool has_interval = false;  // false: the dot only (no test, no interval)
  double low_percent = 0.0;
  double high_percent = 0.0;
  std::string colour;      // CSS colour of the dot and whisker
  bool hollow = false;     // an open dot (untested)
  std::string css_class;   // added to the row's class ("change <css_class>")
  std::string value_text;  // printed after the row ("-20.1%")
  std::string tooltip;     // the <title> of the whole row
  // Per-run points, in percent of the BEFORE value (BEFORE above the row, AFTER below); empty: none.
  std::vector<double> before_points_percent;
  std::vector<double> after_points_percent;
};

struct ChangeChart {
  std::string id;
  std::string caption;
  std::string x_label = "change (%)";
  double band_percent = 0.0;  // a shaded band from -band to +band (the noise threshold); <= 0: none
  std::string band_label;     // its legend text
  std::vector<ChangeRow> rows;
};
// Horizontal: one row per metric, the x axis in percent with a solid zero line, whiskers from low to
// high, the axis spanning every dot and whisker (and the band) with a margin.
std::string change_chart(const ChangeChart& c);

// The palette series colours are taken from (cycled).
const std::vector<std::string>& palette();

}  // namespace podperf::svg

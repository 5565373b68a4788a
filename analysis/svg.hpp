#pragma once
// Inline SVG charts for the HTML report: a heatmap, a line chart with a log2 x axis (message sizes)
// and a horizontal bar chart. Every mark carries a <title> (the browser shows it on hover), so no
// script is needed. Pure layout: the callers pass the numbers and the words; these functions compute
// positions, axis ticks and colours only. Output is deterministic (fixed float formatting) and has
// no external reference (no xmlns URL, fonts or links): it is meant to be inlined in HTML5.
#include <string>
#include <string_view>
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
};
std::string heatmap(const Heatmap& h);

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

// The palette series colours are taken from (cycled).
const std::vector<std::string>& palette();

}  // namespace podperf::svg

// The heatmap's layout at 6 to 256 nodes, read back from its SVG: neighbouring column labels and row
// labels never overlap (their distance across the text is at least the font size), the font never gets
// below 6 px, and the colour legend names every colour and mark the cells use.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <regex>
#include <string>
#include <vector>

#include "analysis/report/svg.hpp"

namespace podperf {
namespace {

struct Label {
  double x = 0.0;
  double y = 0.0;
  double angle = 0.0;
  double font = 12.0;
};

// Every <text class="KIND"> of `svg` with its position, rotation and font size.
std::vector<Label> labels_of(const std::string& svg, const std::string& kind) {
  const std::regex text("<text class=\"" + kind + "\" x=\"([-0-9.]+)\" y=\"([-0-9.]+)\"([^>]*)>");
  const std::regex rotate("rotate\\(([-0-9.]+) ");
  const std::regex font("font-size=\"([0-9.]+)\"");
  std::vector<Label> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text); it != std::sregex_iterator(); ++it) {
    Label l;
    l.x = std::stod((*it)[1]);
    l.y = std::stod((*it)[2]);
    const std::string rest = (*it)[3];
    std::smatch m;
    if (std::regex_search(rest, m, rotate)) l.angle = std::stod(m[1]);
    if (std::regex_search(rest, m, font)) l.font = std::stod(m[1]);
    out.push_back(l);
  }
  return out;
}

svg::Heatmap make_heatmap(std::size_t n) {
  svg::Heatmap h;
  h.id = "pair-heatmap";
  for (std::size_t i = 0; i < n; ++i) {
    h.labels.push_back(std::to_string(i) + " ip-10-1-" + std::to_string(i / 200) + "-" + std::to_string(i % 200));
  }
  h.cells.assign(n, std::vector<svg::HeatmapCell>(n));
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t c = 0; c < n; ++c) {
      svg::HeatmapCell& cl = h.cells[r][c];
      cl.kind = r == c ? svg::HeatmapCell::Kind::kDiagonal : svg::HeatmapCell::Kind::kValue;
      cl.ratio = 0.5 + 0.5 * static_cast<double>((r * 7 + c) % 11) / 10.0;
    }
  }
  return h;
}

class HeatmapLayout : public ::testing::TestWithParam<std::size_t> {};

TEST_P(HeatmapLayout, LabelsNeverOverlapAndStayLegible) {
  const std::size_t n = GetParam();
  const std::string out = svg::heatmap(make_heatmap(n));
  const std::vector<Label> columns = labels_of(out, "column-label");
  const std::vector<Label> rows = labels_of(out, "row-label");
  ASSERT_EQ(columns.size(), n);
  ASSERT_EQ(rows.size(), n);
  for (std::size_t i = 1; i < n; ++i) {
    // Rotated by `angle`, two labels `dx` apart are dx * |sin(angle)| apart across their text.
    const double across =
        (columns[i].x - columns[i - 1].x) * std::abs(std::sin(columns[i].angle * std::numbers::pi / 180.0));
    EXPECT_GE(across, columns[i].font) << n << " nodes, column " << i;
    EXPECT_GE(rows[i].y - rows[i - 1].y, rows[i].font) << n << " nodes, row " << i;
  }
  EXPECT_GE(columns.front().font, 6.0) << n << " nodes";
  EXPECT_GE(rows.front().font, 6.0) << n << " nodes";
}

INSTANTIATE_TEST_SUITE_P(Nodes, HeatmapLayout, ::testing::Values(2, 6, 13, 24, 25, 64, 100, 256, 300));

TEST(HeatmapLegend, NamesEveryColourAndMark) {
  svg::Heatmap h = make_heatmap(4);
  h.cells[0][1].kind = svg::HeatmapCell::Kind::kFailed;
  h.cells[0][2].kind = svg::HeatmapCell::Kind::kUnjudged;
  h.cells[0][3].kind = svg::HeatmapCell::Kind::kEmpty;
  h.cells[1][2].flagged = true;
  const std::string out = svg::heatmap(h);
  const auto legend = out.find("<g class=\"legend\"");
  ASSERT_NE(legend, std::string::npos);
  const std::string part = out.substr(legend);
  // The fills the cells use appear in the legend, each with its meaning.
  for (const std::string& fill : {svg::ratio_colour(0.5), svg::ratio_colour(1.0)}) {
    EXPECT_NE(part.find("fill=\"" + fill + "\""), std::string::npos) << fill;
  }
  const std::regex cell_fill("<g class=\"cell[^\"]*\"><rect [^>]*fill=\"([^\"]+)\"");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), cell_fill); it != std::sregex_iterator(); ++it) {
    const std::string fill = (*it)[1];
    if (fill == "#ffffff" || fill.rfind("hsl(", 0) == 0) continue;  // the diagonal; ratios checked above
    EXPECT_NE(part.find("fill=\"" + fill + "\""), std::string::npos) << "cell fill " << fill << " not in the legend";
  }
  for (const char* words :
       {"50% of the level or less", "100% or more", "flagged (heavy border)", "failed", "no baseline", "not measured"}) {
    EXPECT_NE(part.find(std::string(">") + words + "<"), std::string::npos) << words;
  }
  // The legend lies inside the SVG's height.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out, m, std::regex("height=\"([0-9.]+)\"")));
  const double height = std::stod(m[1]);
  ASSERT_TRUE(std::regex_search(out, m, std::regex("<g class=\"legend\" transform=\"translate\\(0 ([0-9.]+)\\)\"")));
  const double legend_top = std::stod(m[1]);
  double lowest = 0.0;
  const std::regex legend_text("<text x=\"[0-9.]+\" y=\"([0-9.]+)\">");
  for (auto it = std::sregex_iterator(part.begin(), part.end(), legend_text); it != std::sregex_iterator(); ++it) {
    lowest = std::max(lowest, std::stod((*it)[1]));
  }
  EXPECT_LE(legend_top + lowest, height);
}

}  // namespace
}  // namespace podperf

#pragma once
// podperf's --help layout: CLI11's, with every line wrapped at 100 columns (descriptions in a right
// column, continued under it; the top description and the footer as paragraphs). App floor; local;
// throws only std::bad_alloc. tests/cli/help_width.sh checks every line of every --help.
#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

namespace podperf {

inline constexpr std::size_t kHelpWidth = 100;
inline constexpr std::size_t kHelpNameColumn = 34;  // option names and their value hints, then descriptions

// `text` wrapped at `width` columns at spaces, each line after the first (and each after an explicit
// newline) indented by `indent` spaces; the first line starts `first_used` columns in. A word longer than
// a line is put alone on its line.
std::string wrap_text(const std::string& text, std::size_t width, std::size_t indent, std::size_t first_used);

class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter();
  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;
  std::string make_footer(const CLI::App* app) const override;

 private:
  // "  NAME" padded to the column, then `description` wrapped in the right column.
  std::string two_columns(const std::string& name, const std::string& description) const;
};

}  // namespace podperf

// podperf's --help layout at 100 columns. App floor; local.
#include "app/help_formatter.hpp"

#include <vector>

namespace podperf {

std::string wrap_text(const std::string& text, std::size_t width, std::size_t indent, std::size_t first_used) {
  std::string out;
  std::size_t used = first_used;
  bool line_empty = true;  // nothing of `text` on the current line yet
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '\n') {
      out += '\n' + std::string(indent, ' ');
      used = indent;
      line_empty = true;
      ++i;
      continue;
    }
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && text[end] != ' ' && text[end] != '\n') ++end;
    const std::string word = text.substr(i, end - i);
    if (!line_empty && used + 1 + word.size() > width) {
      out += '\n' + std::string(indent, ' ');
      used = indent;
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++used;
    }
    out += word;
    used += word.size();
    line_empty = false;
    i = end;
  }
  return out;
}

HelpFormatter::HelpFormatter() {
  column_width(kHelpNameColumn);
}

std::string HelpFormatter::two_columns(const std::string& name, const std::string& description) const {
  std::string out = "  " + name;
  if (description.empty()) return out + "\n";
  if (out.size() + 1 > kHelpNameColumn) {
    out += '\n' + std::string(kHelpNameColumn, ' ');
  } else {
    out += std::string(kHelpNameColumn - out.size(), ' ');
  }
  return out + wrap_text(description, kHelpWidth, kHelpNameColumn, kHelpNameColumn) + "\n";
}

std::string HelpFormatter::make_option(const CLI::Option* opt, bool is_positional) const {
  return two_columns(make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt));
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
  return two_columns(sub->get_display_name(true), sub->get_description());
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string desc = CLI::Formatter::make_description(app);
  if (desc.empty()) return desc;
  return wrap_text(desc.substr(0, desc.size() - 1), kHelpWidth, 0, 0) + "\n";
}

std::string HelpFormatter::make_footer(const CLI::App* app) const {
  const std::string footer = app->get_footer();
  if (footer.empty()) return footer;
  return wrap_text(footer, kHelpWidth, 0, 0) + "\n";
}

}  // namespace podperf

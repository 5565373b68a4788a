#include "analysis/base/toml_text_guard.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <optional>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {

struct Codepoint {
  char32_t value = 0;
  std::size_t bytes = 0;
};

// Strict UTF-8 (no overlong forms, no surrogates, at most U+10FFFF), as toml++ decodes it; nullopt
// for anything else, where toml++ stops with its own error.
std::optional<Codepoint> decode_utf8(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[i]); };
  const std::uint8_t lead = byte(at);
  if (lead < 0x80) return Codepoint{lead, 1};
  std::size_t count = 0;
  char32_t value = 0;
  char32_t minimum = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    count = 2, value = lead & 0x1Fu, minimum = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    count = 3, value = lead & 0x0Fu, minimum = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    count = 4, value = lead & 0x07u, minimum = 0x10000;
  } else {
    return std::nullopt;
  }
  if (at + count > text.size()) return std::nullopt;
  for (std::size_t i = 1; i < count; ++i) {
    if ((byte(at + i) & 0xC0u) != 0x80u) return std::nullopt;
    value = (value << 6) | (byte(at + i) & 0x3Fu);
  }
  if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return std::nullopt;
  return Codepoint{value, count};
}

enum class Context { kBare, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral };

class Guard {
 public:
  Guard(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  std::string run() {
    out_.reserve(text_.size());
    if (text_.starts_with("\xEF\xBB\xBF")) {  // a byte-order mark, which toml++ skips
      out_.append(text_.substr(0, 3));
      at_ = 3;
    }
    while (at_ < text_.size()) {
      const std::optional<Codepoint> cp = decode_utf8(text_, at_);
      if (!cp) {  // invalid UTF-8: toml++ reports it; nothing after it is parsed
        out_.append(text_.substr(at_));
        break;
      }
      step(*cp);
    }
    return std::move(out_);
  }

 private:
  bool ahead(std::string_view s) const { return text_.substr(at_).starts_with(s); }

  // Copies `bytes` of the text unchanged, keeping the line and the column (in codepoints, as toml++
  // counts them) of what follows.
  void copy(std::size_t bytes) {
    for (std::size_t i = 0; i < bytes; ++i) {
      const auto byte = static_cast<std::uint8_t>(text_[at_ + i]);
      if (byte == '\n') {
        ++line_, column_ = 0;
      } else if ((byte & 0xC0u) != 0x80u) {
        ++column_;
      }
    }
    out_.append(text_.substr(at_, bytes));
    at_ += bytes;
  }

  [[noreturn]] void refuse(const Codepoint& cp, std::string_view where) const {
    throw ConfigError(fmt::format("{}:{}:{}: character '{}' (U+{:04X}) {}", source_, line_, column_ + 1,
                                  text_.substr(at_, cp.bytes), static_cast<std::uint32_t>(cp.value), where));
  }

  void step(const Codepoint& cp) {
    switch (context_) {
      case Context::kBare: return bare(cp);
      case Context::kComment:
        if (cp.value == '\n') context_ = Context::kBare;
        return copy(cp.bytes);
      case Context::kLiteral:
        if (cp.value == '\'' || cp.value == '\n') context_ = Context::kBare;
        return copy(cp.bytes);
      case Context::kMultiLiteral:
        if (ahead("'''")) return close_multi_line('\'');
        return copy(cp.bytes);
      case Context::kBasic:
      case Context::kMultiBasic: return basic(cp);
    }
  }

  void bare(const Codepoint& cp) {
    if (cp.value == '#') {
      context_ = Context::kComment;
    } else if (ahead("\"\"\"") || ahead("'''")) {
      context_ = cp.value == '"' ? Context::kMultiBasic : Context::kMultiLiteral;
      return copy(3);
    } else if (cp.value == '"') {
      context_ = Context::kBasic;
    } else if (cp.value == '\'') {
      context_ = Context::kLiteral;
    } else if (cp.value >= 0x80) {
      refuse(cp, "outside a string or comment: TOML allows non-ASCII characters only in quoted strings, "
                 "quoted keys and comments");
    }
    copy(cp.bytes);
  }

  // The closing delimiter of a multi-line string: three quotes, and up to two more that belong to the
  // string ("""a""""" is the string a"").
  void close_multi_line(char quote) {
    std::size_t run = 0;
    while (at_ + run < text_.size() && text_[at_ + run] == quote && run < 5) ++run;
    context_ = Context::kBare;
    copy(run);
  }

  void basic(const Codepoint& cp) {
    const bool multi = context_ == Context::kMultiBasic;
    if (multi && ahead("\"\"\"")) return close_multi_line('"');
    if (cp.value == '"' && !multi) {
      context_ = Context::kBare;
    } else if (cp.value == '\n' && !multi) {
      context_ = Context::kBare;  // an unterminated string: toml++ stops here
    } else if (cp.value == '\\') {
      return escape();
    }
    copy(cp.bytes);
  }

  // A backslash in a basic string: an escape, or in a multi-line string a line-ending backslash.
  void escape() {
    copy(1);
    if (at_ >= text_.size()) return;
    const std::optional<Codepoint> next = decode_utf8(text_, at_);
    if (!next) return;
    if (next->value >= 0x80) refuse(*next, "after a backslash: not an escape TOML has");
    const bool whitespace = next->value == ' ' || next->value == '\t' || next->value == '\n' || next->value == '\r';
    if (context_ != Context::kMultiBasic || !whitespace) return copy(next->bytes);
    // A line-ending backslash: spaces and tabs, the line break, then any whitespace and line breaks
    // toml++ skips; the first character after them it checks for whitespace.
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t')) copy(1);
    if (at_ < text_.size() && static_cast<std::uint8_t>(text_[at_]) >= 0x80) {
      const std::optional<Codepoint> after = decode_utf8(text_, at_);
      if (after) refuse(*after, "after a line-ending backslash, on its line: the backslash must end the line");
      return;
    }
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
      copy(1);
    }
    if (at_ >= text_.size() || static_cast<std::uint8_t>(text_[at_]) < 0x80) return;
    const std::optional<Codepoint> first = decode_utf8(text_, at_);
    if (!first) return;
    // The same character as an escape: toml++ decodes it to the same string.
    const auto value = static_cast<std::uint32_t>(first->value);
    out_.append(value <= 0xFFFF ? fmt::format("\\u{:04X}", value) : fmt::format("\\U{:08X}", value));
    at_ += first->bytes;
    column_ += 1;
  }

  std::string_view text_;
  const std::string& source_;
  std::string out_;
  std::size_t at_ = 0;
  std::size_t line_ = 1;
  std::size_t column_ = 0;  // codepoints before `at_` on its line
  Context context_ = Context::kBare;
};

}  // namespace

std::string toml_text_guarded(std::string_view text, const std::string& source) {
  return Guard(text, source).run();
}

}  // namespace podperf

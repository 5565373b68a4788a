#pragma once
// TOML text made safe for toml++ before it is parsed. toml++ up to 3.4 (Debian 12 ships 3.3) reaches
// __builtin_unreachable (undefined behaviour) when it asks whether some non-ASCII characters
// (U+00A1..U+0499, U+2C4E..U+3047, U+FC26..U+FEFE) are whitespace: upstream issues #190 and #295,
// fixed by pull request #305. It asks that of a character outside strings and comments (where TOML
// 1.0 allows only ASCII) and of the first character after a line-ending backslash in a multi-line
// basic string (valid TOML). The guard refuses the first case with a ConfigError naming the line and
// column, and writes the second as the same character's \u escape, which toml++ decodes to the same
// string; line numbers are unchanged, so later errors still point at the right line.
#include <string>
#include <string_view>

namespace podperf {

// The text to hand to toml::parse. ConfigError "source:line:column: ..." for a non-ASCII character
// outside a string or comment, or right after a backslash (an escape TOML does not have). Invalid
// UTF-8 is left for toml++ to report.
std::string toml_text_guarded(std::string_view text, const std::string& source);

}  // namespace podperf

// The TOML guard (analysis/base/toml_text_guard): non-ASCII characters toml++ 3.3 cannot classify
// without undefined behaviour are refused where TOML forbids them and rewritten, value unchanged, where
// TOML allows them. The sanitizer stage of scripts/test.sh runs these under UBSan, where the unguarded
// parse stops the process.
#include "analysis/base/toml_text_guard.hpp"

#include <gtest/gtest.h>

#include <string>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"

namespace podperf {
namespace {

std::string error_of(const std::string& text) {
  try {
    (void)toml_parse(text, "g.toml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(TomlTextGuard, NonAsciiOutsideStringsIsAConfigErrorWithLineAndColumn) {
  // U+032A, the two bytes the config fuzzer found (toml++ issue #295): undefined behaviour in toml++.
  EXPECT_EQ(error_of("\xCC\xAA"), "g.toml:1:1: character '\xCC\xAA' (U+032A) outside a string or comment: TOML "
                                  "allows non-ASCII characters only in quoted strings, quoted keys and comments");
  EXPECT_NE(error_of("a = 1\nb = 2 \xC3\xA9\n").find("g.toml:2:7: character '\xC3\xA9' (U+00E9)"), std::string::npos);
  EXPECT_NE(error_of("k\xC2\xA7 = 1").find("g.toml:1:2:"), std::string::npos);
  EXPECT_NE(error_of("a = tr\xE3\x80\x81").find("g.toml:1:7: character"), std::string::npos);
  // A column counts characters, not bytes.
  EXPECT_NE(error_of("a = \"\xC3\xA9\xC3\xA9\" \xC2\xA7").find("g.toml:1:10:"), std::string::npos);
}

TEST(TomlTextGuard, NonAsciiInStringsKeysAndCommentsIsRead) {
  const toml::table t = toml_parse(
      "# caf\xC3\xA9 \xCC\xAA\n\"cl\xC3\xA9\" = \"\xC2\xA7 \xCC\xAA\"\nb = '\xEF\xB9\x80'\n"
      "c = '''\n\xE3\x80\x81'''\nd = \"\"\"x\"\xCC\xAA\"\"\" # \xCC\xAA\ne = \"\\\"\xCC\xAA\"\n",
      "g.toml");
  EXPECT_EQ(t["cl\xC3\xA9"].value<std::string>(), "\xC2\xA7 \xCC\xAA");
  EXPECT_EQ(t["b"].value<std::string>(), "\xEF\xB9\x80");
  EXPECT_EQ(t["c"].value<std::string>(), "\xE3\x80\x81");
  EXPECT_EQ(t["d"].value<std::string>(), "x\"\xCC\xAA");
  EXPECT_EQ(t["e"].value<std::string>(), "\"\xCC\xAA");
}

TEST(TomlTextGuard, LineEndingBackslashBeforeNonAsciiKeepsTheValue) {
  // Valid TOML that toml++ 3.3 cannot read safely (its issue #190): the character after the skipped
  // whitespace is written as its escape.
  const toml::table t =
      toml_parse("s = \"\"\"\\\n\xC2\xA7\"\"\"\nu = \"\"\"a \\  \r\n\n   \xF0\x9F\x98\x80 b\"\"\"\n", "g.toml");
  EXPECT_EQ(t["s"].value<std::string>(), "\xC2\xA7");
  EXPECT_EQ(t["u"].value<std::string>(), "a \xF0\x9F\x98\x80 b");
  // Lines after it are still counted right.
  EXPECT_NE(error_of("s = \"\"\"\\\n\xC2\xA7\"\"\"\nx = \n").find("g.toml:3:"), std::string::npos);
}

TEST(TomlTextGuard, BackslashBeforeNonAsciiIsRefused) {
  EXPECT_NE(error_of("s = \"\"\"\\\xC2\xA7\"\"\"").find("after a backslash"), std::string::npos);
  EXPECT_NE(error_of("s = \"\\\xC2\xA7\"").find("after a backslash"), std::string::npos);
  EXPECT_NE(error_of("s = \"\"\"\\  \xC2\xA7\n\"\"\"").find("the backslash must end the line"), std::string::npos);
}

TEST(TomlTextGuard, AsciiAndByteOrderMarkAndBadUtf8PassUnchanged) {
  const std::string ascii = "a = \"\"\"x\\\n  y\"\"\"\n[t]\nb = '''z'''''\n";
  EXPECT_EQ(toml_text_guarded(ascii, "g.toml"), ascii);
  const toml::table t = toml_parse("\xEF\xBB\xBF" "a = 1\n", "g.toml");
  EXPECT_EQ(t["a"].value<int>(), 1);
  // Invalid UTF-8 is toml++'s to report.
  EXPECT_EQ(toml_text_guarded("a = 1 \xC0\xAF \xCC\xAA", "g.toml"), "a = 1 \xC0\xAF \xCC\xAA");
  EXPECT_NE(error_of("a = 1 \xC0\xAF").find("g.toml:1:"), std::string::npos);
}

}  // namespace
}  // namespace podperf

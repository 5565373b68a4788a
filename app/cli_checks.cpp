// The command line's value rules (see cli_checks.hpp). App floor; local; throws nothing for user input.
#include "app/cli_checks.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <set>
#include <system_error>

#include "analysis/base/errors.hpp"
#include "analysis/base/text.hpp"
#include "analysis/base/units.hpp"

namespace podperf::cli_checks {
namespace {

// Marks where a rule's own line starts inside CLI11's "NAME: MESSAGE" text.
constexpr char kLineMark = '\x1e';

// A value as the line shows it: as typed, quoted when empty or when it holds blanks or quotes.
std::string shown(const std::string& value) {
  const bool plain = !value.empty() && value.find_first_of(" \t'\"") == std::string::npos;
  return plain ? value : fmt::format("'{}'", value);
}

// " seconds" for a unit, "" for none.
std::string unit_suffix(std::string_view unit) {
  return unit.empty() ? std::string() : fmt::format(" {}", unit);
}

// `value` as a finite number, or nullopt (not one number, nan, inf).
std::optional<double> finite(const std::string& value) {
  double v = 0;
  if (!text::to_number(value, v) || !std::isfinite(v)) return std::nullopt;
  return v;
}

// What a rule checks: nullopt when the value is good, else what was expected ("must be ...").
using Test = std::function<std::optional<std::string>(const std::string& value)>;

// The CLI11 validator of a rule: on a bad value it returns the value and what was expected, after the
// mark that usage_error_line finds ("NAME: <mark>VALUE: EXPECTED" in CLI11's text).
CLI::Validator rule(const std::string& kind, const std::string& help, Test test) {
  auto validate = [test = std::move(test)](std::string& value) -> std::string {
    const std::optional<std::string> bad = test(value);
    return bad ? fmt::format("{}{}: {}", kLineMark, shown(value), *bad) : std::string();
  };
  return CLI::Validator(validate, help, std::string(kValidatorPrefix) + kind);
}

// A number rule: `range` the expected range in words, `inside` whether a finite value is in it.
CLI::Validator number_rule(const std::string& help, std::string range, std::function<bool(double)> inside) {
  return rule("number", help, [range, inside](const std::string& value) -> std::optional<std::string> {
    const std::optional<double> v = finite(value);
    if (!v) return fmt::format("must be a finite number {}", range);
    if (!inside(*v)) return fmt::format("must be {}", range);
    return std::nullopt;
  });
}

enum class Want { kDirectory, kFile, kEither };

// nullopt when `path` exists as `want` says, else what is wrong with it.
std::optional<std::string> existing(const std::string& path, Want want) {
  if (path.empty()) return "must not be empty";
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(st)) return "No such file or directory";  // strerror(ENOENT), as every tool says
  const bool dir = std::filesystem::is_directory(st);
  if (want == Want::kDirectory && !dir) return "is not a directory";
  if (want == Want::kFile && dir) return "is a directory, not a file";
  return std::nullopt;
}

}  // namespace

CLI::Validator number_above(double low, std::string_view unit) {
  return number_rule(fmt::format("> {}", low), fmt::format("more than {}{}", low, unit_suffix(unit)),
                     [low](double v) { return v > low; });
}

CLI::Validator number_in(double low, double high, std::string_view unit) {
  return number_rule(fmt::format("{}..{}", low, high), fmt::format("from {} to {}{}", low, high, unit_suffix(unit)),
                     [low, high](double v) { return v >= low && v <= high; });
}

CLI::Validator whole_number(std::int64_t low, std::int64_t high, std::string_view unit) {
  const std::string expected = fmt::format("must be a whole number from {} to {}{}", low, high, unit_suffix(unit));
  return rule("whole", fmt::format("{}..{}", low, high), [low, high, expected](const std::string& value) {
    long long v = 0;
    const bool ok = text::to_number(value, v) && v >= low && v <= high;
    return ok ? std::nullopt : std::optional<std::string>(expected);
  });
}

CLI::Validator unsigned_number(std::uint64_t low) {
  const std::string expected =
      fmt::format("must be a whole number from {} to {}", low, std::numeric_limits<std::uint64_t>::max());
  return rule("whole", fmt::format(">= {}", low), [low, expected](const std::string& value) {
    unsigned long long v = 0;
    const std::string_view t = text::trim(value);
    const bool ok = !t.empty() && t.front() != '-' && t.front() != '+' && text::to_number(t, v) && v >= low;
    return ok ? std::nullopt : std::optional<std::string>(expected);
  });
}

CLI::Validator byte_size(std::uint64_t low) {
  return rule("size", "SIZE", [low](const std::string& value) -> std::optional<std::string> {
    std::uint64_t bytes = 0;
    try {
      bytes = parse_size(value, "");
    } catch (const UsageError&) {
      // Why: the number (none, or too large), the suffix (unknown), or the product (too large).
      std::uint64_t number = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
      if (ec == std::errc::result_out_of_range) return std::string("is too large for a size in bytes");
      if (ec != std::errc() || end == value.data()) {
        return std::string(
            "must be a size in bytes: a whole number with an optional K, M, G or T suffix, e.g. 64K, 4M, 1G");
      }
      std::string suffix(end, value.data() + value.size());
      for (char& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      static const std::set<std::string> kKnown = {"B", "K",  "KB",  "KIB", "M",  "MB", "MIB",
                                                   "G", "GB", "GIB", "T",   "TB", "TIB"};
      if (kKnown.count(suffix) == 0) {
        return fmt::format("has an unknown suffix '{}' (expected K, M, G or T)",
                           std::string(end, value.data() + value.size()));
      }
      return std::string("is too large for a size in bytes");
    }
    if (bytes < low) return fmt::format("must be at least {} byte{}", low, low == 1 ? "" : "s");
    return std::nullopt;
  });
}

CLI::Validator one_of(std::vector<std::string> names) {
  const std::string help = fmt::format("{{{}}}", fmt::join(names, ","));  // as CLI11's IsMember shows it
  const std::string expected = fmt::format("must be one of: {}", fmt::join(names, ", "));
  return rule("choice", help, [names = std::move(names), expected](const std::string& value) {
    for (const std::string& n : names) {
      if (n == value) return std::optional<std::string>();
    }
    return std::optional<std::string>(expected);
  });
}

CLI::Validator existing_directory() {
  return rule("input", "DIR", [](const std::string& v) { return existing(v, Want::kDirectory); });
}
CLI::Validator existing_file() {
  return rule("input", "FILE", [](const std::string& v) { return existing(v, Want::kFile); });
}
CLI::Validator existing_path() {
  return rule("input", "PATH", [](const std::string& v) { return existing(v, Want::kEither); });
}

CLI::Validator directory_or_host_pattern() {
  return rule("input", "DIR", [](const std::string& v) -> std::optional<std::string> {
    if (v.find("%h") != std::string::npos) return std::nullopt;  // one directory per host
    return existing(v, Want::kDirectory);
  });
}

CLI::Validator name_or_existing_file() {
  return rule("input", "NAME|FILE", [](const std::string& v) -> std::optional<std::string> {
    if (v.empty()) return "must not be empty (a built-in name or a file)";
    const bool looks_like_file =
        v.find('/') != std::string::npos || (v.size() > 5 && v.compare(v.size() - 5, 5, ".toml") == 0);
    return looks_like_file ? existing(v, Want::kFile) : std::nullopt;
  });
}

CLI::Validator output_file() {
  return rule("output", "FILE", [](const std::string& v) -> std::optional<std::string> {
    if (v.empty()) return "must not be empty (a file to write)";
    std::error_code ec;
    if (std::filesystem::is_directory(v, ec)) return "is a directory, not a file to write";
    return std::nullopt;
  });
}

CLI::Validator output_file_in_existing_directory() {
  return rule("output", "FILE", [](const std::string& v) -> std::optional<std::string> {
    if (v.empty()) return "must not be empty (a file to write)";
    std::error_code ec;
    if (std::filesystem::is_directory(v, ec)) return "is a directory, not a file to write";
    const std::filesystem::path parent = std::filesystem::path(v).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
      return fmt::format("its directory {} does not exist", parent.string());
    }
    return std::nullopt;
  });
}

CLI::Validator output_directory() {
  return rule("output", "DIR", [](const std::string& v) -> std::optional<std::string> {
    if (v.empty()) return "must not be empty (a directory to write into)";
    std::error_code ec;
    if (std::filesystem::exists(v, ec) && !std::filesystem::is_directory(v, ec)) {
      return "exists and is not a directory";
    }
    return std::nullopt;
  });
}

CLI::Validator non_empty_text() {
  return rule("text", "", [](const std::string& v) {
    return text::trim(v).empty() ? std::optional<std::string>("must not be empty") : std::nullopt;
  });
}

std::string usage_error_line(const CLI::Error& e) {
  const std::string what = e.what();
  const std::size_t mark = what.find(kLineMark);
  if (mark == std::string::npos) return what;
  // "NAME: <mark>VALUE: EXPECTED" -> "NAME VALUE: EXPECTED"
  std::string name = what.substr(0, mark);
  while (!name.empty() && (name.back() == ' ' || name.back() == ':')) name.pop_back();
  return fmt::format("{} {}", name, what.substr(mark + 1));
}

}  // namespace podperf::cli_checks

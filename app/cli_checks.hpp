#pragma once
// The one place where the command line's values are checked: a rule per class of value (a finite
// number in a range, a whole number in a range, a size in bytes, one of a list, an input file or
// directory that exists, a path or a text that is not empty). `opt->check(rule)` attaches one; a bad
// value ends the parse (CLI11 ValidationError) and `usage_error_line` makes the one line the user reads:
// "<option> <value>: <what was expected>", e.g. "--timeout 0: must be more than 0 seconds". The rules
// run while parsing, on every rank, before MPI starts and before anything is measured or written. App floor; local;
// throws nothing for user input (CLI11 throws for a bad definition: a bug). The rules are documented in
// docs/options-validation.md.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace podperf::cli_checks {

// Each rule is a CLI11 validator named "podperf:<kind>" (tests find the checked options by it) with the
// short description --help shows after the type ("> 0", "DIR"). `->check(rule)` attaches it.
inline constexpr std::string_view kValidatorPrefix = "podperf:";

// Finite numbers (nan, inf, -inf and text that is not exactly one number are refused).
CLI::Validator number_above(double low, std::string_view unit);            // low < v
CLI::Validator number_in(double low, double high, std::string_view unit);  // low <= v <= high
// Whole numbers, written in decimal (no sign for the unsigned form, no fraction, no exponent).
CLI::Validator whole_number(std::int64_t low, std::int64_t high, std::string_view unit = "");
CLI::Validator unsigned_number(std::uint64_t low);
// A size in bytes with an optional K/M/G/T suffix (analysis/base/units.hpp parse_size), at least `low`.
CLI::Validator byte_size(std::uint64_t low);
// One of `names`, spelled exactly.
CLI::Validator one_of(std::vector<std::string> names);
// Input paths: must exist (a directory, a regular file or either); directory_or_host_pattern: the
// signals root, whose "%h" becomes each host's name (checked only without one).
CLI::Validator existing_directory();
CLI::Validator existing_file();
CLI::Validator existing_path();
CLI::Validator directory_or_host_pattern();
// A built-in name (no '/', not ending in .toml) or a file that exists.
CLI::Validator name_or_existing_file();
// Output paths and plain text: not empty; an output file is not an existing directory, an output
// directory not an existing file.
CLI::Validator output_file();
// An output file whose directory exists (a file written at the end of a measurement: refused before it
// starts).
CLI::Validator output_file_in_existing_directory();
CLI::Validator output_directory();
CLI::Validator non_empty_text();

// The one line (no "podperf: error: " prefix, no newline) that says what a parse error was: for a
// rule, "<option> <value>: <what was expected>"; CLI11's own text for the rest (unknown options,
// missing arguments).
std::string usage_error_line(const CLI::Error& e);

}  // namespace podperf::cli_checks

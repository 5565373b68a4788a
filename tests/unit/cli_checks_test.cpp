// app/cli_checks: a table of bad values per class of rule and the one line each makes; and a walk over
// podperf's whole command line (app/cli define_command_line): every option that takes a value is
// checked by a rule, and every floating-point option refuses nan, inf and -inf, so an option added
// later cannot forget.
#include "app/cli_checks.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/cli.hpp"

namespace podperf {
namespace {

namespace rule = cli_checks;

// The line a parse of `args` (after the program name) ends with; "" when it parses.
std::string parse_error(CLI::App& app, std::vector<std::string> args) {
  std::vector<std::string> argv{"podperf"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> ptrs;
  for (std::string& a : argv) ptrs.push_back(a.data());
  try {
    app.parse(static_cast<int>(ptrs.size()), ptrs.data());
  } catch (const CLI::ParseError& e) {
    return usage_line(e);
  }
  return "";
}

// The line an option checked by `v` makes for `value` ("" when good).
std::string line_for(const CLI::Validator& v, const std::string& value) {
  CLI::App app{"t", "t"};
  std::string out;
  app.add_option("--opt", out)->check(v);
  return parse_error(app, {"--opt", value});
}

struct Case {
  const char* what;
  CLI::Validator rule;
  std::string value;
  std::string line;  // "" when the value is good
};

class TempDir {
 public:
  TempDir() : path_(std::filesystem::temp_directory_path() / ("podperf-checks-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
    std::ofstream(path_ / "f.toml") << "x = 1\n";
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  [[nodiscard]] std::string str(const std::string& leaf = "") const { return (path_ / leaf).string(); }

 private:
  std::filesystem::path path_;
};

TEST(CliChecks, EachRuleNamesTheOptionTheValueAndWhatWasExpected) {
  const TempDir tmp;
  const std::string dir = tmp.str();
  const std::string file = tmp.str("f.toml");
  const std::string none = tmp.str("none");
  const std::vector<Case> cases = {
      {"positive", rule::number_above(0, "seconds"), "0", "--opt 0: must be more than 0 seconds"},
      {"positive nan", rule::number_above(0, "seconds"), "nan",
       "--opt nan: must be a finite number more than 0 seconds"},
      {"positive inf", rule::number_above(0, "seconds"), "inf",
       "--opt inf: must be a finite number more than 0 seconds"},
      {"positive -inf", rule::number_above(0, "s"), "-inf", "--opt -inf: must be a finite number more than 0 s"},
      {"positive text", rule::number_above(0, "seconds"), "soon",
       "--opt soon: must be a finite number more than 0 seconds"},
      {"positive trailing", rule::number_above(0, "seconds"), "5x",
       "--opt 5x: must be a finite number more than 0 seconds"},
      {"positive good", rule::number_above(0, "seconds"), "0.5", ""},
      {"range low", rule::number_in(0, 1000, "percent"), "-1", "--opt -1: must be from 0 to 1000 percent"},
      {"range high", rule::number_in(1e-6, 0.5, ""), "0.6", "--opt 0.6: must be from 1e-06 to 0.5"},
      {"range INF", rule::number_in(0, 1, ""), "INF", "--opt INF: must be a finite number from 0 to 1"},
      {"range NaN", rule::number_in(0, 1, ""), "NaN", "--opt NaN: must be a finite number from 0 to 1"},
      {"range edge", rule::number_in(0, 1, ""), "1", ""},
      {"whole fraction", rule::whole_number(1, 10), "1.5", "--opt 1.5: must be a whole number from 1 to 10"},
      {"whole low", rule::whole_number(1, 10), "0", "--opt 0: must be a whole number from 1 to 10"},
      {"whole high", rule::whole_number(1, 10), "11", "--opt 11: must be a whole number from 1 to 10"},
      {"whole huge", rule::whole_number(1, 10), "99999999999999999999",
       "--opt 99999999999999999999: must be a whole "
       "number from 1 to 10"},
      {"whole good", rule::whole_number(1, 10), "10", ""},
      {"unsigned negative", rule::unsigned_number(0), "-1",
       "--opt -1: must be a whole number from 0 to 18446744073709551615"},
      {"unsigned good", rule::unsigned_number(2), "2", ""},
      {"size text", rule::byte_size(1), "lots",
       "--opt lots: must be a size in bytes: a whole number with an optional K, M, G or T suffix, e.g. 64K, 4M, 1G"},
      {"size suffix", rule::byte_size(1), "4Q", "--opt 4Q: has an unknown suffix 'Q' (expected K, M, G or T)"},
      {"size huge", rule::byte_size(1), "99999999999999999999",
       "--opt 99999999999999999999: is too large for a size in "
       "bytes"},
      {"size product", rule::byte_size(1), "99999999999T", "--opt 99999999999T: is too large for a size in bytes"},
      {"size zero", rule::byte_size(1), "0", "--opt 0: must be at least 1 byte"},
      {"size empty", rule::byte_size(0), "",
       "--opt '': must be a size in bytes: a whole number with an optional K, M, G "
       "or T suffix, e.g. 64K, 4M, 1G"},
      {"size good", rule::byte_size(0), "0", ""},
      {"choice", rule::one_of({"a", "b"}), "c", "--opt c: must be one of: a, b"},
      {"choice empty", rule::one_of({"a", "b"}), "", "--opt '': must be one of: a, b"},
      {"dir missing", rule::existing_directory(), none, "--opt " + none + ": No such file or directory"},
      {"dir is a file", rule::existing_directory(), file, "--opt " + file + ": is not a directory"},
      {"dir empty", rule::existing_directory(), "", "--opt '': must not be empty"},
      {"dir good", rule::existing_directory(), dir, ""},
      {"file missing", rule::existing_file(), none, "--opt " + none + ": No such file or directory"},
      {"file is a dir", rule::existing_file(), dir, "--opt " + dir + ": is a directory, not a file"},
      {"path missing", rule::existing_path(), none, "--opt " + none + ": No such file or directory"},
      {"path good", rule::existing_path(), dir, ""},
      {"host pattern", rule::directory_or_host_pattern(), none + "/%h", ""},
      {"host pattern missing", rule::directory_or_host_pattern(), none,
       "--opt " + none + ": No such file or directory"},
      {"name", rule::name_or_existing_file(), "quick", ""},
      {"name as missing file", rule::name_or_existing_file(), "x.toml", "--opt x.toml: No such file or directory"},
      {"name empty", rule::name_or_existing_file(), "", "--opt '': must not be empty (a built-in name or a file)"},
      {"name file", rule::name_or_existing_file(), file, ""},
      {"output file empty", rule::output_file(), "", "--opt '': must not be empty (a file to write)"},
      {"output file a dir", rule::output_file(), dir, "--opt " + dir + ": is a directory, not a file to write"},
      {"output file good", rule::output_file(), none, ""},
      {"output dir empty", rule::output_directory(), "", "--opt '': must not be empty (a directory to write into)"},
      {"output dir a file", rule::output_directory(), file, "--opt " + file + ": exists and is not a directory"},
      {"output dir good", rule::output_directory(), none, ""},
      {"text blank", rule::non_empty_text(), " ", "--opt ' ': must not be empty"},
      {"text good", rule::non_empty_text(), "x", ""},
  };
  for (const Case& c : cases) EXPECT_EQ(line_for(c.rule, c.value), c.line) << c.what;
}

TEST(CliChecks, OtherParseErrorsPointToTheHelpOnOneLine) {
  CommandLine cli;
  bool version = false;
  CLI::App app{"podperf", "podperf"};
  define_command_line(app, cli, version);
  const std::string line = parse_error(app, {"pairs", "--bogus"});
  EXPECT_NE(line.find("--bogus"), std::string::npos) << line;
  EXPECT_NE(line.find("podperf --help"), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
}

// Every subcommand's options, with the subcommand's name.
std::vector<std::pair<std::string, CLI::Option*>> every_option(CLI::App& app) {
  std::vector<std::pair<std::string, CLI::Option*>> out;
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    for (CLI::Option* opt : sub->get_options()) out.emplace_back(sub->get_name(), opt);
  }
  return out;
}

bool takes_a_value(const CLI::Option& opt) {
  return opt.get_items_expected_max() > 0;
}

bool has_rule(CLI::Option& opt) {
  for (int i = 0;; ++i) {
    try {
      if (opt.get_validator(i)->get_name().rfind(std::string(rule::kValidatorPrefix), 0) == 0) return true;
    } catch (const CLI::OptionNotFound&) {
      return false;
    }
  }
}

TEST(CliChecks, EveryOptionThatTakesAValueIsCheckedByARule) {
  CommandLine cli;
  bool version = false;
  CLI::App app{"podperf", "podperf"};
  define_command_line(app, cli, version);
  int checked = 0;
  for (const auto& [sub, opt] : every_option(app)) {
    if (!takes_a_value(*opt)) continue;
    EXPECT_TRUE(has_rule(*opt)) << "podperf " << sub << " " << opt->get_name();
    ++checked;
  }
  EXPECT_GT(checked, 100);  // pairs, run, fs, collective, accept, signals, report, compare, sweep, triage
}

TEST(CliChecks, EveryFloatingPointOptionRefusesNanAndInfinities) {
  int floats = 0;
  CommandLine probe_cli;
  bool probe_version = false;
  CLI::App probe{"podperf", "podperf"};
  define_command_line(probe, probe_cli, probe_version);
  for (const auto& [sub, opt] : every_option(probe)) {
    if (!takes_a_value(*opt) || opt->get_type_name().rfind("FLOAT", 0) != 0) continue;
    ++floats;
    for (const char* bad : {"nan", "inf", "-inf", "NAN", "infinity"}) {
      CommandLine cli;  // a fresh command line per parse: CLI11 keeps what it parsed
      bool version = false;
      CLI::App app{"podperf", "podperf"};
      define_command_line(app, cli, version);
      const std::string line = parse_error(app, {sub, opt->get_name(), bad});
      EXPECT_EQ(line.rfind(opt->get_name() + " " + bad + ": must be a finite number", 0), 0u)
          << "podperf " << sub << " " << opt->get_name() << " " << bad << ": " << line;
    }
  }
  // --timeout (5 job commands), --sample, --threshold (3), --allowance, --fail-on, --min-change,
  // --alpha, sweep --timeout, --fsx-capacity-tib and --expected-mb-s (3 each).
  EXPECT_GE(floats, 18);
}

TEST(CliChecks, MissingInputsAndEmptyPathsAreRefusedForEveryCommand) {
  const TempDir tmp;
  const std::string none = tmp.str("none");
  const std::vector<std::vector<std::string>> bad = {
      {"signals", "--root", none},
      {"signals", "--rules", none},
      {"report", none},
      {"report", tmp.str(), "--out", ""},
      {"compare", none, tmp.str()},
      {"compare", "--before", none},
      {"triage", none},
      {"sweep", none + ".toml"},
      {"sweep", "x", "--hostfile", none},
      {"fs", "--path", none},
      {"run", "--fs-path", none},
      {"accept", "--fs-path", ""},
      {"accept", "--from", none},
      {"pairs", "--out", ""},
      {"pairs", "--config", none},
      {"pairs", "--topology", none},
      {"pairs", "--signals-root", none},
      {"accept", "--junit", ""},
      {"collective", "--run-id", ""},
      {"pairs", "--sim-model", none + ".toml"},
  };
  for (const std::vector<std::string>& args : bad) {
    CommandLine cli;
    bool version = false;
    CLI::App app{"podperf", "podperf"};
    define_command_line(app, cli, version);
    const std::string line = parse_error(app, args);
    const bool named = line.find("No such file or directory") != std::string::npos ||
                       line.find("must not be empty") != std::string::npos;
    EXPECT_TRUE(named) << args[0] << " " << args[1] << ": " << line;
  }
}

}  // namespace
}  // namespace podperf

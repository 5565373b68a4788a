#pragma once
// podperf compare's thresholds: configs/compare.toml (embedded) or a file given on the command line,
// then command-line overrides. Floor: analysis/; local. The loaders throw ConfigError naming the
// file, line and key.
#include <string>
#include <string_view>

namespace podperf {

// Thresholds of podperf compare (configs/compare.toml, command-line overrides).
struct CompareSettings {
  double alpha = 0.05;              // significance level of the two-sided run-level test (Welch's t)
  double min_change_percent = 2.0;  // a significant change smaller than this is noise
  double confidence = 0.95;         // of the interval of the change
  double power = 0.8;               // of the minimum detectable effect stated with every "no change"
  // One run on a side: no test (iterations of one run are not independent); a metric whose change exceeds
  // this many percent is reported as beyond the run-to-run allowance (and a regression beyond it exits 1).
  double single_run_allowance_percent = 25.0;
  // benjamini-hochberg: p values adjusted for the number of metrics tested (false discovery rate), so a
  // run with thousands of pairs does not call some of them changed by chance; none: raw p values.
  std::string correction = "benjamini-hochberg";
  // Shared noise: each metric's run-to-run variance moderated with the metrics of its kind and size
  // (an empirical-Bayes prior, analysis/stats/variance_prior); false: each metric's own spread alone.
  bool moderate_variance = true;
  // A metric whose own spread lies beyond what the prior allows for the most extreme of its metrics at
  // this p (the 1 - p / metrics quantile: Bonferroni over them) keeps its own variance and degrees of
  // freedom: one noisy pair must not borrow the calm of the others.
  double variance_outlier_p = 0.05;
  // A side whose runs' spread is at least this many times the other side's (and significantly so) is
  // named less consistent.
  double consistency_ratio = 2.0;
  // Not in the file: the command's --fail-on and --max-mde, so that the verdict is decided once, by
  // the judge (Comparison::outcome).
  double fail_on_percent = 0.0;
  double max_mde_percent = -1.0;  // < 0: not given
  std::string source;             // where the settings came from
};

// Parses TOML text ([compare] table); throws ConfigError naming `source`, line and key.
CompareSettings parse_compare_settings(std::string_view toml_text, const std::string& source);
// Loads `path`, or the embedded configs/compare.toml when path is empty. Throws ConfigError.
CompareSettings load_compare_settings(const std::string& path);

}  // namespace podperf

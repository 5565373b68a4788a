// podperf compare's thresholds from TOML ([compare] checked key by key). Floor: analysis/; local;
// throws ConfigError (file, line, key, what was expected).
#include "analysis/config/compare_settings.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <optional>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"

namespace podperf {
namespace {

// compare.KEY: a number (a whole one when `whole`) in [lo, hi]. Throws ConfigError naming the line.
double require_number(const toml::table& table, std::string_view key, double lo, double hi, bool whole,
                      const std::string& source) {
  const toml::node* node = table.get(key);
  if (node == nullptr) throw ConfigError(fmt::format("{}: missing key 'compare.{}'", source, key));
  if (whole ? !node->is_integer() : !(node->is_floating_point() || node->is_integer())) {
    throw ConfigError(fmt::format("{}: 'compare.{}' must be a {}", toml_where(source, *node), key,
                                  whole ? "whole number" : "number"));
  }
  const double value = *node->value<double>();
  if (!(value >= lo && value <= hi)) {
    throw ConfigError(fmt::format("{}: 'compare.{}' = {} is out of range (expected {} to {})",
                                  toml_where(source, *node), key, value, lo, hi));
  }
  return value;
}

}  // namespace

CompareSettings parse_compare_settings(std::string_view toml_text, const std::string& source) {
  const toml::table root = toml_parse(toml_text, source);
  toml_reject_unknown(root, {"compare"}, "", source);
  const toml::node* node = root.get("compare");
  if (node == nullptr) throw ConfigError(fmt::format("{}: missing table [compare]", source));
  const toml::table* t = node->as_table();
  if (t == nullptr) throw ConfigError(fmt::format("{}: [compare] must be a table", toml_where(source, *node)));
  toml_reject_unknown(
      *t,
      {"alpha", "min_change_percent", "confidence", "power", "single_run_allowance_percent", "correction",
       // Optional (older files without them load with the defaults):
       "moderate_variance", "variance_outlier_p", "consistency_ratio",
       // Accepted and ignored since the run-level method (issue 19), so older files still load:
       "min_samples", "bootstrap_resamples"},
      "compare.", source);
  CompareSettings s;
  s.source = source;
  s.alpha = require_number(*t, "alpha", 1e-6, 0.5, false, source);
  s.min_change_percent = require_number(*t, "min_change_percent", 0.0, 1000.0, false, source);
  s.confidence = require_number(*t, "confidence", 0.5, 0.9999, false, source);
  s.power = require_number(*t, "power", 0.5, 0.999, false, source);
  s.single_run_allowance_percent = require_number(*t, "single_run_allowance_percent", 0.0, 1000.0, false, source);
  const toml::node* corr = t->get("correction");
  if (corr == nullptr) throw ConfigError(fmt::format("{}: missing key 'compare.correction'", source));
  const std::optional<std::string> corr_value = corr->value<std::string>();
  if (!corr_value || (*corr_value != "benjamini-hochberg" && *corr_value != "none")) {
    throw ConfigError(
        fmt::format("{}: 'compare.correction' must be \"benjamini-hochberg\" or \"none\"", toml_where(source, *corr)));
  }
  s.correction = *corr_value;
  if (const toml::node* mod = t->get("moderate_variance")) {
    const std::optional<bool> on = mod->value<bool>();
    if (!on || !mod->is_boolean()) {
      throw ConfigError(fmt::format("{}: 'compare.moderate_variance' must be true or false", toml_where(source, *mod)));
    }
    s.moderate_variance = *on;
  }
  if (t->contains("variance_outlier_p"))
    s.variance_outlier_p = require_number(*t, "variance_outlier_p", 0.0, 0.5, false, source);
  if (t->contains("consistency_ratio"))
    s.consistency_ratio = require_number(*t, "consistency_ratio", 1.0, 100.0, false, source);
  return s;
}

CompareSettings load_compare_settings(const std::string& path) {
  std::string source;
  const std::string text = config_text(path, "compare.toml", "compare settings file", source);
  return parse_compare_settings(text, source);
}

}  // namespace podperf

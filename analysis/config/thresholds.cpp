#include "analysis/config/thresholds.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <set>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"
#include "analysis/base/toml_require.hpp"

namespace podperf {
namespace {

double require_fraction(const toml::table& table, std::string_view key, std::string_view prefix, double lo, double hi,
                        const std::string& source) {
  const toml::node* node = table.get(key);
  if (node == nullptr) throw ConfigError(fmt::format("{}: missing key '{}{}'", source, prefix, key));
  std::optional<double> value = node->value<double>();
  if (!value || !(node->is_floating_point() || node->is_integer())) {
    throw ConfigError(fmt::format("{}: '{}{}' must be a number", toml_where(source, *node), prefix, key));
  }
  if (!(*value >= lo && *value <= hi)) {
    throw ConfigError(fmt::format("{}: '{}{}' = {} is out of range (expected {} to {})", toml_where(source, *node),
                                  prefix, key, *value, lo, hi));
  }
  return *value;
}

int require_count(const toml::table& table, std::string_view key, std::string_view prefix, double lo, double hi,
                  const std::string& source) {
  const toml::node* node = table.get(key);
  if (node != nullptr && !node->is_integer()) {
    throw ConfigError(fmt::format("{}: '{}{}' must be a whole number", toml_where(source, *node), prefix, key));
  }
  return static_cast<int>(require_fraction(table, key, prefix, lo, hi, source));
}

}  // namespace

Thresholds parse_thresholds(std::string_view toml_text, const std::string& source) {
  const toml::table root = toml_parse(toml_text, source);
  toml_reject_unknown(root, {"pairs", "fs", "topology"}, "", source);
  const toml::table& pairs = toml_require_table(root, "pairs", source);
  toml_reject_unknown(pairs,
                      {"threshold", "noise_factor", "spread_factor", "max_spread_fraction", "baseline_max_passes",
                       "baseline_min_kept_fraction", "intermittent_min_links", "link_family_alpha", "node_family_alpha",
                       "class_family_alpha",
                       "noise_prior", "noise_prior_df", "min_pair_noise", "half_split_max_ratio",
                       "min_cleared_partners", "stall_factor", "stall_min_iterations"},
                      "pairs.", source);
  Thresholds out;
  out.source = source;
  out.pairs.threshold = require_fraction(pairs, "threshold", "pairs.", 0.0, 1.0, source);
  out.pairs.noise_factor = require_fraction(pairs, "noise_factor", "pairs.", 0.0, 100.0, source);
  out.pairs.spread_factor = require_fraction(pairs, "spread_factor", "pairs.", 0.0, 100.0, source);
  out.pairs.max_spread_fraction = require_fraction(pairs, "max_spread_fraction", "pairs.", 0.0, 1.0, source);
  out.pairs.baseline_max_passes = require_count(pairs, "baseline_max_passes", "pairs.", 1.0, 10000.0, source);
  out.pairs.baseline_min_kept_fraction =
      require_fraction(pairs, "baseline_min_kept_fraction", "pairs.", 0.0, 1.0, source);
  out.pairs.intermittent_min_links = require_count(pairs, "intermittent_min_links", "pairs.", 2.0, 1e9, source);
  out.pairs.link_family_alpha = require_fraction(pairs, "link_family_alpha", "pairs.", 1e-12, 1.0, source);
  out.pairs.node_family_alpha = require_fraction(pairs, "node_family_alpha", "pairs.", 1e-12, 0.5, source);
  out.pairs.class_family_alpha = require_fraction(pairs, "class_family_alpha", "pairs.", 1e-12, 0.5, source);
  out.pairs.noise_prior = require_fraction(pairs, "noise_prior", "pairs.", 0.0, 1.0, source);
  out.pairs.noise_prior_df = require_fraction(pairs, "noise_prior_df", "pairs.", 0.0, 1000.0, source);
  out.pairs.min_pair_noise = require_fraction(pairs, "min_pair_noise", "pairs.", 0.0, 1.0, source);
  out.pairs.half_split_max_ratio = require_fraction(pairs, "half_split_max_ratio", "pairs.", 0.0, 1.0, source);
  out.pairs.min_cleared_partners = require_count(pairs, "min_cleared_partners", "pairs.", 1.0, 1e9, source);
  out.pairs.stall_factor = require_fraction(pairs, "stall_factor", "pairs.", 1.0, 1e6, source);
  out.pairs.stall_min_iterations = require_count(pairs, "stall_min_iterations", "pairs.", 1.0, 1e9, source);

  // [fs] after [pairs], so a [pairs] error is reported the same with or without an [fs] table.
  const toml::table& fs = toml_require_table(root, "fs", source);
  toml_reject_unknown(
      fs,
      {"threshold", "spread_factor", "max_spread_fraction", "baseline_max_passes", "baseline_min_kept_fraction",
       "saturation_fraction", "cache_warn_fraction", "resolution_seconds"},
      "fs.", source);
  out.fs.threshold = require_fraction(fs, "threshold", "fs.", 0.0, 1.0, source);
  out.fs.spread_factor = require_fraction(fs, "spread_factor", "fs.", 0.0, 100.0, source);
  out.fs.max_spread_fraction = require_fraction(fs, "max_spread_fraction", "fs.", 0.0, 1.0, source);
  out.fs.baseline_max_passes = require_count(fs, "baseline_max_passes", "fs.", 1.0, 10000.0, source);
  out.fs.baseline_min_kept_fraction = require_fraction(fs, "baseline_min_kept_fraction", "fs.", 0.0, 1.0, source);
  out.fs.saturation_fraction = require_fraction(fs, "saturation_fraction", "fs.", 0.0, 1.0, source);
  out.fs.cache_warn_fraction = require_fraction(fs, "cache_warn_fraction", "fs.", 0.0, 1.0, source);
  out.fs.resolution_seconds = require_fraction(fs, "resolution_seconds", "fs.", 0.0, 86400.0, source);

  const toml::table& topology = toml_require_table(root, "topology", source);
  toml_reject_unknown(topology, {"slower_fraction", "min_pairs"}, "topology.", source);
  out.topology.slower_fraction = require_fraction(topology, "slower_fraction", "topology.", 0.0, 1.0, source);
  out.topology.min_pairs = require_count(topology, "min_pairs", "topology.", 1.0, 1e9, source);
  return out;
}

std::string thresholds_toml(const Thresholds& t) {
  std::string out;
  const auto number = [&out](std::string_view key, double value) { out += fmt::format("{} = {:.17g}\n", key, value); };
  const auto count = [&out](std::string_view key, int value) { out += fmt::format("{} = {}\n", key, value); };
  const PairThresholds& p = t.pairs;
  out += "[pairs]\n";
  number("threshold", p.threshold);
  number("noise_factor", p.noise_factor);
  number("spread_factor", p.spread_factor);
  number("max_spread_fraction", p.max_spread_fraction);
  count("baseline_max_passes", p.baseline_max_passes);
  number("baseline_min_kept_fraction", p.baseline_min_kept_fraction);
  count("intermittent_min_links", p.intermittent_min_links);
  number("link_family_alpha", p.link_family_alpha);
  number("node_family_alpha", p.node_family_alpha);
  number("class_family_alpha", p.class_family_alpha);
  number("noise_prior", p.noise_prior);
  number("noise_prior_df", p.noise_prior_df);
  number("min_pair_noise", p.min_pair_noise);
  number("half_split_max_ratio", p.half_split_max_ratio);
  count("min_cleared_partners", p.min_cleared_partners);
  number("stall_factor", p.stall_factor);
  count("stall_min_iterations", p.stall_min_iterations);
  const FsThresholds& f = t.fs;
  out += "[fs]\n";
  number("threshold", f.threshold);
  number("spread_factor", f.spread_factor);
  number("max_spread_fraction", f.max_spread_fraction);
  count("baseline_max_passes", f.baseline_max_passes);
  number("baseline_min_kept_fraction", f.baseline_min_kept_fraction);
  number("saturation_fraction", f.saturation_fraction);
  number("cache_warn_fraction", f.cache_warn_fraction);
  number("resolution_seconds", f.resolution_seconds);
  out += "[topology]\n";
  number("slower_fraction", t.topology.slower_fraction);
  count("min_pairs", t.topology.min_pairs);
  return out;
}

Thresholds load_thresholds(const std::string& path) {
  std::string source;
  const std::string text = config_text(path, "thresholds.toml", "config file", source);
  return parse_thresholds(text, source);
}

}  // namespace podperf

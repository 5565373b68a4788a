#include "analysis/config/accept_profiles.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "analysis/base/embedded_configs.hpp"
#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"
#include "analysis/base/toml_require.hpp"
#include "analysis/base/units.hpp"
#include "analysis/config/fs_probes.hpp"

namespace podperf {
namespace {

constexpr std::string_view kPrefix = "profiles/";

// A size key ("1G"): the text and its bytes. ConfigError naming the key when parse_size refuses it.
std::uint64_t require_size(const TomlCtx& c, std::string_view key, std::string& text) {
  text = toml_require_string(c, key);
  try {
    const std::uint64_t bytes = parse_size(text, key);
    if (bytes == 0) throw UsageError("zero");
    return bytes;
  } catch (const UsageError&) {
    throw ConfigError(fmt::format("{}: '{}{}' = \"{}\" is not a size (expected e.g. \"64M\", \"1G\")",
                                  toml_where(c.source, toml_require_node(c, key)), c.prefix, key, text));
  }
}

}  // namespace

Profile parse_profile(std::string_view toml_text, const std::string& name, const std::string& source) {
  const toml::table root = toml_parse(toml_text, source);
  toml_reject_unknown(root, {"profile", "pairs", "fs", "judge"}, "", source);
  Profile out;
  out.name = name;
  out.source = source;

  const TomlCtx head{toml_require_table(root, "profile", source), "profile.", source};
  toml_reject_unknown(head.table, {"description", "stages"}, "profile.", source);
  out.description = toml_require_string(head, "description");
  const std::vector<std::string> stages = toml_require_strings(head, "stages");
  for (const std::string& s : stages) {
    if (s == "pairs") {
      out.pairs_stage = true;
    } else if (s == "fs") {
      out.fs_stage = true;
    } else {
      throw ConfigError(fmt::format("{}: 'profile.stages' has unknown stage \"{}\" (expected pairs, fs)",
                                    toml_where(source, toml_require_node(head, "stages")), s));
    }
  }
  if (stages.empty()) {
    throw ConfigError(fmt::format("{}: 'profile.stages' is empty (expected pairs, fs or both)",
                                  toml_where(source, toml_require_node(head, "stages"))));
  }
  // A table for a stage the profile does not run would be ignored silently: refuse it.
  for (const auto& [stage, on] : {std::pair{"pairs", out.pairs_stage}, std::pair{"fs", out.fs_stage}}) {
    const toml::node* table = root.get(stage);
    if (table != nullptr && !on) {
      throw ConfigError(fmt::format("{}: [{}] given but 'profile.stages' does not list \"{}\"",
                                    toml_where(source, *table), stage, stage));
    }
  }

  if (out.pairs_stage) {
    const TomlCtx c{toml_require_table(root, "pairs", source), "pairs.", source};
    toml_reject_unknown(c.table, {"min_bytes", "max_bytes", "step_factor", "iters", "warmup", "retest", "concurrency"},
                        "pairs.", source);
    out.pairs.min_size_bytes = require_size(c, "min_bytes", out.pairs.min_bytes);
    out.pairs.max_size_bytes = require_size(c, "max_bytes", out.pairs.max_bytes);
    if (out.pairs.min_size_bytes > out.pairs.max_size_bytes) {
      throw ConfigError(fmt::format("{}: 'pairs.min_bytes' = \"{}\" is larger than 'pairs.max_bytes' = \"{}\"",
                                    toml_where(source, toml_require_node(c, "min_bytes")), out.pairs.min_bytes,
                                    out.pairs.max_bytes));
    }
    out.pairs.step_factor = static_cast<int>(toml_require_int(c, "step_factor", 2, 1024));
    out.pairs.iters = static_cast<int>(toml_require_int(c, "iters", 1, 1000000));
    out.pairs.warmup = static_cast<int>(toml_require_int(c, "warmup", 0, 1000000));
    out.pairs.retest = static_cast<int>(toml_require_int(c, "retest", 0, 10));
    out.pairs.concurrency = toml_require_string(c, "concurrency");
    if (out.pairs.concurrency != "round" && out.pairs.concurrency != "sequential") {
      throw ConfigError(fmt::format("{}: 'pairs.concurrency' = \"{}\" (expected \"round\" or \"sequential\")",
                                    toml_where(source, toml_require_node(c, "concurrency")), out.pairs.concurrency));
    }
  }

  if (out.fs_stage) {
    const TomlCtx c{toml_require_table(root, "fs", source), "fs.", source};
    toml_reject_unknown(c.table,
                        {"probes", "file_size", "block_size", "rand_ops", "meta_files", "ckpt_shard_size",
                         "ckpt_shards", "direct", "floor_write_mb_s", "floor_read_mb_s"},
                        "fs.", source);
    out.fs.probes = toml_require_string(c, "probes");
    if (!is_fs_probe_list(out.fs.probes)) {
      throw ConfigError(fmt::format("{}: 'fs.probes' = \"{}\" (expected a comma list of {})",
                                    toml_where(source, toml_require_node(c, "probes")), out.fs.probes,
                                    fs_probe_options_text()));
    }
    (void)require_size(c, "file_size", out.fs.file_size);
    (void)require_size(c, "block_size", out.fs.block_size);
    out.fs.rand_ops = static_cast<int>(toml_require_int(c, "rand_ops", 1, 100000000));
    out.fs.meta_files = static_cast<int>(toml_require_int(c, "meta_files", 1, 10000000));
    (void)require_size(c, "ckpt_shard_size", out.fs.ckpt_shard_size);
    out.fs.ckpt_shards = static_cast<int>(toml_require_int(c, "ckpt_shards", 1, 1000));
    out.fs.direct = toml_require_bool(c, "direct");
    out.fs.floor_write_mb_s = toml_require_number(c, "floor_write_mb_s", 0.0, 1e9);
    out.fs.floor_read_mb_s = toml_require_number(c, "floor_read_mb_s", 0.0, 1e9);
  }

  const TomlCtx judge{toml_require_table(root, "judge", source), "judge.", source};
  toml_reject_unknown(judge.table, {"blocking_findings", "slow_link", "busbw_min_fraction"}, "judge.", source);
  out.blocking_findings = toml_require_strings(judge, "blocking_findings");
  static const std::regex kCheckId("^[a-z]+\\.[a-z0-9_]+$");
  for (const std::string& id : out.blocking_findings) {
    if (!std::regex_match(id, kCheckId)) {
      throw ConfigError(fmt::format(
          "{}: 'judge.blocking_findings' has \"{}\", not a finding check id (expected e.g. \"signals.xid\")",
          toml_where(source, toml_require_node(judge, "blocking_findings")), id));
    }
  }
  out.slow_link = toml_require_string(judge, "slow_link");
  if (out.slow_link != "WARN" && out.slow_link != "FAIL") {
    throw ConfigError(fmt::format("{}: 'judge.slow_link' = \"{}\" (expected \"WARN\" or \"FAIL\")",
                                  toml_where(source, toml_require_node(judge, "slow_link")), out.slow_link));
  }
  out.busbw_min_fraction = toml_require_number(judge, "busbw_min_fraction", 0.0, 1.0);
  return out;
}

std::vector<std::string> builtin_profiles() {
  return embedded_config_names(kPrefix);
}

Profile load_profile(const std::string& name_or_file) {
  std::string source;
  const std::string text = named_config_text(name_or_file, kPrefix, "profile", source);
  return parse_profile(text, name_or_file, source);
}

}  // namespace podperf

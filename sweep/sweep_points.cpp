#include "sweep/sweep_points.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"
#include "analysis/base/toml_require.hpp"
#include "analysis/base/units.hpp"
#include "sweep/splitmix.hpp"

namespace podperf {
namespace {

constexpr std::string_view kDir = "sweeps/";
constexpr std::size_t kMaxPoints = 1000;
const std::set<std::string> kOps = {"all_reduce", "all_gather", "reduce_scatter", "alltoall",
                                    "broadcast",  "reduce",     "sendrecv"};

std::string where(const std::string& source, const toml::node& node) {
  return toml_where(source, node);
}

// Printable ASCII as is, anything else escaped: labels go to terminals and tables.
std::string printable(std::string_view s) {
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out.push_back(ch);
    }
  }
  return out;
}

std::vector<std::string> string_array(const toml::node& node, const std::string& key, const std::string& source) {
  const toml::array* array = node.as_array();
  if (array == nullptr)
    throw ConfigError(fmt::format("{}: '{}' must be an array of strings", where(source, node), key));
  std::vector<std::string> out;
  for (const toml::node& item : *array) {
    const auto v = item.value<std::string>();
    if (!item.is_string() || !v) {
      throw ConfigError(fmt::format("{}: '{}' must be an array of strings", where(source, item), key));
    }
    out.push_back(*v);
  }
  return out;
}

// An environment value: a string, or a whole number written without quotes (NCCL_MIN_NCHANNELS = 8).
std::string env_value(const toml::node& node, const std::string& key, const std::string& source) {
  if (node.is_string()) return *node.value<std::string>();
  if (node.is_integer()) return std::to_string(*node.value<std::int64_t>());
  throw ConfigError(fmt::format("{}: '{}' must be a string or a whole number", where(source, node), key));
}

void check_env_name(const std::string& name, const toml::node& node, const std::string& source) {
  static const std::regex kName("^[A-Za-z_][A-Za-z0-9_]*$");
  if (!std::regex_match(name, kName)) {
    throw ConfigError(
        fmt::format("{}: environment variable name '{}' is not a NAME (letters, digits and '_', not "
                    "starting with a digit)",
                    where(source, node), printable(name)));
  }
}

void check_sizes(const std::string& text, const std::string& key, const toml::node& node, const std::string& source) {
  const auto colon = text.find(':');
  const std::string lo = text.substr(0, colon);
  const std::string hi = colon == std::string::npos ? lo : text.substr(colon + 1);
  try {
    const std::uint64_t a = parse_size(lo, key);
    const std::uint64_t b = parse_size(hi, key);
    if (a == 0 || b == 0) throw UsageError("zero");
    if (a > b) {
      throw ConfigError(fmt::format("{}: '{}' = \"{}\": the smallest size is larger than the largest",
                                    where(source, node), key, printable(text)));
    }
  } catch (const ConfigError&) {
    throw;
  } catch (const UsageError&) {
    throw ConfigError(
        fmt::format("{}: '{}' = \"{}\" is not a size or MIN:MAX range (expected e.g. \"64M\" or "
                    "\"1M:1G\")",
                    where(source, node), key, printable(text)));
  }
}

void check_op(const std::string& op, const std::string& command, const std::string& key, const toml::node& node,
              const std::string& source) {
  std::size_t start = 0;
  int count = 0;
  while (true) {
    const auto comma = op.find(',', start);
    const std::string one = op.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    ++count;
    if (!kOps.contains(one) && !(command == "collective" && one == "all" && op == "all")) {
      throw ConfigError(
          fmt::format("{}: '{}' has unknown op \"{}\" (expected all_reduce, all_gather, reduce_scatter, "
                      "alltoall, broadcast, reduce, sendrecv)",
                      where(source, node), key, printable(one)));
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (command == "pairs" && count > 1) {
    throw ConfigError(
        fmt::format("{}: '{}' = \"{}\": podperf pairs takes one op", where(source, node), key, printable(op)));
  }
}

// Does `arg` spell the option `name` ("--op", "--op=x"; "-b", "-b1M")?
bool spells(const std::string& arg, const std::string& name) {
  if (arg == name) return true;
  if (name.starts_with("--")) return arg.starts_with(name + "=");
  return arg.starts_with(name) && arg.size() > name.size();
}

void check_base_args(const SweepSpec& spec, const toml::node& node) {
  bool varies_op = false;
  bool varies_sizes = false;
  for (const SweepPoint& p : spec.points) {
    varies_op = varies_op || !p.op.empty();
    varies_sizes = varies_sizes || !p.sizes.empty();
  }
  for (const std::string& a : spec.args) {
    for (const char* owned : {"--out", "--run-id"}) {
      if (spells(a, owned)) {
        throw ConfigError(
            fmt::format("{}: 'sweep.args' has {}: the sweep sets it for every point (use podperf "
                        "sweep --out/--sweep-id)",
                        where(spec.source, node), owned));
      }
    }
    if (varies_op && spells(a, "--op")) {
      throw ConfigError(fmt::format("{}: 'sweep.args' has --op but the points set the op", where(spec.source, node)));
    }
    for (const char* s : {"-b", "--minbytes", "-e", "--maxbytes"}) {
      if (varies_sizes && spells(a, s)) {
        throw ConfigError(
            fmt::format("{}: 'sweep.args' has {} but the points set the sizes (-b/-e)", where(spec.source, node), s));
      }
    }
  }
}

SweepLaunch parse_launch(const toml::table& t, const std::string& source) {
  toml_reject_unknown(t, {"argv", "mpi", "np", "hostfile", "srun_args", "mpirun_args"}, "launch.", source);
  SweepLaunch l;
  const TomlCtx c{t, "launch.", source};
  if (t.contains("argv")) {
    l.argv = toml_require_strings(c, "argv");
    if (l.argv.empty() || l.argv[0].empty()) {
      throw ConfigError(fmt::format("{}: 'launch.argv' must start with the launcher program",
                                    where(source, toml_require_node(c, "argv"))));
    }
  }
  if (t.contains("mpi")) l.srun_mpi = toml_require_string(c, "mpi");
  if (t.contains("np")) l.np = static_cast<int>(toml_require_int(c, "np", 1, 1 << 24));
  if (t.contains("hostfile")) l.hostfile = toml_require_string(c, "hostfile");
  if (t.contains("srun_args")) l.srun_args = toml_require_strings(c, "srun_args");
  if (t.contains("mpirun_args")) l.mpirun_args = toml_require_strings(c, "mpirun_args");
  return l;
}

void expand_vary(const toml::table& t, SweepSpec& spec) {
  const std::string& source = spec.source;
  toml_reject_unknown(t, {"env", "sizes", "ops"}, "vary.", source);
  // Each dimension: a list of one-setting changes; the product of all dimensions.
  std::vector<std::vector<SweepPoint>> dims;
  if (const toml::node* envn = t.get("env")) {
    const toml::table* env = envn->as_table();
    if (env == nullptr) throw ConfigError(fmt::format("{}: 'vary.env' must be a table", where(source, *envn)));
    for (const auto& [k, v] : *env) {
      const std::string name(k.str());
      const std::string key = "vary.env." + name;
      check_env_name(name, v, source);
      const toml::array* values = v.as_array();
      if (values == nullptr || values->empty()) {
        throw ConfigError(fmt::format("{}: '{}' must be a non-empty array of values", where(source, v), key));
      }
      std::vector<SweepPoint> dim;
      for (const toml::node& item : *values) {
        SweepPoint p;
        p.env[name] = env_value(item, key, source);
        dim.push_back(p);
      }
      dims.push_back(dim);
    }
  }
  if (const toml::node* n = t.get("ops")) {
    std::vector<SweepPoint> dim;
    for (const std::string& op : string_array(*n, "vary.ops", source)) {
      check_op(op, spec.command, "vary.ops", *n, source);
      SweepPoint p;
      p.op = op;
      dim.push_back(p);
    }
    if (dim.empty()) throw ConfigError(fmt::format("{}: 'vary.ops' is empty", where(source, *n)));
    dims.push_back(dim);
  }
  if (const toml::node* n = t.get("sizes")) {
    std::vector<SweepPoint> dim;
    for (const std::string& s : string_array(*n, "vary.sizes", source)) {
      check_sizes(s, "vary.sizes", *n, source);
      SweepPoint p;
      p.sizes = s;
      dim.push_back(p);
    }
    if (dim.empty()) throw ConfigError(fmt::format("{}: 'vary.sizes' is empty", where(source, *n)));
    dims.push_back(dim);
  }
  if (dims.empty()) {
    throw ConfigError(fmt::format("{}: [vary] varies nothing (give env, ops or sizes)", where(source, t)));
  }
  std::vector<SweepPoint> points(1);
  for (const auto& dim : dims) {
    std::vector<SweepPoint> next;
    for (const SweepPoint& base : points) {
      for (const SweepPoint& change : dim) {
        SweepPoint p = base;
        for (const auto& [k, v] : change.env) p.env[k] = v;
        if (!change.op.empty()) p.op = change.op;
        if (!change.sizes.empty()) p.sizes = change.sizes;
        next.push_back(std::move(p));
      }
    }
    if (next.size() > kMaxPoints) {
      throw ConfigError(fmt::format("{}: [vary] gives more than {} points", where(source, t), kMaxPoints));
    }
    points = std::move(next);
  }
  spec.points = std::move(points);
}

void parse_points(const toml::node& node, SweepSpec& spec) {
  const std::string& source = spec.source;
  const toml::array* array = node.as_array();
  if (array == nullptr || array->empty()) {
    throw ConfigError(
        fmt::format("{}: 'points' must be a non-empty array of tables ([[points]])", where(source, node)));
  }
  if (array->size() > kMaxPoints) {
    throw ConfigError(fmt::format("{}: more than {} points", where(source, node), kMaxPoints));
  }
  for (const toml::node& item : *array) {
    const toml::table* t = item.as_table();
    if (t == nullptr) throw ConfigError(fmt::format("{}: each of 'points' must be a table", where(source, item)));
    toml_reject_unknown(*t, {"env", "op", "sizes", "args"}, "points.", source);
    SweepPoint p;
    const TomlCtx c{*t, "points.", source};
    if (const toml::node* envn = t->get("env")) {
      const toml::table* env = envn->as_table();
      if (env == nullptr) throw ConfigError(fmt::format("{}: 'points.env' must be a table", where(source, *envn)));
      for (const auto& [k, v] : *env) {
        const std::string name(k.str());
        check_env_name(name, v, source);
        p.env[name] = env_value(v, "points.env." + name, source);
      }
    }
    if (t->contains("op")) {
      p.op = toml_require_string(c, "op");
      check_op(p.op, spec.command, "points.op", toml_require_node(c, "op"), source);
    }
    if (t->contains("sizes")) {
      p.sizes = toml_require_string(c, "sizes");
      check_sizes(p.sizes, "points.sizes", toml_require_node(c, "sizes"), source);
    }
    if (t->contains("args")) p.args = toml_require_strings(c, "args");
    spec.points.push_back(std::move(p));
  }
}

std::string compact(const SweepPoint& p) {
  std::string s;
  auto add = [&](const std::string& part) {
    if (!s.empty()) s += '_';
    s += part;
  };
  for (const auto& [k, v] : p.env) add(k + "=" + v);
  if (!p.op.empty()) add(p.op);
  if (!p.sizes.empty()) add(p.sizes);
  for (const std::string& a : p.args) add(a);
  return s.empty() ? "base" : s;
}

}  // namespace

std::string SweepPoint::label() const {
  std::string s;
  auto add = [&](const std::string& part) {
    if (!s.empty()) s += ' ';
    s += printable(part);
  };
  for (const auto& [k, v] : env) add(k + "=" + v);
  if (!op.empty()) add("op=" + op);
  if (!sizes.empty()) add("sizes=" + sizes);
  for (const std::string& a : args) add(a);
  return s.empty() ? "(base command)" : s;
}

std::string safe_name(std::string_view text) {
  std::string out;
  for (char ch : text) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
                    ch == '_' || ch == '-' || ch == '=';
    out.push_back(ok ? ch : '_');
    if (out.size() >= 80) break;
  }
  if (out.empty() || out.find_first_not_of('.') == std::string::npos) out = "x" + out;
  return out;
}

SweepSpec parse_sweep(std::string_view toml_text, const std::string& source) {
  const toml::table root = toml_parse(toml_text, source);
  toml_reject_unknown(root, {"sweep", "launch", "vary", "points"}, "", source);
  SweepSpec spec;
  spec.source = source;
  const TomlCtx c{toml_require_table(root, "sweep", source), "sweep.", source};
  toml_reject_unknown(c.table, {"description", "command", "args", "metric", "timeout_s", "repeats", "seed"}, "sweep.",
                      source);
  spec.description = toml_require_string(c, "description");
  spec.command = toml_require_string(c, "command");
  if (spec.command != "collective" && spec.command != "pairs") {
    throw ConfigError(fmt::format("{}: 'sweep.command' = \"{}\" (expected \"collective\" or \"pairs\")",
                                  where(source, toml_require_node(c, "command")), printable(spec.command)));
  }
  spec.args = toml_require_strings(c, "args");
  spec.metric = toml_require_string(c, "metric");
  if (spec.metric != "busbw") {
    throw ConfigError(fmt::format("{}: 'sweep.metric' = \"{}\" (expected \"busbw\": bus bandwidth per message size)",
                                  where(source, toml_require_node(c, "metric")), printable(spec.metric)));
  }
  if (c.table.contains("timeout_s")) spec.timeout_s = toml_require_number(c, "timeout_s", 1.0, 7.0 * 24 * 3600);
  if (c.table.contains("repeats")) spec.repeats = static_cast<int>(toml_require_int(c, "repeats", 1, kMaxSweepRepeats));
  if (c.table.contains("seed")) {
    spec.seed = static_cast<std::uint64_t>(toml_require_int(c, "seed", 0, std::int64_t{1} << 53));
  }
  if (root.contains("launch")) spec.launch = parse_launch(toml_require_table(root, "launch", source), source);

  const toml::node* vary = root.get("vary");
  const toml::node* points = root.get("points");
  if ((vary == nullptr) == (points == nullptr)) {
    throw ConfigError(fmt::format("{}: give exactly one of [vary] (every combination) or [[points]] (a list)",
                                  vary != nullptr ? where(source, *points) : source));
  }
  if (vary != nullptr) {
    expand_vary(toml_require_table(root, "vary", source), spec);
  } else {
    parse_points(*points, spec);
  }
  check_base_args(spec, toml_require_node(c, "args"));
  std::set<std::string> seen;
  for (std::size_t i = 0; i < spec.points.size(); ++i) {
    SweepPoint& p = spec.points[i];
    p.index = static_cast<int>(i) + 1;
    p.name = fmt::format("point-{:02}-{}", p.index, safe_name(compact(p)));
    const std::string key = p.label();
    if (!seen.insert(key).second) {
      throw ConfigError(fmt::format("{}: point {} ({}) is listed twice", source, p.index, key));
    }
  }
  return spec;
}

SweepSpec load_sweep(const std::string& name_or_file) {
  std::string source;
  const std::string text = named_config_text(name_or_file, kDir, "sweep", source);
  return parse_sweep(text, source);
}

std::vector<std::string> builtin_sweeps() {
  return embedded_config_names(kDir);
}

std::vector<SweepJob> sweep_job_order(const SweepSpec& spec) {
  std::vector<SweepJob> out;
  const std::size_t n = spec.points.size();
  out.reserve(n * static_cast<std::size_t>(std::max(spec.repeats, 1)));
  for (int cycle = 1; cycle <= std::max(spec.repeats, 1); ++cycle) {
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    SplitMix rng{spec.seed * 0x100000001b3ULL + static_cast<std::uint64_t>(cycle)};
    for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    for (std::size_t i : order) {
      const SweepPoint& p = spec.points[i];
      out.push_back(SweepJob{&p, cycle, spec.repeats > 1 ? fmt::format("{}-r{}", p.name, cycle) : p.name});
    }
  }
  return out;
}

std::vector<std::string> point_podperf_args(const SweepSpec& spec, const SweepPoint& point) {
  std::vector<std::string> out{spec.command};
  out.insert(out.end(), spec.args.begin(), spec.args.end());
  if (!point.op.empty()) {
    out.push_back("--op");
    out.push_back(point.op);
  }
  if (!point.sizes.empty()) {
    const auto colon = point.sizes.find(':');
    out.push_back("-b");
    out.push_back(point.sizes.substr(0, colon));
    out.push_back("-e");
    out.push_back(colon == std::string::npos ? point.sizes : point.sizes.substr(colon + 1));
  }
  out.insert(out.end(), point.args.begin(), point.args.end());
  return out;
}

}  // namespace podperf

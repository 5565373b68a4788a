// The commands the pair test's findings suggest (see rerun_command.hpp). Floor: analysis/pairs; pure.
#include "analysis/pairs/rerun_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>

#include "analysis/base/units.hpp"

namespace podperf {
namespace {

const NodeInfo* node_at(const Run& run, int node) {
  if (node < 0 || static_cast<std::size_t>(node) >= run.nodes.size()) return nullptr;
  return &run.nodes[static_cast<std::size_t>(node)];
}

// The launcher part: "srun ... " / "mpirun ... " (with a trailing space), or "" for the modelled fabric.
std::string launcher_prefix(const Run& run, const std::vector<int>& nodes) {
  if (run.simulated || run.backend == "sim") return "";
  const bool is_virtual =
      std::any_of(run.nodes.begin(), run.nodes.end(), [](const NodeInfo& n) { return n.is_virtual; });
  if (is_virtual) return fmt::format("mpirun -np {} ", std::max(run.ranks, 2));
  std::vector<std::string> hosts;
  std::set<std::string> seen;
  std::size_t ranks_per_node = 1;
  for (int node : nodes) {
    const NodeInfo* info = node_at(run, node);
    if (info == nullptr || !seen.insert(info->hostname).second) continue;
    hosts.push_back(info->hostname);
    ranks_per_node = std::max(ranks_per_node, info->ranks.size());
  }
  if (hosts.empty()) return "";
  const std::string list = fmt::format("{}", fmt::join(hosts, ","));
  if (run.launcher.kind == "slurm") {
    return fmt::format("srun --mpi=pmix -N{} -w {} --ntasks-per-node={} ", hosts.size(), list, ranks_per_node);
  }
  std::vector<std::string> slots;
  for (const std::string& h : hosts) slots.push_back(fmt::format("{}:{}", h, ranks_per_node));
  return fmt::format("mpirun -np {} -H {} ", hosts.size() * ranks_per_node, fmt::join(slots, ","));
}

std::string sim_model_name(const Run& run) {
  std::string model = run.sim_model;
  constexpr std::string_view kBuiltIn = " (built in)";
  if (model.ends_with(kBuiltIn)) {
    model = std::filesystem::path(model.substr(0, model.size() - kBuiltIn.size())).stem().string();
  }
  return model.empty() ? "healthy" : model;
}

// -b/-e (the judged size as asked for), -n, -w, op and type, threshold and config.
std::string measure_options(const Run& run) {
  std::uint64_t size = run.judged_size_bytes;
  if (!run.options.sizes_bytes.empty())
    size = *std::max_element(run.options.sizes_bytes.begin(), run.options.sizes_bytes.end());
  std::string out;
  if (size > 0) out += fmt::format(" -b {0} -e {0}", format_size(size));
  if (run.options.iters > 0) out += fmt::format(" -n {}", run.options.iters);
  if (run.options.warmup > 0) out += fmt::format(" -w {}", run.options.warmup);
  if (!run.options.op.empty() && run.options.op != "all_reduce") out += " --op " + run.options.op;
  if (!run.options.dtype.empty() && run.options.dtype != "float") out += " -d " + run.options.dtype;
  const std::string& source = run.thresholds.source;
  // A thresholds file given with --config (not the built-in one, nor a rebuild's note about it).
  if (!source.empty() && !source.ends_with("(built in)") && !source.starts_with("built-in") &&
      source.find(' ') == std::string::npos && source.find(':') == std::string::npos) {
    out += " --config " + source;
  }
  if (run.thresholds.pairs.threshold > 0.0 && run.thresholds.pairs.threshold != 0.05) {
    out += fmt::format(" --threshold {:g}", run.thresholds.pairs.threshold);
  }
  return out;
}

}  // namespace

std::string pairs_command(const Run& run, const std::vector<int>& nodes) {
  std::vector<int> all;
  if (nodes.empty()) {
    for (std::size_t i = 0; i < run.nodes.size(); ++i) all.push_back(static_cast<int>(i));
  }
  const std::vector<int>& on = nodes.empty() ? all : nodes;
  if (run.simulated || run.backend == "sim") {
    return fmt::format("podperf pairs --backend sim --sim-model {} --sim-nodes {} --seed {}{}", sim_model_name(run),
                       run.nodes.size(), run.options.seed, measure_options(run));
  }
  std::string out = launcher_prefix(run, on) + "podperf pairs";
  const bool is_virtual =
      std::any_of(run.nodes.begin(), run.nodes.end(), [](const NodeInfo& n) { return n.is_virtual; });
  if (is_virtual) out += fmt::format(" --virtual-nodes {}", run.nodes.size());
  if (!run.backend.empty()) out += " --backend " + run.backend;
  return out + measure_options(run);
}

std::string pairs_retest_command(const Run& run, const std::vector<std::array<int, 2>>& pairs,
                                 const std::string& extra) {
  std::vector<int> nodes;
  std::vector<std::string> listed;
  for (const std::array<int, 2>& p : pairs) {
    const NodeInfo* a = node_at(run, p[0]);
    const NodeInfo* b = node_at(run, p[1]);
    if (a == nullptr || b == nullptr) continue;
    for (int node : p) {
      if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) nodes.push_back(node);
    }
    listed.push_back(a->label + ":" + b->label);
  }
  std::sort(nodes.begin(), nodes.end());
  std::string out = pairs_command(run, nodes);
  if (!listed.empty()) out += fmt::format(" --pairs {}", fmt::join(listed, ","));
  if (!extra.empty()) out += " " + extra;
  return out;
}

std::string pairs_rerun_command(const Run& run) {
  return pairs_command(run);
}

}  // namespace podperf

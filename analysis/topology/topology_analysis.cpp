#include "analysis/topology/topology_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "analysis/base/text.hpp"
#include "analysis/base/units.hpp"

namespace podperf {
namespace {

constexpr std::size_t kListedNodes = 5;

bool has_topology(const Run& run) {
  return !run.topology_levels.empty() ||
         std::any_of(run.nodes.begin(), run.nodes.end(), [](const NodeInfo& n) { return !n.topology.empty(); });
}

const std::vector<std::string>* path_of(const Run& run, int node) {
  if (node < 0 || static_cast<std::size_t>(node) >= run.nodes.size()) return nullptr;
  const std::vector<std::string>& p = run.nodes[static_cast<std::size_t>(node)].topology;
  return p.empty() ? nullptr : &p;
}

std::size_t depth(const Run& run) {
  std::size_t d = run.topology_levels.size();
  for (const NodeInfo& n : run.nodes) d = std::max(d, n.topology.size());
  return d;
}

// Each node's path as small integers (one id per distinct name of a level), so that classifying
// millions of pairs compares integers, not strings. Empty: the node has no place.
std::vector<std::vector<int>> path_ids(const Run& run) {
  std::vector<std::unordered_map<std::string, int>> names;
  std::vector<std::vector<int>> ids(run.nodes.size());
  for (std::size_t n = 0; n < run.nodes.size(); ++n) {
    const std::vector<std::string>& path = run.nodes[n].topology;
    if (names.size() < path.size()) names.resize(path.size());
    for (std::size_t i = 0; i < path.size(); ++i) {
      ids[n].push_back(names[i].emplace(path[i], static_cast<int>(names[i].size())).first->second);
    }
  }
  return ids;
}

int split_level(const std::vector<std::vector<int>>& ids, int a, int b) {
  if (a < 0 || b < 0 || static_cast<std::size_t>(a) >= ids.size() || static_cast<std::size_t>(b) >= ids.size()) {
    return -1;
  }
  const std::vector<int>& pa = ids[static_cast<std::size_t>(a)];
  const std::vector<int>& pb = ids[static_cast<std::size_t>(b)];
  if (pa.empty() || pa.size() != pb.size()) return -1;
  for (std::size_t i = 0; i < pa.size(); ++i) {
    if (pa[i] != pb[i]) return static_cast<int>(i);
  }
  return static_cast<int>(pa.size());
}

// The median (mean of the two middle values for an even count), reordering `values`.
double busbw_median_in_place(std::vector<double>& values) {
  if (values.empty()) return 0.0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2.0;
}

std::string describe(const TopologyClass& c, const TopologyComparison& cmp) {
  std::string out =
      fmt::format("{}: {} pair{}, median {:.3f} GB/s", c.name, c.pairs, c.pairs == 1 ? "" : "s", c.median_busbw_gbps);
  if (!cmp.reference.empty() && c.level >= 0 && !(cmp.reference == "same leaf" && c.name == "same leaf")) {
    out += fmt::format(" ({:.0f}% of {})", c.ratio * 100.0, cmp.reference);
  }
  return out;
}

}  // namespace

int topology_split_level(const Run& run, int a, int b) {
  const std::vector<std::string>* pa = path_of(run, a);
  const std::vector<std::string>* pb = path_of(run, b);
  if (pa == nullptr || pb == nullptr || pa->size() != pb->size()) return -1;
  for (std::size_t i = 0; i < pa->size(); ++i) {
    if ((*pa)[i] != (*pb)[i]) return static_cast<int>(i);
  }
  return static_cast<int>(pa->size());
}

namespace {

// "leafA, leafB" (the first kListed, then "N more"): the distinct names of the nodes' groups at `level`.
std::string groups_at(const Run& run, std::size_t level) {
  constexpr std::size_t kListed = 4;
  std::set<std::string> names;
  for (const NodeInfo& node : run.nodes) {
    if (node.topology.size() > level) names.insert(node.topology[level]);
  }
  std::vector<std::string> listed;
  for (const std::string& s : names) {
    if (listed.size() == kListed) break;
    listed.push_back(s);
  }
  if (names.size() > kListed) listed.push_back(fmt::format("{} more", names.size() - kListed));
  return text::join(listed);
}

}  // namespace

bool topology_level_is_slurm(const Run& run, std::size_t level) {
  return level < run.topology_levels.size() && run.topology_levels[level].starts_with("switch-level-");
}

std::string topology_level_label(const Run& run, std::size_t level) {
  if (topology_level_is_slurm(run, level)) return "switch";
  return level < run.topology_levels.size() ? run.topology_levels[level] : fmt::format("level {}", level + 1);
}

std::string topology_class_name(const Run& run, int level) {
  if (level < 0) return "topology unknown";
  if (static_cast<std::size_t>(level) >= depth(run)) return "same leaf";
  const auto i = static_cast<std::size_t>(level);
  // Slurm names its switches, not its levels (the parser counts them, "switch-level-0" at the
  // leaves): a Slurm level is named by its switches, and the switches above them, as Slurm names
  // them ("crosses leafA, leafB under spine").
  if (!topology_level_is_slurm(run, i)) return "crosses " + topology_level_label(run, i);
  const std::string crossed = "crosses " + groups_at(run, i);
  return i == 0 ? crossed : fmt::format("{} under {}", crossed, groups_at(run, i - 1));
}

TopologyComparison compare_topology(const Run& run, int min_pairs) {
  TopologyComparison cmp;
  cmp.size_bytes = run.judged_size_bytes;
  if (!has_topology(run) || run.judged_size_bytes == 0) return cmp;
  std::set<int> stragglers;
  for (const Straggler& s : run.stragglers) stragglers.insert(s.node);
  std::map<int, std::vector<double>> busbw;  // level -> the pairs' busbw
  const std::vector<std::vector<int>> ids = path_ids(run);
  const auto collect = [&](bool leave_out_stragglers) {
    busbw.clear();
    cmp.straggler_pairs_left_out = 0;
    for (const PairResult& p : run.pairs) {
      if (!judged_ok(run, p)) continue;
      if (leave_out_stragglers && (stragglers.count(p.nodes[0]) != 0 || stragglers.count(p.nodes[1]) != 0)) {
        ++cmp.straggler_pairs_left_out;
        continue;
      }
      busbw[split_level(ids, p.nodes[0], p.nodes[1])].push_back(p.busbw_gbps);
    }
  };
  collect(true);
  // Every pair touches a straggler (most nodes flagged: no healthy majority): compare them all.
  if (busbw.empty()) collect(false);
  const int leaf = static_cast<int>(depth(run));
  const auto same_leaf = busbw.find(leaf);
  const auto minimum = static_cast<std::size_t>(std::max(min_pairs, 1));
  if (same_leaf != busbw.end() && same_leaf->second.size() >= minimum) {
    cmp.reference = "same leaf";
    cmp.reference_gbps = busbw_median_in_place(same_leaf->second);
    cmp.reference_pairs = same_leaf->second.size();
  } else {
    for (const SizeBaseline& b : run.baselines) {
      if (at_judged_size(run, b) && b.baseline_gbps > 0.0) {
        cmp.reference = "run baseline";
        cmp.reference_gbps = b.baseline_gbps;
        cmp.reference_pairs = b.pairs_kept;
      }
    }
  }
  // Outermost crossing first (level 0), same leaf after the crossings, unknown last.
  std::vector<int> levels;
  for (const auto& [level, values] : busbw) levels.push_back(level);
  std::sort(levels.begin(), levels.end(), [](int a, int b) { return (a < 0 ? 1 << 30 : a) < (b < 0 ? 1 << 30 : b); });
  for (int level : levels) {
    std::vector<double>& values = busbw[level];
    TopologyClass c;
    c.level = level;
    c.name = topology_class_name(run, level);
    c.pairs = values.size();
    c.median_busbw_gbps = busbw_median_in_place(values);
    if (cmp.reference_gbps > 0.0 && level >= 0) c.ratio = c.median_busbw_gbps / cmp.reference_gbps;
    c.judged = level >= 0 && level < leaf && !cmp.reference.empty() && c.pairs >= minimum;
    cmp.classes.push_back(std::move(c));
  }
  return cmp;
}

void judge_topology(Run& run, const TopologyThresholds& thresholds) {
  // Its own findings only: the adaptive search's (topology.slow_uplink) come from measurements the
  // analysis cannot redo, so a re-report keeps them.
  run.findings.erase(std::remove_if(run.findings.begin(), run.findings.end(),
                                    [](const Finding& f) {
                                      return f.check.rfind("topology.", 0) == 0 && f.source != "adaptive-search";
                                    }),
                     run.findings.end());
  if (!has_topology(run)) return;
  const std::string source = run.topology_source.empty() ? "the topology" : run.topology_source;

  std::vector<std::string> missing;
  for (const NodeInfo& n : run.nodes) {
    if (n.topology.empty()) missing.push_back(n.label);
  }
  if (!missing.empty()) {
    Finding f;
    f.tag = Tag::kInfo;
    f.source = "analysis";
    f.check = "topology.unmatched";
    std::string names;
    for (std::size_t i = 0; i < missing.size() && i < kListedNodes; ++i) names += (i == 0 ? "" : ", ") + missing[i];
    if (missing.size() > kListedNodes) names += fmt::format(", ... ({} more)", missing.size() - kListedNodes);
    f.observed = fmt::format("{} of {} nodes not found in {}: {}", missing.size(), run.nodes.size(), source, names);
    f.expected = "every node of the run named in the topology (by label, hostname or short hostname)";
    f.meaning =
        "these nodes have no place in the topology: their pairs are left out of the per-level comparison and "
        "the heatmap puts them last";
    f.effect = "none on the measurements; the topology comparison sees fewer pairs";
    f.next_step =
        "check that the topology file names the nodes as the run does (run.json nodes[].hostname); on EKS "
        "the pods need hostNetwork (hostname = node name), or write a CSV mapping the pods' hostnames";
    run.findings.push_back(std::move(f));
  }

  const TopologyComparison cmp = compare_topology(run, thresholds.min_pairs);
  if (cmp.classes.empty()) return;
  Finding f;
  f.source = "analysis";
  f.check = "topology.cross_layer";
  std::string observed;
  const TopologyClass* worst = nullptr;
  bool any_crossing = false;
  for (const TopologyClass& c : cmp.classes) {
    observed += (observed.empty() ? "" : "; ") + describe(c, cmp);
    if (c.level >= 0 && c.name != "same leaf") any_crossing = true;
    if (c.judged && (worst == nullptr || c.ratio < worst->ratio)) worst = &c;
  }
  f.observed = fmt::format("at {}: {}{}", format_size(cmp.size_bytes), observed,
                           cmp.straggler_pairs_left_out == 0
                               ? ""
                               : fmt::format(" ({} pairs of straggler nodes left out)", cmp.straggler_pairs_left_out));
  f.expected = fmt::format(
      "pairs crossing a level within {:.0f}% of the {} median (classes of at least {} pairs judged)",
      thresholds.slower_fraction * 100.0, cmp.reference.empty() ? "same-leaf" : cmp.reference, thresholds.min_pairs);
  if (worst != nullptr && worst->ratio < 1.0 - thresholds.slower_fraction) {
    f.tag = Tag::kConcern;
    f.meaning = fmt::format(
        "pairs whose nodes are in different {} get {:.0f}% less bandwidth than pairs {}: the level above them is "
        "oversubscribed, congested or degraded, or the job is spread across more of the network than it needs",
        topology_level_is_slurm(run, static_cast<std::size_t>(std::max(0, worst->level)))
            ? fmt::format("switches ({})", worst->name.substr(std::string("crosses ").size()))
            : worst->name.substr(std::string("crosses ").size()),
        (1.0 - worst->ratio) * 100.0, cmp.reference == "same leaf" ? "under one leaf" : "of the run as a whole");
    f.effect = "collectives spanning that level (most traffic of a job that spans it) run at the slower rate";
    f.next_step =
        "rerun with the nodes placed under fewer network nodes (EKS: a capacity block or placement group, "
        "topology-aware scheduling; Slurm: --switches or the topology plugin) and compare; if one switch's pairs are "
        "slow, look at that switch (the heatmap groups nodes by topology) and raise it with the fabric provider";
  } else {
    f.tag = Tag::kInfo;
    if (!any_crossing) {
      f.meaning = "no measured pair crosses a topology level: every pair shares its leaf, nothing to compare";
    } else if (worst == nullptr) {
      f.meaning = fmt::format(
          "too few pairs to judge: a class needs at least {} pairs and a reference (same-leaf "
          "pairs, or the run's baseline)",
          thresholds.min_pairs);
    } else {
      f.meaning = "crossing the topology's levels costs no more bandwidth than the threshold in this run";
    }
    f.effect = "none";
    f.next_step = "none needed";
  }
  run.findings.push_back(std::move(f));
}

std::vector<int> topology_node_order(const Run& run) {
  std::vector<int> order(run.nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&run](int a, int b) {
    const std::vector<std::string>& pa = run.nodes[static_cast<std::size_t>(a)].topology;
    const std::vector<std::string>& pb = run.nodes[static_cast<std::size_t>(b)].topology;
    if (pa.empty() != pb.empty()) return pb.empty();
    return pa < pb;
  });
  return order;
}

}  // namespace podperf

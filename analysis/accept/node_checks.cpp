#include "analysis/accept/node_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/accept/profile_requirements.hpp"
#include "analysis/base/units.hpp"
#include "analysis/config/fs_probes.hpp"

namespace podperf {
namespace {

constexpr const char* kPass = "PASS";
constexpr const char* kWarn = "WARN";
constexpr const char* kFail = "FAIL";
constexpr const char* kSkip = "SKIP";

int severity(const std::string& status) {
  if (status == kFail) return 2;
  if (status == kWarn) return 1;
  return 0;
}

std::string verdict_label_of(const Run& run, int node) {
  if (node < 0 || static_cast<std::size_t>(node) >= run.nodes.size()) return "?";
  return run.nodes[static_cast<std::size_t>(node)].label;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

std::string join_labels(const Run& run, const std::set<int>& nodes) {
  std::vector<std::string> out;
  for (int n : nodes) out.push_back(verdict_label_of(run, n));
  return fmt::format("{}", fmt::join(out, ", "));
}

// The size nodes are judged at: the analysis's, else the largest pair size.
std::uint64_t judged_size(const Run& run) {
  if (run.judged_size_bytes != 0) return run.judged_size_bytes;
  std::uint64_t size = 0;
  for (const PairResult& p : run.pairs) size = std::max(size, p.size_bytes);
  return size;
}

// Why no SKU baseline applies, from the instance types the nodes report.
std::string no_sku_reason(const Run& run) {
  std::set<std::string> types;
  for (const NodeInfo& n : run.nodes) types.insert(n.instance_type.empty() ? "(unknown)" : n.instance_type);
  if (types.size() > 1) {
    return fmt::format("no SKU baseline: the nodes report different instance types ({}); give --sku NAME",
                       fmt::join(types, ", "));
  }
  if (types.empty() || *types.begin() == "(unknown)") {
    return "no SKU baseline: the nodes report no instance type; give --sku NAME";
  }
  return fmt::format("no SKU baseline: no configs/skus file for instance type {}; give --sku NAME|FILE",
                     *types.begin());
}

// Failed pairs (status not ok at any size) and who is to blame for them.
struct PairFailures {
  std::map<int, std::set<int>> partners;                   // node -> every node it was paired with
  std::map<int, std::map<int, const PairResult*>> wrong;   // node -> partner -> a wrong result
  std::map<int, std::map<int, const PairResult*>> failed;  // node -> partner -> an error/timeout result
  std::set<int> at_fault;                                  // more than half of its partners failed with it
};

PairFailures pair_failures(const Run& run) {
  PairFailures f;
  for (const PairResult& p : run.pairs) {
    const int a = p.nodes[0], b = p.nodes[1];
    f.partners[a].insert(b);
    f.partners[b].insert(a);
    if (status_ok(p.status)) continue;
    auto& table = p.status == "wrong" ? f.wrong : f.failed;
    table[a].emplace(b, &p);
    table[b].emplace(a, &p);
  }
  for (const auto& [node, partners] : f.partners) {
    std::set<int> bad;
    for (const auto* table : {&f.wrong, &f.failed}) {
      auto it = table->find(node);
      if (it == table->end()) continue;
      for (const auto& [partner, result] : it->second) bad.insert(partner);
    }
    if (bad.size() * 2 > partners.size()) f.at_fault.insert(node);
  }
  return f;
}

// One node's pairs at the judged size: how many, how many flagged, the busbw of the ok ones (in pair
// order). Gathered for every node in one sweep over the pairs (a sweep per node was quadratic: 1024
// nodes, 10 s).
struct NodePairStats {
  int total = 0;
  int flagged = 0;
  std::vector<double> busbw;
};

std::vector<NodePairStats> node_pair_stats(const Run& run, std::uint64_t size) {
  int max_index = -1;
  for (const NodeInfo& n : run.nodes) max_index = std::max(max_index, n.index);
  std::vector<NodePairStats> stats(static_cast<std::size_t>(max_index + 1));
  const auto add = [&](int node, const PairResult& p) {
    if (node < 0 || node > max_index) return;
    NodePairStats& s = stats[static_cast<std::size_t>(node)];
    ++s.total;
    if (p.flagged) ++s.flagged;
    if (status_ok(p.status)) s.busbw.push_back(p.busbw_gbps);
  };
  for (const PairResult& p : run.pairs) {
    if (p.size_bytes != size) continue;
    add(p.nodes[0], p);
    if (p.nodes[1] != p.nodes[0]) add(p.nodes[1], p);
  }
  return stats;
}

class Judge {
 public:
  Judge(const Run& run, const Profile& profile, const Sku* sku, const std::vector<ProfileOverride>& overrides)
      : run_(run), profile_(profile), sku_(sku), overrides_(overrides) {}

  Verdict operator()() {
    verdict_.profile = profile_.name;
    verdict_.overrides = overrides_;
    verdict_.sku = sku_ != nullptr ? sku_->instance_type : "";
    // The published figures are NCCL between GPUs: recorded (and drawn by the reports) for NCCL runs only.
    if (sku_ != nullptr && run_.backend == "nccl") {
      for (const SkuBusbw& b : sku_->pair_busbw) verdict_.sku_busbw.push_back({"all_reduce", b.size_bytes, b.gbps});
    }
    const bool pairs = profile_.pairs_stage && !run_.pairs.empty();
    const bool fs = profile_.fs_stage && !run_.fs.probes.empty();
    const PairFailures failures = pair_failures(run_);
    judged_size_ = judged_size(run_);
    busbw_size_ = busbw_size();
    if (pairs) {
      pair_stats_ = node_pair_stats(run_, judged_size_);
      busbw_stats_ = busbw_size_ == judged_size_ ? pair_stats_ : node_pair_stats(run_, busbw_size_);
    }
    for (const NodeInfo& node : run_.nodes) {
      if (pairs) {
        const auto at = [&](const std::vector<NodePairStats>& stats) {
          return node.index >= 0 ? stats[static_cast<std::size_t>(node.index)] : NodePairStats{};
        };
        check_pairs_stage(node, failures, at(pair_stats_), at(busbw_stats_));
      }
      if (fs) check_fs_stage(node);
      judge_findings(node.label, node.hostname);
    }
    check_run_wide();
    conclude();
    return std::move(verdict_);
  }

 private:
  void add(const std::string& node, std::string check, const char* status, std::string detail) {
    verdict_.checks.push_back(VerdictCheck{node, std::move(check), status, std::move(detail)});
  }

  std::string sku_name() const { return fmt::format("{}, {}", sku_->instance_type, sku_->source); }

  // The size busbw_min judges at: the judged size where the SKU publishes a figure for it, else the
  // largest measured size it has one for (0: none).
  std::uint64_t busbw_size() const {
    if (sku_ == nullptr || sku_->pair_busbw_at(judged_size_)) return judged_size_;
    std::uint64_t best = 0;
    const auto consider = [&](std::uint64_t s) {
      if (s <= judged_size_ && s > best && sku_->pair_busbw_at(s)) best = s;
    };
    for (std::uint64_t s : run_.options.sizes_bytes) consider(s);
    if (run_.options.sizes_bytes.empty()) {
      for (const PairResult& p : run_.pairs) consider(p.size_bytes);
    }
    return best;
  }

  void check_pairs_stage(const NodeInfo& node, const PairFailures& failures, const NodePairStats& stats,
                         const NodePairStats& busbw_stats) {
    const int idx = node.index;
    const std::uint64_t size = judged_size_;
    // busbw_min: the node's median pair busbw against the SKU's published figure, at the judged size or,
    // where the SKU publishes none there, at the largest measured size it publishes one for.
    const std::vector<double>& busbw = busbw_stats.busbw;
    const int flagged = stats.flagged;
    const int total = stats.total;
    const std::string op = run_.pairs.front().op;
    if (sku_ == nullptr) {
      add(node.label, "busbw_min", kSkip, no_sku_reason(run_));
    } else if (run_.backend != "nccl") {
      add(node.label, "busbw_min", kSkip,
          fmt::format("backend {}: the SKU's busbw figures are NCCL between GPUs, not this backend", run_.backend));
    } else if (op != "all_reduce") {
      add(node.label, "busbw_min", kSkip, fmt::format("the pairs ran {}; the SKU's busbw figures are all_reduce", op));
    } else if (busbw_size_ == 0) {
      std::vector<std::string> sizes;
      for (const SkuBusbw& b : sku_->pair_busbw) sizes.push_back(b.size);
      add(node.label, "busbw_min", kSkip,
          sizes.empty() ? fmt::format("no published 2-node busbw figure for {} ({})", sku_->instance_type, sku_->source)
                        : fmt::format("no published figure for {} at {} or any smaller measured size (published at "
                                      "{}; measure one of them with -b/-e)",
                                      sku_->instance_type, format_size(size), fmt::join(sizes, ", ")));
    } else if (busbw.empty()) {
      add(node.label, "busbw_min", kSkip, fmt::format("no pair of this node finished at {}", format_size(busbw_size_)));
    } else {
      const double published = *sku_->pair_busbw_at(busbw_size_);
      const double minimum = published * profile_.busbw_min_fraction;
      const double median = median_of(busbw);
      std::string detail =
          fmt::format("busbw {:.1f} GB/s at {} (median of {} pair{}), minimum {:.1f} ({:.0f}% of published {:.1f}; {})",
                      median, format_size(busbw_size_), busbw.size(), busbw.size() == 1 ? "" : "s", minimum,
                      profile_.busbw_min_fraction * 100.0, published, sku_name());
      if (busbw_size_ != size) {
        detail += fmt::format("; at {}, the largest measured size with a published figure (none at the judged {})",
                              format_size(busbw_size_), format_size(size));
      }
      add(node.label, "busbw_min", median >= minimum ? kPass : kFail, std::move(detail));
    }

    // straggler
    auto s = std::find_if(run_.stragglers.begin(), run_.stragglers.end(),
                          [&](const Straggler& st) { return st.node == idx; });
    if (s != run_.stragglers.end()) {
      std::string detail = s->evidence;
      if (!s->likely_causes.empty()) detail += fmt::format("; likely cause: {}", s->likely_causes.front());
      add(node.label, "straggler", kFail, detail);
    } else {
      add(node.label, "straggler", kPass,
          fmt::format("{} of {} pairs flagged at {} (not most)", flagged, total, format_size(size)));
    }

    // slow_link
    std::vector<std::string> links;
    for (const LinkFinding& l : run_.links) {
      if (l.nodes[0] != idx && l.nodes[1] != idx) continue;
      links.push_back(l.evidence.empty() ? fmt::format("link {} <-> {} at {:.2f} of the baseline", l.hostnames[0],
                                                       l.hostnames[1], l.ratio)
                                         : l.evidence);
    }
    if (links.empty()) {
      add(node.label, "slow_link", kPass, "no slow link");
    } else {
      add(node.label, "slow_link", profile_.slow_link == kFail ? kFail : kWarn,
          fmt::format("{}", fmt::join(links, "; ")));
    }

    // wrong_results and failed_pairs, with the blame rule
    judge_failures(node, failures, failures.wrong, "wrong_results", "wrong results");
    judge_failures(node, failures, failures.failed, "failed_pairs", "failed");

    // gpu_count
    if (sku_ == nullptr || run_.backend != "nccl") {
      add(node.label, "gpu_count", kSkip,
          sku_ == nullptr ? "no SKU baseline" : fmt::format("backend {}: ranks are not GPUs", run_.backend));
    } else if (static_cast<int>(node.ranks.size()) < sku_->gpus) {
      add(node.label, "gpu_count", kWarn,
          fmt::format("{} ranks on a {} with {} GPUs: not every GPU was tested (one rank per GPU)", node.ranks.size(),
                      sku_->instance_type, sku_->gpus));
    } else {
      add(node.label, "gpu_count", kPass, fmt::format("{} ranks, {} GPUs", node.ranks.size(), sku_->gpus));
    }
  }

  void judge_failures(const NodeInfo& node, const PairFailures& f,
                      const std::map<int, std::map<int, const PairResult*>>& table, const char* check,
                      const char* what) {
    const int idx = node.index;
    auto it = table.find(idx);
    if (it == table.end()) {
      add(node.label, check, kPass, fmt::format("no pair {}", what));
      return;
    }
    std::set<int> with;
    std::set<int> culprits;
    bool blamed = false;
    const PairResult* first = nullptr;
    for (const auto& [partner, result] : it->second) {
      with.insert(partner);
      if (first == nullptr) first = result;
      const bool me = f.at_fault.contains(idx);
      const bool other = f.at_fault.contains(partner);
      if (me || !other) blamed = true;
      if (other) culprits.insert(partner);
    }
    const std::size_t partners = f.partners.at(idx).size();
    std::string detail =
        fmt::format("{} of {} pairs {} (with {})", with.size(), partners, what, join_labels(run_, with));
    if (first != nullptr && !first->error.empty()) detail += fmt::format(": {}", first->error);
    if (!blamed) {
      add(node.label, check, kPass,
          fmt::format("{}; blamed on {} (most of its pairs failed)", detail, join_labels(run_, culprits)));
    } else {
      add(node.label, check, kFail, detail);
    }
  }

  void check_fs_stage(const NodeInfo& node) {
    const int idx = node.index;
    auto s = std::find_if(run_.fs.slow_nodes.begin(), run_.fs.slow_nodes.end(),
                          [&](const FsSlowNode& n) { return n.node == idx; });
    if (s != run_.fs.slow_nodes.end()) {
      std::string detail = s->evidence.empty() ? fmt::format("slow in {} (worst {:.2f} of the baseline)",
                                                             fmt::join(s->probes, ", "), s->worst_ratio)
                                               : s->evidence;
      if (!s->likely_causes.empty()) detail += fmt::format("; likely cause: {}", s->likely_causes.front());
      add(node.label, "fs_slow_node", kFail, detail);
    } else {
      add(node.label, "fs_slow_node", kPass, fmt::format("not slow in any of {} probes", run_.fs.probes.size()));
    }
    std::vector<std::string> bad;
    for (const FsProbeResult& p : run_.fs.probes) {
      for (const FsRankResult& r : p.ranks) {
        if (r.node != idx || status_ok(r.status)) continue;
        bad.push_back(r.status == "wrong" ? fmt::format("{}: rank {} read {} shard(s) that did not verify", p.probe,
                                                        r.rank, r.checksum_mismatches)
                                          : fmt::format("{}: {}", p.probe, r.error.empty() ? r.status : r.error));
        break;
      }
    }
    if (bad.empty()) {
      add(node.label, "fs_results", kPass, "every probe ok on its ranks");
    } else {
      add(node.label, "fs_results", kFail, fmt::format("{}", fmt::join(bad, "; ")));
    }
  }

  // CONCERN findings of `host` ("" for run-wide ones): blocking ones fail, others warn.
  void judge_findings(const std::string& node, const std::string& host) {
    std::vector<std::string> blocking;
    std::vector<std::string> concerns;
    for (const Finding& f : run_.findings) {
      if (f.tag != Tag::kConcern || f.host != host) continue;
      const bool blocks = std::find(profile_.blocking_findings.begin(), profile_.blocking_findings.end(), f.check) !=
                          profile_.blocking_findings.end();
      (blocks ? blocking : concerns).push_back(fmt::format("{} ({})", f.check, f.observed));
    }
    add(node, "blocking_finding", blocking.empty() ? kPass : kFail,
        blocking.empty() ? "no blocking finding" : fmt::format("{}", fmt::join(blocking, "; ")));
    add(node, "concern", concerns.empty() ? kPass : kWarn,
        concerns.empty() ? "no other concern" : fmt::format("{}", fmt::join(concerns, "; ")));
  }

  void check_run_wide() {
    if (run_.status == "complete") {
      add("", "run_complete", kPass, "the run finished");
    } else {
      std::string detail = fmt::format("the run ended early ({})", run_.status);
      if (!run_.error.empty()) detail += fmt::format(": {}", run_.error);
      if (!run_.unfinished.empty()) detail += fmt::format("; unfinished: {}", fmt::join(run_.unfinished, "; "));
      add("", "run_complete", kFail, detail);
    }

    std::vector<std::string> missing;
    if (profile_.pairs_stage && run_.pairs.empty()) missing.push_back("the pair test (no pair results)");
    if (profile_.fs_stage && run_.fs.probes.empty()) missing.push_back("the filesystem stage (no probe results)");
    if (missing.empty()) {
      add("", "stages", kPass, fmt::format("profile {}: every stage present", profile_.name));
    } else {
      add("", "stages", kFail,
          fmt::format("profile {} needs {}: missing from this run", profile_.name, fmt::join(missing, " and ")));
    }
    ProfileRequirements met = check_profile_requirements(run_, profile_, overrides_);
    verdict_.checks.push_back(VerdictCheck{"", "profile", std::move(met.status), std::move(met.detail)});

    std::set<std::string> types;
    for (const NodeInfo& n : run_.nodes) {
      if (!n.instance_type.empty()) types.insert(n.instance_type);
    }
    if (sku_ == nullptr) {
      add("", "sku", kSkip, no_sku_reason(run_));
    } else if (!types.empty() && (types.size() > 1 || *types.begin() != sku_->instance_type)) {
      add("", "sku", kWarn,
          fmt::format("judged as {} but the nodes report {}", sku_->instance_type, fmt::join(types, ", ")));
    } else {
      add("", "sku", kPass, fmt::format("baseline {}", sku_name()));
    }

    if (profile_.fs_stage && !run_.fs.probes.empty()) check_fs_floor();
    judge_findings("", "");
  }

  void check_fs_floor() {
    const double write = profile_.fs.floor_write_mb_s;
    const double read = profile_.fs.floor_read_mb_s;
    if (write <= 0.0 && read <= 0.0) {
      add("", "fs_floor", kSkip, fmt::format("profile {} sets no aggregate floor", profile_.name));
      return;
    }
    std::vector<std::string> below;
    std::vector<std::string> met;
    for (const FsProbeResult& p : run_.fs.probes) {
      const double floor = fs_probe_floor_mb_s(p.probe, write, read);
      if (floor <= 0.0) continue;
      const std::string text = fmt::format("{} {:.0f} MB/s (floor {:.0f})", p.probe, p.mb_per_s, floor);
      (p.mb_per_s < floor ? below : met).push_back(text);
    }
    if (!below.empty()) {
      add("", "fs_floor", kFail, fmt::format("below the floor: {}", fmt::join(below, "; ")));
    } else if (met.empty()) {
      add("", "fs_floor", kSkip, "no probe of this run has a floor in the profile");
    } else {
      add("", "fs_floor", kPass, fmt::format("{}", fmt::join(met, "; ")));
    }
  }

  void conclude() {
    std::map<std::string, NodeVerdict> by_label;
    int worst = 0;
    for (const NodeInfo& node : run_.nodes) {
      NodeVerdict v;
      v.node = node.label;
      v.hostname = node.hostname;
      int node_worst = 0;
      for (const VerdictCheck& c : verdict_.checks) {
        if (c.node != node.label || severity(c.status) == 0) continue;
        node_worst = std::max(node_worst, severity(c.status));
        v.reasons.push_back(fmt::format("{} {}: {}", c.status, c.check, c.detail));
      }
      v.status = node_worst == 2 ? kFail : node_worst == 1 ? kWarn : kPass;
      worst = std::max(worst, node_worst);
      if (node_worst == 2 &&
          std::find(verdict_.drain.begin(), verdict_.drain.end(), node.hostname) == verdict_.drain.end()) {
        verdict_.drain.push_back(node.hostname);
      }
      verdict_.nodes.push_back(std::move(v));
    }
    for (const VerdictCheck& c : verdict_.checks) {
      if (c.node.empty()) worst = std::max(worst, severity(c.status));
    }
    verdict_.status = worst == 2 ? kFail : worst == 1 ? kWarn : kPass;
  }

  const Run& run_;
  const Profile& profile_;
  const Sku* sku_;
  const std::vector<ProfileOverride>& overrides_;
  Verdict verdict_;
  std::uint64_t judged_size_ = 0;
  std::uint64_t busbw_size_ = 0;            // where busbw_min judges (busbw_size())
  std::vector<NodePairStats> pair_stats_;   // by node index, at judged_size_
  std::vector<NodePairStats> busbw_stats_;  // by node index, at busbw_size_
};

}  // namespace

Verdict check_nodes(const Run& run, const Profile& profile, const Sku* sku,
                    const std::vector<ProfileOverride>& overrides) {
  return Judge(run, profile, sku, overrides)();
}

std::optional<Sku> choose_sku(const Run& run, const std::optional<Sku>& forced) {
  if (forced) return forced;
  std::set<std::string> types;
  for (const NodeInfo& n : run.nodes) types.insert(n.instance_type);
  if (types.size() != 1 || types.begin()->empty()) return std::nullopt;
  return builtin_sku_for(*types.begin());
}

int accept_exit_code(const Verdict& verdict) {
  return verdict.status == kFail ? 1 : 0;
}

}  // namespace podperf

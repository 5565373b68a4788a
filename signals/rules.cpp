// Signal rules (signals/rules.hpp): the rule table as data, one row per check, and the passes that walk
// it. A row names its check id, its domain, the rules.toml section it reads and the function that
// evaluates it; the functions live in one file per domain (rules_host, rules_efa, rules_gpu and
// rules_nvml, rules_storage), each of which also reads its own sections of configs/rules.toml. A new
// check is one function in its domain and one row here. Pure, local; loading throws ConfigError.
#include "signals/rules.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "analysis/base/errors.hpp"
#include "analysis/base/toml_check.hpp"
#include "signals/rules_common.hpp"
#include "signals/rules_efa.hpp"
#include "signals/rules_gpu.hpp"
#include "signals/rules_host.hpp"
#include "signals/rules_storage.hpp"

namespace podperf {
namespace {

using namespace signal_rules;  // NOLINT: the domain functions the rows name

enum class Domain { kHost, kGpu, kEfa, kStorage };

// ---- the rule table ----

// One [section] of configs/rules.toml and the domain that reads it, in the order errors are looked for.
struct SectionRow {
  std::string_view name;
  Domain domain;
  SectionParser parse;
};
constexpr SectionRow kSections[] = {
    {"cpu", Domain::kHost, parse_cpu_section},
    {"memory", Domain::kHost, parse_memory_section},
    {"storage", Domain::kStorage, parse_storage_section},
    {"efa", Domain::kEfa, parse_efa_section},
    {"xid", Domain::kGpu, parse_xid_section},
    {"gpu", Domain::kGpu, parse_gpu_section},
};

// Where a row's findings rank among the likely causes (CauseRanks, rules.hpp): every row says, before its
// function, so a new rule cannot omit it.
using namespace cause_rank;  // NOLINT: the rank names the rows use
constexpr CauseRanks kRanked(int pair) {
  return {pair, kFsOther};
}

// A check about one snapshot. `section`: the rules.toml sections it reads ("" none). Rows run in order;
// their findings appear in that order.
struct SnapshotRow {
  std::string_view check;
  Domain domain;
  std::string_view section;
  CauseRanks rank;
  SnapshotCheck eval;
};
constexpr SnapshotRow kSnapshotRules[] = {
    {"signals.instance_type", Domain::kHost, "", kRanked(kOther), check_instance_type},
    {"signals.kernel", Domain::kHost, "", kRanked(kOther), check_kernel},
    {"signals.cpu_governor", Domain::kHost, "cpu", kRanked(kGovernor), check_governor},
    {"signals.meminfo", Domain::kHost, "", kRanked(kOther), check_meminfo},
    {"signals.dev_shm", Domain::kHost, "memory", kRanked(kShm), check_dev_shm},
    {"signals.root_fs", Domain::kStorage, "storage", {kOther, kFsRootFull}, check_root_fs},
    {"signals.mounts", Domain::kStorage, "", {kOther, kFsMounts}, check_mounts},
    {"signals.memlock", Domain::kHost, "memory, efa", kRanked(kMemlock), check_memlock},
    {"signals.stack", Domain::kHost, "", kRanked(kOther), check_stack},
    {"signals.efa_count", Domain::kEfa, "efa", kRanked(kEfaCount), check_efa_count},
    {"signals.efa_versions", Domain::kEfa, "efa", kRanked(kOther), check_efa_versions},
    {"signals.nvidia_driver", Domain::kGpu, "", kRanked(kOther), check_nvidia_driver},
    {"signals.pcie_width", Domain::kGpu, "", kRanked(kPcie), check_pcie_width},
    {"signals.nvml", Domain::kGpu, "", kRanked(kOther), check_nvml},
    {"signals.gpu_lost", Domain::kGpu, "", kRanked(kGpuLost), check_gpu_lost},
    {"signals.gpu_temperature", Domain::kGpu, "gpu", kRanked(kGpuTemperature), check_gpu_temperature},
    {"signals.gpu_clock_events", Domain::kGpu, "gpu", kRanked(kGpuClockEvents), check_gpu_clock_events},
    {"signals.gpu_pcie", Domain::kGpu, "gpu", kRanked(kPcie), check_gpu_pcie},
    {"signals.gpu_ecc", Domain::kGpu, "gpu", kRanked(kGpuEcc), check_gpu_ecc},
    {"signals.gpu_row_remap", Domain::kGpu, "", kRanked(kGpuRowRemap), check_gpu_row_remap},
    {"signals.gpu_nvlink", Domain::kGpu, "gpu", kRanked(kGpuNvlink), check_gpu_nvlink},
    {"signals.gpu_fabric", Domain::kGpu, "", kRanked(kGpuFabric), check_gpu_fabric},
    {"signals.libfabric", Domain::kEfa, "efa", kRanked(kLibfabric), check_libfabric},
    {"signals.nccl_version", Domain::kHost, "", kRanked(kNcclOther), check_nccl_version},
    {"signals.cuda_driver_version", Domain::kHost, "", kRanked(kOther), check_cuda_driver_version},
    {"signals.lustre_ost", Domain::kStorage, "storage", {kOther, kFsLustreOst}, check_lustre},
    {"signals.xid", Domain::kGpu, "xid", kRanked(kXid), check_xid},
    {"signals.environment", Domain::kHost, "", kRanked(kOther), check_environment},
};

// A check about what changed between two snapshots of one host.
struct DeltaRow {
  std::string_view check;
  Domain domain;
  std::string_view section;
  CauseRanks rank;
  DeltaCheck eval;
};
constexpr DeltaRow kDeltaRules[] = {
    {"signals.iowait", Domain::kHost, "cpu", {kIowait, kFsIowait}, delta_iowait},
    {"signals.steal", Domain::kHost, "cpu", kRanked(kSteal), delta_steal},
    {"signals.efa_counters", Domain::kEfa, "efa", kRanked(kEfaCounters), delta_efa_counters},
    {"signals.xid_new", Domain::kGpu, "xid", kRanked(kXid), delta_xid_new},
    {"signals.gpu_ecc_new", Domain::kGpu, "", kRanked(kGpuEcc), delta_gpu_ecc},
    {"signals.gpu_nvlink_errors_new", Domain::kGpu, "gpu", kRanked(kGpuNvlink), delta_gpu_nvlink},
};

// A run-wide check across nodes: either one value per node compared by compare_across_nodes (`value`),
// or a check of its own (`eval`, the environment's many variables). Read no rules.toml section.
struct DriftRow {
  std::string_view check;
  Domain domain;
  const char* what;     // "NVIDIA driver" (value rows)
  const char* confirm;  // how to read it on one node (value rows)
  Reading<std::string> (*value)(const HostSnapshot&);
  DriftCheck eval;
};
const DriftRow kDriftRules[] = {
    {"drift.nvidia_driver", Domain::kGpu, "NVIDIA driver", "cat /proc/driver/nvidia/version",
     [](const HostSnapshot& n) { return n.nvidia_driver; }, nullptr},
    {"drift.kernel", Domain::kHost, "kernel release", "uname -r",
     [](const HostSnapshot& n) { return n.kernel_release; }, nullptr},
    {"drift.efa_installer", Domain::kEfa, "EFA installer", "head -1 /opt/amazon/efa_installed_packages",
     [](const HostSnapshot& n) { return n.efa_installer; }, nullptr},
    {"drift.efa_module", Domain::kEfa, "efa kernel module", "cat /sys/module/efa/version",
     [](const HostSnapshot& n) { return n.efa_module_version; }, nullptr},
    {"drift.instance_type", Domain::kHost, "instance type", "cat /sys/devices/virtual/dmi/id/product_name",
     [](const HostSnapshot& n) { return n.instance_type; }, nullptr},
    {"drift.cuda_driver", Domain::kGpu, "CUDA driver version", "nvidia-smi | head -4",
     [](const HostSnapshot& n) { return n.cuda_driver_version; }, nullptr},
    {"drift.nccl", Domain::kHost, "NCCL version", "ldconfig -p | grep libnccl; NCCL_DEBUG=VERSION in the job",
     [](const HostSnapshot& n) { return n.nccl_version; }, nullptr},
    {"drift.libfabric", Domain::kEfa, "libfabric version", "fi_info --version",
     [](const HostSnapshot& n) {
       Reading<std::string> v;
       v.readable = n.libfabric.readable;
       v.value = n.libfabric.value.version;
       v.why = n.libfabric.why;
       return v;
     },
     nullptr},
    {"drift.env", Domain::kHost, nullptr, nullptr, nullptr, drift_environment},
};

// ---- the passes ----

// The row's ranks on the findings it appended (out[first..]).
void stamp_ranks(std::vector<Finding>& out, std::size_t first, CauseRanks rank) {
  for (std::size_t i = first; i < out.size(); ++i) {
    out[i].pair_cause_rank = rank.pair;
    out[i].fs_cause_rank = rank.fs;
  }
}

// A value row: CONCERN listing the groups when nodes differ, OK when all agree; nothing when no node
// could read the value.
void compare_across_nodes(const DriftRow& row, const std::vector<HostSnapshot>& nodes, std::vector<Finding>& out) {
  std::map<std::string, std::vector<std::string>> groups;
  bool any_readable = false;
  for (const auto& n : nodes) {
    const Reading<std::string> v = row.value(n);
    any_readable = any_readable || v.readable;
    groups[v.readable ? v.value : "(unreadable)"].push_back(n.hostname.value);
  }
  if (!any_readable) return;
  const std::string check(row.check);
  if (groups.size() > 1) {
    out.push_back(make(Tag::kConcern, check, "", groups_text(groups),
                       std::string("the same ") + row.what + " on every node",
                       std::string("nodes of this run differ in ") + row.what,
                       check == "drift.instance_type"
                           ? "pairs of different types are not comparable; baselines and expected EFA counts "
                             "differ"
                           : "version drift across nodes: mismatched transports or protocols, 10-30% pair "
                             "bandwidth loss seen in the field",
                       std::string("confirm on each node: ") + row.confirm +
                           "; remediation: bring the odd nodes to the fleet's version (or drain them)"));
  } else {
    out.push_back(make(Tag::kOk, check, "", fmt::format("{} on all {} nodes", groups.begin()->first, nodes.size()),
                       std::string("the same ") + row.what + " on every node", "no drift", "none", row.confirm));
  }
}

}  // namespace

Rules parse_rules(std::string_view toml_text, const std::string& source) {
  const toml::table root = toml_parse(toml_text, source);
  std::set<std::string_view> known;
  for (const SectionRow& row : kSections) known.insert(row.name);
  toml_reject_unknown(root, known, "", source);
  Rules r;
  r.source = source;
  for (const SectionRow& row : kSections) row.parse(require_table(root, row.name, "", source), source, r);
  return r;
}

Rules load_rules_file(const std::string& path) {
  if (path.empty()) throw ConfigError(": cannot read rules file");
  return load_rules(path);
}

Rules load_rules(const std::string& path_or_empty) {
  std::string source;
  const std::string text = config_text(path_or_empty, "rules.toml", "rules file", source);
  return parse_rules(text, source);
}

std::optional<CauseRanks> signal_cause_ranks(std::string_view check) {
  for (const SnapshotRow& row : kSnapshotRules) {
    if (row.check == check) return row.rank;
  }
  for (const DeltaRow& row : kDeltaRules) {
    if (row.check == check) return row.rank;
  }
  return std::nullopt;
}

std::vector<Finding> evaluate(const HostSnapshot& s, const Rules& r) {
  std::vector<Finding> out;
  for (const SnapshotRow& row : kSnapshotRules) {
    const std::size_t first = out.size();
    row.eval(s, r, out);
    stamp_ranks(out, first, row.rank);
  }
  return out;
}

std::vector<Finding> evaluate_delta(const HostSnapshot& before, const HostSnapshot& after, const Rules& r) {
  std::vector<Finding> out;
  for (const DeltaRow& row : kDeltaRules) {
    const std::size_t first = out.size();
    row.eval(before, after, r, out);
    stamp_ranks(out, first, row.rank);
  }
  return out;
}

std::vector<Finding> evaluate_drift(const std::vector<HostSnapshot>& nodes) {
  std::vector<Finding> out;
  if (nodes.size() < 2) {
    out.push_back(make(Tag::kInfo, "drift.nodes", "", fmt::format("{} node", nodes.size()), "two or more nodes",
                       "nothing to compare across nodes", "none", "none"));
    return out;
  }
  for (const DriftRow& row : kDriftRules) {
    if (row.value != nullptr) {
      compare_across_nodes(row, nodes, out);
    } else {
      row.eval(nodes, out);
    }
  }
  return out;
}

}  // namespace podperf

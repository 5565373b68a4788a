// Whether the runs of a comparison measured the same thing (podperf compare): the ways the first run of
// each side differ (nodes, sizes, backend, versions, environment, filesystem, ...), and whether the runs
// of one side are repeats of one setup. Floor: analysis/; pure, local, deterministic.
#include "analysis/compare/compare_comparability.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/base/text.hpp"
#include "analysis/base/units.hpp"
#include "analysis/compare/types.hpp"

// File-local helpers live in a named namespace: this file shares a unity batch with others.
namespace podperf::comparability_detail {
namespace {

// Items of a not in b, in a's order.
std::vector<std::string> minus(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const std::set<std::string> bs(b.begin(), b.end());
  std::vector<std::string> out;
  for (const std::string& x : a) {
    if (!bs.contains(x) && std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  return out;
}

// Set difference note: before holds what only BEFORE has, after what only AFTER has.
void note_sets(std::vector<ComparabilityNote>& out, const std::string& what, const std::vector<std::string>& before,
               const std::vector<std::string>& after) {
  const auto b = minus(before, after);
  const auto a = minus(after, before);
  if (b.empty() && a.empty()) return;
  out.push_back({what, b.empty() ? "(none only here)" : "only here: " + text::join(b),
                 a.empty() ? "(none only here)" : "only here: " + text::join(a)});
}

void note_values(std::vector<ComparabilityNote>& out, const std::string& what, const std::string& before,
                 const std::string& after) {
  if (before != after) out.push_back({what, before.empty() ? "(empty)" : before, after.empty() ? "(empty)" : after});
}

// Distinct `observed` values of OK findings with this check id, in order of first appearance.
std::vector<std::string> finding_values(const Run& run, std::string_view check) {
  std::vector<std::string> out;
  for (const Finding& f : run.findings) {
    if (f.check == check && f.tag == Tag::kOk && std::find(out.begin(), out.end(), f.observed) == out.end()) {
      out.push_back(f.observed);
    }
  }
  return out;
}

// The NCCL_*/FI_*/... variables of signals.environment findings ("K=V, K=V"), every host together.
std::vector<std::string> environment_items(const Run& run) {
  std::vector<std::string> out;
  for (const Finding& f : run.findings) {
    if (f.check != "signals.environment" || f.observed.find('=') == std::string::npos) continue;
    std::size_t start = 0;
    while (start <= f.observed.size()) {
      std::size_t end = f.observed.find(", ", start);
      if (end == std::string::npos) end = f.observed.size();
      std::string item = f.observed.substr(start, end - start);
      if (item.find('=') != std::string::npos && std::find(out.begin(), out.end(), item) == out.end()) {
        out.push_back(item);
      }
      start = end + 2;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> sizes_text(const std::vector<std::uint64_t>& sizes) {
  std::vector<std::string> out;
  for (std::uint64_t s : sizes) out.push_back(format_size(s));
  return out;
}

}  // namespace

std::vector<ComparabilityNote> comparability_of(const Run& before, const Run& after) {
  std::vector<ComparabilityNote> out;
  note_values(out, "command", before.command, after.command);
  note_values(out, "backend", before.backend, after.backend);
  note_values(out, "podperf version", before.podperf_version, after.podperf_version);
  if (before.status != "complete" || after.status != "complete") {
    out.push_back({"run status (an incomplete run lacks some metrics)", before.status, after.status});
  }
  std::vector<std::string> nodes_b, nodes_a, types_b, types_a;
  for (const NodeInfo& n : before.nodes) nodes_b.push_back(n.label);
  for (const NodeInfo& n : after.nodes) nodes_a.push_back(n.label);
  for (const NodeInfo& n : before.nodes) {
    if (!n.instance_type.empty()) types_b.push_back(n.instance_type);
  }
  for (const NodeInfo& n : after.nodes) {
    if (!n.instance_type.empty()) types_a.push_back(n.instance_type);
  }
  note_sets(out, "nodes", nodes_b, nodes_a);
  note_values(out, "node count", std::to_string(before.nodes.size()), std::to_string(after.nodes.size()));
  note_values(out, "ranks", std::to_string(before.ranks), std::to_string(after.ranks));
  note_sets(out, "instance types", types_b, types_a);
  note_values(out, "virtual nodes", std::to_string(before.options.virtual_nodes),
              std::to_string(after.options.virtual_nodes));
  note_sets(out, "sizes", sizes_text(before.options.sizes_bytes), sizes_text(after.options.sizes_bytes));
  note_values(out, "iterations", std::to_string(before.options.iters), std::to_string(after.options.iters));
  note_values(out, "warm-up iterations", std::to_string(before.options.warmup), std::to_string(after.options.warmup));
  note_values(out, "op", before.options.op, after.options.op);
  note_values(out, "dtype", before.options.dtype, after.options.dtype);
  note_values(out, "time combine (-a)", before.options.time_combine, after.options.time_combine);
  note_values(out, "concurrency", before.options.concurrency, after.options.concurrency);
  note_values(out, "group by", before.options.group_by, after.options.group_by);
  note_values(out, "check", before.options.check ? "on" : "off", after.options.check ? "on" : "off");
  struct Version {
    const char* check;
    const char* what;
  };
  for (const Version& v :
       {Version{"signals.nccl_version", "NCCL version"}, Version{"signals.nvidia_driver", "NVIDIA driver"},
        Version{"signals.cuda_driver_version", "CUDA driver"}, Version{"signals.kernel", "kernel"},
        Version{"signals.efa_versions", "EFA versions"}}) {
    const auto b = finding_values(before, v.check);
    const auto a = finding_values(after, v.check);
    if (!b.empty() && !a.empty()) note_values(out, v.what, text::join(b, "; "), text::join(a, "; "));
  }
  note_sets(out, "environment", environment_items(before), environment_items(after));
  note_values(out, "topology", before.topology_source, after.topology_source);
  note_sets(out, "topology levels", before.topology_levels, after.topology_levels);
  if (!before.fs.probes.empty() && !after.fs.probes.empty()) {
    note_values(out, "filesystem type", before.fs.fs_type, after.fs.fs_type);
    note_values(out, "filesystem path", before.fs.path, after.fs.path);
    note_values(out, "filesystem shared", before.fs.shared ? "shared" : "node-local",
                after.fs.shared ? "shared" : "node-local");
    for (const FsProbeResult& pb : before.fs.probes) {
      for (const FsProbeResult& pa : after.fs.probes) {
        if (pa.probe != pb.probe) continue;
        auto params = [](const FsProbeResult& p) {
          return fmt::format("block {}, file {}, {} per rank{}", format_size(p.block_size_bytes),
                             format_size(p.file_size_bytes), p.files_per_rank, p.direct ? ", O_DIRECT" : "");
        };
        note_values(out, "fs " + pb.probe + " parameters", params(pb), params(pa));
        break;
      }
    }
  }
  return out;
}

// Whether two entries are the same run (the same file twice, a copy of its directory, or a link to it):
// the same run id and start time, or, for runs without either, the same path.
bool same_run(const Run& a, const std::string& source_a, const Run& b, const std::string& source_b) {
  const bool known = !a.run_id.empty() || !a.started_at.empty();
  return known ? a.run_id == b.run_id && a.started_at == b.started_at : source_a == source_b;
}

std::string source_of(const std::vector<std::string>& sources, std::size_t i) {
  return sources.size() > i ? sources[i] : fmt::format("run {}", i + 1);
}

// Two entries of one side that are the same run. Counted twice it would halve the spread the test sees
// and make a difference look significant.
std::string duplicate_run(const std::vector<Run>& runs, const std::vector<std::string>& sources) {
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (std::size_t j = i + 1; j < runs.size(); ++j) {
      const Run& a = runs[i];
      if (!same_run(a, source_of(sources, i), runs[j], source_of(sources, j))) continue;
      return fmt::format(
          "{} and {} are the same run (run id {}, started {}): each run counts once, since a run given twice "
          "would halve the spread between runs and make a difference look significant; give separate jobs",
          source_of(sources, i), source_of(sources, j), a.run_id.empty() ? "none" : a.run_id,
          a.started_at.empty() ? "unknown" : a.started_at);
    }
  }
  return "";
}

std::string replicate_mismatch_of(const std::vector<Run>& runs, const std::vector<std::string>& sources) {
  if (runs.size() < 2) return "";
  if (std::string why = duplicate_run(runs, sources); !why.empty()) return why;
  const Run& first = runs.front();
  auto labels = [](const Run& r) {
    std::vector<std::string> out;
    for (const NodeInfo& n : r.nodes) out.push_back(n.label.empty() ? n.hostname : n.label);
    std::sort(out.begin(), out.end());
    return out;
  };
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const Run& r = runs[i];
    std::string what;
    if (r.command != first.command)
      what = fmt::format("command {} vs {}", first.command, r.command);
    else if (r.backend != first.backend)
      what = fmt::format("backend {} vs {}", first.backend, r.backend);
    else if (labels(r) != labels(first))
      what = fmt::format("nodes {} vs {}", text::join(labels(first)), text::join(labels(r)));
    else if (r.options.sizes_bytes != first.options.sizes_bytes)
      what = fmt::format("sizes {} vs {}", text::join(sizes_text(first.options.sizes_bytes)),
                         text::join(sizes_text(r.options.sizes_bytes)));
    else if (r.options.op != first.options.op)
      what = fmt::format("op {} vs {}", first.options.op, r.options.op);
    else if (r.options.iters != first.options.iters)
      what = fmt::format("iterations {} vs {}", first.options.iters, r.options.iters);
    if (!what.empty()) {
      const std::string a = sources.size() > 0 ? sources[0] : "run 1";
      const std::string b = sources.size() > i ? sources[i] : fmt::format("run {}", i + 1);
      return fmt::format("{} and {} are not repeats of one setup ({}); give the runs of one setup per side", a, b,
                         what);
    }
  }
  return "";
}

std::vector<ComparabilityNote> runs_on_both_sides_of(const std::vector<Run>& before,
                                                     const std::vector<std::string>& before_sources,
                                                     const std::vector<Run>& after,
                                                     const std::vector<std::string>& after_sources) {
  std::vector<ComparabilityNote> out;
  for (std::size_t i = 0; i < before.size(); ++i) {
    for (std::size_t j = 0; j < after.size(); ++j) {
      if (!same_run(before[i], source_of(before_sources, i), after[j], source_of(after_sources, j))) continue;
      const std::string id = before[i].run_id.empty() ? "" : " (run " + before[i].run_id + ")";
      out.push_back({"the same run on both sides" + id + ", which pulls the sides together and hides a change",
                     source_of(before_sources, i), source_of(after_sources, j)});
    }
  }
  return out;
}

}  // namespace podperf::comparability_detail

namespace podperf {

std::vector<ComparabilityNote> runs_on_both_sides(const std::vector<Run>& before,
                                                  const std::vector<std::string>& before_sources,
                                                  const std::vector<Run>& after,
                                                  const std::vector<std::string>& after_sources) {
  return comparability_detail::runs_on_both_sides_of(before, before_sources, after, after_sources);
}

std::vector<ComparabilityNote> comparability(const Run& before, const Run& after) {
  return comparability_detail::comparability_of(before, after);
}

std::string replicate_mismatch(const std::vector<Run>& runs, const std::vector<std::string>& sources) {
  return comparability_detail::replicate_mismatch_of(runs, sources);
}

}  // namespace podperf

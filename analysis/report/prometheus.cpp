// The Prometheus node-exporter textfile (see prometheus.hpp). Report floor; local; a printer.
#include "analysis/report/prometheus.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>

namespace podperf {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

// One metric family: its HELP and TYPE once, then its series.
class Family {
 public:
  Family(std::string name, std::string help) : name_(std::move(name)), help_(std::move(help)) {}
  // Adds a series; a value that is not finite is left out (the format allows NaN, scrapers and alerts
  // rarely want it).
  void add(const Labels& labels, double value) {
    if (!std::isfinite(value)) return;
    std::string line = name_;
    if (!labels.empty()) {
      line += '{';
      for (std::size_t i = 0; i < labels.size(); ++i) {
        line +=
            fmt::format("{}{}=\"{}\"", i == 0 ? "" : ",", labels[i].first, prometheus_label_value(labels[i].second));
      }
      line += '}';
    }
    lines_ += fmt::format("{} {}\n", line, value);
  }
  // HELP, TYPE and the series; nothing when it has none.
  [[nodiscard]] std::string text() const {
    if (lines_.empty()) return {};
    std::string help;
    for (char c : help_) help += c == '\\' ? std::string("\\\\") : c == '\n' ? std::string("\\n") : std::string(1, c);
    return fmt::format("# HELP {} {}\n# TYPE {} gauge\n{}", name_, help, name_, lines_);
  }

 private:
  std::string name_;
  std::string help_;
  std::string lines_;
};

double verdict_code(const std::string& status) {
  if (status == "PASS") return 0;
  if (status == "WARN") return 1;
  if (status == "FAIL") return 2;
  return std::nan("");
}

Labels node_labels(const NodeSummary& n) {
  return {{"host", n.label}, {"instance_type", n.instance_type}};
}

// The run's own series: what ran, how it ended, the size nodes are judged at, the verdict.
std::string run_families(const Run& run) {
  Family info("podperf_run_info",
              "the run this file describes (value 1): run id, command, backend, simulated (a modelled fabric), "
              "status (complete, timeout, aborted)");
  info.add({{"run_id", run.run_id},
            {"command", run.command},
            {"backend", run.backend},
            {"simulated", run.simulated ? "true" : "false"},
            {"status", run.status}},
           1);
  Family judged("podperf_run_judged_size_bytes", "message size in bytes at which nodes are judged");
  if (run.judged_size_bytes > 0) judged.add({}, static_cast<double>(run.judged_size_bytes));
  Family verdict("podperf_run_verdict", "acceptance verdict of the run: 0 PASS, 1 WARN, 2 FAIL (podperf accept)");
  verdict.add({{"profile", run.verdict.profile}, {"sku", run.verdict.sku}}, verdict_code(run.verdict.status));
  Family stragglers("podperf_run_stragglers", "straggler nodes the pairs analysis named");
  if (!run.pairs.empty()) stragglers.add({}, static_cast<double>(run.stragglers.size()));
  return info.text() + judged.text() + verdict.text() + stragglers.text();
}

// One series per node and fact.
std::string node_families(const Run& run, const std::vector<NodeSummary>& nodes) {
  Family verdict("podperf_node_verdict", "acceptance verdict of the node: 0 PASS, 1 WARN, 2 FAIL (podperf accept)");
  Family straggler("podperf_node_straggler", "1 when the pairs analysis named the node a straggler, else 0");
  Family busbw("podperf_node_busbw_gbps",
               "median bus bandwidth in GB/s of the node's pairs at the judged size (ok pairs only)");
  Family pairs("podperf_node_pairs", "pairs of the node measured at the judged size");
  Family flagged("podperf_node_flagged_pairs",
                 "pairs of the node flagged below the robust baseline at the judged size (after retests)");
  const std::string op = run.pairs.empty() ? std::string() : run.pairs.front().op;
  for (const NodeSummary& n : nodes) {
    verdict.add(node_labels(n), verdict_code(n.verdict));
    if (run.pairs.empty()) continue;
    straggler.add(node_labels(n), n.straggler ? 1 : 0);
    pairs.add(node_labels(n), n.pairs);
    flagged.add(node_labels(n), n.flagged_pairs);
    if (n.median_busbw_gbps) {
      Labels l = node_labels(n);
      l.emplace_back("op", op);
      l.emplace_back("size_bytes", std::to_string(run.judged_size_bytes));
      busbw.add(l, *n.median_busbw_gbps);
    }
  }
  return verdict.text() + straggler.text() + busbw.text() + pairs.text() + flagged.text();
}

// The filesystem probes: per node and probe its MB/s (ops/s for the metadata phases), and the
// aggregate.
std::string fs_families(const Run& run, const std::vector<NodeSummary>& nodes) {
  Family node_mb("podperf_fs_node_mb_per_second", "filesystem throughput of the node in MB/s (1e6 bytes) per probe");
  Family node_ops("podperf_fs_node_ops_per_second",
                  "filesystem operations per second of the node per metadata probe phase");
  Family agg_mb("podperf_fs_mb_per_second", "aggregate filesystem throughput in MB/s of all nodes per probe");
  Family agg_ops("podperf_fs_ops_per_second", "aggregate filesystem operations per second per metadata probe phase");
  Family slow("podperf_fs_node_flagged", "1 when the probe flagged the node slower than the others, else 0");
  for (const FsProbeResult& p : run.fs.probes) {
    const bool meta = p.probe.rfind("meta-", 0) == 0;
    (meta ? agg_ops : agg_mb).add({{"probe", p.probe}}, meta ? p.ops_per_s : p.mb_per_s);
    for (const FsNodeResult& r : p.nodes) {
      const bool known = r.node >= 0 && static_cast<std::size_t>(r.node) < nodes.size();
      Labels l = known ? node_labels(nodes[static_cast<std::size_t>(r.node)])
                       : Labels{{"host", r.label}, {"instance_type", ""}};
      l.emplace_back("probe", p.probe);
      (meta ? node_ops : node_mb).add(l, meta ? r.ops_per_s : r.mb_per_s);
      slow.add(l, r.flagged ? 1 : 0);
    }
  }
  return node_mb.text() + node_ops.text() + slow.text() + agg_mb.text() + agg_ops.text();
}

}  // namespace

std::string prometheus_label_value(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string render_prometheus(const Run& run, const std::vector<NodeSummary>& nodes) {
  return run_families(run) + node_families(run, nodes) + fs_families(run, nodes);
}

}  // namespace podperf

#pragma once
// The Prometheus node-exporter textfile of a judged run (exposition format 0.0.4: "# HELP", "# TYPE"
// once per metric family, then one line per series, labels quoted with \\, \" and \n escaped):
// per node its verdict, straggler flag, median pair busbw at the judged size, pairs and flagged pairs,
// filesystem MB/s (ops/s for the metadata phases) per probe; labelled host and instance_type. Metrics
// are documented in docs/prometheus.md. A printer: formats the Run and its NodeSummary rows
// (analysis/report/node_rows), computes nothing; values that are not finite are left out. Report floor;
// local; throws nothing.
#include <string>
#include <string_view>
#include <vector>

#include "analysis/model/run.hpp"
#include "analysis/report/node_rows.hpp"

namespace podperf {

// The textfile's text for `run` (analyzed, and judged when it carries a verdict) and `nodes`
// (summarize_nodes(run)).
std::string render_prometheus(const Run& run, const std::vector<NodeSummary>& nodes);

// A label value as the format writes it between quotes: \ -> \\, " -> \", newline -> \n.
std::string prometheus_label_value(std::string_view value);

}  // namespace podperf

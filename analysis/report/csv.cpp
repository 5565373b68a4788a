#include "analysis/report/csv.hpp"

#include <fmt/format.h>

#include <iterator>
#include <ostream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/config/fs_probes.hpp"
#include "analysis/report/common.hpp"
#include "analysis/topology/topology_analysis.hpp"

namespace podperf {
namespace {

// Index of each column of csv_columns(), once.
std::size_t column_index(std::string_view column) {
  static const std::unordered_map<std::string_view, std::size_t> index = [] {
    std::unordered_map<std::string_view, std::size_t> m;
    for (std::size_t i = 0; i < csv_columns().size(); ++i) m.emplace(csv_columns()[i], i);
    return m;
  }();
  const auto it = index.find(column);
  if (it == index.end()) throw std::logic_error(fmt::format("CSV column {} is not in csv_columns()", column));
  return it->second;
}

// A row under construction: one value per column; unset columns print empty. Values are kept between
// rows (cleared, not freed): millions of pair rows at scale.
class Row {
 public:
  Row() : values_(csv_columns().size()) {}
  Row& set(std::string_view column, std::string_view value) {
    values_[column_index(column)].assign(value);
    return *this;
  }
  Row& num(std::string_view column, double value) {
    std::string& v = values_[column_index(column)];
    v.clear();
    fmt::format_to(std::back_inserter(v), "{}", value);
    return *this;
  }
  Row& integer(std::string_view column, long long value) {
    std::string& v = values_[column_index(column)];
    v.clear();
    fmt::format_to(std::back_inserter(v), "{}", value);
    return *this;
  }
  Row& boolean(std::string_view column, bool value) { return set(column, value ? "true" : "false"); }
  void clear() {
    for (std::string& v : values_) v.clear();
  }
  // `extra`: the optional trailing columns' values, each after a comma (topology class, "true" for a
  // simulated run); the header has their names.
  void write(std::string& out, const std::vector<std::string_view>& extra) const {
    for (std::size_t i = 0; i < values_.size(); ++i) {
      if (i > 0) out += ',';
      if (values_[i].find_first_of(",\"\r\n") == std::string::npos) {
        out += values_[i];
      } else {
        out += csv_field(values_[i]);
      }
    }
    for (std::string_view e : extra) {
      out += ',';
      out += e;
    }
    out += "\r\n";
  }

 private:
  std::vector<std::string> values_;
};

void timing(Row& row, const std::vector<double>& samples_s, double median_s, double min_s, double max_s, double p99_s,
            double cv) {
  row.integer("iterations", static_cast<long long>(samples_s.size()))
      .num("median_s", median_s)
      .num("min_s", min_s)
      .num("max_s", max_s)
      .num("p99_s", p99_s)
      .num("cv", cv);
}

}  // namespace

const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> columns = {"kind",
                                                   "run_id",
                                                   "op",
                                                   "dtype",
                                                   "in_place",
                                                   "group",
                                                   "round",
                                                   "node_a",
                                                   "node_b",
                                                   "node",
                                                   "rank",
                                                   "size_bytes",
                                                   "count",
                                                   "block_size_bytes",
                                                   "files_per_rank",
                                                   "ranks",
                                                   "iterations",
                                                   "median_s",
                                                   "min_s",
                                                   "max_s",
                                                   "p99_s",
                                                   "cv",
                                                   "algbw_gbps",
                                                   "busbw_gbps",
                                                   "baseline_gbps",
                                                   "ratio",
                                                   "noise_gbps",
                                                   "flagged",
                                                   "cleared_by_retest",
                                                   "retest_busbw_gbps",
                                                   "bytes",
                                                   "ops",
                                                   "start_s",
                                                   "end_s",
                                                   "mb_per_s",
                                                   "ops_per_s",
                                                   "lat_p50_us",
                                                   "lat_p99_us",
                                                   "cached_fraction",
                                                   "wrong",
                                                   "status",
                                                   "error"};
  return columns;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

namespace {

// The rows of `run` appended to `out`; with a `sink`, `out` goes to it whenever it passes 1 MiB (and
// at the end), so the whole table is never in memory.
void csv_rows(const Run& run, std::string& out, std::ostream* sink) {
  constexpr std::size_t kFlushBytes = 1 << 20;
  const auto flush = [&](bool last) {
    if (sink == nullptr || (!last && out.size() < kFlushBytes)) return;
    sink->write(out.data(), static_cast<std::streamsize>(out.size()));
    out.clear();
  };
  bool first = true;
  for (const std::string& c : csv_columns()) {
    out += (first ? "" : ",") + c;
    first = false;
  }
  // Optional trailing columns: "topology" (pairs: the class of the pair's path, e.g. "crosses rack")
  // on runs with a topology, "simulated" (true) on runs of the modelled fabric.
  const bool with_topology = !run.topology_levels.empty();
  if (with_topology) out += ",topology";
  out += run.simulated ? ",simulated\r\n" : "\r\n";
  std::vector<std::string_view> extra;
  const auto set_extra = [&](std::string_view topology) {
    extra.clear();
    if (with_topology) extra.push_back(topology);
    if (run.simulated) extra.emplace_back("true");
  };
  set_extra("");
  // The class names per split level (levels.size() + 2 of them), not one string per pair.
  std::vector<std::string> class_names;
  if (with_topology) {
    for (int level = -1; level <= static_cast<int>(run.topology_levels.size()); ++level) {
      class_names.push_back(csv_field(topology_class_name(run, level)));
    }
  }
  Row row;
  for (const PairResult& p : run.pairs) {
    row.clear();
    if (with_topology) {
      set_extra(class_names[static_cast<std::size_t>(topology_split_level(run, p.nodes[0], p.nodes[1]) + 1)]);
    }
    row.set("kind", "pair").set("run_id", run.run_id).set("op", p.op).set("dtype", p.dtype);
    row.integer("round", p.round).set("node_a", node_label(run, p.nodes[0])).set("node_b", node_label(run, p.nodes[1]));
    row.integer("size_bytes", static_cast<long long>(p.size_bytes)).integer("count", static_cast<long long>(p.count));
    row.integer("ranks", p.ranks);
    timing(row, p.samples_s, p.median_s, p.min_s, p.max_s, p.p99_s, p.cv);
    row.num("algbw_gbps", p.algbw_gbps).num("busbw_gbps", p.busbw_gbps).num("baseline_gbps", p.baseline_gbps);
    row.num("ratio", p.ratio).num("noise_gbps", p.noise_gbps).boolean("flagged", p.flagged);
    row.boolean("cleared_by_retest", p.cleared_by_retest);
    if (!p.retest_samples_s.empty()) row.num("retest_busbw_gbps", p.retest_busbw_gbps);
    row.integer("wrong", p.wrong).set("status", p.status).set("error", p.error);
    row.write(out, extra);
    flush(false);
  }
  set_extra("");
  for (const CollectiveResult& r : run.collectives) {
    row.clear();
    row.set("kind", "collective").set("run_id", run.run_id).set("op", r.op).set("dtype", r.dtype);
    row.boolean("in_place", r.in_place).set("group", r.group);
    row.integer("size_bytes", static_cast<long long>(r.size_bytes)).integer("count", static_cast<long long>(r.count));
    row.integer("ranks", r.ranks);
    timing(row, r.samples_s, r.median_s, r.min_s, r.max_s, r.p99_s, r.cv);
    row.num("algbw_gbps", r.algbw_gbps).num("busbw_gbps", r.busbw_gbps);
    row.integer("wrong", r.wrong).set("status", r.status).set("error", r.error);
    row.write(out, extra);
    flush(false);
  }
  for (const FsProbeResult& p : run.fs.probes) {
    const auto probe_row = [&run, &p, &row]() -> Row& {
      row.clear();
      row.set("run_id", run.run_id).set("op", fs_probe_label(p.probe, p.block)).integer("size_bytes", static_cast<long long>(p.file_size_bytes));
      row.integer("block_size_bytes", static_cast<long long>(p.block_size_bytes));
      row.integer("files_per_rank", static_cast<long long>(p.files_per_rank));
      return row;
    };
    for (const FsNodeResult& n : p.nodes) {
      probe_row();
      row.set("kind", "fs_node").set("node", n.label).integer("ranks", n.ranks);
      row.integer("bytes", static_cast<long long>(n.bytes)).integer("ops", static_cast<long long>(n.ops));
      row.num("start_s", n.start_s).num("end_s", n.end_s).num("mb_per_s", n.mb_per_s).num("ops_per_s", n.ops_per_s);
      row.num("ratio", n.ratio).boolean("flagged", n.flagged);
      row.write(out, extra);
    }
    for (const FsRankResult& r : p.ranks) {
      probe_row();
      row.set("kind", "fs_rank").set("node", node_label(run, r.node)).integer("rank", r.rank);
      row.integer("bytes", static_cast<long long>(r.bytes)).integer("ops", static_cast<long long>(r.ops));
      row.num("start_s", r.start_s).num("end_s", r.end_s).num("mb_per_s", r.mb_per_s).num("ops_per_s", r.ops_per_s);
      if (r.lat_p50_us > 0.0 || r.lat_p99_us > 0.0) row.num("lat_p50_us", r.lat_p50_us).num("lat_p99_us", r.lat_p99_us);
      if (r.cached_fraction >= 0.0) row.num("cached_fraction", r.cached_fraction);
      row.integer("wrong", static_cast<long long>(r.checksum_mismatches)).set("status", r.status).set("error", r.error);
      row.write(out, extra);
    }
  }
  flush(true);
}

}  // namespace

std::string render_csv(const Run& run) {
  std::string out;
  csv_rows(run, out, nullptr);
  return out;
}

void write_csv(const Run& run, std::ostream& sink) {
  std::string out;
  csv_rows(run, out, &sink);
}

}  // namespace podperf

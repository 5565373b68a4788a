#include "analysis/report/collective_table.hpp"

#include <fmt/format.h>

#include <iterator>
#include <map>
#include <tuple>

#include "analysis/report/findings_text.hpp"
#include "analysis/report/format_append.hpp"

namespace podperf {
namespace {

std::string redop(const std::string& op) {
  return op == "all_reduce" || op == "reduce" || op == "reduce_scatter" ? "sum" : "none";
}

std::string root(const std::string& op) {
  return op == "broadcast" || op == "reduce" ? "0" : "-1";
}

void cells(std::string& out, const CollectiveResult* r) {
  if (r == nullptr) {
    append(out, " {:>10} {:>7} {:>7} {:>6}", "-", "-", "-", "-");
  } else if (r->status == "error" || r->status == "skipped") {
    append(out, " {:>10} {:>7} {:>7} {:>6}", r->status == "error" ? "error" : "n/a", "-", "-", "-");
  } else {
    append(out, " {:>10.2f} {:>7.2f} {:>7.2f} {:>6}", r->median_s * 1e6, r->algbw_gbps, r->busbw_gbps, r->wrong);
  }
}

}  // namespace

std::string render_collective_table(const Run& run, const std::string& results_dir) {
  std::string out;
  // (group, op, dtype) in first-seen order -> size -> {out-of-place, in-place}
  using Key = std::tuple<std::string, std::string, std::string>;
  std::vector<Key> order;
  std::map<Key, std::map<std::uint64_t, std::pair<const CollectiveResult*, const CollectiveResult*>>> table;
  for (const CollectiveResult& r : run.collectives) {
    Key key{r.group, r.op, r.dtype};
    if (!table.contains(key)) order.push_back(key);
    auto& row = table[key][r.size_bytes];
    (r.in_place ? row.second : row.first) = &r;
  }
  append(out, "\n# podperf collective — run {} — {} backend, {} ranks on {} nodes, times combined: {}\n", run.run_id,
         run.backend, run.ranks, run.nodes.size(), run.options.time_combine);
  append(out,
         "# iterations {} (warm-up {}), check {}; time = median per iteration; cv = stddev/mean of the "
         "out-of-place iterations\n",
         run.options.iters, run.options.warmup, run.options.check ? "on" : "off");
  std::vector<std::string> failures;
  for (const Key& key : order) {
    const auto& [group, op, dtype] = key;
    append(out, "#\n# {} {} on {} ({} ranks)\n", op, dtype, group,
           table[key].begin()->second.first != nullptr ? table[key].begin()->second.first->ranks : 0);
    append(out, "# {:>10} {:>10} {:>8} {:>6} {:>5}  {:^33}  {:^33} {:>6}\n", "", "", "", "", "", "out-of-place",
           "in-place", "");
    append(out, "# {:>10} {:>10} {:>8} {:>6} {:>5} {:>10} {:>7} {:>7} {:>6} {:>10} {:>7} {:>7} {:>6} {:>6}\n", "size",
           "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong",
           "cv");
    append(out, "# {:>10} {:>10} {:>8} {:>6} {:>5} {:>10} {:>7} {:>7} {:>6} {:>10} {:>7} {:>7} {:>6} {:>6}\n", "(B)",
           "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "", "(%)");
    double last_busbw = 0.0;
    std::uint64_t last_size = 0;
    for (const auto& [size, pair] : table[key]) {
      const CollectiveResult* any = pair.first != nullptr ? pair.first : pair.second;
      append(out, "  {:>10} {:>10} {:>8} {:>6} {:>5}", size, any->count, dtype, redop(op), root(op));
      cells(out, pair.first);
      cells(out, pair.second);
      append(out, " {:>6.1f}\n", pair.first != nullptr ? pair.first->cv * 100.0 : 0.0);
      for (const CollectiveResult* r : {pair.first, pair.second}) {
        if (r != nullptr && !status_ok(r->status) && r->status != "skipped") {
          failures.push_back(fmt::format(
              "{} {} {} {} bytes {}: {}{}", group, op, dtype, size, r->in_place ? "in-place" : "out-of-place",
              r->status, r->status == "wrong" ? fmt::format(" ({} wrong elements)", r->wrong) : " " + r->error));
        }
      }
      if (pair.first != nullptr && status_ok(pair.first->status)) {
        last_busbw = pair.first->busbw_gbps;
        last_size = size;
      }
    }
    if (last_size > 0) {
      append(out,
             "# busbw at the largest size ({} B): {:.2f} GB/s — the figure to compare with baselines (an average "
             "over all sizes is dominated by small messages)\n",
             last_size, last_busbw);
    }
  }
  if (!run.error.empty()) append(out, "#\n# error: {}\n", run.error);
  for (const std::string& u : run.unfinished) append(out, "#   unfinished: {}\n", u);
  if (failures.empty()) {
    append(out, "#\n# all cases correct (#wrong 0)\n");
  } else {
    append(out, "#\n# {} failed case(s):\n", failures.size());
    for (const std::string& f : failures) append(out, "#   {}\n", f);
  }
  if (!run.findings.empty() || !run.nccl_log.empty()) out += "#\n" + render_findings(run, "# ");
  if (!results_dir.empty()) append(out, "# Results: {}/run.json, events.jsonl\n", results_dir);
  return out;
}

}  // namespace podperf

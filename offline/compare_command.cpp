// podperf compare: reads the runs of each side, checks that the runs of one side are repeats of one
// setup, compares, prints (text or JSON, optional HTML). Floor: offline/ (no MPI); exit codes 0/1/2/3/4.
#include "offline/compare_command.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <ostream>

#include "analysis/base/errors.hpp"
#include "analysis/base/file_write.hpp"
#include "analysis/base/text.hpp"
#include "analysis/compare/compare.hpp"
#include "analysis/compare/compare_comparability.hpp"
#include "analysis/compare/compare_units.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/report/compare_html.hpp"
#include "analysis/report/comparison_json.hpp"
#include "analysis/report/comparison_text.hpp"
#include "analysis/topology/topology.hpp"
#include "offline/offline_command.hpp"

namespace podperf {

std::string resolve_run_json(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    const std::filesystem::path file = std::filesystem::path(path) / "run.json";
    if (!std::filesystem::exists(file, ec)) {
      throw InputError(
          fmt::format("{}: a directory without run.json (expected a run.json or a results directory)", path));
    }
    return file.string();
  }
  return path;
}

namespace {

// The run files of each side: --before/--after, or the positional pair. Throws InputError on a bad
// combination.
void sides(const CompareOptions& o, std::vector<std::string>& before, std::vector<std::string>& after) {
  const bool flags = !o.before_runs.empty() || !o.after_runs.empty();
  const bool positional = !o.before.empty() || !o.after.empty();
  if (flags && positional) {
    throw InputError("give the runs either as BEFORE AFTER or as --before RUN... --after RUN..., not both");
  }
  if (flags) {
    if (o.before_runs.empty()) throw InputError("--after without --before: give the earlier runs with --before RUN...");
    if (o.after_runs.empty()) throw InputError("--before without --after: give the later runs with --after RUN...");
    before = o.before_runs;
    after = o.after_runs;
    return;
  }
  if (o.before.empty() || o.after.empty()) {
    throw InputError("two runs needed: podperf compare BEFORE AFTER, or --before RUN... --after RUN...");
  }
  before = {o.before};
  after = {o.after};
}

// Reads the runs of one side one at a time: each gets the topology (if any), is summarized into
// `comparison` and loses its pairs and collectives before the next is read, so a side of runs of
// thousands of nodes needs the memory of one run, not of all of them. What is kept (nodes, options,
// findings, filesystem) is what the comparability and replicate checks read.
std::vector<Run> read_side(const std::vector<std::string>& args, std::vector<std::string>& paths,
                           const Topology* topology, RunComparison& comparison, bool before) {
  std::vector<Run> runs;
  runs.reserve(args.size());
  for (const std::string& a : args) {
    paths.push_back(resolve_run_json(a));
    runs.push_back(read_run_json(paths.back()));
    Run& run = runs.back();
    if (topology != nullptr) apply_topology(run, *topology);
    before ? comparison.add_before(run) : comparison.add_after(run);
    std::vector<PairResult>().swap(run.pairs);
    std::vector<CollectiveResult>().swap(run.collectives);
  }
  std::string why = replicate_mismatch(runs, paths);
  if (why.empty()) why = blocks_mismatch(runs, paths);  // analysis/compare/compare_units
  if (!why.empty()) throw InputError(why);
  return runs;
}

// No metric on both sides and no failure on either: "No regression" would be a verdict on nothing.
bool nothing_compared(const Comparison& c) {
  return c.metrics.empty() && c.failures_before.empty() && c.failures_after.empty();
}

std::string nothing_compared_why(const Comparison& c) {
  std::vector<std::string> differences;
  for (const ComparabilityNote& n : c.comparability) {
    if (differences.size() == 3) break;
    differences.push_back(fmt::format("{}: BEFORE {}, AFTER {}", n.what, n.before, n.after));
  }
  return fmt::format(
      "no metric was measured on both sides ({} only in BEFORE, {} only in AFTER), so there is nothing to "
      "compare{}; give runs of the same command, nodes and sizes",
      c.only_before.size(), c.only_after.size(), differences.empty() ? "" : " (" + text::join(differences, "; ") + ")");
}

}  // namespace

int run_compare_command(const CompareOptions& o, std::ostream& out, std::ostream& err) {
  // Exit 2: unreadable or invalid runs or settings (InputError, ConfigError); 3: the HTML page cannot
  // be written (RuntimeFailure) or anything else that fails.
  return run_offline_command("podperf compare", err, [&] {
    CompareSettings settings = load_compare_settings(o.config);
    if (o.alpha >= 0.0) settings.alpha = o.alpha;
    if (o.min_change_percent >= 0.0) settings.min_change_percent = o.min_change_percent;
    if (o.allowance_percent >= 0.0) settings.single_run_allowance_percent = o.allowance_percent;
    settings.fail_on_percent = o.fail_on_percent;
    settings.max_mde_percent = o.max_mde_percent;
    std::vector<std::string> before_args, after_args, before_paths, after_paths;
    sides(o, before_args, after_args);
    // Read before any run: a bad file is exit 2 naming it. Every run gets the same topology.
    std::optional<Topology> topology;
    if (!o.topology.empty()) topology = load_topology(o.topology, o.topology_format);
    const Topology* t = topology ? &*topology : nullptr;
    RunComparison comparison(settings);
    const std::vector<Run> before = read_side(before_args, before_paths, t, comparison, true);
    const std::vector<Run> after = read_side(after_args, after_paths, t, comparison, false);
    Comparison c = comparison.finish();
    c.before_source = text::join(before_paths, ", ");
    c.after_source = text::join(after_paths, ", ");
    for (ComparabilityNote& n : runs_on_both_sides(before, before_paths, after, after_paths)) {
      c.comparability.push_back(std::move(n));
    }
    if (nothing_compared(c)) throw InputError(nothing_compared_why(c));
    // The verdict is the judge's (Comparison::outcome, decided once); the printers and the exit code read it.
    if (o.json) {
      const nlohmann::json extra = {{"fail_on_percent", c.outcome.fail_on_percent},
                                    {"regressed", c.outcome.verdict == "regression"}};
      write_comparison_json(c, extra, out);
    } else {
      out << comparison_text(c);
    }
    out.flush();
    if (!o.html.empty()) {
      write_file_atomically(o.html, render_compare_html(c));
      err << "podperf compare: wrote " << o.html << "\n";
    }
    return c.outcome.exit_code;
  });
}

}  // namespace podperf

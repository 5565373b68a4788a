// podperf accept --from: read a finished run, judge it (analysis/accept/acceptance), print the verdict, write
// the JUnit and Prometheus files (analysis/report/accept_outputs, as the measuring accept). Offline floor: no MPI;
// errors through run_offline_command.
#include "offline/accept_from.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <ostream>

#include "analysis/accept/node_checks.hpp"
#include "analysis/base/errors.hpp"
#include "analysis/config/thresholds.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/io/run_metadata.hpp"
#include "analysis/report/accept_outputs.hpp"
#include "analysis/topology/topology.hpp"
#include "analysis/topology/topology_analysis.hpp"
#include "offline/offline_command.hpp"

namespace podperf {
namespace {

// Throws UsageError when the command line gave an option that measures: --from measures nothing.
void reject_measuring_options(const AcceptanceOptions& o) {
  for (const std::string& name : o.given) {
    if (name != "--profile" && name != "--sku" && name != "--from" && name != "--junit" && name != "--topology" &&
        name != "--topology-format" && name != "--prometheus" && name != "--cluster-name") {
      throw UsageError(
          fmt::format("{} measures; --from judges a finished run without measuring (drop {})", name, name));
    }
  }
}

// The command without its error handling. Throws what the readers and judges throw.
int accept_from(const AcceptanceOptions& o, std::ostream& out, std::ostream& err) {
  const AcceptSetup setup = prepare_acceptance(o);
  reject_measuring_options(o);
  std::string path = o.from;
  if (std::filesystem::is_directory(path)) path = (std::filesystem::path(path) / "run.json").string();
  Run run = read_run_json(path);
  if (!o.topology.empty()) {
    apply_topology(run, load_topology(o.topology, o.topology_format));
    judge_topology(run, run.thresholds.topology);
  }
  judge_acceptance(run, setup);
  out << fmt::format("podperf accept --from {}: {} nodes, command {}, backend {}{}\n", path, run.nodes.size(),
                     run.command, run.backend, run.status == "complete" ? "" : fmt::format(" (run {})", run.status));
  // The same text and files as the measuring command, except junit.xml in the run's own directory: --from
  // writes only where it is told.
  const AcceptOutputs written =
      write_accept_outputs(run, AcceptOutputTargets{"", o.junit, o.prometheus, o.cluster_name});
  out << written.text;
  out.flush();
  if (!written.errors.empty()) {
    err << written.errors;
    return kExitRuntime;
  }
  return accept_exit_code(run.verdict);
}

}  // namespace

int run_accept_from(const AcceptanceOptions& o, std::ostream& out, std::ostream& err) {
  const bool print_usage_errors = launcher_rank_from_env() == 0;
  return run_offline_command(
      "podperf", err, [&] { return accept_from(o, out, err); }, print_usage_errors);
}

}  // namespace podperf

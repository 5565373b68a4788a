#include "bench/fs_command.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "analysis/base/errors.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "analysis/report/run_text.hpp"
#include "bench/fs/fs_plan.hpp"
#include "bench/fs/fs_stage.hpp"
#include "bench/job.hpp"
#include "bench/nccl_capture.hpp"
#include "bench/node_signals.hpp"
#include "bench/run_recorder.hpp"
#include "bench/watchdog.hpp"

namespace podperf {
namespace {

// Rank 0's record of a filesystem run.
class FsRecorder final : public RunRecorder {
 public:
  FsRecorder(Run run, ResultsDir& dir) : RunRecorder(std::move(run), dir) {}

 private:
  void analyze(Run& run) override { judge_fs(run, run.thresholds.fs); }
  nlohmann::json end_event(const Run& run) const override {
    nlohmann::json slow = nlohmann::json::array();
    for (const FsSlowNode& n : run.fs.slow_nodes) slow.push_back(n.label);
    return {{"event", "end"}, {"status", run.status}, {"fs_slow_nodes", slow}};
  }
  // The run's summary: for a run without pairs it is the header, the filesystem section, the
  // findings and where the files are.
  std::string render(const Run& run, const std::string& results_dir) const override {
    return render_summary(run, results_dir);
  }
  int exit_code(const Run& run) const override { return fs_exit_code(run); }

};

int run_fs(const Cli& cli, const Comm& world, const VerdictHook* verdict_hook) {
  const FsCommandOptions& o = cli.fs;
  const bool root = world.rank() == 0;
  FsPlan plan;
  std::optional<JobStart> job =
      start_job(world, o, [&](const NodeMap&, const std::string&) { plan = make_fs_plan(o.fs, o.fs.config); });
  if (!job) return kExitUsage;
  const NodeMap& map = job->map;

  FsSetup setup;
  try {
    setup = prepare_fs_stage(world, map, plan, o.fs, job->run_id);
  } catch (const UsageError& e) {
    if (root) {
      std::fprintf(stderr, "podperf: error: %s\n", e.what());
      discard_unused_results_dir(job->dir);
    }
    return kExitUsage;
  }

  std::unique_ptr<FsRecorder> recorder;
  if (root) {
    Run run = base_run(cli, o, job->run_id, world.size(), map);
    run.backend = "posix";
    run.options.sizes_bytes = {};
    record_thresholds(run, plan.thresholds);
    if (o.repeat >= 2) {
      // The chain runs whole in every block, in its order (a read needs its write): no shuffle.
      run.blocks.count = o.repeat;
      run.blocks.cases = "probes";
      std::vector<int> chain(plan.probe_names().size());
      for (std::size_t i = 0; i < chain.size(); ++i) chain[i] = static_cast<int>(i);
      run.blocks.order.assign(static_cast<std::size_t>(o.repeat), chain);
    }
    recorder = std::make_unique<FsRecorder>(std::move(run), *job->dir);
    recorder->set_fs(setup.info);
    if (verdict_hook != nullptr) recorder->set_verdict_hook(*verdict_hook);
    std::fprintf(stderr,
                 "podperf: fs on %zu %snodes (%d ranks), probes %s, %s per rank, block %s%s%s; %s filesystem (%s) "
                 "at %s; results in %s\n",
                 map.nodes.size(), o.virtual_nodes > 0 ? "VIRTUAL " : "", world.size(),
                 fmt::format("{}", fmt::join(plan.probe_names(), ",")).c_str(), o.fs.file_size.c_str(),
                 o.fs.block_size.c_str(), plan.direct ? ", O_DIRECT" : "",
                 o.repeat >= 2 ? fmt::format(", the chain {} times (--repeat)", o.repeat).c_str() : "", setup.shared ? "shared" : "node-local",
                 setup.info.fs_type.empty() ? "type unknown" : setup.info.fs_type.c_str(), setup.dir.c_str(),
                 job->dir->path().c_str());
  }
  const std::string& my_label =
      map.nodes[static_cast<std::size_t>(map.node_of_rank[static_cast<std::size_t>(world.rank())])].label;
  const std::unique_ptr<Watchdog> watchdog = make_run_watchdog(world, recorder.get(), my_label);
  const std::vector<HostSnapshot> signals_before = gather_host_snapshots(world, o.signals_root);
  std::unique_ptr<ExitGuard> exit_guard = make_exit_guard(recorder.get());
  try {
    run_fs_probes(world, map, plan, setup, recorder.get(), *watchdog, o.timeout_s, o.repeat);
    finish_fs_stage(world, setup);
    record_findings(world, recorder.get(), NcclLogCapture{}, "posix", signals_before, o.signals_root, {});
  } catch (const std::exception& e) {
    if (root) recorder->abort("aborted", e.what());
    throw;
  }
  return conclude_run(world, recorder.get(), exit_guard);
}

}  // namespace

int run_fs_command(int* argc, char*** argv, const Cli& cli, const VerdictHook* verdict_hook) {
  return run_mpi_command(argc, argv,
                         [&cli, verdict_hook](const Comm& world) { return run_fs(cli, world, verdict_hook); });
}

}  // namespace podperf

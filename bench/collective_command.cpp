// podperf collective (see collective_command.hpp): the plan (ops, dtypes, sizes, groups), rank 0's
// recorder, one op on every group at once, the findings. Floor: bench; collective over the world;
// UsageError for bad options, MPI errors end the job (rank 0 keeps what was measured).
#include "bench/collective_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <mutex>
#include <sstream>

#include "analysis/base/errors.hpp"
#include "analysis/base/units.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/io/run_metadata.hpp"
#include "analysis/model/collective_outcome.hpp"
#include "analysis/model/run_blocks.hpp"
#include "analysis/report/collective_table.hpp"
#include "bench/backend_select.hpp"
#include "bench/job.hpp"
#include "bench/nccl_api.hpp"
#include "bench/nccl_capture.hpp"
#include "bench/node_signals.hpp"
#include "bench/pair_payload.hpp"
#include "bench/progress.hpp"
#include "bench/run_recorder.hpp"
#include "bench/runner.hpp"
#include "bench/watchdog.hpp"
#include "sweep/block_order.hpp"
#include "sweep/sizes.hpp"

namespace podperf {
namespace {

constexpr int kCollectiveResultTag = 4343;
constexpr double kCollectiveNonRootGraceS = 10.0;
constexpr std::uint64_t kCollectiveBlockSeed = 0;  // --repeat: the blocks' shuffles (recorded in run.json)

struct CollectivePlan {
  std::vector<const Op*> ops;
  std::vector<DType> dtypes;
  std::vector<std::uint64_t> sizes;
  bool by_node = false;
  std::vector<std::string> group_labels;  // one per group
  std::vector<int> group_leaders;         // lowest world rank of each group
  std::vector<int> group_ranks;
};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

CollectivePlan make_plan(const CollectiveOptions& o, const NodeMap& map, int world_size) {
  CollectivePlan plan;
  if (o.ops == "all") {
    for (const Op& op : all_ops()) plan.ops.push_back(&op);
  } else {
    for (const std::string& name : split_list(o.ops)) plan.ops.push_back(&find_op(name));
  }
  if (plan.ops.empty()) throw UsageError("--op: empty list (expected e.g. all_reduce,all_gather or all)");
  std::size_t largest_type = 1;
  for (const std::string& name : split_list(o.dtypes)) {
    plan.dtypes.push_back(find_dtype(name).type);
    largest_type = std::max(largest_type, find_dtype(name).bytes);
  }
  if (plan.dtypes.empty()) throw UsageError("-d/--datatype: empty list (expected e.g. float)");
  plan.sizes = size_sweep(parse_size(o.min_bytes, "-b/--minbytes"), parse_size(o.max_bytes, "-e/--maxbytes"),
                          o.step_factor, parse_size(o.step_bytes, "-i/--stepbytes"), largest_type);
  // MPI counts are ints (the host backend); NCCL counts are size_t, so nccl-tests' -e 8G runs there.
  if (!backend_may_be_nccl(o.backend) && plan.sizes.back() > static_cast<std::uint64_t>(INT_MAX)) {
    throw UsageError(fmt::format(
        "-e/--maxbytes {}: more than {} bytes per message is not supported by the host backend (--backend nccl "
        "takes larger sizes)",
        plan.sizes.back(), INT_MAX));
  }
  plan.by_node = o.group_by == "node";
  if (plan.by_node) {
    for (const NodeInfo& node : map.nodes) {
      plan.group_labels.push_back(node.label);
      plan.group_leaders.push_back(node.ranks.front());
      plan.group_ranks.push_back(static_cast<int>(node.ranks.size()));
    }
  } else {
    plan.group_labels.push_back("world");
    plan.group_leaders.push_back(0);
    plan.group_ranks.push_back(world_size);
  }
  return plan;
}

// Rank 0's record of a collective run: an abnormal end names the groups of the op that had not
// reported.
class CollectiveRecorder final : public RunRecorder {
 public:
  using RunRecorder::RunRecorder;

  void begin(std::string what, std::vector<std::string> groups) {
    std::lock_guard lock(mutex_);
    current_ = std::move(what);
    pending_ = std::move(groups);
  }

  // One op and type on every group, of block `block` (1-based; --repeat): later blocks join the
  // results of the earlier ones (analysis/model/run_blocks).
  void add(std::vector<CollectiveResult> results, int block) {
    std::lock_guard lock(mutex_);
    nlohmann::json event{{"event", "collective"}, {"results", results}};
    if (has_blocks(run_)) event["block"] = block;
    dir_.append_event(event);
    for (CollectiveResult& r : results) index_.add(run_, std::move(r), block);
    pending_.clear();
  }

 private:
  std::string render(const Run& run, const std::string& results_dir) const override {
    return render_collective_table(run, results_dir);
  }
  int exit_code(const Run& run) const override { return collective_exit_code(run); }
  void keep_partial(Run& run, const std::string& /*status*/, const std::string& /*error*/) override {
    for (const std::string& g : pending_) run.unfinished.push_back(fmt::format("{} on {}", current_, g));
    pending_.clear();
  }

  std::string current_;
  std::vector<std::string> pending_;
  CollectiveBlockIndex index_;
};

// The run's cases: (type, op) in plan order, type-major; a case measures every size.
std::size_t case_count(const CollectivePlan& plan) {
  return plan.ops.size() * plan.dtypes.size();
}

// Rank 0: the run's recorder, and its opening line on stderr.
std::unique_ptr<CollectiveRecorder> make_collective_recorder(const Cli& cli, const Comm& world, const JobStart& job,
                                                             const CollectivePlan& plan, const Backend& backend) {
  const CollectiveOptions& o = cli.collective;
  Run run = base_run(cli, o, job.run_id, world.size(), job.map);
  run.backend = std::string(backend.name());
  record_backend_library(run);
  run.options.op = o.ops;
  run.options.dtype = o.dtypes;
  run.options.group_by = o.group_by;
  run.options.time_combine = std::string(combine_name(static_cast<TimeCombine>(o.combine)));
  run.options.sizes_bytes = plan.sizes;
  if (o.repeat >= 2) {
    run.blocks.count = o.repeat;
    run.blocks.seed = kCollectiveBlockSeed;
    run.blocks.cases = "cases";
    run.blocks.order = block_order(static_cast<int>(case_count(plan)), o.repeat, kCollectiveBlockSeed);
  }
  auto recorder = std::make_unique<CollectiveRecorder>(std::move(run), *job.dir);
  const std::string blocks =
      o.repeat >= 2 ? fmt::format(", in {} blocks (every op and type once per block, shuffled)", o.repeat) : "";
  std::fprintf(stderr, "podperf: collective %s (%s) on %s, %d ranks, %zu sizes %s..%s%s; results in %s\n",
               o.ops.c_str(), o.dtypes.c_str(), plan.by_node ? "one group per node" : "the whole job", world.size(),
               plan.sizes.size(), o.min_bytes.c_str(), o.max_bytes.c_str(), blocks.c_str(), job.dir->path().c_str());
  return recorder;
}

// One op and dtype on this rank's group at every size, out of place then in place (a case the backend
// has no in-place form for is skipped). A failure ends the group's measurements and becomes data;
// a UsageError propagates.
PairMeasurement measure_op(Group& group, const Op* op, DType dtype, const CollectivePlan& plan,
                           const CollectiveOptions& o) {
  const TimeCombine combine = static_cast<TimeCombine>(o.combine);
  PairMeasurement measured;
  try {
    for (std::uint64_t size : plan.sizes) {
      for (bool in_place : {false, true}) {
        const Case c{op, dtype, size, in_place, 0};
        try {
          measured.cases.push_back(run_case(group, c, o.warmup, o.iters, o.check != 0, combine));
        } catch (const InPlaceUnsupported&) {
          CaseMeasurement skipped;
          skipped.skipped = true;
          measured.cases.push_back(std::move(skipped));
        }
      }
    }
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& e) {
    measured.error = e.what();
  }
  return measured;
}

// Rank 0: each group's payload (`inbox`, one per group) as results, one per size and placement.
std::vector<CollectiveResult> decode_op_results(const std::vector<std::vector<double>>& inbox, const Op* op,
                                                const DTypeInfo& type, const CollectivePlan& plan,
                                                const CollectiveOptions& o, std::string_view backend_name) {
  const std::size_t ncases = plan.sizes.size() * 2;
  std::vector<CollectiveResult> results;
  for (std::size_t g = 0; g < inbox.size(); ++g) {
    const DecodedPayload decoded = decode_measurements(inbox[g], ncases, o.iters);
    for (std::size_t k = 0; k < ncases; ++k) {
      const CaseCounts counts = case_counts(*op, plan.sizes[k / 2], type.bytes, plan.group_ranks[g]);
      CollectiveResult r;
      r.group = plan.group_labels[g];
      r.op = std::string(op->name);
      r.dtype = std::string(type.name);
      r.in_place = k % 2 == 1;
      r.size_bytes = counts.size_bytes;
      r.count = counts.chunk;
      r.ranks = plan.group_ranks[g];
      if (k < decoded.cases.size() && decoded.cases[k].skipped) {
        r.status = "skipped";
        r.error = fmt::format("{} has no in-place form on the {} backend", op->name, backend_name);
      } else if (k < decoded.cases.size()) {
        fill_timing(r, decoded.cases[k], *op, r.ranks);
      } else {
        r.status = "error";
        r.error = decoded.error;
      }
      results.push_back(std::move(r));
    }
  }
  return results;
}

// What every op of the run needs (rank 0's recorder and progress unused elsewhere).
struct CollectiveStage {
  const Comm& world;
  const CollectiveOptions& o;
  const CollectivePlan& plan;
  Backend& backend;
  CollectiveRecorder* recorder;
  Watchdog& watchdog;
  Progress& progress;
  int my_group = 0;
  int done = 0;
  int block = 1;  // --repeat: the block being measured, 1-based
  int blocks = 1;
};

// Collective over the world: one op and dtype on every group at once; each group's lowest rank sends
// its payload to rank 0, which records the results (one events.jsonl line) and a progress line.
void run_op(CollectiveStage& st, const Op* op, DType dtype) {
  const bool root = st.world.rank() == 0;
  const DTypeInfo& type = dtype_info(dtype);
  const std::size_t ncases = st.plan.sizes.size() * 2;  // out-of-place and in-place per size
  const std::string what = fmt::format("{} {}", op->name, type.name);
  st.watchdog.arm(root ? st.o.timeout_s : st.o.timeout_s + kCollectiveNonRootGraceS, what);
  std::vector<std::vector<double>> inbox;
  std::vector<MPI_Request> receives;
  if (root) {
    st.recorder->begin(what, st.plan.group_labels);
    inbox.assign(st.plan.group_labels.size(), empty_payload(ncases, st.o.iters));
    receives.resize(st.plan.group_labels.size());
    for (std::size_t g = 0; g < inbox.size(); ++g) {
      PODPERF_CHECK_MPI(MPI_Irecv(inbox[g].data(), static_cast<int>(inbox[g].size()), MPI_DOUBLE,
                                  st.plan.group_leaders[g], kCollectiveResultTag, MPI_COMM_WORLD, &receives[g]));
    }
  }
  std::unique_ptr<Group> group = st.backend.split(st.world, st.my_group, st.world.rank(), st.plan.sizes.back(), dtype);
  const PairMeasurement measured = measure_op(*group, op, dtype, st.plan, st.o);
  std::vector<double> payload = encode_payload(measured, ncases, st.o.iters);
  MPI_Request send = MPI_REQUEST_NULL;
  if (group->comm().rank() == 0) {
    PODPERF_CHECK_MPI(MPI_Isend(payload.data(), static_cast<int>(payload.size()), MPI_DOUBLE, 0, kCollectiveResultTag,
                                MPI_COMM_WORLD, &send));
  }
  if (root) {
    PODPERF_CHECK_MPI(MPI_Waitall(static_cast<int>(receives.size()), receives.data(), MPI_STATUSES_IGNORE));
    st.recorder->add(decode_op_results(inbox, op, type, st.plan, st.o, st.backend.name()), st.block);
    st.progress.step_done(++st.done, st.blocks > 1 ? fmt::format("block {}/{}: {}", st.block, st.blocks, what) : what);
  }
  PODPERF_CHECK_MPI(MPI_Wait(&send, MPI_STATUS_IGNORE));
  st.watchdog.disarm();
}

int run_collective(const Cli& cli, const Comm& world) {
  const CollectiveOptions& o = cli.collective;
  const bool root = world.rank() == 0;
  CollectivePlan plan;
  std::unique_ptr<Backend> backend;
  NcclLogCapture nccl_log;
  std::optional<JobStart> job = start_job(world, o, [&](const NodeMap& m, const std::string& run_dir) {
    plan = make_plan(o, m, world.size());
    if (backend_may_be_nccl(o.backend)) nccl_log = prepare_nccl_log(run_dir);
    backend = make_backend(o, world);
  });
  if (!job) return kExitUsage;

  std::unique_ptr<CollectiveRecorder> recorder;
  if (root) recorder = make_collective_recorder(cli, world, *job, plan, *backend);
  const int my_node = job->map.node_of_rank[static_cast<std::size_t>(world.rank())];
  const std::unique_ptr<Watchdog> watchdog =
      make_run_watchdog(world, recorder.get(), job->map.nodes[static_cast<std::size_t>(my_node)].label);
  const int blocks = std::max(1, o.repeat);
  Progress progress(static_cast<int>(case_count(plan)) * blocks, "op");
  CollectiveStage stage{world, o, plan,  *backend, recorder.get(), *watchdog, progress, plan.by_node ? my_node : 0,
                        0,     1, blocks};
  // Host signals at the start (read-only; one snapshot per host), compared with the end.
  const std::vector<HostSnapshot> signals_before = gather_host_snapshots(world, o.signals_root);
  // A failure here (an MPI error after a peer died, an I/O error) ends the job: rank 0 first keeps
  // what was measured, also when Open MPI itself exits the process.
  std::unique_ptr<ExitGuard> exit_guard = make_exit_guard(recorder.get());
  try {
    // Every case once per block, each block in its order (the same on every rank: sweep/block_order).
    const std::vector<std::vector<int>> order =
        block_order(static_cast<int>(case_count(plan)), blocks, kCollectiveBlockSeed);
    for (int b = 0; b < blocks; ++b) {
      stage.block = b + 1;
      for (int c : order[static_cast<std::size_t>(b)]) {
        const auto k = static_cast<std::size_t>(c);
        run_op(stage, plan.ops[k % plan.ops.size()], plan.dtypes[k / plan.ops.size()]);
      }
    }
    record_findings(world, recorder.get(), nccl_log, backend->name(), signals_before, o.signals_root, {});
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& e) {
    if (root) recorder->abort("aborted", e.what());
    throw;
  }

  return conclude_run(world, recorder.get(), exit_guard);
}

}  // namespace

int run_collective_command(int* argc, char*** argv, const Cli& cli) {
  return run_mpi_command(argc, argv, [&cli](const Comm& world) { return run_collective(cli, world); });
}

}  // namespace podperf

#include "bench/pairs_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "analysis/errors.hpp"
#include "analysis/pair_flags.hpp"
#include "analysis/run_json.hpp"
#include "analysis/summary_text.hpp"
#include "analysis/thresholds.hpp"
#include "bench/backend_host.hpp"
#include "bench/mpi.hpp"
#include "bench/node_map.hpp"
#include "bench/progress.hpp"
#include "bench/results_dir.hpp"
#include "bench/run_metadata.hpp"
#include "bench/runner.hpp"
#include "bench/watchdog.hpp"
#include "sweep/pair_schedule.hpp"
#include "sweep/sizes.hpp"

namespace podperf {
namespace {

constexpr int kResultTag = 4242;
constexpr double kNonRootGraceS = 10.0;  // non-root watchdogs wait this long after rank 0's deadline

// The plan: identical on every rank.
struct Plan {
  const Op* op = nullptr;
  std::vector<std::uint64_t> sizes;
  std::vector<Round> steps;        // what runs at once
  std::vector<int> round_of_step;  // 1-based schedule round of each step
  int rounds = 0;
  Thresholds thresholds;
};

Plan make_plan(const PairsOptions& o, const NodeMap& map) {
  Plan plan;
  plan.thresholds = load_thresholds(o.config);
  if (o.threshold) plan.thresholds.pairs.threshold = *o.threshold;
  plan.op = &find_op(o.op);
  if (plan.op->kind != OpKind::kAllReduce) {
    throw UsageError(fmt::format("--op {}: pairs tests all_reduce only in this version", o.op));
  }
  plan.sizes = size_sweep(parse_size(o.min_bytes, "-b/--minbytes"), parse_size(o.max_bytes, "-e/--maxbytes"),
                          o.step_factor, parse_size(o.step_bytes, "-i/--stepbytes"), sizeof(float));
  if (plan.sizes.back() / sizeof(float) > static_cast<std::uint64_t>(INT_MAX)) {
    throw UsageError(fmt::format("-e/--maxbytes {}: more than {} elements per message is not supported by the host "
                                 "backend",
                                 plan.sizes.back(), INT_MAX));
  }
  const int n = static_cast<int>(map.nodes.size());
  if (n < 2) {
    const NodeInfo& only = map.nodes.front();
    throw UsageError(fmt::format("pairs needs at least 2 nodes; this job has 1 ({} with {} ranks). Launch across "
                                 "nodes, or pass --virtual-nodes K for a local demo",
                                 only.hostname, only.ranks.size()));
  }
  std::vector<Round> rounds;
  if (!o.pairs.empty()) {
    std::vector<std::string> labels;
    for (const NodeInfo& node : map.nodes) labels.push_back(node.label);
    rounds = pack_rounds(parse_pair_list(o.pairs, labels));
  } else {
    rounds = circle_schedule(n);
  }
  plan.rounds = static_cast<int>(rounds.size());
  if (o.concurrency == "sequential") {
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      for (const NodePair& p : rounds[r]) {
        plan.steps.push_back(Round{p});
        plan.round_of_step.push_back(static_cast<int>(r) + 1);
      }
    }
  } else {
    plan.steps = rounds;
    for (std::size_t r = 0; r < rounds.size(); ++r) plan.round_of_step.push_back(static_cast<int>(r) + 1);
  }
  return plan;
}

std::string describe_pair(const NodeMap& map, const NodePair& p) {
  const NodeInfo& a = map.nodes[static_cast<std::size_t>(p[0])];
  const NodeInfo& b = map.nodes[static_cast<std::size_t>(p[1])];
  return fmt::format("{} <-> {} (nodes {}:{}, ranks {} and {})", a.label, b.label, p[0], p[1], fmt::join(a.ranks, ","),
                     fmt::join(b.ranks, ","));
}

// Rank 0's record of the run. Shared with the watchdog threads, hence the lock; the watchdog only
// tries the lock for a while, so a stuck writer cannot keep the process from ending.
class Recorder {
 public:
  Recorder(Run run, ResultsDir& dir, const NodeMap& map, const PairThresholds& t)
      : run_(std::move(run)), dir_(dir), map_(map), thresholds_(t) {}

  void start() {
    std::lock_guard lock(mutex_);
    nlohmann::json event = run_;
    event["event"] = "start";
    dir_.append_event(event);
  }

  void begin_step(int round, const Round& pairs) {
    std::lock_guard lock(mutex_);
    step_round_ = round;
    pending_.clear();
    for (const NodePair& p : pairs) pending_.insert(p);
    step_results_.clear();
  }

  void pair_arrived(std::vector<PairResult> results) {
    std::lock_guard lock(mutex_);
    if (results.empty()) return;
    pending_.erase(NodePair{results.front().nodes[0], results.front().nodes[1]});
    for (PairResult& r : results) step_results_.push_back(std::move(r));
  }

  // The step's results become part of the run; one events.jsonl line per finished step.
  void end_step(bool round_complete) {
    std::lock_guard lock(mutex_);
    nlohmann::json event = {{"event", "round"}, {"round", step_round_}, {"pairs", step_results_}};
    dir_.append_event(event);
    for (PairResult& r : step_results_) run_.pairs.push_back(std::move(r));
    step_results_.clear();
    if (round_complete) run_.rounds_completed = step_round_;
  }

  // Normal end: analysis, run.json, end event. Returns the summary text and exit code.
  std::pair<std::string, int> finish() {
    std::lock_guard lock(mutex_);
    run_.finished_at = iso8601_now();
    analyze_pairs(run_, thresholds_);
    dir_.write_run(run_);
    dir_.append_event({{"event", "end"}, {"status", run_.status}, {"stragglers", run_.stragglers}});
    return {render_summary(run_, dir_.path()), pairs_exit_code(run_)};
  }

  // Abnormal end (watchdog, signal, error): keeps everything measured, names what did not finish,
  // writes run.json and an events line. Safe to call from another thread; never throws.
  void abort(const std::string& status, const std::string& error) noexcept {
    std::unique_lock lock(mutex_, std::defer_lock);
    const bool locked = lock.try_lock_for(std::chrono::seconds(5));
    try {
      run_.status = status;
      run_.error = error;
      run_.finished_at = iso8601_now();
      for (PairResult& r : step_results_) run_.pairs.push_back(std::move(r));
      step_results_.clear();
      for (const NodePair& p : pending_) {
        run_.unfinished.push_back(fmt::format("round {}: {}", step_round_, describe_pair(map_, p)));
        for (std::uint64_t size : run_.options.sizes_bytes) {
          PairResult r;
          r.round = step_round_;
          r.nodes = p;
          r.op = run_.options.op;
          r.size_bytes = size;
          r.status = status;
          r.error = error;
          run_.pairs.push_back(std::move(r));
        }
      }
      pending_.clear();
      analyze_pairs(run_, thresholds_);
      if (!locked) std::fprintf(stderr, "podperf: results lock busy; writing run.json anyway\n");
      dir_.append_event({{"event", "end"}, {"status", status}, {"error", error}, {"unfinished", run_.unfinished}});
      dir_.write_run(run_);
      std::fprintf(stderr, "%s", render_summary(run_, dir_.path()).c_str());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "podperf: could not write the partial results: %s\n", e.what());
    }
    std::fflush(stderr);
    std::fflush(stdout);
  }

 private:
  std::timed_mutex mutex_;
  Run run_;
  ResultsDir& dir_;
  const NodeMap& map_;
  PairThresholds thresholds_;
  int step_round_ = 0;
  std::set<NodePair> pending_;
  std::vector<PairResult> step_results_;
};

// Measures every size of one pair on this rank's pair communicator. Failures become data.
std::vector<PairResult> measure_pair(Backend& backend, const Comm& pair_comm, const Plan& plan, const PairsOptions& o,
                                     const NodePair& pair, int round) {
  std::vector<PairResult> results;
  std::string failure;
  std::unique_ptr<Group> group;
  try {
    group = backend.make_group(pair_comm, plan.sizes.back());
  } catch (const std::exception& e) {
    failure = e.what();
  }
  for (std::uint64_t size : plan.sizes) {
    PairResult r;
    r.round = round;
    r.nodes = pair;
    r.op = std::string(plan.op->name);
    r.size_bytes = size;
    r.count = size / sizeof(float);
    r.ranks = pair_comm.size();
    if (failure.empty()) {
      try {
        fill_timing(r, run_case(*group, pair_comm, *plan.op, size, o.warmup, o.iters, o.check != 0), *plan.op,
                    pair_comm.size());
      } catch (const std::exception& e) {
        failure = e.what();
      }
    }
    if (!failure.empty()) {
      r.status = "error";
      r.error = failure;
    }
    results.push_back(std::move(r));
  }
  return results;
}

// Rank 0: receives one message per pair of the step (from each pair's lowest rank), polling so the
// MPI progress engine runs while the watchdog keeps time.
void collect_step(Recorder& recorder, std::size_t pairs_in_step) {
  for (std::size_t received = 0; received < pairs_in_step;) {
    int ready = 0;
    MPI_Status status;
    PODPERF_CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, kResultTag, MPI_COMM_WORLD, &ready, &status));
    if (!ready) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    int length = 0;
    PODPERF_CHECK_MPI(MPI_Get_count(&status, MPI_CHAR, &length));
    std::string text(static_cast<std::size_t>(length), '\0');
    PODPERF_CHECK_MPI(MPI_Recv(text.data(), length, MPI_CHAR, status.MPI_SOURCE, kResultTag, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
    recorder.pair_arrived(nlohmann::json::parse(text).get<std::vector<PairResult>>());
    ++received;
  }
}

Run make_run(const Cli& cli, const Plan& plan, const NodeMap& map, const std::string& run_id, int world_size) {
  Run run;
  run.podperf_version = PODPERF_VERSION;
  run.run_id = run_id;
  run.command = cli.command;
  run.argv = cli.argv;
  run.started_at = iso8601_now();
  run.launcher = detect_launcher();
  run.backend = "host";
  run.ranks = world_size;
  run.options.op = std::string(plan.op->name);
  run.options.sizes_bytes = plan.sizes;
  run.options.iters = cli.pairs.iters;
  run.options.warmup = cli.pairs.warmup;
  run.options.check = cli.pairs.check != 0;
  run.options.concurrency = cli.pairs.concurrency;
  run.options.threshold = plan.thresholds.pairs.threshold;
  run.options.timeout_s = cli.pairs.timeout_s;
  run.options.virtual_nodes = cli.pairs.virtual_nodes;
  run.options.thresholds_source = plan.thresholds.source;
  run.nodes = map.nodes;
  run.rounds_planned = plan.rounds;
  return run;
}

int bcast_int(const Comm& world, int value) {
  PODPERF_CHECK_MPI(MPI_Bcast(&value, 1, MPI_INT, 0, world.raw()));
  return value;
}

int run_pairs(const Cli& cli, const Comm& world) {
  const PairsOptions& o = cli.pairs;
  const bool root = world.rank() == 0;

  // Plan and results directory: usage errors end every rank with exit 2 before any measurement.
  NodeMap map;
  Plan plan;
  std::string usage_error;
  try {
    map = gather_node_map(world, o.virtual_nodes);
    plan = make_plan(o, map);
  } catch (const UsageError& e) {
    usage_error = e.what();
  }
  std::unique_ptr<ResultsDir> dir;
  std::string run_id = o.run_id.empty() ? make_run_id(detect_launcher()) : o.run_id;
  if (root && usage_error.empty()) {
    try {
      dir = std::make_unique<ResultsDir>(o.out, run_id);
    } catch (const UsageError& e) {
      usage_error = e.what();
    }
  }
  usage_error = broadcast_string(world, usage_error, 0);
  if (!usage_error.empty()) {
    if (root) std::fprintf(stderr, "podperf: error: %s\n", usage_error.c_str());
    return kExitUsage;
  }
  run_id = broadcast_string(world, run_id, 0);

  std::unique_ptr<Recorder> recorder;
  if (root) {
    recorder = std::make_unique<Recorder>(make_run(cli, plan, map, run_id, world.size()), *dir, map,
                                          plan.thresholds.pairs);
    recorder->start();
    bool virtual_nodes = o.virtual_nodes > 0;
    std::fprintf(stderr,
                 "podperf: %s on %zu %snodes (%d ranks), %zu sizes %s..%s, %d rounds (%zu steps, concurrency %s); "
                 "results in %s\n",
                 cli.command.c_str(), map.nodes.size(), virtual_nodes ? "VIRTUAL " : "", world.size(),
                 plan.sizes.size(), o.min_bytes.c_str(), o.max_bytes.c_str(), plan.rounds, plan.steps.size(),
                 o.concurrency.c_str(), dir->path().c_str());
  }

  const int my_node = map.node_of_rank[static_cast<std::size_t>(world.rank())];
  const std::string my_label = map.nodes[static_cast<std::size_t>(my_node)].label;
  Watchdog watchdog(
      [&](const std::string& what, double seconds) {
        if (root) {
          const std::string error = fmt::format("{} did not finish within {} s (--timeout)", what, seconds);
          std::fprintf(stderr, "podperf: error: %s; ending the run\n", error.c_str());
          recorder->abort("timeout", error);
        } else {
          std::fprintf(stderr, "podperf: rank %d (%s): %s did not finish within %.0f s; ending\n", world.rank(),
                       my_label.c_str(), what.c_str(), seconds);
        }
        std::fflush(nullptr);
        _exit(kExitRuntime);
      },
      [&](const std::string& signal_name) {
        if (root) {
          recorder->abort("aborted", fmt::format("received {} (the job was cancelled, or the launcher ended it "
                                                 "because a rank died)",
                                                 signal_name));
        }
        std::fflush(nullptr);
        _exit(kExitRuntime);
      });

  HostBackend backend;
  Progress progress(static_cast<int>(plan.steps.size()), o.concurrency == "sequential" ? "pair" : "round");
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    const Round& step = plan.steps[s];
    const int round = plan.round_of_step[s];
    int my_pair = -1;
    for (std::size_t p = 0; p < step.size(); ++p) {
      if (step[p][0] == my_node || step[p][1] == my_node) my_pair = static_cast<int>(p);
    }
    const std::string what =
        my_pair >= 0 ? fmt::format("round {} (pair {})", round, describe_pair(map, step[static_cast<std::size_t>(my_pair)]))
                     : fmt::format("round {}", round);
    watchdog.arm(root ? o.timeout_s : o.timeout_s + kNonRootGraceS, what);
    if (root) recorder->begin_step(round, step);

    Comm pair_comm = world.split(my_pair, world.rank());
    MPI_Request send_request = MPI_REQUEST_NULL;
    std::string payload;
    if (!pair_comm.is_null()) {
      std::vector<PairResult> results =
          measure_pair(backend, pair_comm, plan, o, step[static_cast<std::size_t>(my_pair)], round);
      if (pair_comm.rank() == 0) {
        payload = nlohmann::json(results).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        PODPERF_CHECK_MPI(MPI_Isend(payload.data(), static_cast<int>(payload.size()), MPI_CHAR, 0, kResultTag,
                                    MPI_COMM_WORLD, &send_request));
      }
    }
    if (root) collect_step(*recorder, step.size());
    PODPERF_CHECK_MPI(MPI_Wait(&send_request, MPI_STATUS_IGNORE));
    if (root) {
      const bool round_complete = s + 1 == plan.steps.size() || plan.round_of_step[s + 1] != round;
      recorder->end_step(round_complete);
      progress.step_done(static_cast<int>(s) + 1, fmt::format("{} pair{} in round {}", step.size(),
                                                              step.size() == 1 ? "" : "s", round));
    }
    watchdog.disarm();
  }

  int exit_code = kExitOk;
  if (root) {
    auto [summary, code] = recorder->finish();
    std::fputs(summary.c_str(), stdout);
    std::fflush(stdout);
    exit_code = code;
  }
  return bcast_int(world, exit_code);
}

}  // namespace

int run_pairs_command(int* argc, char*** argv, const Cli& cli) {
  std::unique_ptr<MpiSession> session;
  try {
    session = std::make_unique<MpiSession>(argc, argv);
    return run_pairs(cli, Comm::world());
  } catch (const UsageError& e) {
    std::fprintf(stderr, "podperf: error: %s\n", e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    // A failure on this rank that the others cannot know about: end the whole job. Rank 0's signal
    // thread writes the results measured so far when the launcher stops it.
    std::fprintf(stderr, "podperf: error: %s\n", e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, kExitRuntime);
    return kExitRuntime;
  }
}

}  // namespace podperf

// What every pairs run shares (see pairs_run.hpp): the plan, the Run's metadata, the schedule's options
// and progress, and rank 0's recorder. Floor: bench; local (rank 0 for the recorder); UsageError for a
// bad plan.
#include "bench/pairs_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <mutex>

#include "analysis/base/errors.hpp"
#include "analysis/base/units.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/judge_run.hpp"
#include "analysis/model/attach_retest.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/pairs/pair_reference.hpp"
#include "analysis/report/run_text.hpp"
#include "bench/adaptive_scope.hpp"
#include "bench/job.hpp"
#include "bench/nccl_api.hpp"
#include "bench/runner.hpp"
#include "sweep/block_order.hpp"
#include "sweep/sizes.hpp"

namespace podperf {

void place_nodes(Run& run, const Topology& topology) {
  apply_topology(run, topology);
  const auto placed =
      std::count_if(run.nodes.begin(), run.nodes.end(), [](const NodeInfo& n) { return !n.topology.empty(); });
  std::fprintf(stderr, "podperf: topology from %s (%s): levels %s; %zu of %zu nodes placed\n", topology.source.c_str(),
               topology.format.c_str(), fmt::format("{}", fmt::join(topology.levels, " > ")).c_str(),
               static_cast<std::size_t>(placed), run.nodes.size());
}

PairReference load_pair_reference(const std::string& path, const Plan& plan) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path file = fs::is_directory(path, ec) ? fs::path(path) / "run.json" : fs::path(path);
  Run reference;
  try {
    reference = read_run_json(file.string());
  } catch (const std::exception& e) {
    throw UsageError(fmt::format("--baseline-from {}: {}", path, e.what()));
  }
  if (reference.pair_judgement.size_bytes == 0) judge_run(reference);  // a run.json of an older podperf
  std::uint64_t asked = 0;
  for (std::uint64_t s : reference.options.sizes_bytes) asked = std::max(asked, s);
  if (asked != 0 && asked != plan.sizes.back()) {
    throw UsageError(
        fmt::format("--baseline-from {0}: it was measured at -e {1} and this run at -e {2}: measure at "
                    "its size (-b {1} -e {1})",
                    path, format_size(asked), format_size(plan.sizes.back())));
  }
  return pair_reference_of(reference, file.string(), 0, std::string(plan.op->name));
}

Plan make_plan(const PairsOptions& o, const NodeMap& map) {
  Plan plan;
  plan.thresholds = load_thresholds(o.config);
  if (o.threshold) plan.thresholds.pairs.threshold = *o.threshold;
  plan.op = &find_op(o.op);
  plan.dtype = find_dtype(o.dtype).type;
  const std::size_t type_bytes = dtype_info(plan.dtype).bytes;
  plan.sizes = size_sweep(parse_size(o.min_bytes, "-b/--minbytes"), parse_size(o.max_bytes, "-e/--maxbytes"),
                          o.step_factor, parse_size(o.step_bytes, "-i/--stepbytes"), type_bytes);
  if (plan.sizes.back() / type_bytes > static_cast<std::uint64_t>(INT_MAX)) {
    throw UsageError(
        fmt::format("-e/--maxbytes {}: more than {} elements per message is not supported by the host "
                    "backend",
                    plan.sizes.back(), INT_MAX));
  }
  const int n = static_cast<int>(map.nodes.size());
  if (n < 2) {
    const NodeInfo& only = map.nodes.front();
    throw UsageError(
        fmt::format("pairs needs at least 2 nodes; this job has 1 ({} with {} ranks). Launch across "
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

int pair_ranks(const NodeMap& map, const NodePair& p) {
  return static_cast<int>(map.nodes[static_cast<std::size_t>(p[0])].ranks.size() +
                          map.nodes[static_cast<std::size_t>(p[1])].ranks.size());
}

Run make_run(const Cli& cli, const Plan& plan, const NodeMap& map, const std::string& run_id, int world_size,
             std::string_view backend_name) {
  Run run = base_run(cli, cli.pairs, run_id, world_size, map);
  run.options.op = std::string(plan.op->name);
  run.options.dtype = std::string(dtype_info(plan.dtype).name);
  run.options.time_combine = std::string(combine_name(static_cast<TimeCombine>(cli.pairs.combine)));
  run.options.sizes_bytes = plan.sizes;
  run.options.concurrency = cli.pairs.concurrency;
  run.options.retest = cli.pairs.retest;
  record_thresholds(run, plan.thresholds);
  run.options.schedule = cli.pairs.schedule;
  run.options.seed = cli.pairs.seed;
  run.rounds_planned = plan.rounds * std::max(1, cli.pairs.repeat);
  if (cli.pairs.repeat >= 2) {
    run.blocks.count = cli.pairs.repeat;
    run.blocks.seed = cli.pairs.seed;
    run.blocks.cases = "steps";
    run.blocks.order = block_order(static_cast<int>(plan.steps.size()), cli.pairs.repeat, cli.pairs.seed);
  }
  run.rounds_full_schedule = static_cast<int>(circle_schedule(static_cast<int>(map.nodes.size())).size());
  run.backend = std::string(backend_name);
  record_backend_library(run);
  return run;
}

PairsRecorder::PairsRecorder(Run run, ResultsDir& dir, const NodeMap& map)
    : RunRecorder(std::move(run), dir), map_(map) {}

void PairsRecorder::begin_block(int block) {
  std::lock_guard lock(mutex_);
  block_ = block;
}

// The step's receive buffers; rank 0's main thread posts receives into them.
std::vector<Slot>& PairsRecorder::begin_step(int round, std::vector<Slot> slots, bool retest) {
  std::lock_guard lock(mutex_);
  step_round_ = round;
  retest_ = retest;
  slots_ = std::move(slots);
  return slots_;
}

// Every message of the step has been received: the results become part of the run, and one
// events.jsonl line is written.
std::vector<PairResult> PairsRecorder::end_step(bool round_complete) {
  std::lock_guard lock(mutex_);
  std::vector<PairResult> results;
  for (Slot& slot : slots_) {
    for (PairResult& r : decode_payload(slot.payload, slot.ctx)) results.push_back(std::move(r));
    slot.recorded = true;
  }
  nlohmann::json event{{"event", retest_ ? "retest" : "round"}, {"round", step_round_}, {"pairs", results}};
  if (has_blocks(run_) && !retest_) event["block"] = block_;
  dir_.append_event(event);
  if (retest_) {
    for (const PairResult& r : results) attach_retest(run_, r);
  } else {
    for (const PairResult& r : results) pairs_index_.add(run_, r, block_);
  }
  slots_.clear();
  if (round_complete && !retest_) run_.rounds_completed = ++rounds_done_;
  return results;
}

void PairsRecorder::set_rounds(int completed, int planned) {
  std::lock_guard lock(mutex_);
  run_.rounds_completed = completed;
  run_.rounds_planned = planned;
}

std::vector<Finding> PairsRecorder::finish_schedule(const ScheduleOutcome& outcome) {
  if (!outcome.adaptive) return {};
  set_rounds(outcome.rounds, outcome.rounds_planned);
  int full_rounds = 0;
  {
    std::lock_guard lock(mutex_);
    slow_groups_ = outcome.search.slow_groups;
    full_rounds = run_.rounds_full_schedule;
  }
  std::fprintf(stderr, "podperf: adaptive search: %d rounds instead of %d for every pair\n", outcome.rounds,
               full_rounds);
  std::vector<Finding> findings{adaptive_search_finding(outcome, map_.nodes, full_rounds)};
  for (Finding& f : slow_group_findings(outcome.search)) findings.push_back(std::move(f));
  return findings;
}

std::vector<NodePair> PairsRecorder::suspects() {
  std::lock_guard lock(mutex_);
  return retest_candidates(run_);
}

ScheduleOptions schedule_options(const PairsOptions& o) {
  ScheduleOptions so;
  so.schedule = o.schedule;
  so.retest = o.retest;
  so.seed = o.seed;
  so.blocks = std::max(1, o.repeat);
  so.sequential = o.concurrency == "sequential";
  return so;
}

void check_repeat_schedule(const PairsOptions& o) {
  if (o.repeat >= 2 && o.schedule == "adaptive") {
    throw UsageError(fmt::format(
        "--repeat {} and --schedule adaptive exclude each other (the adaptive search chooses each round from the "
        "last; blocks need a fixed plan): use --schedule all, or separate jobs",
        o.repeat));
  }
}

std::string repeat_text(const PairsOptions& o) {
  if (o.repeat < 2) return "";
  return fmt::format(", in {} blocks (every step once per block, shuffled by seed {})", o.repeat, o.seed);
}

Progress schedule_progress(const ScheduleOptions& so, int nodes, std::size_t plan_steps) {
  const bool adaptive = so.schedule == "adaptive";
  AdaptiveParams budget_params;
  budget_params.scope = so.scope;
  return Progress(
      adaptive ? adaptive_round_budget(nodes, budget_params) : static_cast<int>(plan_steps) * std::max(1, so.blocks),
      so.sequential && !adaptive ? "pair" : "round");
}

std::vector<NodePair> retest_candidates(const Run& run) {
  // Judged in place, read only: the Run is not copied (at scale gigabytes).
  return pairs_to_retest(run, std::max(1, run.options.retest));
}

void PairsRecorder::analyze(Run& run) {
  JudgeInputs inputs = judge_inputs(slow_groups_);
  inputs.results_dir = dir_.path();
  judge_run(run, inputs);
}
nlohmann::json PairsRecorder::end_event(const Run& run) const {
  return {{"event", "end"}, {"status", run.status}, {"stragglers", run.stragglers}};
}
std::string PairsRecorder::render(const Run& run, const std::string& results_dir) const {
  return render_summary(run, results_dir);
}
// The worst of the stages: 3 (a stage failed) over 1 (something flagged) over 0.
int PairsRecorder::exit_code(const Run& run) const {
  const int pairs = pairs_exit_code(run);
  if (run.fs.probes.empty()) return pairs;
  const int fs = fs_exit_code(run);
  if (pairs == kExitRuntime || fs == kExitRuntime) return kExitRuntime;
  return std::max(pairs, fs);
}

void PairsRecorder::keep_partial(Run& run, const std::string& status, const std::string& error) {
  for (const Slot& slot : slots_) {
    if (slot.recorded) continue;
    if (payload_arrived(slot.payload)) {
      for (PairResult& r : decode_payload(slot.payload, slot.ctx)) {
        if (retest_) {
          attach_retest(run, r);
        } else {
          pairs_index_.add(run, std::move(r), block_);
        }
      }
      continue;
    }
    const std::string pair = describe_pair(map_, slot.ctx.nodes);
    const std::string block = has_blocks(run) && !retest_ ? fmt::format("block {}, ", block_) : "";
    run.unfinished.push_back(fmt::format("{}{}round {}: {}", retest_ ? "retest " : "", block, step_round_, pair));
    if (retest_ || block_ >= 2) continue;  // the pair's first measurement (or earlier blocks') stands
    for (std::uint64_t size : slot.ctx.sizes) {
      PairResult r;
      r.round = step_round_;
      r.nodes = slot.ctx.nodes;
      r.op = std::string(slot.ctx.op->name);
      const CaseCounts counts = case_counts(*slot.ctx.op, size, dtype_info(slot.ctx.dtype).bytes, slot.ctx.ranks);
      r.dtype = std::string(dtype_info(slot.ctx.dtype).name);
      r.size_bytes = counts.size_bytes;
      r.count = counts.chunk;
      r.ranks = slot.ctx.ranks;
      r.status = status;
      r.error = fmt::format("pair {} did not report its results: {}", pair, error);
      run.pairs.push_back(std::move(r));
    }
  }
  slots_.clear();
}

}  // namespace podperf

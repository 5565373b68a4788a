// The filesystem stage (see fs_stage.hpp). Floor bench/; prepare, run and finish are collective.
#include "bench/fs/fs_stage.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <thread>

#include "analysis/base/errors.hpp"
#include "analysis/base/units.hpp"
#include "analysis/config/fs_probes.hpp"
#include "analysis/fs/fs_analysis.hpp"
#include "analysis/io/run_json.hpp"
#include "bench/fs/probe_catalog.hpp"
#include "bench/fs/probes.hpp"
#include "bench/job.hpp"
#include "bench/progress.hpp"
#include "signals/snapshot.hpp"

namespace podperf {
namespace {

constexpr double kFsNonRootGraceS = 10.0;
constexpr double kProgressEveryS = 2.0;

std::string node_label(const NodeMap& map, int rank) {
  return map.nodes[static_cast<std::size_t>(map.node_of_rank[static_cast<std::size_t>(rank)])].label;
}

// Every rank's message (or ""), combined on rank 0 and sent to all: "" when every rank said "".
std::string agree_on_errors(const Comm& world, const std::string& mine) {
  const std::vector<std::string> all = gather_strings(world, mine, 0);
  std::string combined;
  if (world.rank() == 0) {
    int shown = 0;
    int more = 0;
    std::vector<std::string> seen;
    for (const std::string& e : all) {
      if (e.empty() || std::find(seen.begin(), seen.end(), e) != seen.end()) continue;
      seen.push_back(e);
      if (shown < 3) {
        combined += (shown == 0 ? "" : "; ") + e;
        ++shown;
      } else {
        ++more;
      }
    }
    if (more > 0) combined += fmt::format("; and {} more", more);
  }
  return broadcast_string(world, combined, 0);
}

// Removes a directory tree without following symbolic links; retries a few times, since other ranks
// may be removing their own files in it at the same moment.
void remove_tree(const std::string& dir) noexcept {
  for (int attempt = 0; attempt < 5; ++attempt) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (!std::filesystem::exists(std::filesystem::symlink_status(dir, ec))) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::fprintf(stderr, "podperf: warning: could not remove %s; remove it by hand\n", dir.c_str());
}

std::string check_path(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return fmt::format("{}: {}", path, std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return fmt::format("{}: not a directory", path);
  if (::access(path.c_str(), W_OK | X_OK) != 0) {
    return fmt::format("{}: not writable by this process ({})", path, std::strerror(errno));
  }
  return "";
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Rank 0's progress line during a long probe, at most every kProgressEveryS.
class ProbeProgress {
 public:
  ProbeProgress(std::string probe, bool counts_bytes) : probe_(std::move(probe)), bytes_(counts_bytes) {}
  void operator()(std::uint64_t done, std::uint64_t total) {
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (elapsed - last_ < kProgressEveryS || done == 0 || total == 0) return;
    last_ = elapsed;
    const double rate = static_cast<double>(done) / elapsed;
    const double left = rate > 0.0 ? static_cast<double>(total - std::min(done, total)) / rate : 0.0;
    const double percent = 100.0 * static_cast<double>(done) / static_cast<double>(total);
    if (bytes_) {
      std::fprintf(stderr, "podperf: fs %s: rank 0 at %s of %s (%.0f%%), %.0f MB/s, about %s left\n", probe_.c_str(),
                   format_size(done).c_str(), format_size(total).c_str(), percent, rate / 1e6,
                   format_duration(left).c_str());
    } else {
      std::fprintf(stderr, "podperf: fs %s: rank 0 at %llu of %llu operations (%.0f%%), %.0f/s, about %s left\n",
                   probe_.c_str(), static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                   percent, rate, format_duration(left).c_str());
    }
  }

 private:
  std::string probe_;
  bool bytes_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_ = 0.0;
};

std::string rank_result_text(const FsRankResult& r) {
  nlohmann::json j = r;
  if (!r.latency_us.empty()) j["latency_us"] = r.latency_us;
  return j.dump();
}

FsRankResult parse_rank_result(const std::string& text, int rank) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    FsRankResult r = j.get<FsRankResult>();
    if (j.contains("latency_us")) r.latency_us = j.at("latency_us").get<std::vector<double>>();
    return r;
  } catch (const std::exception& e) {
    FsRankResult r;
    r.rank = rank;
    r.status = "error";
    r.error = fmt::format("rank {}: unreadable result ({})", rank, e.what());
    return r;
  }
}

// prepare_fs_stage, step 1: --path on every rank (exists, a directory, writable).
void check_path_everywhere(const Comm& world, const FsOptions& o) {
  std::string error = check_path(o.path);
  error = agree_on_errors(world, error.empty() ? "" : fmt::format("{} {}", o.path_flag, error));
  if (!error.empty()) throw UsageError(error);
}

// Removes what this stage created (after every rank got here) and throws `error` as UsageError.
[[noreturn]] void undo_and_throw(const Comm& world, const FsSetup& setup, const std::string& error) {
  world.barrier();
  if (setup.creator) remove_tree(setup.dir);
  throw UsageError(error);
}

// prepare_fs_stage, steps 2-3: rank 0 creates the probe directory (a fresh name: an existing one is
// never reused); then, shared or node-local: does every rank see it? Where not, the first rank of the
// host creates its own. The creators also make the chosen probes' subdirectories. Sets setup.shared
// and setup.creator; throws UsageError, identical on every rank, after removing what it created.
void create_probe_dirs(const Comm& world, const Comm& host, const std::string& me, const FsPlan& plan,
                       const FsOptions& o, FsSetup& setup) {
  std::string error;
  if (world.rank() == 0) {
    if (::mkdir(setup.dir.c_str(), 0755) != 0) {
      error = fmt::format("{}: cannot create {}: {}", o.path_flag, setup.dir, std::strerror(errno));
    } else {
      setup.creator = true;
    }
  }
  error = broadcast_string(world, error, 0);
  if (!error.empty()) throw UsageError(error);

  world.barrier();
  const int saw = is_directory(setup.dir) ? 1 : 0;
  int all_saw = 0;
  PODPERF_CHECK_MPI(MPI_Allreduce(&saw, &all_saw, 1, MPI_INT, MPI_MIN, world.raw()));
  setup.shared = all_saw == 1;
  if (!setup.shared) {
    std::string mine;
    if (host.rank() == 0 && saw == 0) {
      if (::mkdir(setup.dir.c_str(), 0755) != 0) {
        mine = fmt::format("{}: cannot create {}: {}", me, setup.dir, std::strerror(errno));
      } else {
        setup.creator = true;
      }
    }
    error = agree_on_errors(world, mine);
  }
  for (const FsProbeRunner& runner : fs_probe_runners()) {
    if (!error.empty() || !setup.creator || *runner.subdir == '\0') continue;
    if (!plan.runs(find_fs_probe(runner.name)->option)) continue;
    const std::string sub = setup.dir + "/" + runner.subdir;
    if (::mkdir(sub.c_str(), 0755) != 0) error = fmt::format("{}: cannot create {}: {}", me, sub, std::strerror(errno));
  }
  error = agree_on_errors(world, error);
  if (!error.empty()) undo_and_throw(world, setup, error);
}

// prepare_fs_stage, step 4: free space, before anything is written: every rank's files at their peak,
// on the filesystem they share (the whole job, or this host's ranks). Fills setup.info's free and
// needed bytes; throws UsageError (one message per host) after removing what the stage created.
void check_free_space(const Comm& world, const Comm& host, const NodeMap& map, const FsPlan& plan, const FsOptions& o,
                      const std::string& me, FsSetup& setup) {
  const std::uint64_t per_rank = fs_peak_bytes_per_rank(plan);
  const int sharing_ranks = setup.shared ? world.size() : host.size();
  const std::uint64_t needed = per_rank * static_cast<std::uint64_t>(sharing_ranks);
  std::uint64_t free_bytes = 0;
  std::string space_error;
  struct statvfs vfs {};
  if (::statvfs(setup.dir.c_str(), &vfs) != 0) {
    space_error = fmt::format("{}: statvfs {}: {}", me, setup.dir, std::strerror(errno));
  } else {
    free_bytes = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
    // 5% and 1 MiB of headroom: directories, rounding to blocks.
    const std::uint64_t with_headroom = needed + needed / 20 + (1ULL << 20);
    if (free_bytes < with_headroom && !o.no_space_check) {
      space_error = fmt::format(
          "{}: the probes need {} on {} ({} ranks x {} at their peak, plus headroom) but only {} are free; pass "
          "a smaller --file-size / --ckpt-shard-size / --meta-files, or another --path (--no-space-check "
          "skips this check)",
          node_label(map, world.rank()), format_bytes(with_headroom), o.path, sharing_ranks, format_bytes(per_rank),
          format_bytes(free_bytes));
    }
  }
  // One message per host is enough.
  std::string error = agree_on_errors(world, host.rank() == 0 ? space_error : "");
  if (error.empty()) error = agree_on_errors(world, space_error);
  if (!error.empty()) undo_and_throw(world, setup, error);
  setup.info.free_bytes = free_bytes;
  setup.info.needed_bytes = needed;
}

// A probe the plan runs: its traits and its runner.
struct PlannedProbe {
  const FsProbeTraits* traits;
  const FsProbeRunner* runner;
};

// The probes of the chosen options, in catalog order.
std::vector<PlannedProbe> planned_probes(const FsPlan& plan) {
  std::vector<PlannedProbe> out;
  const std::span<const FsProbeRunner> runners = fs_probe_runners();
  for (std::size_t i = 0; i < kFsProbes.size(); ++i) {
    if (plan.runs(kFsProbes[i].option)) out.push_back({&kFsProbes[i], &runners[i]});
  }
  return out;
}

ProbeContext make_context(const NodeMap& map, const FsPlan& plan, const FsSetup& setup, int rank) {
  ProbeContext ctx;
  ctx.dir = setup.dir;
  ctx.rank = rank;
  ctx.node = map.node_of_rank[static_cast<std::size_t>(rank)];
  ctx.node_label = node_label(map, rank);
  ctx.plan = &plan;
  ctx.source_rank = fs_read_source(rank, map, setup.shared);
  ctx.source_node = map.node_of_rank[static_cast<std::size_t>(ctx.source_rank)];
  return ctx;
}

// Rank 0: the probe's result from every rank's result text, summarized.
FsProbeResult collect_probe(const PlannedProbe& step, const FsPlan& plan, const NodeMap& map,
                            const std::vector<std::string>& texts, double commit_s) {
  const FsProbeShape shape = step.runner->shape(plan);
  FsProbeResult probe;
  probe.probe = std::string(step.traits->name);
  probe.block_size_bytes = shape.block_size_bytes;
  probe.file_size_bytes = shape.file_size_bytes;
  probe.files_per_rank = shape.files_per_rank;
  probe.direct = plan.direct && step.traits->direct;
  probe.commit_s = commit_s;
  for (std::size_t r = 0; r < texts.size(); ++r)
    probe.ranks.push_back(parse_rank_result(texts[r], static_cast<int>(r)));
  summarize_fs_probe(probe, map.nodes);
  return probe;
}

// After steps[i], every rank past it: removes this rank's files that no later probe reads (a writer's,
// after the last of it and its readers), unless --keep.
void remove_unread_files(const std::vector<PlannedProbe>& steps, std::size_t i, const ProbeContext& ctx,
                         const FsPlan& plan) {
  if (plan.keep) return;
  for (const PlannedProbe& writer : steps) {
    if (writer.runner->remove_files == nullptr) continue;
    const std::string_view option = writer.traits->option;
    std::size_t last = 0;
    for (std::size_t j = 0; j < steps.size(); ++j) {
      if (steps[j].traits->option == option || steps[j].traits->needs == option) last = j;
    }
    if (last == i) writer.runner->remove_files(ctx);
  }
}

// One probe on every rank, between barriers, under the watchdog: rank 0 records and summarizes it.
// Returns the probe's error ("" when it ran), the same on every rank.
std::string run_one_probe(const Comm& world, const NodeMap& map, const FsPlan& plan, const PlannedProbe& step,
                          ProbeContext& ctx, RunRecorder* recorder, Watchdog& watchdog, double timeout_s,
                          Progress& overall, int done, int block, int blocks) {
  const bool root = world.rank() == 0;
  const std::string name(step.traits->name);
  watchdog.arm(root ? timeout_s : timeout_s + kFsNonRootGraceS,
               root ? fmt::format("filesystem probe {}", name)
                    : fmt::format("filesystem probe {} on rank {}", name, world.rank()));
  if (root) recorder->begin_fs_probe(name);
  ProbeProgress progress(name, step.runner->progress_in_bytes);
  ctx.progress =
      root ? FsProgressFn([&progress](std::uint64_t d, std::uint64_t t) { progress(d, t); }) : FsProgressFn();
  world.barrier();
  ctx.start = std::chrono::steady_clock::now();
  FsProbeOutcome outcome = step.runner->run(world, ctx);
  const std::vector<std::string> texts = gather_strings(world, rank_result_text(outcome.mine), 0);
  std::string error;
  if (root) {
    FsProbeResult probe = collect_probe(step, plan, map, texts, outcome.commit_s);
    if (probe.status == "error") error = probe.error;
    probe.block = blocks >= 2 ? block : 0;
    overall.step_done(
        done, fmt::format("{}{}: {:.1f} {} aggregate over {} ranks (first done {:.2f} s, last {:.2f} s){}",
                          blocks >= 2 ? fmt::format("block {}/{}: ", block, blocks) : "", name, fs_probe_metric(probe),
                          fs_metric_unit(probe), probe.ranks.size(), probe.first_done_s, probe.duration_s,
                          status_ok(probe.status) ? "" : "; " + probe.status));
    recorder->add_fs_probe(std::move(probe));
  }
  error = broadcast_string(world, error, 0);
  // Past every rank's timed region (and ckpt-save's commit): e.g. the cache drop is not part of the save.
  if (outcome.after) outcome.after();
  watchdog.disarm();
  ctx.progress = FsProgressFn();
  return error;
}

}  // namespace

std::string fs_type_of(const std::string& path) {
  std::error_code ec;
  const std::string real = std::filesystem::weakly_canonical(path, ec).string();
  std::ifstream in("/proc/self/mountinfo");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::vector<MountInfo> mounts = parse_mountinfo_all(text);
  const MountInfo* m = mount_holding(mounts, real);
  return m != nullptr ? m->fstype : "";
}

FsSetup prepare_fs_stage(const Comm& world, const NodeMap& map, const FsPlan& plan, const FsOptions& o,
                         const std::string& run_id) {
  const std::string me = fmt::format("node {} rank {}", node_label(map, world.rank()), world.rank());
  FsSetup setup;
  setup.dir = (std::filesystem::path(o.path) / ("podperf-" + run_id)).string();
  check_path_everywhere(world, o);
  const Comm host = world.split_shared();
  create_probe_dirs(world, host, me, plan, o, setup);
  check_free_space(world, host, map, plan, o, me, setup);

  setup.info.path = o.path;
  setup.info.probe_dir = setup.dir;
  setup.info.fs_type = fs_type_of(o.path);
  setup.info.shared = setup.shared;
  setup.info.kept = plan.keep;
  setup.info.expected_read_mb_s = plan.expected.read_mb_s;
  setup.info.expected_write_mb_s = plan.expected.write_mb_s;
  setup.info.expected_source = plan.expected.source;

  // Whatever ends the run from here on, the probe files go (unless --keep).
  if (!plan.keep) {
    const std::string dir = setup.dir;
    set_abort_cleanup([dir] { remove_tree(dir); });
  }
  return setup;
}

std::string run_fs_probes(const Comm& world, const NodeMap& map, const FsPlan& plan, FsSetup& setup,
                          RunRecorder* recorder, Watchdog& watchdog, double timeout_s, int blocks) {
  ProbeContext ctx = make_context(map, plan, setup, world.rank());
  const std::vector<PlannedProbe> steps = planned_probes(plan);
  blocks = std::max(1, blocks);
  Progress overall(static_cast<int>(steps.size()) * blocks, "probe");
  for (int block = 1; block <= blocks; ++block) {
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const int done = (block - 1) * static_cast<int>(steps.size()) + static_cast<int>(i + 1);
      const std::string error =
          run_one_probe(world, map, plan, steps[i], ctx, recorder, watchdog, timeout_s, overall, done, block, blocks);
      // Files nobody reads any more go now (every rank is past the probe: the error's broadcast came
      // after rank 0 had every rank's result).
      remove_unread_files(steps, i, ctx, plan);
      if (error.empty()) continue;
      if (world.rank() == 0) {
        std::vector<std::string> not_run;
        for (std::size_t j = i + 1; j < steps.size(); ++j) not_run.emplace_back(steps[j].traits->name);
        if (block < blocks) not_run.push_back(fmt::format("blocks {} to {}", block + 1, blocks));
        recorder->fs_failed(fmt::format("filesystem probe {}{} failed: {}", steps[i].traits->name,
                                        blocks >= 2 ? fmt::format(" (block {})", block) : "", error),
                            not_run);
      }
      return error;
    }
  }
  return "";
}

void finish_fs_stage(const Comm& world, FsSetup& setup) {
  world.barrier();
  if (!setup.info.kept && setup.creator) remove_tree(setup.dir);
  set_abort_cleanup({});
  world.barrier();
}

}  // namespace podperf

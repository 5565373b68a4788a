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

#include "analysis/errors.hpp"
#include "analysis/fs_analysis.hpp"
#include "analysis/run_json.hpp"
#include "analysis/units.hpp"
#include "bench/fs/probes.hpp"
#include "bench/job.hpp"
#include "bench/progress.hpp"
#include "signals/snapshot.hpp"

namespace podperf {
namespace {

constexpr double kNonRootGraceS = 10.0;
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

void unlink_quietly(const std::string& path) {
  (void)::unlink(path.c_str());
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
  const bool root = world.rank() == 0;
  const std::string me = fmt::format("node {} rank {}", node_label(map, world.rank()), world.rank());
  FsSetup setup;
  setup.dir = (std::filesystem::path(o.path) / ("podperf-" + run_id)).string();

  // 1. --path on every rank.
  std::string error = check_path(o.path);
  error = agree_on_errors(world, error.empty() ? "" : fmt::format("{} {}", o.path_flag, error));
  if (!error.empty()) throw UsageError(error);

  // 2. Rank 0 creates the directory (a fresh name: an existing one is never reused).
  if (root) {
    if (::mkdir(setup.dir.c_str(), 0755) != 0) {
      error = fmt::format("{}: cannot create {}: {}", o.path_flag, setup.dir, std::strerror(errno));
    } else {
      setup.creator = true;
    }
  }
  error = broadcast_string(world, error, 0);
  if (!error.empty()) throw UsageError(error);

  // 3. Shared or node-local: does every rank see rank 0's directory? Where not, the first rank of the
  // host creates its own.
  world.barrier();
  int saw = is_directory(setup.dir) ? 1 : 0;
  int all_saw = 0;
  PODPERF_CHECK_MPI(MPI_Allreduce(&saw, &all_saw, 1, MPI_INT, MPI_MIN, world.raw()));
  setup.shared = all_saw == 1;
  const Comm host = world.split_shared();
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
  if (error.empty() && plan.ckpt_save && setup.creator) {
    const std::string ckpt = setup.dir + "/" + kCkptDir;
    if (::mkdir(ckpt.c_str(), 0755) != 0)
      error = fmt::format("{}: cannot create {}: {}", me, ckpt, std::strerror(errno));
  }
  error = agree_on_errors(world, error);
  auto undo = [&] {
    world.barrier();
    if (setup.creator) remove_tree(setup.dir);
  };
  if (!error.empty()) {
    undo();
    throw UsageError(error);
  }

  // 4. Free space, before anything is written: every rank's files at their peak, on the filesystem
  // they share (the whole job, or this host's ranks).
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
  error = agree_on_errors(world, host.rank() == 0 ? space_error : "");
  if (error.empty()) error = agree_on_errors(world, space_error);
  if (!error.empty()) {
    undo();
    throw UsageError(error);
  }

  setup.info.path = o.path;
  setup.info.probe_dir = setup.dir;
  setup.info.fs_type = fs_type_of(o.path);
  setup.info.shared = setup.shared;
  setup.info.kept = plan.keep;
  setup.info.free_bytes = free_bytes;
  setup.info.needed_bytes = needed;
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
                          RunRecorder* recorder, Watchdog& watchdog, double timeout_s) {
  const bool root = world.rank() == 0;
  const int rank = world.rank();
  ProbeContext ctx;
  ctx.dir = setup.dir;
  ctx.rank = rank;
  ctx.node = map.node_of_rank[static_cast<std::size_t>(rank)];
  ctx.node_label = node_label(map, rank);
  ctx.plan = &plan;
  ctx.source_rank = fs_read_source(rank, map, setup.shared);
  ctx.source_node = map.node_of_rank[static_cast<std::size_t>(ctx.source_rank)];

  struct Step {
    std::string name;
    bool counts_bytes;
    std::uint64_t block, file, files;
  };
  std::vector<Step> steps;
  if (plan.seq_write) steps.push_back({"seq-write", true, plan.block_size_bytes, plan.file_size_bytes, 1});
  if (plan.seq_read) steps.push_back({"seq-read", true, plan.block_size_bytes, plan.file_size_bytes, 1});
  if (plan.rand_read) steps.push_back({"rand-read", false, plan.rand_block_size_bytes, plan.file_size_bytes, 1});
  if (plan.meta) {
    for (const char* phase : {"meta-create", "meta-stat", "meta-read", "meta-unlink"}) {
      steps.push_back({phase, false, plan.meta_file_size_bytes, plan.meta_file_size_bytes, plan.meta_files});
    }
  }
  if (plan.ckpt_save) {
    steps.push_back({"ckpt-save", true, plan.block_size_bytes, plan.ckpt_shard_size_bytes, plan.ckpt_shards});
  }
  if (plan.ckpt_load) {
    steps.push_back({"ckpt-load", true, plan.block_size_bytes, plan.ckpt_shard_size_bytes, plan.ckpt_shards});
  }
  const std::string last_seq = plan.rand_read ? "rand-read" : plan.seq_read ? "seq-read" : "seq-write";
  const std::string last_ckpt = plan.ckpt_load ? "ckpt-load" : "ckpt-save";

  Progress overall(static_cast<int>(steps.size()), "probe");
  std::string error;
  std::size_t done = 0;
  for (const Step& step : steps) {
    watchdog.arm(root ? timeout_s : timeout_s + kNonRootGraceS,
                 root ? fmt::format("filesystem probe {}", step.name)
                      : fmt::format("filesystem probe {} on rank {}", step.name, rank));
    if (root) recorder->begin_fs_probe(step.name);
    ProbeProgress progress(step.name, step.counts_bytes);
    ctx.progress =
        root ? FsProgressFn([&progress](std::uint64_t d, std::uint64_t t) { progress(d, t); }) : FsProgressFn();
    world.barrier();
    ctx.start = std::chrono::steady_clock::now();
    FsRankResult mine;
    double commit_s = 0.0;
    std::vector<ShardRecord> saved;  // ckpt-save: this rank's shards
    if (step.name == "seq-write") {
      mine = probe_seq_write(ctx);
    } else if (step.name == "seq-read") {
      mine = probe_seq_read(ctx);
    } else if (step.name == "rand-read") {
      mine = probe_rand_read(ctx);
    } else if (step.name == "meta-create") {
      mine = probe_meta_create(ctx);
    } else if (step.name == "meta-stat") {
      mine = probe_meta_stat(ctx);
    } else if (step.name == "meta-read") {
      mine = probe_meta_read(ctx);
    } else if (step.name == "meta-unlink") {
      mine = probe_meta_unlink(ctx);
    } else if (step.name == "ckpt-save") {
      mine = probe_ckpt_save(ctx, saved);
      // Every rank's shards (and whether it saved them) to rank 0, which then writes the metadata
      // file and renames it into place: the checkpoint exists only after that.
      nlohmann::json shards = nlohmann::json::array();
      for (const ShardRecord& s : saved) {
        shards.push_back(
            {{"rank", s.rank}, {"shard", s.shard}, {"file", s.file}, {"bytes", s.bytes}, {"checksum", s.checksum}});
      }
      const std::vector<std::string> all = gather_strings(world, mine.status == "ok" ? shards.dump() : "", 0);
      if (root) {
        std::vector<ShardRecord> every;
        bool complete = true;
        for (const std::string& text : all) {
          if (text.empty()) {
            complete = false;
            continue;
          }
          for (const nlohmann::json& s : nlohmann::json::parse(text)) {
            every.push_back(ShardRecord{s.at("rank").get<int>(), s.at("shard").get<std::uint64_t>(),
                                        s.at("file").get<std::string>(), s.at("bytes").get<std::uint64_t>(),
                                        s.at("checksum").get<std::uint64_t>()});
          }
        }
        if (complete && mine.status == "ok") commit_s = write_ckpt_metadata(ctx, every, mine);
      }
    } else if (step.name == "ckpt-load") {
      mine = probe_ckpt_load(ctx);
    }
    const std::vector<std::string> texts = gather_strings(world, rank_result_text(mine), 0);
    std::string step_error;
    if (root) {
      FsProbeResult probe;
      probe.probe = step.name;
      probe.block_size_bytes = step.block;
      probe.file_size_bytes = step.file;
      probe.files_per_rank = step.files;
      probe.direct = plan.direct && step.name.rfind("meta", 0) != 0;
      probe.commit_s = commit_s;
      for (std::size_t r = 0; r < texts.size(); ++r) {
        probe.ranks.push_back(parse_rank_result(texts[r], static_cast<int>(r)));
      }
      summarize_fs_probe(probe, map.nodes);
      if (probe.status == "error") step_error = probe.error;
      const double metric = fs_probe_metric(probe);
      overall.step_done(static_cast<int>(++done),
                        fmt::format("{}: {:.1f} {} aggregate over {} ranks (first done {:.2f} s, last {:.2f} s){}",
                                    step.name, metric, fs_metric_unit(probe), probe.ranks.size(), probe.first_done_s,
                                    probe.duration_s, probe.status == "ok" ? "" : "; " + probe.status));
      recorder->add_fs_probe(std::move(probe));
    }
    step_error = broadcast_string(world, step_error, 0);
    // Past every rank's timed region and the metadata commit: the cache drop is not part of the save.
    if (step.name == "ckpt-save") drop_saved_shards(ctx, saved);
    watchdog.disarm();
    // Files nobody reads any more go now (every rank is past the probe: the broadcast above came
    // after rank 0 had every rank's result).
    if (step.name == last_seq && plan.seq_write && !plan.keep) unlink_quietly(setup.dir + "/" + seq_file_name(rank));
    if (step.name == last_ckpt && plan.ckpt_save && !plan.keep) {
      for (std::uint64_t k = 0; k < plan.ckpt_shards; ++k) {
        unlink_quietly(setup.dir + "/" + shard_file_name(rank, k));
      }
      if (root) unlink_quietly(setup.dir + "/" + kCkptMetadata);
    }
    if (!step_error.empty()) {
      error = step_error;
      if (root) {
        std::vector<std::string> not_run;
        bool after = false;
        for (const Step& s : steps) {
          if (after) not_run.push_back(s.name);
          if (s.name == step.name) after = true;
        }
        recorder->fs_failed(fmt::format("filesystem probe {} failed: {}", step.name, error), not_run);
      }
      break;
    }
  }
  return error;
}

void finish_fs_stage(const Comm& world, FsSetup& setup) {
  world.barrier();
  if (!setup.info.kept && setup.creator) remove_tree(setup.dir);
  set_abort_cleanup({});
  world.barrier();
}

}  // namespace podperf

// podperf accept, measuring: the profile's options over podperf run's, the stages under MPI, the
// verdict hook that judges and reports on rank 0. Bench floor, collective.
#include "bench/accept_command.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/accept/acceptance.hpp"
#include "analysis/accept/node_checks.hpp"
#include "analysis/base/errors.hpp"
#include "analysis/io/run_metadata.hpp"
#include "analysis/report/accept_outputs.hpp"
#include "bench/fs_command.hpp"
#include "bench/pairs_command.hpp"

namespace podperf {
namespace {

bool given(const AcceptOptions& o, const char* name) {
  return o.judging.given.contains(name);
}

// podperf run's options: the profile's sizes and iterations where the command line gave none, and
// accept's --topology.
PairsOptions measuring_options(const AcceptOptions& o, const Profile& profile) {
  PairsOptions p = o.run;
  p.topology = o.judging.topology;
  p.topology_format = o.judging.topology_format;
  if (profile.pairs_stage) {
    const ProfilePairs& pp = profile.pairs;
    if (!given(o, "-b")) p.min_bytes = pp.min_bytes;
    if (!given(o, "-e")) p.max_bytes = pp.max_bytes;
    if (!given(o, "-f")) p.step_factor = static_cast<std::uint64_t>(pp.step_factor);
    if (!given(o, "-n")) p.iters = pp.iters;
    if (!given(o, "-w")) p.warmup = pp.warmup;
    if (!given(o, "--retest")) p.retest = pp.retest;
    if (!given(o, "--concurrency")) p.concurrency = pp.concurrency;
  }
  if (profile.fs_stage) {
    const ProfileFs& f = profile.fs;
    if (!given(o, "--probes")) p.fs.probes = f.probes;
    if (!given(o, "--file-size")) p.fs.file_size = f.file_size;
    if (!given(o, "--block-size")) p.fs.block_size = f.block_size;
    if (!given(o, "--rand-ops")) p.fs.rand_ops = f.rand_ops;
    if (!given(o, "--meta-files")) p.fs.meta_files = f.meta_files;
    if (!given(o, "--ckpt-shard-size")) p.fs.ckpt_shard_size = f.ckpt_shard_size;
    if (!given(o, "--ckpt-shards")) p.fs.ckpt_shards = f.ckpt_shards;
    if (f.direct) p.fs.direct = true;
  }
  return p;
}

// The options the command line gave in place of the profile's values, as given, beside the profile's
// (recorded in the verdict; the profile check names them). --op and -i are not the profile's but change
// what its pair test measures.
std::vector<ProfileOverride> profile_overrides(const AcceptOptions& o, const Profile& profile) {
  std::vector<ProfileOverride> out;
  const auto add = [&](const char* option, const std::string& value, const std::string& profile_value) {
    if (given(o, option)) out.push_back(ProfileOverride{option, value, profile_value});
  };
  const PairsOptions& r = o.run;
  if (profile.pairs_stage) {
    const ProfilePairs& pp = profile.pairs;
    add("-b", r.min_bytes, pp.min_bytes);
    add("-e", r.max_bytes, pp.max_bytes);
    add("-f", std::to_string(r.step_factor), std::to_string(pp.step_factor));
    add("-i", r.step_bytes, "0");
    add("-n", std::to_string(r.iters), std::to_string(pp.iters));
    add("-w", std::to_string(r.warmup), std::to_string(pp.warmup));
    add("--retest", std::to_string(r.retest), std::to_string(pp.retest));
    add("--concurrency", r.concurrency, pp.concurrency);
    add("--op", r.op, "all_reduce");
  }
  if (profile.fs_stage) {
    const ProfileFs& f = profile.fs;
    add("--probes", r.fs.probes, f.probes);
    add("--file-size", r.fs.file_size, f.file_size);
    add("--block-size", r.fs.block_size, f.block_size);
    add("--rand-ops", std::to_string(r.fs.rand_ops), std::to_string(f.rand_ops));
    add("--meta-files", std::to_string(r.fs.meta_files), std::to_string(f.meta_files));
    add("--ckpt-shard-size", r.fs.ckpt_shard_size, f.ckpt_shard_size);
    add("--ckpt-shards", std::to_string(r.fs.ckpt_shards), std::to_string(f.ckpt_shards));
  }
  return out;
}

// Live: the profile's stages under MPI, judged by rank 0's recorder.
int accept_live(int* argc, char*** argv, const Cli& cli, AcceptSetup setup, bool print) {
  const AcceptOptions& o = cli.accept;
  const Profile& profile = setup.profile;
  setup.overrides = profile_overrides(o, profile);
  if (profile.fs_stage && o.run.fs.path.empty()) {
    throw UsageError(fmt::format("profile {} runs the filesystem stage: give --fs-path DIR", profile.name));
  }
  if (!profile.fs_stage && !o.run.fs.path.empty()) {
    throw UsageError(
        fmt::format("profile {} has no filesystem stage; --fs-path needs --profile full or fs (or a "
                    "profile file with \"fs\" in its stages)",
                    profile.name));
  }
  Cli run_cli = cli;
  run_cli.command = "accept";
  run_cli.pairs = measuring_options(o, profile);
  if (print) {
    std::string overridden;
    for (const ProfileOverride& ov : setup.overrides) {
      overridden +=
          fmt::format("{}{} {} (profile: {})", overridden.empty() ? "" : ", ", ov.option, ov.value, ov.profile);
    }
    std::fprintf(stderr, "podperf accept: profile %s (%s), stages %s%s%s; SKU %s%s%s\n", profile.name.c_str(),
                 profile.source.c_str(), profile.pairs_stage ? "pairs" : "",
                 profile.pairs_stage && profile.fs_stage ? ", " : "", profile.fs_stage ? "fs" : "",
                 setup.forced_sku ? setup.forced_sku->instance_type.c_str() : "from the nodes' instance type",
                 overridden.empty() ? "" : "; overridden: ", overridden.c_str());
  }

  auto output_failed = std::make_shared<bool>(false);
  VerdictHook hook;
  hook.judge = [setup](Run& run) { judge_acceptance(run, setup); };
  hook.report = [judging = o.judging, output_failed](const Run& run, const std::string& results_dir) {
    AcceptOutputs written = write_accept_outputs(
        run, AcceptOutputTargets{results_dir, judging.junit, judging.prometheus, judging.cluster_name});
    if (!written.errors.empty()) *output_failed = true;
    return written.text + written.errors;
  };
  hook.exit_code = [output_failed](const Run& run, int command_exit) {
    if (command_exit == kExitRuntime || *output_failed) return kExitRuntime;
    return accept_exit_code(run.verdict);
  };

  if (profile.pairs_stage) return run_pairs_command(argc, argv, run_cli, &hook);
  // Filesystem only: podperf fs with the same job options.
  static_cast<CommonOptions&>(run_cli.fs) = run_cli.pairs;
  run_cli.fs.fs = run_cli.pairs.fs;
  run_cli.fs.fs.config = run_cli.pairs.config;
  return run_fs_command(argc, argv, run_cli, &hook);
}

}  // namespace

int run_accept_command(int* argc, char*** argv, const Cli& cli) {
  const bool print = launcher_rank_from_env() == 0;
  try {
    const AcceptSetup setup = prepare_acceptance(cli.accept.judging);
    return accept_live(argc, argv, cli, setup, print);
  } catch (const UsageError& e) {
    if (print) std::fprintf(stderr, "podperf: error: %s\n", e.what());
    return kExitUsage;
  }
}

}  // namespace podperf

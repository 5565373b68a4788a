#include "offline/sweep_command.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "analysis/base/errors.hpp"
#include "analysis/base/file_write.hpp"
#include "analysis/base/toml_check.hpp"
#include "analysis/base/units.hpp"
#include "analysis/compare/sweep_ranking.hpp"
#include "analysis/config/compare_settings.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/io/run_metadata.hpp"
#include "analysis/report/sweep_tables.hpp"
#include "analysis/stats/stats.hpp"
#include "offline/launch.hpp"
#include "offline/offline_command.hpp"
#include "sweep/sweep_points.hpp"

extern char** environ;

namespace podperf {
namespace {

namespace fs = std::filesystem;

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

// For printing only (--dry-run, the header): what a shell user would type. Never executed.
std::string display_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,@%") ==
                        std::string::npos) {
    return s;
  }
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else if (c == '\n') {
      out += "'$'\\n''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string display_argv(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    out += display_quote(a);
  }
  return out;
}

std::string default_sweep_id() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("sweep-{:%Y%m%d-%H%M%S}-p{}", tm, static_cast<long>(getpid()));
}

// The largest size a point measured, its busbw: the one number of the progress line.
std::string headline(const SweepPointResult& p) {
  const SweepCase* best = nullptr;
  for (const SweepCase& c : p.cases) {
    if (best == nullptr || c.size_bytes > best->size_bytes) best = &c;
  }
  if (best == nullptr) return "no measurement";
  return fmt::format("{} {} busbw {:.4g} GB/s", best->op, format_size(best->size_bytes), median(best->busbw_gbps));
}

std::string last_line(const std::string& text) {
  const auto nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

struct Sweep {
  SweepSpec spec;
  std::string file_text;
  LaunchChoice launcher;
  fs::path dir;
  std::string sweep_id;
  std::string started_at;
  std::vector<SweepJob> jobs;             // the run order (sweep_job_order)
  SweepRankSettings rank;                 // configs/compare.toml's alpha, min change and single-run allowance
  std::vector<SweepPointResult> results;  // one per job, in the order they ran
};

nlohmann::json sweep_json(const Sweep& s, const std::vector<SweepRankGroup>& groups, const std::string& status) {
  nlohmann::json best = nlohmann::json::array();
  for (const SweepRankGroup& g : groups) {
    const SweepRankEntry& b = g.entries.front();
    best.push_back({{"op", g.op},
                    {"dtype", g.dtype},
                    {"size_bytes", g.size_bytes},
                    {"point", b.point},
                    {"settings", b.label},
                    {"median_busbw_gbps", b.median_gbps},
                    {"ci_low_gbps", b.ci_low_gbps},
                    {"ci_high_gbps", b.ci_high_gbps},
                    {"clear", g.best_clear},
                    {"method", g.method},
                    {"change_percent", g.change_percent},
                    {"p_adjusted", g.p_adjusted}});
  }
  nlohmann::json order = nlohmann::json::array();
  for (const SweepJob& j : s.jobs) order.push_back(j.run_id);
  return {{"schema", "podperf.sweep"},
          {"schema_version", 2},
          {"podperf_version", PODPERF_VERSION},
          {"sweep_id", s.sweep_id},
          {"file", s.spec.source},
          {"description", s.spec.description},
          {"command", s.spec.command},
          {"base_args", s.spec.args},
          {"metric", s.spec.metric},
          {"repeats", s.spec.repeats},
          {"seed", s.spec.seed},
          {"order", order},
          {"unit", "job: each repeat of a point is a separate job, summarised by its median busbw"},
          {"interval",
           "2+ jobs: 95% t interval of the geometric mean of per-job medians; 1 job: 95% percentile bootstrap of its "
           "median per-iteration busbw (within-run only)"},
          {"beyond_noise",
           fmt::format("2+ jobs per point: Welch's t on log per-job medians, Benjamini-Hochberg across sizes, p < {}, "
                       "and ahead by at least the minimum change of {}%; 1 job: ahead by more than the single-run "
                       "allowance of {}%",
                       s.rank.alpha, s.rank.min_change_percent, s.rank.single_run_allowance_percent)},
          {"launcher", {{"kind", s.launcher.kind}, {"why", s.launcher.why}, {"prefix", s.launcher.prefix}}},
          {"started_at", s.started_at},
          {"finished_at", status == "running" ? "" : iso8601_now()},
          {"status", status},
          {"points_planned", s.spec.points.size()},
          {"points", sweep_points_json(s.results)},
          {"ranking", sweep_ranking_json(groups)},
          {"best", best}};
}

void save(const Sweep& s, const std::string& status) {
  const std::vector<SweepRankGroup> groups = rank_sweep(s.results, s.rank);
  write_file_atomically((s.dir / "sweep.json").string(), sweep_json(s, groups, status).dump(2) + "\n");
  write_file_atomically((s.dir / "sweep.csv").string(), sweep_csv(groups));
}

SweepPointResult job_result(const SweepJob& job) {
  SweepPointResult r;
  r.index = job.point->index;
  r.repeat = job.repeat;
  r.name = job.run_id;
  r.label = job.point->label();
  r.env = job.point->env;
  return r;
}

std::vector<std::string> job_args(const Sweep& s, const SweepJob& job) {
  std::vector<std::string> args = point_podperf_args(s.spec, *job.point);
  args.insert(args.end(), {"--out", s.dir.string(), "--run-id", job.run_id});
  return args;
}

SweepPointResult run_job(const Sweep& s, const SweepJob& job, const std::string& exe, double timeout_s) {
  SweepPointResult r = job_result(job);
  const SweepPoint& point = *job.point;
  const fs::path run_dir = s.dir / job.run_id;
  r.run_dir = run_dir.string();
  const std::vector<std::string> args = job_args(s, job);
  r.argv = launch_argv(s.launcher, exe, args, point.env);
  std::error_code ec;
  fs::create_directories(run_dir, ec);
  if (ec) throw RuntimeFailure(fmt::format("{}: cannot create the point's directory: {}", r.run_dir, ec.message()));
  const std::string log = (run_dir / "launch.log").string();

  const auto start = std::chrono::steady_clock::now();
  const SpawnResult sr = spawn_and_wait(r.argv, child_environment(environ, point.env), log, timeout_s);
  r.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.exit_code = sr.exit_code;

  const fs::path run_json = run_dir / "run.json";
  std::string read_error;
  bool have_run = false;
  if (fs::exists(run_json)) {
    try {
      r.cases = sweep_cases(read_run_json(run_json.string()));
      have_run = true;
    } catch (const std::exception& e) {
      read_error = e.what();
    }
  }
  if (!sr.started) {
    r.status = "failed";
    r.exit_code = 127;
    r.error = sr.error;
  } else if (sr.interrupted) {
    r.status = "interrupted";
  } else if (sr.timed_out) {
    r.status = "timeout";
  } else if (sr.exit_code == 0 && have_run) {
    r.status = "ok";
  } else if (sr.exit_code == 1 && have_run) {
    r.status = "flagged";  // wrong results, failed cases or flagged pairs; its ok cases still count
  } else {
    r.status = "failed";
  }
  if (!status_ok(r.status) && r.error.empty()) {
    std::string why;
    if (r.status == "timeout") {
      why = fmt::format("stopped after {:.0f} s (timeout_s)", timeout_s);
    } else if (r.status == "interrupted") {
      why = "interrupted (SIGINT/SIGTERM)";
    } else if (!have_run) {
      why = read_error.empty() ? fmt::format("exit {}, no run.json", r.exit_code)
                               : fmt::format("exit {}, unreadable run.json: {}", r.exit_code, read_error);
    } else {
      why = fmt::format("exit {}", r.exit_code);
    }
    const std::string tail = file_tail(log, 20, 4000);
    r.error = tail.empty() ? why : why + "\n" + tail;
  }
  return r;
}

int run_sweep_jobs(const SweepOptions& o, std::ostream& out, std::ostream& err) {
  if (!env_or_empty("OMPI_COMM_WORLD_SIZE").empty() || !env_or_empty("PMIX_RANK").empty()) {
    throw UsageError(
        "podperf sweep starts one job per point itself: run it directly (inside the allocation), not under srun or "
        "mpirun");
  }
  Sweep s;
  std::string source;
  s.file_text = named_config_text(o.file, "sweeps/", "sweep", source);
  s.spec = parse_sweep(s.file_text, source);
  if (o.timeout_s > 0) s.spec.timeout_s = o.timeout_s;
  const CompareSettings cs = load_compare_settings("");
  s.rank.alpha = cs.alpha;
  s.rank.min_change_percent = cs.min_change_percent;
  s.rank.single_run_allowance_percent = cs.single_run_allowance_percent;
  s.jobs = sweep_job_order(s.spec);
  s.launcher = choose_launcher(o.launcher, s.spec.launch, o.np, o.hostfile, env_or_empty("SLURM_JOB_ID"));
  s.sweep_id = o.sweep_id.empty() ? default_sweep_id() : o.sweep_id;
  if (s.sweep_id.find('/') != std::string::npos || s.sweep_id == "." || s.sweep_id == "..") {
    throw UsageError(fmt::format("--sweep-id '{}': must be a plain name (no '/')", s.sweep_id));
  }
  s.dir = fs::absolute(fs::path(o.out) / s.sweep_id).lexically_normal();
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw RuntimeFailure(fmt::format("cannot find podperf's own executable: {}", ec.message()));

  const std::size_t n = s.jobs.size();
  out << fmt::format(
      "podperf sweep {}: {} points of podperf {} ({}), {} job{}: {} repeat{} per point in interleaved "
      "cycles (seed {})\n",
      s.spec.source, s.spec.points.size(), s.spec.command, s.spec.description, n, n == 1 ? "" : "s", s.spec.repeats,
      s.spec.repeats == 1 ? "" : "s", s.spec.seed);
  if (s.spec.repeats == 1) {
    out << "note: repeats = 1: one job per point cannot tell a setting from run-to-run noise; a point is called ahead "
           "only beyond the single-run allowance. Set repeats >= 3 in the sweep file to rank beyond noise.\n";
  }
  out << fmt::format("launcher: {} ({}){}\n", s.launcher.kind, s.launcher.why,
                     s.launcher.prefix.empty() ? "" : ": " + display_argv(s.launcher.prefix));
  if (o.dry_run) {
    out << "dry run: each job's command in the order they would run (shown shell-quoted; executed as an argument "
           "vector, never by a shell) and the variables it sets\n";
    for (std::size_t i = 0; i < n; ++i) {
      const SweepJob& j = s.jobs[i];
      out << fmt::format("[{}/{}] #{} repeat {}/{} {}\n  {}\n", i + 1, n, j.point->index, j.repeat, s.spec.repeats,
                         j.point->label(), display_argv(launch_argv(s.launcher, exe, job_args(s, j), j.point->env)));
      for (const auto& [k, v] : j.point->env) out << fmt::format("  env {}={}\n", k, display_quote(v));
    }
    return kExitOk;
  }

  if (fs::exists(s.dir / "sweep.json")) {
    throw UsageError(fmt::format("{} already holds a sweep.json; choose another --sweep-id", s.dir.string()));
  }
  fs::create_directories(s.dir, ec);
  if (ec) throw UsageError(fmt::format("--out {}: cannot create {}: {}", o.out, s.dir.string(), ec.message()));
  out << fmt::format("results: {}\n", s.dir.string());
  out.flush();
  s.started_at = iso8601_now();
  write_file_atomically((s.dir / "sweep.toml").string(), s.file_text);
  save(s, "running");

  bool interrupted = false;
  for (std::size_t i = 0; i < n; ++i) {
    const SweepJob& j = s.jobs[i];
    interrupted = interrupted || take_pending_termination();
    if (interrupted) {
      SweepPointResult skipped = job_result(j);
      skipped.status = "not_run";
      s.results.push_back(skipped);
      continue;
    }
    err << fmt::format("sweep [{}/{}] start {}: {} (point #{}, repeat {}/{})\n", i + 1, n, j.run_id, j.point->label(),
                       j.point->index, j.repeat, s.spec.repeats);
    err.flush();
    SweepPointResult r = run_job(s, j, exe.string(), s.spec.timeout_s);
    if (status_ok(r.status)) {
      err << fmt::format("sweep [{}/{}] ok     {} in {:.1f} s: {}\n", i + 1, n, j.run_id, r.duration_s, headline(r));
    } else {
      err << fmt::format("sweep [{}/{}] {} {} in {:.1f} s (exit {}): {}\n", i + 1, n,
                         r.status == "flagged" ? "FLAGGED" : "FAILED", j.run_id, r.duration_s, r.exit_code,
                         last_line(r.error));
    }
    err.flush();
    interrupted = r.status == "interrupted";
    s.results.push_back(std::move(r));
    save(s, "running");
  }
  save(s, interrupted ? "interrupted" : "complete");

  out << "\n" << sweep_ranking_text(rank_sweep(s.results, s.rank), s.results, s.rank);
  out << fmt::format("\nsweep.json, sweep.csv and one run directory per job (run.json, launch.log) in {}\n",
                     s.dir.string());
  if (interrupted) return kExitRuntime;
  for (const SweepPointResult& r : s.results) {
    if (!status_ok(r.status)) return kExitFlagged;
  }
  return kExitOk;
}

}  // namespace

int run_sweep_command(const SweepOptions& o, std::ostream& out, std::ostream& err) {
  return run_offline_command("podperf", err, [&] { return run_sweep_jobs(o, out, err); });
}

}  // namespace podperf

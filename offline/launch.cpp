#include "offline/launch.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {

bool is_open_mpi_launcher(const std::string& program) {
  const auto slash = program.rfind('/');
  const std::string base = slash == std::string::npos ? program : program.substr(slash + 1);
  return base == "mpirun" || base == "mpiexec" || base == "orterun";
}

timespec to_timespec(double seconds) {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(seconds);
  ts.tv_nsec = static_cast<long>((seconds - static_cast<double>(ts.tv_sec)) * 1e9);
  return ts;
}

}  // namespace

LaunchChoice choose_launcher(const std::string& requested, const SweepLaunch& file, int np, const std::string& hostfile,
                             const std::string& slurm_job_id) {
  LaunchChoice c;
  std::string kind = requested;
  if (kind == "auto") {
    if (!file.argv.empty()) {
      kind = "file";
      c.why = "the sweep file's launch.argv";
    } else if (!slurm_job_id.empty()) {
      kind = "srun";
      c.why = fmt::format("inside Slurm job {}", slurm_job_id);
    } else {
      kind = "mpirun";
      c.why = "no Slurm allocation (SLURM_JOB_ID unset)";
    }
  } else {
    c.why = fmt::format("--launcher {}", requested);
  }
  c.kind = kind;
  const int n = np > 0 ? np : file.np;
  const std::string hf = !hostfile.empty() ? hostfile : file.hostfile;
  if (kind == "file") {
    if (file.argv.empty()) throw UsageError("--launcher file: the sweep file has no launch.argv");
    c.prefix = file.argv;
    c.forward_with_x = is_open_mpi_launcher(file.argv[0]);
  } else if (kind == "srun") {
    if (!hostfile.empty()) throw UsageError("--hostfile is for mpirun; srun runs on the Slurm allocation");
    c.prefix = {"srun", "--mpi=" + file.srun_mpi};
    if (n > 0) {
      c.prefix.push_back("-n");
      c.prefix.push_back(std::to_string(n));
    }
    c.prefix.insert(c.prefix.end(), file.srun_args.begin(), file.srun_args.end());
  } else if (kind == "mpirun") {
    c.prefix = {"mpirun"};
    if (!hf.empty()) {
      c.prefix.push_back("--hostfile");
      c.prefix.push_back(hf);
    }
    if (n > 0) {
      c.prefix.push_back("-np");
      c.prefix.push_back(std::to_string(n));
    }
    c.prefix.insert(c.prefix.end(), file.mpirun_args.begin(), file.mpirun_args.end());
    c.forward_with_x = true;
  } else if (kind == "none") {
    // podperf alone (an MPI singleton): one rank; for trying a sweep file, not for measuring a fabric.
  } else {
    throw UsageError(fmt::format("--launcher '{}' (expected auto, srun, mpirun, file or none)", requested));
  }
  return c;
}

std::vector<std::string> launch_argv(const LaunchChoice& launcher, const std::string& podperf_exe,
                                     const std::vector<std::string>& podperf_args,
                                     const std::map<std::string, std::string>& env) {
  std::vector<std::string> argv = launcher.prefix;
  if (launcher.forward_with_x) {
    for (const auto& [name, value] : env) {
      argv.push_back("-x");
      argv.push_back(name);  // the name only: mpirun reads the value from its own environment
    }
  }
  argv.push_back(podperf_exe);
  argv.insert(argv.end(), podperf_args.begin(), podperf_args.end());
  return argv;
}

std::vector<std::string> child_environment(char** environ_entries,
                                           const std::map<std::string, std::string>& overrides) {
  std::vector<std::string> out;
  for (char** e = environ_entries; e != nullptr && *e != nullptr; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (overrides.contains(entry.substr(0, eq))) continue;
    out.push_back(entry);
  }
  for (const auto& [name, value] : overrides) out.push_back(name + "=" + value);
  return out;
}

SpawnResult spawn_and_wait(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                           const std::string& log_path, double timeout_s) {
  SpawnResult r;
  if (argv.empty()) {
    r.error = "empty command";
    return r;
  }
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  std::vector<char*> cenv;
  for (const std::string& e : env) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // podperf blocks SIGINT/SIGTERM for its signal thread; the launcher must get them as usual.
  sigset_t empty;
  sigemptyset(&empty);
  posix_spawnattr_setsigmask(&attr, &empty);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT}) sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, cargv[0], &actions, &attr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    r.error = fmt::format("cannot execute '{}': {}", argv[0], std::strerror(rc));
    return r;
  }
  r.started = true;

  sigset_t wanted;
  sigemptyset(&wanted);
  sigaddset(&wanted, SIGINT);
  sigaddset(&wanted, SIGTERM);
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  double kill_at = -1.0;  // when SIGKILL follows the SIGTERM already sent
  int status = 0;
  while (true) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {
      r.error = fmt::format("waitpid: {}", std::strerror(errno));
      return r;
    }
    const timespec tick = to_timespec(0.05);
    const int sig = sigtimedwait(&wanted, nullptr, &tick);
    if ((sig == SIGINT || sig == SIGTERM) && kill_at < 0) {
      r.interrupted = true;
      kill(pid, SIGTERM);
      kill_at = elapsed() + 10.0;
    }
    if (!r.timed_out && !r.interrupted && elapsed() > timeout_s) {
      r.timed_out = true;
      kill(pid, SIGTERM);
      kill_at = elapsed() + 10.0;
    }
    if (kill_at >= 0 && elapsed() > kill_at) {
      kill(pid, SIGKILL);
      kill_at = elapsed() + 3600.0;
    }
  }
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.exit_code = 128 + WTERMSIG(status);
  }
  return r;
}

bool take_pending_termination() {
  sigset_t wanted;
  sigemptyset(&wanted);
  sigaddset(&wanted, SIGINT);
  sigaddset(&wanted, SIGTERM);
  const timespec zero{};
  const int sig = sigtimedwait(&wanted, nullptr, &zero);
  return sig == SIGINT || sig == SIGTERM;
}

std::string file_tail(const std::string& path, std::size_t max_lines, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  if (text.size() > max_bytes) text = text.substr(text.size() - max_bytes);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  std::size_t pos = text.size();
  for (std::size_t n = 0; n < max_lines && pos != std::string::npos && pos > 0; ++n) {
    pos = text.rfind('\n', pos - 1);
  }
  if (pos != std::string::npos && pos < text.size() && text[pos] == '\n') text = text.substr(pos + 1);
  return text;
}

}  // namespace podperf

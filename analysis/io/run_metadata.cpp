#include "analysis/io/run_metadata.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>

namespace podperf {
namespace {
std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}
}  // namespace

Launcher detect_launcher() {
  Launcher l;
  if (!env("SLURM_JOB_ID").empty() && !env("SLURM_PROCID").empty()) {
    l.kind = "slurm";
    l.job_id = env("SLURM_JOB_ID");
    l.step_id = env("SLURM_STEP_ID");
  } else if (!env("OMPI_COMM_WORLD_SIZE").empty()) {
    l.kind = "openmpi";
    l.job_id = env("OMPI_MCA_orte_ess_jobid");
  } else {
    l.kind = "singleton";
  }
  return l;
}

int launcher_rank_from_env() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID", "PMI_RANK"}) {
    const std::string v = env(name);
    if (!v.empty()) return std::atoi(v.c_str());
  }
  return 0;
}

std::string iso8601_now() {
  const auto now = std::chrono::system_clock::now();
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03}Z", tm, ms);
}

std::string make_run_id(const Launcher& launcher) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  const std::string suffix =
      launcher.kind == "slurm" ? fmt::format("j{}", launcher.job_id) : fmt::format("p{}", static_cast<long>(getpid()));
  return fmt::format("{:%Y%m%d-%H%M%S}-{}", tm, suffix);
}

}  // namespace podperf

// podperf accept's setup and judgment, shared by the measuring accept and accept --from. Local, no MPI.
#include "analysis/accept/acceptance.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "analysis/accept/node_checks.hpp"
#include "analysis/base/errors.hpp"

namespace podperf {

AcceptSetup prepare_acceptance(const AcceptanceOptions& o) {
  AcceptSetup s{load_profile(o.profile), std::nullopt, {}};
  if (!o.sku.empty()) s.forced_sku = load_sku(o.sku);
  if (!o.junit.empty()) {
    const std::filesystem::path parent = std::filesystem::absolute(o.junit).parent_path();
    if (!std::filesystem::is_directory(parent)) {
      throw UsageError(fmt::format("--junit {}: directory {} does not exist", o.junit, parent.string()));
    }
  }
  return s;
}

void judge_acceptance(Run& run, const AcceptSetup& setup) {
  const std::optional<Sku> sku = choose_sku(run, setup.forced_sku);
  const std::vector<ProfileOverride> overrides =
      setup.overrides.empty() && run.verdict.profile == setup.profile.name ? run.verdict.overrides : setup.overrides;
  run.verdict = check_nodes(run, setup.profile, sku ? &*sku : nullptr, overrides);
}

}  // namespace podperf

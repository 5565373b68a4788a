// `podperf signals`: snapshot of this host (signals/host_inputs) -> rules -> table or JSON
// (analysis/report/findings_table). Offline floor, local, no MPI; errors through run_offline_command.
#include "offline/signals_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <thread>

#include "analysis/base/errors.hpp"
#include "analysis/report/findings_table.hpp"
#include "offline/offline_command.hpp"
#include "signals/host_inputs.hpp"
#include "signals/rules.hpp"

namespace podperf {

namespace {

// One host's findings, printed (the command without its error handling).
int signals(const SignalsOptions& o, std::ostream& out) {
  if (!(o.sample_seconds >= 0.0 && o.sample_seconds <= 600.0)) {
    throw UsageError(fmt::format("--sample {} is out of range (expected 0 to 600 seconds)", o.sample_seconds));
  }
  const Rules rules = load_rules(o.rules_path);
  const std::string root = o.root.empty() ? "/" : o.root;
  const HostSnapshot before = collect_snapshot(root, real_collect_inputs(root));
  std::vector<Finding> findings = evaluate(before, rules);
  if (o.sample_seconds > 0.0) {
    std::this_thread::sleep_for(std::chrono::duration<double>(o.sample_seconds));
    const HostSnapshot after = collect_snapshot(root, real_collect_inputs(root));
    std::vector<Finding> delta = evaluate_delta(before, after, rules);
    findings.insert(findings.end(), std::make_move_iterator(delta.begin()), std::make_move_iterator(delta.end()));
  }
  if (o.json) {
    out << findings_to_json(findings);
  } else {
    out << fmt::format("host {} (root {}, rules {})\n", before.hostname.value, root, rules.source);
    out << findings_to_table(findings);
  }
  return signals_exit_code(findings, o.fail_on);
}

// A launcher's count of ranks in the environment (0 when it says none).
long ranks_from_env() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "SLURM_STEP_NUM_TASKS", "PMI_SIZE"}) {
    const char* v = std::getenv(name);
    if (v == nullptr) continue;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (end != v && *end == '\0' && n > 0) return n;
  }
  return 0;
}

}  // namespace

int signals_exit_code(const std::vector<Finding>& findings, const std::string& fail_on) {
  if (fail_on != "concern") return kExitOk;
  const bool concern =
      std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.tag == Tag::kConcern; });
  return concern ? kExitFlagged : kExitOk;
}

bool signals_across_hosts(const SignalsOptions& o) {
  return !o.local && ranks_from_env() > 1;
}

int run_signals_command(const SignalsOptions& o, std::ostream& out, std::ostream& err) {
  return run_offline_command("podperf signals", err, [&] { return signals(o, out); });
}

int run_signals_command(const std::string& root, bool json, const std::string& rules_path, std::ostream& out,
                        std::ostream& err) {
  SignalsOptions o;
  o.root = root;
  o.json = json;
  o.rules_path = rules_path;
  o.sample_seconds = 0.0;
  return run_signals_command(o, out, err);
}

int run_signals_command(const std::string& root, bool json, const std::string& rules_path) {
  SignalsOptions o;
  o.root = root;
  o.json = json;
  o.rules_path = rules_path;
  return run_signals_command(o, std::cout, std::cerr);
}

}  // namespace podperf

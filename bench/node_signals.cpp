#include "bench/node_signals.hpp"

#include <map>

#include "signals/rules.hpp"
#include "signals/signals_command.hpp"
#include "signals/snapshot_json.hpp"

namespace podperf {

std::vector<HostSnapshot> gather_host_snapshots(const Comm& world, const std::string& root) {
  Comm local = world.split_shared();
  std::string mine;
  if (local.rank() == 0) {
    std::string dir = root;
    for (std::size_t at = dir.find("%h"); at != std::string::npos; at = dir.find("%h", at)) {
      dir.replace(at, 2, local_hostname());
    }
    try {
      CollectInputs inputs = real_collect_inputs(dir);
      inputs.hostname = local_hostname();  // the host's own name, also when reading a fixture tree
      mine = snapshot_to_json(collect_snapshot(dir, inputs))
                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } catch (const std::exception&) {
      mine.clear();  // a host whose snapshot failed reports nothing; the run goes on
    }
  }
  std::vector<HostSnapshot> out;
  for (const std::string& text : gather_strings(world, mine, 0)) {
    if (text.empty()) continue;
    try {
      out.push_back(snapshot_from_json(nlohmann::json::parse(text)));
    } catch (const std::exception&) {
    }
  }
  return out;
}

std::vector<Finding> host_signal_findings(const std::vector<HostSnapshot>& before,
                                          const std::vector<HostSnapshot>& after) {
  const Rules rules = load_rules("");
  std::vector<Finding> findings;
  std::map<std::string, const HostSnapshot*> at_start;
  for (const HostSnapshot& s : before) at_start[s.hostname.value] = &s;
  for (const HostSnapshot& s : after) {
    for (Finding& f : evaluate(s, rules)) findings.push_back(std::move(f));
    auto it = at_start.find(s.hostname.value);
    if (it != at_start.end()) {
      for (Finding& f : evaluate_delta(*it->second, s, rules)) findings.push_back(std::move(f));
    }
  }
  if (after.size() > 1) {
    for (Finding& f : evaluate_drift(after)) findings.push_back(std::move(f));
  }
  return findings;
}

}  // namespace podperf

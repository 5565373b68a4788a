#include "bench/node_signals.hpp"

#include <algorithm>
#include <map>

#include "bench/efa_rounds.hpp"
#include "signals/rules.hpp"
#include "signals/host_inputs.hpp"
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

std::vector<NodeMetric> host_signal_metrics(const std::vector<HostSnapshot>& before,
                                            const std::vector<HostSnapshot>& after) {
  const Rules rules = load_rules("");
  std::map<std::string, const HostSnapshot*> at_start;
  for (const HostSnapshot& s : before) at_start[s.hostname.value] = &s;
  std::vector<NodeMetric> out;
  for (const HostSnapshot& s : after) {
    const std::string& host = s.hostname.value;
    // The hottest GPU at the end of the run (NVML), so correlate() can relate heat to low busbw.
    if (s.nvml.readable) {
      std::int64_t hottest = -1;
      for (const NvmlGpu& g : s.nvml.value.gpus) {
        if (!g.lost && g.handle_error == 0) hottest = std::max(hottest, g.temperature_c);
      }
      if (hottest >= 0) out.push_back(NodeMetric{host, "gpu_temperature_c", static_cast<double>(hottest)});
    }
    auto it = at_start.find(s.hostname.value);
    if (it == at_start.end()) continue;
    const HostSnapshot& b = *it->second;
    if (b.efa.readable && s.efa.readable && !s.efa.value.empty()) {
      double rise = 0.0;
      for (const auto& [name, delta] : efa_counter_rises(b.efa.value, s.efa.value, rules.efa_concern_counters)) {
        rise += static_cast<double>(delta);
      }
      out.push_back(NodeMetric{host, "efa_error_counter_rise", rise});
    }
    if (b.cpu_times.readable && s.cpu_times.readable) {
      const CpuTimes& t0 = b.cpu_times.value;
      const CpuTimes& t1 = s.cpu_times.value;
      const double total = static_cast<double>(t1.total()) - static_cast<double>(t0.total());
      if (total > 0) {
        out.push_back(NodeMetric{host, "iowait_percent",
                                 100.0 * (static_cast<double>(t1.iowait) - static_cast<double>(t0.iowait)) / total});
        out.push_back(NodeMetric{host, "steal_percent",
                                 100.0 * (static_cast<double>(t1.steal) - static_cast<double>(t0.steal)) / total});
      }
    }
  }
  return out;
}

}  // namespace podperf

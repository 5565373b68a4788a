// podperf signals across the hosts of an srun or mpirun job. Bench floor, collective.
#include "bench/signals_job.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "analysis/base/errors.hpp"
#include "analysis/report/findings_table.hpp"
#include "bench/job.hpp"
#include "bench/node_signals.hpp"
#include "signals/rules.hpp"

namespace podperf {

int run_signals_job(int* argc, char*** argv, const SignalsOptions& o) {
  return run_mpi_command(argc, argv, [&](const Comm& world) {
    if (!(o.sample_seconds >= 0.0 && o.sample_seconds <= 600.0)) {
      throw UsageError(fmt::format("--sample {} is out of range (expected 0 to 600 seconds)", o.sample_seconds));
    }
    const Rules rules = load_rules(o.rules_path);  // every rank: a bad file is exit 2 on all of them
    const std::string root = o.root.empty() ? "/" : o.root;
    const std::vector<HostSnapshot> before = gather_host_snapshots(world, root);
    std::vector<HostSnapshot> after;
    if (o.sample_seconds > 0.0) {
      std::this_thread::sleep_for(std::chrono::duration<double>(o.sample_seconds));
      after = gather_host_snapshots(world, root);
    }
    int code = kExitOk;
    if (world.rank() == 0) {
      const std::vector<HostSnapshot>& last = o.sample_seconds > 0.0 ? after : before;
      std::vector<Finding> findings;
      std::vector<std::string> hosts;
      for (std::size_t i = 0; i < last.size(); ++i) {
        hosts.push_back(last[i].hostname.value);
        for (Finding& f : evaluate(last[i], rules)) findings.push_back(std::move(f));
        if (o.sample_seconds > 0.0) {
          for (const HostSnapshot& b : before) {
            if (b.hostname.value != last[i].hostname.value) continue;
            for (Finding& f : evaluate_delta(b, last[i], rules)) findings.push_back(std::move(f));
          }
        }
      }
      for (Finding& f : evaluate_drift(last)) findings.push_back(std::move(f));
      const std::string text =
          o.json ? findings_to_json(findings)
                 : fmt::format("podperf signals: {} ranks (root {}, rules {})\n", world.size(), root, rules.source) +
                       findings_by_host(hosts, findings);
      std::fputs(text.c_str(), stdout);
      std::fflush(stdout);
      code = signals_exit_code(findings, o.fail_on);
    }
    return bcast_int(world, code);
  });
}

}  // namespace podperf

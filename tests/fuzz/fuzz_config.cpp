// The TOML configs: thresholds, host-signal rules, filesystem capacities, sweep files, the modelled
// fabric's models (analysis/config/thresholds, signals/rules, analysis/config/fs_capacity, sweep/sweep_points,
// sim/sim_model, then a 64-node fabric built from it), and the topology files (analysis/topology/topology:
// kubectl JSON, Slurm, CSV). Bad text must give ConfigError / InputError, never anything else.
#include "analysis/config/fs_capacity.hpp"
#include "analysis/config/thresholds.hpp"
#include "analysis/topology/topology.hpp"
#include "signals/rules.hpp"
#include "sim/sim_fabric.hpp"
#include "sweep/sweep_points.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = podperf::fuzz::text_of(data, size);
  podperf::fuzz::expect_clean([&] { (void)podperf::parse_thresholds(text, "fuzz.toml"); });
  podperf::fuzz::expect_clean([&] { (void)podperf::parse_rules(text, "fuzz.toml"); });
  podperf::fuzz::expect_clean([&] {
    const podperf::FsCapacityTable t = podperf::parse_fs_capacity(text, "fuzz.toml");
    for (const auto& d : t.fsx) (void)podperf::fsx_expected(t, d.name, 1.2);
  });
  podperf::fuzz::expect_clean([&] {
    const podperf::SweepSpec s = podperf::parse_sweep(text, "fuzz.toml");
    for (const auto& p : s.points) (void)podperf::point_podperf_args(s, p);
  });
  for (const char* format : {"auto", "eks", "slurm", "csv"}) {
    podperf::fuzz::expect_clean([&] { (void)podperf::parse_topology(text, "fuzz.topology", format); });
  }
  podperf::fuzz::expect_clean([&] {
    podperf::SimFabric fabric(podperf::parse_sim_model(text, "fuzz", "fuzz.toml"), 64, 1);
    (void)fabric.measure(0, 63, 1e6, 2);
  });
  return 0;
}

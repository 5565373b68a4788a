// NVML through dlopen (on the fake of tests/fake_nvml with the configs of tests/fixtures/nvml), the
// clock-event-reason decoding, the [gpu] rules on fixed NvmlReport values, GPU deltas and drift, the
// libfabric probe and the NCCL / CUDA driver version readers.
#include "signals/nvml.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/config/thresholds.hpp"
#include "analysis/pairs/correlate.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "bench/node_signals.hpp"
#include "signals/libfabric_probe.hpp"
#include "signals/rules.hpp"
#include "signals/snapshot.hpp"
#include "signals/snapshot_json.hpp"
#include "synthetic_run.hpp"

namespace podperf {
namespace {

std::string rules_path() {
  return std::string(PODPERF_FIXTURES_DIR) + "/../../configs/rules.toml";
}
std::string nvml_fixture(const std::string& name) {
  return std::string(PODPERF_FIXTURES_DIR) + "/nvml/" + name;
}

const Rules& rules() {
  static const Rules r = load_rules_file(rules_path());
  return r;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream b;
  b << in.rdbuf();
  return b.str();
}

bool contains(const std::string& s, const std::string& needle) {
  return s.find(needle) != std::string::npos;
}

std::string dump(const std::vector<Finding>& fs) {
  std::string out;
  for (const auto& f : fs) out += std::string(tag_name(f.tag)) + " " + f.check + " " + f.observed + "\n";
  return out;
}

std::vector<const Finding*> find_all(const std::vector<Finding>& fs, const std::string& check) {
  std::vector<const Finding*> out;
  for (const auto& f : fs)
    if (f.check == check) out.push_back(&f);
  return out;
}

const Finding* find(const std::vector<Finding>& fs, const std::string& check) {
  auto all = find_all(fs, check);
  return all.empty() ? nullptr : all.front();
}

// Reads the fake NVML with `config` (FAKE_NVML_CONFIG is read at every nvmlInit_v2).
NvmlRead read_fake(const std::string& config) {
  ::setenv("FAKE_NVML_CONFIG", nvml_fixture(config).c_str(), 1);
  return read_nvml(PODPERF_FAKE_NVML);
}

// A healthy GPU as NVML reports it.
NvmlGpu healthy_gpu(int index) {
  NvmlGpu g;
  g.index = index;
  g.name = "NVIDIA H100 80GB HBM3";
  g.uuid = "GPU-" + std::to_string(index);
  g.pci_bus_id = "00000000:1" + std::to_string(index) + ":00.0";
  g.temperature_c = 50;
  g.slowdown_c = 90;
  g.sm_clock_mhz = 1980;
  g.sm_clock_max_mhz = 1980;
  g.clock_event_reasons = 0;
  g.pcie_gen = 5;
  g.pcie_gen_max = 5;
  g.pcie_width = 16;
  g.pcie_width_max = 16;
  g.ecc_uncorrected_volatile = 0;
  g.ecc_uncorrected_aggregate = 0;
  g.remapped_rows_correctable = 0;
  g.remapped_rows_uncorrectable = 0;
  g.remap_pending = 0;
  g.remap_failure = 0;
  for (int l = 0; l < 4; ++l) {
    NvLinkInfo link;
    link.link = l;
    link.active = true;
    link.replay_errors = link.recovery_errors = link.crc_flit_errors = link.crc_data_errors = 0;
    g.nvlinks.push_back(link);
  }
  g.fabric_state = kFabricStateCompleted;
  g.fabric_status = kNvmlSuccess;
  return g;
}

HostSnapshot gpu_snapshot(std::vector<NvmlGpu> gpus) {
  HostSnapshot s;
  s.hostname = {"gpu-node", true, ""};
  s.nvml.readable = true;
  s.nvml.value.driver_version = "535.161.08";
  s.nvml.value.cuda_driver_version = 12020;
  s.nvml.value.gpus = std::move(gpus);
  return s;
}

// ---------------------------------------------------------------- decoding

TEST(ClockEventReasons, DecodesEveryDocumentedBit) {
  EXPECT_TRUE(decode_clock_event_reasons(0).empty());
  EXPECT_EQ(decode_clock_event_reasons(0x48), (std::vector<std::string>{"HwSlowdown", "HwThermalSlowdown"}));
  EXPECT_EQ(decode_clock_event_reasons(0x1ff),
            (std::vector<std::string>{"GpuIdle", "ApplicationsClocksSetting", "SwPowerCap", "HwSlowdown", "SyncBoost",
                                      "SwThermalSlowdown", "HwThermalSlowdown", "HwPowerBrakeSlowdown",
                                      "DisplayClockSetting"}));
  EXPECT_EQ(decode_clock_event_reasons(0x80 | 0x400), (std::vector<std::string>{"HwPowerBrakeSlowdown", "0x400"}));
  EXPECT_EQ(clock_event_reason_bit("SwPowerCap"), 0x4u);
  EXPECT_EQ(clock_event_reason_bit("SwThermalSlowdown"), 0x20u);
  EXPECT_EQ(clock_event_reason_bit("HwPowerBrakeSlowdown"), 0x80u);
  EXPECT_EQ(clock_event_reason_bit("hwslowdown"), 0u);
  EXPECT_EQ(clock_event_reason_bit(""), 0u);
}

TEST(LibraryVersions, Text) {
  EXPECT_EQ(nccl_version_text(22803), "2.28.3");
  EXPECT_EQ(nccl_version_text(21903), "2.19.3");
  EXPECT_EQ(nccl_version_text(2708), "2.7.8");  // before 2.9: X*1000+Y*100+Z
  EXPECT_EQ(nccl_version_text(0), "");
  EXPECT_EQ(cuda_version_text(12020), "12.2");
  EXPECT_EQ(cuda_version_text(13000), "13.0");
  EXPECT_EQ(cuda_version_text(-1), "");
}

// ---------------------------------------------------------------- reading the fake NVML

TEST(NvmlRead, HealthyFakeThroughDlopen) {
  const NvmlRead r = read_fake("healthy.conf");
  ASSERT_TRUE(r.loaded) << r.why;
  EXPECT_EQ(r.report.driver_version, "535.161.08");
  EXPECT_EQ(r.report.cuda_driver_version, 12020);  // through the unversioned fallback symbol
  ASSERT_EQ(r.report.gpus.size(), 2u);
  const NvmlGpu& g = r.report.gpus[0];
  EXPECT_FALSE(g.lost);
  EXPECT_EQ(g.name, "Fake H100 80GB HBM3");
  EXPECT_EQ(g.uuid, "GPU-fake0000-0000-0000-0000-000000000000");
  EXPECT_EQ(g.pci_bus_id, "00000000:10:00.0");
  EXPECT_EQ(g.temperature_c, 45);
  EXPECT_EQ(g.slowdown_c, 90);
  EXPECT_EQ(g.sm_clock_mhz, 1980);
  EXPECT_EQ(g.clock_event_reasons, 0x1);  // through ...ThrottleReasons: the fake lacks ...EventReasons
  EXPECT_EQ(g.pcie_width, 16);
  EXPECT_EQ(g.pcie_gen_max, 5);
  EXPECT_EQ(g.ecc_uncorrected_volatile, 0);
  EXPECT_EQ(g.remap_pending, 0);
  ASSERT_EQ(g.nvlinks.size(), 4u);  // link 4 answers INVALID_ARGUMENT: the list ends
  EXPECT_TRUE(g.nvlinks[2].active);
  EXPECT_EQ(g.nvlinks[0].replay_errors, 3);
  EXPECT_EQ(g.nvlinks[0].crc_data_errors, 0);
  EXPECT_EQ(r.report.gpus[1].temperature_c, 47);
  // Missing symbols are "not supported", never a failure.
  EXPECT_EQ(g.fabric_state, -1);
  const auto& missing = r.report.missing_symbols;
  EXPECT_NE(std::find(missing.begin(), missing.end(), "nvmlDeviceGetGpuFabricInfo"), missing.end());
  EXPECT_EQ(std::find(missing.begin(), missing.end(), "nvmlDeviceGetCurrentClocksEventReasons"), missing.end());

  const auto fs = evaluate(gpu_snapshot(r.report.gpus), rules());
  for (const char* check : {"signals.nvml", "signals.gpu_lost", "signals.gpu_temperature", "signals.gpu_clock_events",
                            "signals.gpu_pcie", "signals.gpu_ecc", "signals.gpu_row_remap", "signals.gpu_nvlink"}) {
    const Finding* f = find(fs, check);
    ASSERT_NE(f, nullptr) << check << "\n" << dump(fs);
    EXPECT_EQ(f->tag, Tag::kOk) << check << ": " << f->observed;
  }
  ASSERT_NE(find(fs, "signals.gpu_fabric"), nullptr);
  EXPECT_EQ(find(fs, "signals.gpu_fabric")->tag, Tag::kInfo);
}

TEST(NvmlRead, AbsentLibraryAndFailedInitSayWhy) {
  NvmlRead r = read_nvml("/nonexistent/libnvidia-ml.so.1");
  EXPECT_FALSE(r.loaded);
  EXPECT_TRUE(contains(r.why, "dlopen(/nonexistent/libnvidia-ml.so.1)")) << r.why;
  EXPECT_TRUE(contains(r.why, "No such file")) << r.why;
  r = read_nvml("");
  EXPECT_FALSE(r.loaded);
  EXPECT_FALSE(r.why.empty());
  r = read_fake("init_error.conf");
  EXPECT_FALSE(r.loaded);
  EXPECT_TRUE(contains(r.why, "nvmlInit_v2: Driver Not Loaded (9)")) << r.why;

  HostSnapshot s;
  s.hostname = {"cpu-node", true, ""};
  s.nvml.why = "dlopen(libnvidia-ml.so.1): libnvidia-ml.so.1: cannot open shared object file";
  const auto fs = evaluate(s, rules());
  ASSERT_EQ(find_all(fs, "signals.nvml").size(), 1u);
  EXPECT_EQ(find(fs, "signals.nvml")->tag, Tag::kInfo);
  EXPECT_TRUE(contains(find(fs, "signals.nvml")->observed, "NVML not loadable: dlopen(libnvidia-ml.so.1)"));
  EXPECT_EQ(find(fs, "signals.gpu_temperature"), nullptr);  // nothing else about GPUs without NVML
}

TEST(NvmlRead, LostGpuIsAConcernNamingIt) {
  const NvmlRead r = read_fake("lost.conf");
  ASSERT_TRUE(r.loaded) << r.why;
  ASSERT_EQ(r.report.gpus.size(), 2u);
  EXPECT_FALSE(r.report.gpus[0].lost);
  EXPECT_TRUE(r.report.gpus[1].lost);
  EXPECT_EQ(r.report.gpus[1].handle_error, kNvmlErrorGpuIsLost);
  const auto fs = evaluate(gpu_snapshot(r.report.gpus), rules());
  const Finding* f = find(fs, "signals.gpu_lost");
  ASSERT_NE(f, nullptr) << dump(fs);
  EXPECT_EQ(f->tag, Tag::kConcern);
  EXPECT_TRUE(contains(f->observed, "GPU 1 fell off the bus: reboot, then replace if it recurs")) << f->observed;
  EXPECT_FALSE(contains(f->observed, "GPU 0"));
  // The lost GPU's (unread) values do not turn into other findings.
  EXPECT_TRUE(contains(find(fs, "signals.gpu_temperature")->observed, "over 1 GPUs"));
}

struct FixtureCase {
  const char* config;
  const char* check;
  const char* observed;  // a fragment of the CONCERN's observed text
};

class NvmlFixtures : public ::testing::TestWithParam<FixtureCase> {};

TEST_P(NvmlFixtures, OneConcernFromTheFake) {
  const FixtureCase& c = GetParam();
  const NvmlRead r = read_fake(c.config);
  ASSERT_TRUE(r.loaded) << r.why;
  const auto fs = evaluate(gpu_snapshot(r.report.gpus), rules());
  std::vector<std::string> concerns;
  for (const auto& f : fs)
    if (f.tag == Tag::kConcern) concerns.push_back(f.check);
  EXPECT_EQ(concerns, std::vector<std::string>{c.check}) << dump(fs);
  const Finding* f = find(fs, c.check);
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->observed, c.observed)) << f->observed;
  EXPECT_FALSE(f->next_step.empty());
  EXPECT_FALSE(f->effect.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Configs, NvmlFixtures,
    ::testing::Values(FixtureCase{"temperature.conf", "signals.gpu_temperature",
                                  "GPU0 (00000000:10:00.0) 91 C (slowdown 90 C)"},
                      FixtureCase{"clock_events.conf", "signals.gpu_clock_events",
                                  "GPU1 (00000000:11:00.0) HwSlowdown+HwThermalSlowdown at 1100 of 1980 MHz"},
                      FixtureCase{"pcie_width.conf", "signals.gpu_pcie", "GPU1 (00000000:11:00.0) x8 of x16"},
                      FixtureCase{"ecc.conf", "signals.gpu_ecc", "GPU0 (00000000:10:00.0) 3 uncorrected"},
                      FixtureCase{"remap.conf", "signals.gpu_row_remap", "GPU0 (00000000:10:00.0) remap pending"},
                      FixtureCase{"nvlink.conf", "signals.gpu_nvlink", "GPU0 link 2 inactive"},
                      FixtureCase{"lost.conf", "signals.gpu_lost", "GPU 1 fell off the bus"}));

// ---------------------------------------------------------------- rules on fixed values

struct RuleCase {
  const char* name;
  void (*mutate)(NvmlGpu&);
  const char* check;
  Tag tag;
};

class GpuRules : public ::testing::TestWithParam<RuleCase> {};

TEST_P(GpuRules, TagOfTheCheck) {
  const RuleCase& c = GetParam();
  NvmlGpu g = healthy_gpu(1);
  c.mutate(g);
  const auto fs = evaluate(gpu_snapshot({healthy_gpu(0), g}), rules());
  const auto all = find_all(fs, c.check);
  ASSERT_EQ(all.size(), 1u) << dump(fs);
  EXPECT_EQ(all[0]->tag, c.tag) << c.name << ": " << all[0]->observed;
  // Only the mutated check departs from OK.
  for (const auto& f : fs) {
    if (f.check != c.check && f.check != "signals.nvml" && contains(f.check, "gpu_")) {
      EXPECT_EQ(f.tag, Tag::kOk) << c.name << " changed " << f.check << ": " << f.observed;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, GpuRules,
    ::testing::Values(
        RuleCase{"healthy", [](NvmlGpu&) {}, "signals.gpu_temperature", Tag::kOk},
        RuleCase{"above_slowdown", [](NvmlGpu& g) { g.temperature_c = 91; }, "signals.gpu_temperature", Tag::kConcern},
        RuleCase{"within_margin",
                 [](NvmlGpu& g) {
                   g.temperature_c = 85;
                   g.slowdown_c = 95;
                 },
                 "signals.gpu_temperature", Tag::kConcern},  // 85 C absolute
        RuleCase{"margin_below_absolute",
                 [](NvmlGpu& g) {
                   g.temperature_c = 80;
                   g.slowdown_c = 84;
                 },
                 "signals.gpu_temperature", Tag::kConcern},  // 80 >= 84 - 5
        RuleCase{"just_cool_enough",
                 [](NvmlGpu& g) {
                   g.temperature_c = 84;
                   g.slowdown_c = 90;
                 },
                 "signals.gpu_temperature", Tag::kOk},
        RuleCase{"no_threshold_cool",
                 [](NvmlGpu& g) {
                   g.slowdown_c = -1;
                   g.temperature_c = 80;
                 },
                 "signals.gpu_temperature", Tag::kOk},
        RuleCase{"idle_clock", [](NvmlGpu& g) { g.clock_event_reasons = 0x1; }, "signals.gpu_clock_events", Tag::kOk},
        RuleCase{"power_cap", [](NvmlGpu& g) { g.clock_event_reasons = 0x4; }, "signals.gpu_clock_events", Tag::kInfo},
        RuleCase{"sw_thermal", [](NvmlGpu& g) { g.clock_event_reasons = 0x20; }, "signals.gpu_clock_events",
                 Tag::kConcern},
        RuleCase{"power_brake", [](NvmlGpu& g) { g.clock_event_reasons = 0x80 | 0x4; }, "signals.gpu_clock_events",
                 Tag::kConcern},
        RuleCase{"hw_slowdown", [](NvmlGpu& g) { g.clock_event_reasons = 0x8; }, "signals.gpu_clock_events",
                 Tag::kConcern},
        RuleCase{"narrow_link", [](NvmlGpu& g) { g.pcie_width = 8; }, "signals.gpu_pcie", Tag::kConcern},
        RuleCase{"idle_gen", [](NvmlGpu& g) { g.pcie_gen = 1; }, "signals.gpu_pcie", Tag::kInfo},
        RuleCase{"ecc_volatile", [](NvmlGpu& g) { g.ecc_uncorrected_volatile = 1; }, "signals.gpu_ecc", Tag::kConcern},
        RuleCase{"ecc_past", [](NvmlGpu& g) { g.ecc_uncorrected_aggregate = 2; }, "signals.gpu_ecc", Tag::kInfo},
        RuleCase{"remap_pending", [](NvmlGpu& g) { g.remap_pending = 1; }, "signals.gpu_row_remap", Tag::kConcern},
        RuleCase{"remap_failure", [](NvmlGpu& g) { g.remap_failure = 1; }, "signals.gpu_row_remap", Tag::kConcern},
        RuleCase{"link_down", [](NvmlGpu& g) { g.nvlinks[3].active = false; }, "signals.gpu_nvlink", Tag::kConcern},
        RuleCase{"link_errors_at_limit", [](NvmlGpu& g) { g.nvlinks[0].crc_flit_errors = 1000; }, "signals.gpu_nvlink",
                 Tag::kOk},
        RuleCase{"link_errors_over", [](NvmlGpu& g) { g.nvlinks[0].replay_errors = 1001; }, "signals.gpu_nvlink",
                 Tag::kConcern},
        RuleCase{"fabric_in_progress", [](NvmlGpu& g) { g.fabric_state = kFabricStateInProgress; },
                 "signals.gpu_fabric", Tag::kConcern},
        RuleCase{"fabric_failed_status", [](NvmlGpu& g) { g.fabric_status = 999; }, "signals.gpu_fabric",
                 Tag::kConcern},
        RuleCase{"reset_required", [](NvmlGpu& g) { g.reset_required = true; }, "signals.gpu_lost", Tag::kConcern}),
    [](const ::testing::TestParamInfo<RuleCase>& i) { return std::string(i.param.name); });

TEST(GpuRules, FabricNotSupportedAndNoNvlinkAreInfo) {
  NvmlGpu a = healthy_gpu(0);
  a.fabric_state = kFabricStateNotSupported;
  a.nvlinks.clear();
  const auto fs = evaluate(gpu_snapshot({a}), rules());
  EXPECT_EQ(find(fs, "signals.gpu_fabric")->tag, Tag::kInfo);
  EXPECT_EQ(find(fs, "signals.gpu_nvlink")->tag, Tag::kInfo);
}

TEST(GpuRules, PcieFromNvmlReplacesTheSysfsCheck) {
  HostSnapshot s = gpu_snapshot({healthy_gpu(0)});
  s.nvml.value.gpus[0].pcie_width = 8;
  s.gpu_pcie.readable = true;
  s.gpu_pcie.value = {PcieLink{"0000:10:00.0", 8, 16, "32.0 GT/s PCIe", "32.0 GT/s PCIe"}};
  auto fs = evaluate(s, rules());
  EXPECT_EQ(find(fs, "signals.pcie_width"), nullptr) << dump(fs);
  ASSERT_EQ(find_all(fs, "signals.gpu_pcie").size(), 1u);
  EXPECT_EQ(find(fs, "signals.gpu_pcie")->tag, Tag::kConcern);
  // Without NVML the sysfs check speaks.
  s.nvml.readable = false;
  s.nvml.why = "dlopen failed";
  fs = evaluate(s, rules());
  ASSERT_NE(find(fs, "signals.pcie_width"), nullptr);
  EXPECT_EQ(find(fs, "signals.pcie_width")->tag, Tag::kConcern);
  EXPECT_EQ(find(fs, "signals.gpu_pcie"), nullptr);
}

TEST(GpuRules, DeltaNewEccAndNvlinkErrors) {
  const HostSnapshot before = gpu_snapshot({healthy_gpu(0), healthy_gpu(1)});
  HostSnapshot after = before;
  auto fs = evaluate_delta(before, after, rules());
  ASSERT_NE(find(fs, "signals.gpu_ecc_new"), nullptr) << dump(fs);
  EXPECT_EQ(find(fs, "signals.gpu_ecc_new")->tag, Tag::kOk);
  EXPECT_EQ(find(fs, "signals.gpu_nvlink_errors_new")->tag, Tag::kOk);

  after.nvml.value.gpus[1].ecc_uncorrected_volatile = 2;
  after.nvml.value.gpus[0].nvlinks[1].recovery_errors = 4;
  fs = evaluate_delta(before, after, rules());
  ASSERT_NE(find(fs, "signals.gpu_ecc_new"), nullptr);
  EXPECT_EQ(find(fs, "signals.gpu_ecc_new")->tag, Tag::kConcern);
  EXPECT_TRUE(contains(find(fs, "signals.gpu_ecc_new")->observed, "GPU1 (00000000:11:00.0) +2 uncorrected"));
  EXPECT_EQ(find(fs, "signals.gpu_nvlink_errors_new")->tag, Tag::kConcern);
  EXPECT_TRUE(contains(find(fs, "signals.gpu_nvlink_errors_new")->observed, "GPU0 link 1 +4"));

  // Without NVML on either side there is nothing to compare.
  HostSnapshot none;
  none.hostname = {"gpu-node", true, ""};
  fs = evaluate_delta(none, none, rules());
  EXPECT_EQ(find(fs, "signals.gpu_ecc_new"), nullptr);
}

TEST(GpuDrift, CudaDriverNcclAndLibfabricVersions) {
  HostSnapshot a;
  a.hostname = {"a", true, ""};
  a.cuda_driver_version = {"12.2", true, ""};
  a.nccl_version = {"2.28.3", true, ""};
  a.libfabric.readable = true;
  a.libfabric.value.version = "1.22";
  HostSnapshot b = a;
  b.hostname = {"b", true, ""};
  b.nccl_version = {"2.21.5", true, ""};
  auto fs = evaluate_drift({a, b});
  ASSERT_NE(find(fs, "drift.nccl"), nullptr) << dump(fs);
  EXPECT_EQ(find(fs, "drift.nccl")->tag, Tag::kConcern);
  EXPECT_TRUE(contains(find(fs, "drift.nccl")->observed, "2.21.5: b; 2.28.3: a"));
  EXPECT_EQ(find(fs, "drift.cuda_driver")->tag, Tag::kOk);
  EXPECT_EQ(find(fs, "drift.libfabric")->tag, Tag::kOk);
  // Unreadable everywhere: no finding.
  a.nccl_version = b.nccl_version = Reading<std::string>{};
  fs = evaluate_drift({a, b});
  EXPECT_EQ(find(fs, "drift.nccl"), nullptr);
}

// ---------------------------------------------------------------- rules.toml [gpu]

TEST(GpuRulesFile, ShippedValuesAndErrors) {
  const Rules& r = rules();
  EXPECT_DOUBLE_EQ(r.gpu_temperature_concern_c, 85.0);
  EXPECT_DOUBLE_EQ(r.gpu_slowdown_margin_c, 5.0);
  EXPECT_EQ(r.gpu_clock_event_concern,
            (std::vector<std::string>{"HwSlowdown", "SwThermalSlowdown", "HwThermalSlowdown", "HwPowerBrakeSlowdown"}));
  EXPECT_EQ(r.gpu_clock_event_info, std::vector<std::string>{"SwPowerCap"});
  EXPECT_FALSE(r.gpu_pcie_gen_below_max_concern);
  EXPECT_EQ(r.gpu_ecc_volatile_uncorrected_max, 0);

  const std::string text = read_file(rules_path());
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const std::size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    t.replace(at, from.size(), to);
    return t;
  };
  auto error_of = [](const std::string& t) {
    try {
      (void)parse_rules(t, "r.toml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  std::string e = error_of(replaced("slowdown_margin_c = 5.0", "slowdown_margin = 5.0"));
  EXPECT_TRUE(contains(e, "gpu.slowdown_margin")) << e;
  e = error_of(replaced("clock_event_info = [\"SwPowerCap\"]", "clock_event_info = [\"SwPowercap\"]"));
  EXPECT_TRUE(contains(e, "r.toml:")) << e;
  EXPECT_TRUE(contains(e, "gpu.clock_event_info")) << e;
  e = error_of(replaced("clock_event_info = [\"SwPowerCap\"]", "clock_event_info = [\"HwSlowdown\"]"));
  EXPECT_TRUE(contains(e, "twice")) << e;
  e = error_of(replaced("pcie_gen_below_max_concern = false", "pcie_gen_below_max_concern = 0"));
  EXPECT_TRUE(contains(e, "gpu.pcie_gen_below_max_concern")) << e;
  e = error_of(replaced("ecc_volatile_uncorrected_max = 0", "ecc_volatile_uncorrected_max = -1"));
  EXPECT_TRUE(contains(e, "gpu.ecc_volatile_uncorrected_max")) << e;
  e = error_of(replaced("nvlink_error_rise_max = 0", ""));
  EXPECT_TRUE(contains(e, "missing key 'gpu.nvlink_error_rise_max'")) << e;
  e = error_of(text.substr(0, text.find("[gpu]")));
  EXPECT_TRUE(contains(e, "missing table [gpu]")) << e;
}

// ---------------------------------------------------------------- snapshot, JSON, other libraries

TEST(NvmlSnapshot, CollectedThroughInputsAndRoundTripsAsJson) {
  ::setenv("FAKE_NVML_CONFIG", nvml_fixture("nvlink.conf").c_str(), 1);
  CollectInputs in;
  in.hostname = "fake-gpu-node";
  in.nvml_library = PODPERF_FAKE_NVML;
  in.nccl_library = PODPERF_FAKE_NVML;  // the fake also exports ncclGetVersion and cuDriverGetVersion
  in.cuda_library = PODPERF_FAKE_NVML;
  const HostSnapshot s = collect_snapshot("/nonexistent-root", in);
  ASSERT_TRUE(s.nvml.readable) << s.nvml.why;
  EXPECT_EQ(s.nvml.value.gpus.size(), 2u);
  EXPECT_EQ(s.nccl_version.value, "2.28.3");
  EXPECT_EQ(s.cuda_driver_version.value, "12.2");
  EXPECT_FALSE(s.libfabric.readable);
  EXPECT_TRUE(contains(s.libfabric.why, "not read"));

  const HostSnapshot back = snapshot_from_json(nlohmann::json::parse(snapshot_to_json(s).dump()));
  ASSERT_TRUE(back.nvml.readable);
  ASSERT_EQ(back.nvml.value.gpus.size(), 2u);
  EXPECT_EQ(back.nvml.value.gpus[0].nvlinks.size(), 4u);
  EXPECT_FALSE(back.nvml.value.gpus[0].nvlinks[2].active);
  EXPECT_EQ(back.nvml.value.gpus[1].pci_bus_id, "00000000:11:00.0");
  EXPECT_EQ(back.nvml.value.missing_symbols, s.nvml.value.missing_symbols);
  EXPECT_EQ(back.nccl_version.value, "2.28.3");
  const auto f1 = evaluate(s, rules());
  const auto f2 = evaluate(back, rules());
  EXPECT_EQ(dump(f1), dump(f2));
  ASSERT_NE(find(f2, "signals.gpu_nvlink"), nullptr);
  EXPECT_EQ(find(f2, "signals.gpu_nvlink")->tag, Tag::kConcern);

  // Without a CUDA driver library the version comes from NVML.
  in.cuda_library.clear();
  const HostSnapshot t = collect_snapshot("/nonexistent-root", in);
  EXPECT_TRUE(t.cuda_driver_version.readable);
  EXPECT_EQ(t.cuda_driver_version.value, "12.2");
}

TEST(LibraryVersions, MissingLibraryOrSymbol) {
  LibraryVersion v = read_cuda_driver_version("/nonexistent/libcuda.so.1");
  EXPECT_FALSE(v.loaded);
  EXPECT_TRUE(contains(v.why, "dlopen(/nonexistent/libcuda.so.1)")) << v.why;
  // A library loaded from a stubs/ directory (the CUDA toolkit's link stub) is never called. (Checked
  // by path: a copy of the fake would be deduplicated by its soname within this process.)
  EXPECT_TRUE(is_toolkit_stub_path("/usr/local/cuda/lib64/stubs/libcuda.so"));
  EXPECT_TRUE(is_toolkit_stub_path("/usr/local/cuda-13.0/targets/x86_64-linux/lib/stubs/libcuda.so.1"));
  EXPECT_FALSE(is_toolkit_stub_path("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
  EXPECT_FALSE(is_toolkit_stub_path(""));
  v = read_nccl_version("libc.so.6");  // loads, but has no ncclGetVersion
  EXPECT_FALSE(v.loaded);
  EXPECT_TRUE(contains(v.why, "lacks ncclGetVersion")) << v.why;

  HostSnapshot s;
  s.hostname = {"n", true, ""};
  s.nccl_version.why = "dlopen(libnccl.so.2): not found";
  s.cuda_driver_version.why = "dlopen(libcuda.so.1): not found";
  const auto fs = evaluate(s, rules());
  EXPECT_EQ(find(fs, "signals.nccl_version")->tag, Tag::kInfo);
  EXPECT_EQ(find(fs, "signals.cuda_driver_version")->tag, Tag::kInfo);
  EXPECT_TRUE(contains(find(fs, "signals.cuda_driver_version")->observed, "dlopen(libcuda.so.1)"));
}

TEST(Libfabric, ProviderNames) {
  EXPECT_TRUE(is_efa_provider("efa"));
  EXPECT_TRUE(is_efa_provider("ofi_rxd;efa"));
  EXPECT_FALSE(is_efa_provider("tcp;ofi_rxm"));
  EXPECT_FALSE(is_efa_provider("efab"));
  EXPECT_FALSE(is_efa_provider(""));
}

TEST(Libfabric, RulesEfaExpectedOrNot) {
  HostSnapshot s;
  s.hostname = {"n", true, ""};
  s.instance_type = {"p5.48xlarge", true, ""};
  s.libfabric.readable = true;
  s.libfabric.value.version = "1.22";
  s.libfabric.value.providers = {"shm", "tcp;ofi_rxm"};
  auto fs = evaluate(s, rules());
  ASSERT_NE(find(fs, "signals.libfabric"), nullptr);
  EXPECT_EQ(find(fs, "signals.libfabric")->tag, Tag::kConcern);
  EXPECT_TRUE(contains(find(fs, "signals.libfabric")->expected, "p5.48xlarge has 32 EFA devices"));
  s.libfabric.value.providers.push_back("efa");
  fs = evaluate(s, rules());
  EXPECT_EQ(find(fs, "signals.libfabric")->tag, Tag::kOk);
  s.instance_type = {"m6i.large", true, ""};
  s.libfabric.value.providers = {"shm", "tcp"};
  fs = evaluate(s, rules());
  EXPECT_EQ(find(fs, "signals.libfabric")->tag, Tag::kInfo);
  EXPECT_TRUE(contains(find(fs, "signals.libfabric")->observed, "libfabric 1.22: shm, tcp"));
  s.libfabric = Reading<LibfabricInfo>{};
  s.libfabric.why = "dlopen(libfabric.so.1): not found";
  fs = evaluate(s, rules());
  EXPECT_EQ(find(fs, "signals.libfabric")->tag, Tag::kInfo);
}

// This machine's libfabric (Debian libfabric1): providers without EFA. Skipped where it is absent.
TEST(Libfabric, ThisHostListsProviders) {
  const LibfabricRead r = read_libfabric("libfabric.so.1");
  if (!r.loaded && contains(r.why, "dlopen(")) GTEST_SKIP() << r.why;
  ASSERT_TRUE(r.loaded) << r.why;
  EXPECT_FALSE(r.info.version.empty());
  EXPECT_FALSE(r.info.providers.empty());
  EXPECT_TRUE(std::is_sorted(r.info.providers.begin(), r.info.providers.end()));
  EXPECT_TRUE(std::adjacent_find(r.info.providers.begin(), r.info.providers.end()) == r.info.providers.end());
  EXPECT_LT(r.info.getinfo_seconds, 10.0);
  const LibfabricRead missing = read_libfabric("/nonexistent/libfabric.so.1");
  EXPECT_FALSE(missing.loaded);
  EXPECT_TRUE(contains(missing.why, "dlopen(/nonexistent/libfabric.so.1)"));
}

// ---------------------------------------------------------------- GPU temperature as a node metric

TEST(GpuMetrics, HottestGpuAtTheEndOfTheRun) {
  NvmlGpu hot = healthy_gpu(1);
  hot.temperature_c = 78;
  NvmlGpu lost = healthy_gpu(2);
  lost.lost = true;
  lost.temperature_c = 99;  // a lost GPU's value is not a reading
  HostSnapshot a = gpu_snapshot({healthy_gpu(0), hot, lost});
  a.hostname = {"a", true, ""};
  HostSnapshot b;  // no NVML: no metric
  b.hostname = {"b", true, ""};
  const auto metrics = host_signal_metrics({}, {a, b});  // no start snapshots: only the end counts
  ASSERT_EQ(metrics.size(), 1u);
  EXPECT_EQ(metrics[0].host, "a");
  EXPECT_EQ(metrics[0].name, "gpu_temperature_c");
  EXPECT_DOUBLE_EQ(metrics[0].value, 78.0);
}

// 8 hosts whose busbw falls as their GPUs run hotter: correlate() reports it as a CONCERN.
TEST(GpuMetrics, HotterHostsWithLowerBusbwCorrelate) {
  podperf::Run run = synthetic::make_run(8, [](int x, int y) { return 100.0 - 1.5 * (x + y); });
  judge_pairs(run, load_thresholds("").pairs);
  std::vector<HostSnapshot> after;
  for (const NodeInfo& n : run.nodes) {
    NvmlGpu g = healthy_gpu(0);
    g.temperature_c = 60 + 3 * n.index;
    HostSnapshot s = gpu_snapshot({g});
    s.hostname = {n.hostname, true, ""};
    after.push_back(s);
  }
  run.node_metrics = host_signal_metrics({}, after);
  ASSERT_EQ(run.node_metrics.size(), 8u);
  correlate(run);
  const Finding* f = nullptr;
  for (const Finding& x : run.findings)
    if (x.check == "correlation.gpu_temperature_c") f = &x;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tag, Tag::kConcern);
  EXPECT_TRUE(contains(f->observed, "gpu_temperature_c tracks the hosts' median pair busbw")) << f->observed;
  EXPECT_TRUE(contains(f->meaning, "more of this signal have lower busbw")) << f->meaning;
}

}  // namespace
}  // namespace podperf

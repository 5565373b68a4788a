// The NVML part of the GPU domain (signals/rules_gpu.hpp): GPU identity and driver, lost GPUs,
// temperature, clock event reasons, PCIe link, ECC, row remapping, NVLink and the NVSwitch fabric, one
// check per field family, and their changes during a test (podperf's host-signal sources: NVML, sysfs, procfs and
// NVIDIA's Xid catalog). Every finding says what was seen, what healthy looks like, what it means, the likely effect
// and the next step; podperf never runs that step. Pure, local, never throws (except std::bad_alloc).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "signals/rules_gpu.hpp"

namespace podperf::signal_rules {
namespace {

std::string gpu_label(const NvmlGpu& g) {
  if (g.pci_bus_id.empty()) return fmt::format("GPU{}", g.index);
  return fmt::format("GPU{} ({})", g.index, g.pci_bus_id);
}

// A GPU whose handle was taken and that did not fall off the bus.
bool usable(const NvmlGpu& g) {
  return !g.lost && g.handle_error == 0;
}

// NVML's report when it loaded and listed at least one GPU, else nullptr (signals.nvml says why).
const NvmlReport* listed_gpus(const HostSnapshot& s) {
  if (!s.nvml.readable || s.nvml.value.gpus.empty()) return nullptr;
  return &s.nvml.value;
}

// Per-GPU counters, keyed by UUID (index when the UUID is unknown).
std::string gpu_key(const NvmlGpu& g) {
  return g.uuid.empty() ? fmt::format("index:{}", g.index) : g.uuid;
}

// The GPUs of `after` with their `before` twin (same gpu_key), both usable, in `after`'s order; empty
// unless NVML read both snapshots and `after` lists a GPU.
std::vector<std::pair<const NvmlGpu*, const NvmlGpu*>> matched_gpus(const HostSnapshot& before,
                                                                    const HostSnapshot& after) {
  std::vector<std::pair<const NvmlGpu*, const NvmlGpu*>> pairs;
  if (!before.nvml.readable || !after.nvml.readable || after.nvml.value.gpus.empty()) return pairs;
  std::map<std::string, const NvmlGpu*> prev;
  for (const NvmlGpu& g : before.nvml.value.gpus) prev[gpu_key(g)] = &g;
  for (const NvmlGpu& g : after.nvml.value.gpus) {
    auto it = prev.find(gpu_key(g));
    if (it == prev.end() || !usable(g) || !usable(*it->second)) continue;
    pairs.emplace_back(it->second, &g);
  }
  return pairs;
}

}  // namespace

// signals.nvml: whether NVML loaded, its driver and CUDA versions and the GPUs it lists.
void check_nvml(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const std::string& host = s.hostname.value;
  if (!s.nvml.readable) {
    out.push_back(make(Tag::kInfo, "signals.nvml", host, "NVML not loadable: " + s.nvml.why,
                       "libnvidia-ml.so.1 loads and nvmlInit_v2 succeeds (on a GPU node)",
                       "no NVIDIA driver's NVML on this host (or not a GPU node)",
                       "GPU temperature, clock, ECC, row-remap, NVLink and fabric checks are skipped",
                       "nvidia-smi; ldconfig -p | grep libnvidia-ml"));
    return;
  }
  const NvmlReport& n = s.nvml.value;
  std::string obs =
      fmt::format("driver {}, CUDA driver {}, {} GPUs", n.driver_version.empty() ? "?" : n.driver_version,
                  n.cuda_driver_version > 0 ? cuda_version_text(n.cuda_driver_version) : "?", n.gpus.size());
  if (!n.missing_symbols.empty()) obs += "; not supported by this NVML: " + list(n.missing_symbols, 6);
  out.push_back(make(n.gpus.empty() ? Tag::kInfo : Tag::kOk, "signals.nvml", host, obs, "NVML loads and lists the GPUs",
                     n.gpus.empty() ? "NVML loaded but reports no GPU" : "NVML answers",
                     n.gpus.empty() ? "no GPU checks" : "none", "nvidia-smi -L"));
}

// signals.gpu_lost: GPUs fallen off the bus, waiting for a reset, or not opened by NVML.
void check_gpu_lost(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const NvmlReport* listed = listed_gpus(s);
  if (listed == nullptr) return;
  const NvmlReport& n = *listed;
  const std::string& host = s.hostname.value;
  std::vector<std::string> lost, reset, unreachable;
  for (const NvmlGpu& g : n.gpus) {
    if (g.lost) {
      lost.push_back(fmt::format("GPU {} fell off the bus: reboot, then replace if it recurs", g.index));
    } else if (g.reset_required) {
      reset.push_back(fmt::format("GPU {} requires a reset", g.index));
    } else if (g.handle_error != 0) {
      unreachable.push_back(fmt::format("GPU {}: {}", g.index, g.handle_error_text));
    }
  }
  if (!lost.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_lost", host, list(lost, 8), "every GPU answers NVML",
                       "NVML_ERROR_GPU_IS_LOST: the GPU fell off the bus (Xid 79)",
                       "the GPU is unusable: NCCL jobs on this node fail or hang",
                       "confirm: nvidia-smi; dmesg -T | grep -E 'NVRM: Xid.*79'; remediation (operator): reboot "
                       "the node, replace the GPU if it recurs"));
  }
  if (!reset.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_lost", host, list(reset, 8), "every GPU answers NVML",
                       "NVML_ERROR_RESET_REQUIRED: the GPU must be reset before it can be used again",
                       "jobs on this GPU fail",
                       "confirm: nvidia-smi -q; remediation (operator, no processes on the "
                       "GPU): nvidia-smi -r -i <index>, or reboot"));
  }
  if (!unreachable.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_lost", host, list(unreachable, 8), "every GPU answers NVML",
                       "NVML cannot open these GPUs", "jobs that use them fail",
                       "confirm: nvidia-smi -q -i <index>; dmesg -T | grep NVRM"));
  }
  if (lost.empty() && reset.empty() && unreachable.empty()) {
    out.push_back(make(Tag::kOk, "signals.gpu_lost", host, fmt::format("all {} GPUs answer NVML", n.gpus.size()),
                       "every GPU answers NVML", "no GPU fell off the bus", "none", "nvidia-smi -L"));
  }
}

// signals.gpu_temperature: at or above [gpu] temperature_concern_c, or within slowdown_margin_c of the
// GPU's slowdown threshold.
void check_gpu_temperature(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const NvmlReport* listed = listed_gpus(s);
  if (listed == nullptr) return;
  const NvmlReport& n = *listed;
  const std::string& host = s.hostname.value;
  std::vector<std::string> hot;
  std::int64_t max_t = -1, slowdown_at_max = -1;
  int read = 0;
  for (const NvmlGpu& g : n.gpus) {
    if (!usable(g) || g.temperature_c < 0) continue;
    ++read;
    if (g.temperature_c > max_t) {
      max_t = g.temperature_c;
      slowdown_at_max = g.slowdown_c;
    }
    const bool over_abs = static_cast<double>(g.temperature_c) >= r.gpu_temperature_concern_c;
    const bool near_slowdown = g.slowdown_c > 0 && static_cast<double>(g.temperature_c) >=
                                                       static_cast<double>(g.slowdown_c) - r.gpu_slowdown_margin_c;
    if (over_abs || near_slowdown) {
      hot.push_back(g.slowdown_c > 0
                        ? fmt::format("{} {} C (slowdown {} C)", gpu_label(g), g.temperature_c, g.slowdown_c)
                        : fmt::format("{} {} C", gpu_label(g), g.temperature_c));
    }
  }
  const std::string expected = fmt::format("below {:.0f} C and more than {:.0f} C under the slowdown threshold",
                                           r.gpu_temperature_concern_c, r.gpu_slowdown_margin_c);
  const std::string confirm = "nvidia-smi -q -d TEMPERATURE,PERFORMANCE";
  if (read == 0) {
    out.push_back(make(Tag::kInfo, "signals.gpu_temperature", host, "temperature not supported by NVML here", expected,
                       "GPU temperatures are unknown", "none known", confirm));
  } else if (!hot.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_temperature", host, list(hot), expected,
                       "the GPU runs at or near the temperature where the driver slows its clocks",
                       "thermal slowdown lowers SM clocks: kernels and NCCL collectives on this GPU run slower, "
                       "the whole job waits for it",
                       "confirm: " + confirm + "; check airflow, fans and inlet temperature (data-centre operator)"));
  } else {
    out.push_back(make(Tag::kOk, "signals.gpu_temperature", host,
                       slowdown_at_max > 0
                           ? fmt::format("max {} C over {} GPUs (slowdown {} C)", max_t, read, slowdown_at_max)
                           : fmt::format("max {} C over {} GPUs", max_t, read),
                       expected, "GPUs are cool enough", "none", confirm));
  }
}

// signals.gpu_clock_events: clock event reasons of [gpu] clock_event_concern (CONCERN) or
// clock_event_info (INFO).
void check_gpu_clock_events(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const NvmlReport* listed = listed_gpus(s);
  if (listed == nullptr) return;
  const NvmlReport& n = *listed;
  const std::string& host = s.hostname.value;
  std::uint64_t concern_mask = 0, info_mask = 0;
  for (const auto& name : r.gpu_clock_event_concern) concern_mask |= clock_event_reason_bit(name);
  for (const auto& name : r.gpu_clock_event_info) info_mask |= clock_event_reason_bit(name);
  std::vector<std::string> bad, info, other;
  int read = 0;
  for (const NvmlGpu& g : n.gpus) {
    if (!usable(g) || g.clock_event_reasons < 0) continue;
    ++read;
    const auto mask = static_cast<std::uint64_t>(g.clock_event_reasons);
    const std::string clocks =
        g.sm_clock_mhz >= 0 ? fmt::format(" at {} of {} MHz", g.sm_clock_mhz, g.sm_clock_max_mhz) : "";
    if ((mask & concern_mask) != 0) {
      bad.push_back(fmt::format("{} {}{}", gpu_label(g),
                                fmt::join(decode_clock_event_reasons(mask & concern_mask), "+"), clocks));
    } else if ((mask & info_mask) != 0) {
      info.push_back(
          fmt::format("{} {}{}", gpu_label(g), fmt::join(decode_clock_event_reasons(mask & info_mask), "+"), clocks));
    } else if (mask != 0) {
      other.push_back(fmt::format("GPU{} {}", g.index, fmt::join(decode_clock_event_reasons(mask), "+")));
    }
  }
  const std::string expected = "no " + list(r.gpu_clock_event_concern, 8) + " clock event";
  const std::string confirm = "nvidia-smi -q -d PERFORMANCE,CLOCK";
  if (read == 0) {
    out.push_back(make(Tag::kInfo, "signals.gpu_clock_events", host, "clock event reasons not supported by NVML here",
                       expected, "why clocks are lowered is unknown", "none known", confirm));
  } else if (!bad.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_clock_events", host, list(bad), expected,
                       "the driver holds SM clocks down for thermal, power-brake or hardware slowdown reasons",
                       "kernels and NCCL collectives on these GPUs run slower; the job runs at the slowest GPU's "
                       "pace",
                       "confirm: nvidia-smi -q -d TEMPERATURE,PERFORMANCE; HW slowdown or power brake: check power "
                       "supplies and cooling (operator), replace the board if it persists"));
  } else if (!info.empty()) {
    out.push_back(make(Tag::kInfo, "signals.gpu_clock_events", host, list(info), expected,
                       "clocks limited by the software power cap (normal under heavy load)",
                       "slightly lower clocks at full power draw", confirm + "; nvidia-smi -q -d POWER"));
  } else {
    out.push_back(make(Tag::kOk, "signals.gpu_clock_events", host,
                       other.empty() ? fmt::format("no clock event on {} GPUs", read)
                                     : fmt::format("{} GPUs; benign: {}", read, list(other, 4)),
                       expected, "clocks are not held down", "none", confirm));
  }
}

// signals.gpu_pcie: links below their maximum width (CONCERN) or generation (INFO unless
// pcie_gen_below_max_concern).
void check_gpu_pcie(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const NvmlReport* listed = listed_gpus(s);
  if (listed == nullptr) return;
  const NvmlReport& n = *listed;
  const std::string& host = s.hostname.value;
  std::vector<std::string> narrow, slow_gen;
  int read = 0;
  for (const NvmlGpu& g : n.gpus) {
    if (!usable(g) || g.pcie_width < 0 || g.pcie_width_max < 0) continue;
    ++read;
    if (g.pcie_width < g.pcie_width_max) {
      narrow.push_back(fmt::format("{} x{} of x{}", gpu_label(g), g.pcie_width, g.pcie_width_max));
    }
    if (g.pcie_gen >= 0 && g.pcie_gen_max >= 0 && g.pcie_gen < g.pcie_gen_max) {
      slow_gen.push_back(fmt::format("{} gen{} of gen{}", gpu_label(g), g.pcie_gen, g.pcie_gen_max));
    }
  }
  const std::string expected = "every GPU at its maximum PCIe width (and generation under load)";
  const std::string confirm =
      "nvidia-smi --query-gpu=index,pci.bus_id,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,"
      "pcie.link.width.max --format=csv";
  if (read == 0) {
    out.push_back(make(Tag::kInfo, "signals.gpu_pcie", host, "PCIe link not supported by NVML here", expected,
                       "PCIe link state from NVML is unknown (sysfs's signals.pcie_width applies)", "none known",
                       confirm));
  } else if (!narrow.empty() || (r.gpu_pcie_gen_below_max_concern && !slow_gen.empty())) {
    std::vector<std::string> all = narrow;
    if (r.gpu_pcie_gen_below_max_concern) all.insert(all.end(), slow_gen.begin(), slow_gen.end());
    out.push_back(make(Tag::kConcern, "signals.gpu_pcie", host, list(all), expected,
                       "a GPU's PCIe link trained below its maximum (bad riser, seating or link)",
                       "host-device copies and GPUDirect RDMA through that GPU run at a fraction of the "
                       "bandwidth; its pairs look slow",
                       "confirm: " + confirm + "; remediation: reboot; if it persists, have the node serviced"));
  } else if (!slow_gen.empty()) {
    out.push_back(make(Tag::kInfo, "signals.gpu_pcie", host, list(slow_gen), expected,
                       "the link runs below its maximum generation: normal power saving while the GPU is idle",
                       "none at idle; under load it would halve host-device bandwidth per generation step",
                       "confirm under load (during a test): " + confirm));
  } else {
    out.push_back(make(Tag::kOk, "signals.gpu_pcie", host, fmt::format("{} GPUs at full PCIe width", read), expected,
                       "PCIe links trained at full width", "none", confirm));
  }
}

// signals.gpu_ecc: volatile uncorrected ECC errors above ecc_volatile_uncorrected_max (CONCERN); past
// (aggregate) ones INFO.
void check_gpu_ecc(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const NvmlReport* listed = listed_gpus(s);
  if (listed == nullptr) return;
  const NvmlReport& n = *listed;
  const std::string& host = s.hostname.value;
  std::vector<std::string> bad, past;
  int read = 0;
  for (const NvmlGpu& g : n.gpus) {
    if (!usable(g)) continue;
    if (g.ecc_uncorrected_volatile >= 0 || g.ecc_uncorrected_aggregate >= 0) ++read;
    if (g.ecc_uncorrected_volatile > r.gpu_ecc_volatile_uncorrected_max) {
      bad.push_back(fmt::format("{} {} uncorrected since driver load", gpu_label(g), g.ecc_uncorrected_volatile));
    } else if (g.ecc_uncorrected_aggregate > 0) {
      past.push_back(fmt::format("{} {} uncorrected in its lifetime", gpu_label(g), g.ecc_uncorrected_aggregate));
    }
  }
  const std::string expected = fmt::format("volatile uncorrected ECC errors <= {}", r.gpu_ecc_volatile_uncorrected_max);
  const std::string confirm = "nvidia-smi -q -d ECC";
  if (read == 0) {
    out.push_back(make(Tag::kInfo, "signals.gpu_ecc", host, "ECC counters not supported (ECC off or no NVML support)",
                       expected, "memory errors are unknown", "none known", confirm));
  } else if (!bad.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_ecc", host, list(bad), expected,
                       "uncorrectable GPU memory errors since the driver loaded (Xid 48/94/95)",
                       "the work that hit them failed; the GPU may fail again and stall collectives",
                       "confirm: " + confirm +
                           ",ROW_REMAPPER; remediation (operator, no processes on the GPU): nvidia-smi -r -i "
                           "<index> or reboot; replace the GPU if it recurs"));
  } else if (!past.empty()) {
    out.push_back(make(Tag::kInfo, "signals.gpu_ecc", host, list(past), expected,
                       "uncorrectable errors in the GPU's history, none since the driver loaded",
                       "none now; watch for recurrence", confirm));
  } else {
    out.push_back(make(Tag::kOk, "signals.gpu_ecc", host, fmt::format("no uncorrected ECC errors on {} GPUs", read),
                       expected, "clean GPU memory", "none", confirm));
  }
}

// signals.gpu_row_remap: pending row remaps or remap failures.
void check_gpu_row_remap(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const NvmlReport* listed = listed_gpus(s);
  if (listed == nullptr) return;
  const NvmlReport& n = *listed;
  const std::string& host = s.hostname.value;
  std::vector<std::string> pending, failed;
  int read = 0;
  for (const NvmlGpu& g : n.gpus) {
    if (!usable(g) || (g.remap_pending < 0 && g.remap_failure < 0)) continue;
    ++read;
    if (g.remap_failure > 0) failed.push_back(fmt::format("{} remap failure", gpu_label(g)));
    if (g.remap_pending > 0) pending.push_back(fmt::format("{} remap pending", gpu_label(g)));
  }
  const std::string expected = "no pending row remap and no remap failure";
  const std::string confirm = "nvidia-smi -q -d ROW_REMAPPER";
  if (read == 0) {
    out.push_back(make(Tag::kInfo, "signals.gpu_row_remap", host, "row remapping not supported (pre-Ampere or MIG)",
                       expected, "row remapper state is unknown", "none known", confirm));
  } else if (!failed.empty() || !pending.empty()) {
    std::vector<std::string> all = failed;
    all.insert(all.end(), pending.begin(), pending.end());
    out.push_back(make(
        Tag::kConcern, "signals.gpu_row_remap", host, list(all), expected,
        failed.empty() ? "memory rows wait for a GPU reset to be remapped (Xid 63)"
                       : "a memory row could not be remapped (Xid 64): the GPU has run out of spare rows",
        "the GPU's memory is degraded: uncorrectable errors can recur and kill the job",
        "confirm: " + confirm +
            (failed.empty() ? "; remediation (operator, no processes on the GPU): nvidia-smi -r -i <index> or reboot"
                            : "; remediation (operator): drain the node and replace the GPU")));
  } else {
    out.push_back(make(Tag::kOk, "signals.gpu_row_remap", host,
                       fmt::format("no pending or failed row remap on {} GPUs", read), expected, "row remapper healthy",
                       "none", confirm));
  }
}

// signals.gpu_nvlink: inactive links, or error counters above nvlink_error_concern_count.
void check_gpu_nvlink(const HostSnapshot& s, const Rules& r, std::vector<Finding>& out) {
  const NvmlReport* listed = listed_gpus(s);
  if (listed == nullptr) return;
  const NvmlReport& n = *listed;
  const std::string& host = s.hostname.value;
  std::vector<std::string> down, errors;
  int gpus_with_links = 0;
  std::size_t links = 0;
  for (const NvmlGpu& g : n.gpus) {
    if (!usable(g) || g.nvlinks.empty()) continue;
    ++gpus_with_links;
    links += g.nvlinks.size();
    for (const NvLinkInfo& l : g.nvlinks) {
      if (!l.active) down.push_back(fmt::format("GPU{} link {} inactive", g.index, l.link));
      const std::pair<const char*, std::int64_t> counters[] = {{"replay", l.replay_errors},
                                                               {"recovery", l.recovery_errors},
                                                               {"crc_flit", l.crc_flit_errors},
                                                               {"crc_data", l.crc_data_errors}};
      for (const auto& [name, v] : counters) {
        if (v > r.gpu_nvlink_error_concern_count)
          errors.push_back(fmt::format("GPU{} link {} {} {}", g.index, l.link, name, v));
      }
    }
  }
  const std::string expected =
      fmt::format("every NVLink active, no error counter above {}", r.gpu_nvlink_error_concern_count);
  const std::string confirm = "nvidia-smi nvlink -s; nvidia-smi nvlink -e";
  if (gpus_with_links == 0) {
    out.push_back(make(Tag::kInfo, "signals.gpu_nvlink", host, "no NVLink reported (PCIe-only GPUs or not supported)",
                       expected, "no NVLink to check", "none", confirm));
  } else if (!down.empty() || !errors.empty()) {
    std::vector<std::string> all = down;
    all.insert(all.end(), errors.begin(), errors.end());
    out.push_back(make(Tag::kConcern, "signals.gpu_nvlink", host, list(all), expected,
                       !down.empty() ? "NVLink links are down" : "NVLink links retransmit or recover often",
                       "intra-node collectives lose NVLink bandwidth or fall back to PCIe/SHM; retries add latency",
                       "confirm: " + confirm +
                           "; remediation (operator): reset the GPUs or reboot; follow NVIDIA's NVLink "
                           "troubleshooting (Xid 74) and replace the board if links stay down"));
  } else {
    out.push_back(make(Tag::kOk, "signals.gpu_nvlink", host,
                       fmt::format("{} links active on {} GPUs, error counters low", links, gpus_with_links), expected,
                       "NVLink healthy", "none", confirm));
  }
}

// signals.gpu_fabric: NVSwitch fabric registration not COMPLETED with success.
void check_gpu_fabric(const HostSnapshot& s, const Rules& /*r*/, std::vector<Finding>& out) {
  const NvmlReport* listed = listed_gpus(s);
  if (listed == nullptr) return;
  const NvmlReport& n = *listed;
  const std::string& host = s.hostname.value;
  std::vector<std::string> bad;
  int supported = 0;
  for (const NvmlGpu& g : n.gpus) {
    if (!usable(g) || g.fabric_state < 0 || g.fabric_state == kFabricStateNotSupported) continue;
    ++supported;
    if (g.fabric_state != kFabricStateCompleted || g.fabric_status != kNvmlSuccess) {
      static const char* kStates[] = {"not supported", "not started", "in progress", "completed"};
      const char* st = g.fabric_state >= 0 && g.fabric_state <= 3 ? kStates[g.fabric_state] : "unknown";
      bad.push_back(fmt::format("GPU{} fabric {} (status {})", g.index, st, g.fabric_status));
    }
  }
  const std::string expected = "fabric registration COMPLETED with status success on every GPU";
  const std::string confirm = "nvidia-smi -q | grep -A4 -i fabric; systemctl status nvidia-fabricmanager";
  if (supported == 0) {
    const bool absent = std::find(n.missing_symbols.begin(), n.missing_symbols.end(), "nvmlDeviceGetGpuFabricInfo") !=
                        n.missing_symbols.end();
    out.push_back(make(Tag::kInfo, "signals.gpu_fabric", host,
                       absent ? "not supported: this NVML lacks nvmlDeviceGetGpuFabricInfo"
                              : "not supported (no NVSwitch fabric on these GPUs)",
                       expected, "no NVSwitch fabric state to check", "none", confirm));
  } else if (!bad.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_fabric", host, list(bad), expected,
                       "the GPU has not (or not successfully) joined the NVSwitch fabric",
                       "CUDA and NCCL cannot use NVLink through the switches: jobs fail at init or run slow",
                       "confirm: " + confirm +
                           "; remediation (operator): start or restart nvidia-fabricmanager, then reset the GPUs"));
  } else {
    out.push_back(make(Tag::kOk, "signals.gpu_fabric", host, fmt::format("{} GPUs joined the fabric", supported),
                       expected, "NVSwitch fabric ready", "none", confirm));
  }
}

void delta_gpu_ecc(const HostSnapshot& before, const HostSnapshot& after, const Rules& /*r*/,
                   std::vector<Finding>& out) {
  const std::string& host = after.hostname.value;
  std::vector<std::string> ecc;
  bool any_ecc = false;
  for (const auto& [b, g] : matched_gpus(before, after)) {
    if (g->ecc_uncorrected_volatile >= 0 && b->ecc_uncorrected_volatile >= 0) {
      any_ecc = true;
      if (g->ecc_uncorrected_volatile > b->ecc_uncorrected_volatile)
        ecc.push_back(fmt::format("{} +{} uncorrected", gpu_label(*g),
                                  g->ecc_uncorrected_volatile - b->ecc_uncorrected_volatile));
    }
  }
  if (!any_ecc) return;
  if (!ecc.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_ecc_new", host, list(ecc), "no new uncorrected ECC error",
                       "GPU memory produced uncorrectable errors during the test",
                       "the work on that GPU failed or will; collectives through it stall",
                       "confirm: nvidia-smi -q -d ECC,ROW_REMAPPER; dmesg -T | grep -E 'Xid.*(48|94|95)'; "
                       "remediation (operator): reset the GPU, replace it if it recurs"));
  } else {
    out.push_back(make(Tag::kOk, "signals.gpu_ecc_new", host, "no new uncorrected ECC error",
                       "no new uncorrected ECC error", "GPU memory clean during the test", "none",
                       "nvidia-smi -q -d ECC"));
  }
}

void delta_gpu_nvlink(const HostSnapshot& before, const HostSnapshot& after, const Rules& r,
                      std::vector<Finding>& out) {
  const std::string& host = after.hostname.value;
  std::vector<std::string> links;
  bool any_links = false;
  for (const auto& [b, g] : matched_gpus(before, after)) {
    for (const NvLinkInfo& l : g->nvlinks) {
      auto bl =
          std::find_if(b->nvlinks.begin(), b->nvlinks.end(), [&](const NvLinkInfo& x) { return x.link == l.link; });
      if (bl == b->nvlinks.end()) continue;
      any_links = true;
      std::int64_t rise = 0;
      const std::pair<std::int64_t, std::int64_t> pairs[] = {{l.replay_errors, bl->replay_errors},
                                                             {l.recovery_errors, bl->recovery_errors},
                                                             {l.crc_flit_errors, bl->crc_flit_errors},
                                                             {l.crc_data_errors, bl->crc_data_errors}};
      for (const auto& [a, p] : pairs)
        if (a >= 0 && p >= 0 && a > p) rise += a - p;
      if (rise > r.gpu_nvlink_error_rise_max) links.push_back(fmt::format("GPU{} link {} +{}", g->index, l.link, rise));
    }
  }
  if (!any_links) return;
  const std::string expected = fmt::format("NVLink error counters rise by at most {}", r.gpu_nvlink_error_rise_max);
  if (!links.empty()) {
    out.push_back(make(Tag::kConcern, "signals.gpu_nvlink_errors_new", host, list(links), expected,
                       "NVLink replay/recovery/CRC errors rose during the test",
                       "retransmissions cut intra-node NVLink bandwidth; a failing link can take the GPU down",
                       "confirm: nvidia-smi nvlink -e (before and after a rerun); remediation (operator): reset "
                       "the GPUs; follow NVIDIA's NVLink troubleshooting if it persists"));
  } else {
    out.push_back(make(Tag::kOk, "signals.gpu_nvlink_errors_new", host, "no NVLink error counter rose", expected,
                       "clean NVLink traffic", "none", "nvidia-smi nvlink -e"));
  }
}

}  // namespace podperf::signal_rules

// HostSnapshot <-> JSON with nlohmann's struct macros (member names are the keys).
#include "signals/snapshot_json.hpp"

#include <fmt/format.h>

#include "analysis/base/errors.hpp"

namespace podperf {

template <class T>
void to_json(nlohmann::json& j, const Reading<T>& r) {
  j = nlohmann::json{{"value", r.value}, {"readable", r.readable}, {"why", r.why}};
}
template <class T>
void from_json(const nlohmann::json& j, Reading<T>& r) {
  r = Reading<T>{};
  if (j.contains("value")) j.at("value").get_to(r.value);
  if (j.contains("readable")) j.at("readable").get_to(r.readable);
  if (j.contains("why")) j.at("why").get_to(r.why);
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(XidEvent, sxid, code, pci, usec, seq, text)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CpuGovernor, cpu, governor)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CpuTimes, user, nice, system, idle, iowait, irq, softirq, steal)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MemInfo, mem_total_kib, mem_available_kib, hugepages_total,
                                                hugepages_free, hugepage_size_kib)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MountInfo, mount_point, fstype, source, stat_ok, total_bytes,
                                                avail_bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Rlimit, unlimited, bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(EfaDevice, name, counters)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PcieLink, bdf, current_width, max_width, current_speed, max_speed)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LustreOst, name, total_kib, free_kib, avail_kib)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NvLinkInfo, link, active, replay_errors, recovery_errors,
                                                crc_flit_errors, crc_data_errors)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NvmlGpu, index, lost, reset_required, handle_error, handle_error_text,
                                                name, uuid, pci_bus_id, temperature_c, slowdown_c, sm_clock_mhz,
                                                sm_clock_max_mhz, clock_event_reasons, pcie_gen, pcie_gen_max,
                                                pcie_width, pcie_width_max, ecc_uncorrected_volatile,
                                                ecc_uncorrected_aggregate, remapped_rows_correctable,
                                                remapped_rows_uncorrectable, remap_pending, remap_failure, nvlinks,
                                                fabric_state, fabric_status)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NvmlReport, library, driver_version, cuda_driver_version, gpus,
                                                missing_symbols)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LibfabricInfo, library, version, providers, getinfo_rc, getinfo_seconds)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(HostSnapshot, root, hostname, instance_type, instance_id,
                                                kernel_release, governors, cpu_times, meminfo, mounts, memlock, stack,
                                                efa, efa_installer, efa_module_version, gpu_pcie, lustre_osts, xids,
                                                nvidia_driver, nvml, libfabric, nccl_version, cuda_driver_version, env)

nlohmann::json snapshot_to_json(const HostSnapshot& s) {
  nlohmann::json j = s;
  j["snapshot_version"] = kSnapshotJsonVersion;
  return j;
}

HostSnapshot snapshot_from_json(const nlohmann::json& j) {
  try {
    if (!j.is_object()) throw InputError("host snapshot: expected a JSON object");
    const int version = j.value("snapshot_version", kSnapshotJsonVersion);
    if (version > kSnapshotJsonVersion) {
      throw InputError(fmt::format("host snapshot: snapshot_version {} is newer than this build reads ({})", version,
                                   kSnapshotJsonVersion));
    }
    return j.get<HostSnapshot>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("host snapshot: {}", e.what()));
  }
}

}  // namespace podperf

#pragma once
// GPU state through NVML, loaded at run time with dlopen (podperf's host-signal sources: NVML, sysfs, procfs and
// NVIDIA's Xid catalog), so one binary runs on hosts without an NVIDIA driver. No nvml.h: the few types, enums and
// signatures podperf calls are declared in nvml.cpp. Read-only: only Get* queries, nvmlInit and nvmlShutdown.
//
// Conventions: a number that could not be read is -1 (a missing symbol, NVML_ERROR_NOT_SUPPORTED or any
// other error), a string that could not be read is "". A missing symbol never fails the read.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

// NVML return codes podperf acts on (nvmlReturn_t values).
inline constexpr int kNvmlSuccess = 0;
inline constexpr int kNvmlErrorInvalidArgument = 2;
inline constexpr int kNvmlErrorNotSupported = 3;
inline constexpr int kNvmlErrorGpuIsLost = 15;
inline constexpr int kNvmlErrorResetRequired = 16;

// nvmlGpuFabricState_t
inline constexpr int kFabricStateNotSupported = 0;
inline constexpr int kFabricStateNotStarted = 1;
inline constexpr int kFabricStateInProgress = 2;
inline constexpr int kFabricStateCompleted = 3;

// One NVLink of a GPU. Counters: nvmlNvLinkErrorCounter_t 0..3, -1 = not readable.
struct NvLinkInfo {
  int link = -1;
  bool active = false;
  std::int64_t replay_errors = -1;    // NVML_NVLINK_ERROR_DL_REPLAY
  std::int64_t recovery_errors = -1;  // NVML_NVLINK_ERROR_DL_RECOVERY
  std::int64_t crc_flit_errors = -1;  // NVML_NVLINK_ERROR_DL_CRC_FLIT
  std::int64_t crc_data_errors = -1;  // NVML_NVLINK_ERROR_DL_CRC_DATA
};

struct NvmlGpu {
  int index = -1;
  // nvmlDeviceGetHandleByIndex_v2 (or a later query) returned NVML_ERROR_GPU_IS_LOST: the GPU fell off
  // the bus; nothing else about it is read.
  bool lost = false;
  bool reset_required = false;  // a query returned NVML_ERROR_RESET_REQUIRED
  int handle_error = 0;         // the nvmlReturn_t of a failed handle call (0: the handle was taken)
  std::string handle_error_text;
  std::string name;                       // "NVIDIA H100 80GB HBM3"
  std::string uuid;                       // "GPU-..."
  std::string pci_bus_id;                 // "00000000:53:00.0"
  std::int64_t temperature_c = -1;        // nvmlDeviceGetTemperature(NVML_TEMPERATURE_GPU)
  std::int64_t slowdown_c = -1;           // ...Threshold(NVML_TEMPERATURE_THRESHOLD_SLOWDOWN)
  std::int64_t sm_clock_mhz = -1;         // nvmlDeviceGetClockInfo(NVML_CLOCK_SM)
  std::int64_t sm_clock_max_mhz = -1;     // nvmlDeviceGetMaxClockInfo(NVML_CLOCK_SM)
  std::int64_t clock_event_reasons = -1;  // bit mask (decode_clock_event_reasons)
  std::int64_t pcie_gen = -1;
  std::int64_t pcie_gen_max = -1;
  std::int64_t pcie_width = -1;
  std::int64_t pcie_width_max = -1;
  std::int64_t ecc_uncorrected_volatile = -1;   // since the last driver load
  std::int64_t ecc_uncorrected_aggregate = -1;  // lifetime
  std::int64_t remapped_rows_correctable = -1;
  std::int64_t remapped_rows_uncorrectable = -1;
  std::int64_t remap_pending = -1;  // 0/1, -1 unknown
  std::int64_t remap_failure = -1;  // 0/1, -1 unknown
  std::vector<NvLinkInfo> nvlinks;  // links 0.. until INVALID_ARGUMENT / NOT_SUPPORTED; empty: no NVLink
  std::int64_t fabric_state = -1;   // nvmlGpuFabricState_t; -1: nvmlDeviceGetGpuFabricInfo absent or failed
  std::int64_t fabric_status = -1;  // the nvmlReturn_t inside the fabric info
};

struct NvmlReport {
  std::string library;                    // the path handed to dlopen
  std::string driver_version;             // nvmlSystemGetDriverVersion: "535.161.08"
  std::int64_t cuda_driver_version = -1;  // nvmlSystemGetCudaDriverVersion(_v2): 12020 for 12.2
  std::vector<NvmlGpu> gpus;
  std::vector<std::string> missing_symbols;  // symbols the library lacks (their fields are -1 / "")
};

// Outcome of read_nvml: `loaded` false when dlopen, a required symbol (init, count, handle) or nvmlInit
// failed; `why` then says so (dlerror text or the NVML error string).
struct NvmlRead {
  bool loaded = false;
  std::string why;
  NvmlReport report;
};

// dlopens `library_path`, initializes NVML, reads every GPU, shuts NVML down. Never throws (but
// std::bad_alloc); never changes GPU state. The library stays mapped (dlclose of a driver library
// with threads is not safe); a later call re-initializes.
NvmlRead read_nvml(const std::string& library_path);

// Names of the set bits of a clocks-event-reason mask, lowest bit first: 0x1 GpuIdle,
// 0x2 ApplicationsClocksSetting, 0x4 SwPowerCap, 0x8 HwSlowdown, 0x10 SyncBoost, 0x20 SwThermalSlowdown,
// 0x40 HwThermalSlowdown, 0x80 HwPowerBrakeSlowdown, 0x100 DisplayClockSetting; other bits as "0x..".
std::vector<std::string> decode_clock_event_reasons(std::uint64_t mask);
// The bit of a reason name above; 0 when the name is unknown.
std::uint64_t clock_event_reason_bit(std::string_view name);

// "3.0"-style text of a CUDA driver version number (12020 -> "12.2"); "" for a negative value.
std::string cuda_version_text(std::int64_t version);

// Versions of other libraries, read through dlopen + one getter each. `loaded` false with `why` when the
// library or the symbol is absent or the call fails. The libraries stay mapped.
struct LibraryVersion {
  bool loaded = false;
  std::string why;
  std::string version;  // "2.28.3" (NCCL), "13.0" (CUDA driver)
};
// ncclGetVersion(int*): X*10000 + Y*100 + Z (X*1000 + Y*100 + Z before 2.9) -> "X.Y.Z".
LibraryVersion read_nccl_version(const std::string& library_path);
// cuDriverGetVersion(int*) of libcuda.so.1: 13000 -> "13.0". No cuInit. A library loaded from a
// ".../stubs/" directory (the CUDA toolkit's link stub) is refused before any call.
LibraryVersion read_cuda_driver_version(const std::string& library_path);
// True for a path inside a ".../stubs/" directory, where the CUDA toolkit keeps its link stubs.
bool is_toolkit_stub_path(std::string_view path);
// NCCL's version code as text: 22803 -> "2.28.3", 2708 -> "2.7.8".
std::string nccl_version_text(int code);

}  // namespace podperf

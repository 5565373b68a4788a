// NVML through dlopen with podperf's own minimal declarations (no nvml.h). Signatures and values follow
// NVIDIA's NVML API reference; every function pointer is looked up by its (versioned) symbol name and a
// missing one leaves its fields at -1 / "".
#include "signals/nvml.hpp"

#include <dlfcn.h>

#include <array>
#include <cstdio>
#include <cstring>

#include "analysis/base/text.hpp"
#include "signals/dl_library.hpp"

namespace podperf {
namespace {

// ---- minimal NVML declarations ----
using nvmlReturn_t = int;
struct NvmlDeviceSt;
using nvmlDevice_t = NvmlDeviceSt*;

constexpr unsigned kTemperatureGpu = 0;                // NVML_TEMPERATURE_GPU
constexpr unsigned kTemperatureThresholdSlowdown = 1;  // NVML_TEMPERATURE_THRESHOLD_SLOWDOWN
constexpr unsigned kClockSm = 1;                       // NVML_CLOCK_SM
constexpr unsigned kMemoryErrorUncorrected = 1;        // NVML_MEMORY_ERROR_TYPE_UNCORRECTED
constexpr unsigned kVolatileEcc = 0;                   // NVML_VOLATILE_ECC
constexpr unsigned kAggregateEcc = 1;                  // NVML_AGGREGATE_ECC
constexpr unsigned kMaxNvLinks = 18;                   // NVML_NVLINK_MAX_LINKS
constexpr unsigned kNvLinkCounters = 4;                // DL_REPLAY, DL_RECOVERY, DL_CRC_FLIT, DL_CRC_DATA
constexpr unsigned kStringBytes = 96;                  // >= NVML_DEVICE_NAME_V2_BUFFER_SIZE (96), UUID (80)

struct NvmlPciInfo {  // nvmlPciInfo_t (nvmlDeviceGetPciInfo_v3)
  char bus_id_legacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pci_device_id;
  unsigned pci_subsystem_id;
  char bus_id[32];
};

struct NvmlGpuFabricInfo {  // nvmlGpuFabricInfo_t (v1, nvmlDeviceGetGpuFabricInfo)
  unsigned char cluster_uuid[16];
  nvmlReturn_t status;
  unsigned clique_id;
  unsigned char state;
};

using InitFn = nvmlReturn_t (*)();
using ErrorStringFn = const char* (*)(nvmlReturn_t);
using StringFn = nvmlReturn_t (*)(char*, unsigned);
using IntOutFn = nvmlReturn_t (*)(int*);
using CountFn = nvmlReturn_t (*)(unsigned*);
using HandleFn = nvmlReturn_t (*)(unsigned, nvmlDevice_t*);
using DevStringFn = nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned);
using DevPciFn = nvmlReturn_t (*)(nvmlDevice_t, NvmlPciInfo*);
using DevUintOutFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned*);
using DevKindUintFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned*);
using DevUllOutFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*);
using DevEccFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned, unsigned long long*);
using DevRemapFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned*, unsigned*, unsigned*, unsigned*);
using DevLinkStateFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned*);
using DevLinkCounterFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned, unsigned long long*);
using DevFabricFn = nvmlReturn_t (*)(nvmlDevice_t, NvmlGpuFabricInfo*);

std::string clean(const char* s) {
  return text::printable(s, 120, false);
}

// The first of `names` the library exports; records the first name as missing when none is there.
template <class Fn>
Fn lookup(void* lib, std::initializer_list<const char*> names, std::vector<std::string>& missing) {
  for (const char* n : names) {
    if (void* p = ::dlsym(lib, n)) return reinterpret_cast<Fn>(p);
  }
  missing.emplace_back(*names.begin());
  return nullptr;
}

struct Api {
  InitFn init = nullptr;
  InitFn shutdown = nullptr;
  ErrorStringFn error_string = nullptr;
  StringFn driver_version = nullptr;
  IntOutFn cuda_driver_version = nullptr;
  CountFn count = nullptr;
  HandleFn handle = nullptr;
  DevStringFn name = nullptr;
  DevStringFn uuid = nullptr;
  DevPciFn pci = nullptr;
  DevKindUintFn temperature = nullptr;
  DevKindUintFn temperature_threshold = nullptr;
  DevKindUintFn clock = nullptr;
  DevKindUintFn max_clock = nullptr;
  DevUllOutFn clock_reasons = nullptr;
  DevUintOutFn pcie_gen = nullptr;
  DevUintOutFn pcie_gen_max = nullptr;
  DevUintOutFn pcie_width = nullptr;
  DevUintOutFn pcie_width_max = nullptr;
  DevEccFn ecc = nullptr;
  DevRemapFn remapped_rows = nullptr;
  DevLinkStateFn nvlink_state = nullptr;
  DevLinkCounterFn nvlink_counter = nullptr;
  DevFabricFn fabric = nullptr;
};

Api load_api(void* lib, std::vector<std::string>& missing) {
  Api a;
  a.init = lookup<InitFn>(lib, {"nvmlInit_v2", "nvmlInit"}, missing);
  a.shutdown = lookup<InitFn>(lib, {"nvmlShutdown"}, missing);
  a.error_string = lookup<ErrorStringFn>(lib, {"nvmlErrorString"}, missing);
  a.driver_version = lookup<StringFn>(lib, {"nvmlSystemGetDriverVersion"}, missing);
  a.cuda_driver_version =
      lookup<IntOutFn>(lib, {"nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"}, missing);
  a.count = lookup<CountFn>(lib, {"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"}, missing);
  a.handle = lookup<HandleFn>(lib, {"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"}, missing);
  a.name = lookup<DevStringFn>(lib, {"nvmlDeviceGetName"}, missing);
  a.uuid = lookup<DevStringFn>(lib, {"nvmlDeviceGetUUID"}, missing);
  a.pci = lookup<DevPciFn>(lib, {"nvmlDeviceGetPciInfo_v3"}, missing);
  a.temperature = lookup<DevKindUintFn>(lib, {"nvmlDeviceGetTemperature"}, missing);
  a.temperature_threshold = lookup<DevKindUintFn>(lib, {"nvmlDeviceGetTemperatureThreshold"}, missing);
  a.clock = lookup<DevKindUintFn>(lib, {"nvmlDeviceGetClockInfo"}, missing);
  a.max_clock = lookup<DevKindUintFn>(lib, {"nvmlDeviceGetMaxClockInfo"}, missing);
  a.clock_reasons = lookup<DevUllOutFn>(
      lib, {"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"}, missing);
  a.pcie_gen = lookup<DevUintOutFn>(lib, {"nvmlDeviceGetCurrPcieLinkGeneration"}, missing);
  a.pcie_gen_max = lookup<DevUintOutFn>(lib, {"nvmlDeviceGetMaxPcieLinkGeneration"}, missing);
  a.pcie_width = lookup<DevUintOutFn>(lib, {"nvmlDeviceGetCurrPcieLinkWidth"}, missing);
  a.pcie_width_max = lookup<DevUintOutFn>(lib, {"nvmlDeviceGetMaxPcieLinkWidth"}, missing);
  a.ecc = lookup<DevEccFn>(lib, {"nvmlDeviceGetTotalEccErrors"}, missing);
  a.remapped_rows = lookup<DevRemapFn>(lib, {"nvmlDeviceGetRemappedRows"}, missing);
  a.nvlink_state = lookup<DevLinkStateFn>(lib, {"nvmlDeviceGetNvLinkState"}, missing);
  a.nvlink_counter = lookup<DevLinkCounterFn>(lib, {"nvmlDeviceGetNvLinkErrorCounter"}, missing);
  a.fabric = lookup<DevFabricFn>(lib, {"nvmlDeviceGetGpuFabricInfo"}, missing);
  return a;
}

std::string error_text(const Api& a, nvmlReturn_t rc) {
  const char* s = a.error_string != nullptr ? a.error_string(rc) : nullptr;
  std::string out = s != nullptr ? clean(s) : std::string("NVML error");
  return out + " (" + std::to_string(rc) + ")";
}

// Records GPU-wide error returns on the GPU; true when the call succeeded.
bool ok(nvmlReturn_t rc, NvmlGpu& g) {
  if (rc == kNvmlErrorGpuIsLost) g.lost = true;
  if (rc == kNvmlErrorResetRequired) g.reset_required = true;
  return rc == kNvmlSuccess;
}

void read_gpu(const Api& a, nvmlDevice_t dev, NvmlGpu& g) {
  char buf[kStringBytes];
  if (a.name != nullptr && ok(a.name(dev, buf, sizeof buf), g)) g.name = clean(buf);
  if (g.lost) return;
  if (a.uuid != nullptr && ok(a.uuid(dev, buf, sizeof buf), g)) g.uuid = clean(buf);
  NvmlPciInfo pci{};
  if (a.pci != nullptr && ok(a.pci(dev, &pci), g)) {
    pci.bus_id[sizeof pci.bus_id - 1] = '\0';
    g.pci_bus_id = clean(pci.bus_id);
  }
  unsigned u = 0;
  unsigned long long ull = 0;
  auto kind_uint = [&](DevKindUintFn fn, unsigned kind, std::int64_t& out) {
    if (fn != nullptr && !g.lost && ok(fn(dev, kind, &u), g)) out = u;
  };
  auto uint_out = [&](DevUintOutFn fn, std::int64_t& out) {
    if (fn != nullptr && !g.lost && ok(fn(dev, &u), g)) out = u;
  };
  kind_uint(a.temperature, kTemperatureGpu, g.temperature_c);
  kind_uint(a.temperature_threshold, kTemperatureThresholdSlowdown, g.slowdown_c);
  kind_uint(a.clock, kClockSm, g.sm_clock_mhz);
  kind_uint(a.max_clock, kClockSm, g.sm_clock_max_mhz);
  if (a.clock_reasons != nullptr && !g.lost && ok(a.clock_reasons(dev, &ull), g))
    g.clock_event_reasons = static_cast<std::int64_t>(ull & 0x7fffffffffffffffULL);
  uint_out(a.pcie_gen, g.pcie_gen);
  uint_out(a.pcie_gen_max, g.pcie_gen_max);
  uint_out(a.pcie_width, g.pcie_width);
  uint_out(a.pcie_width_max, g.pcie_width_max);
  if (a.ecc != nullptr && !g.lost) {
    if (ok(a.ecc(dev, kMemoryErrorUncorrected, kVolatileEcc, &ull), g))
      g.ecc_uncorrected_volatile = static_cast<std::int64_t>(ull & 0x7fffffffffffffffULL);
    if (!g.lost && ok(a.ecc(dev, kMemoryErrorUncorrected, kAggregateEcc, &ull), g))
      g.ecc_uncorrected_aggregate = static_cast<std::int64_t>(ull & 0x7fffffffffffffffULL);
  }
  if (a.remapped_rows != nullptr && !g.lost) {
    unsigned corr = 0, unc = 0, pending = 0, failure = 0;
    if (ok(a.remapped_rows(dev, &corr, &unc, &pending, &failure), g)) {
      g.remapped_rows_correctable = corr;
      g.remapped_rows_uncorrectable = unc;
      g.remap_pending = pending != 0 ? 1 : 0;
      g.remap_failure = failure != 0 ? 1 : 0;
    }
  }
  if (a.nvlink_state != nullptr) {
    for (unsigned link = 0; link < kMaxNvLinks && !g.lost; ++link) {
      unsigned active = 0;
      const nvmlReturn_t rc = a.nvlink_state(dev, link, &active);
      if (rc == kNvmlErrorInvalidArgument || rc == kNvmlErrorNotSupported) break;  // no such link
      NvLinkInfo l;
      l.link = static_cast<int>(link);
      if (!ok(rc, g)) continue;  // this link unreadable (or the GPU lost: the loop ends)
      l.active = active != 0;
      if (a.nvlink_counter != nullptr) {
        std::array<std::int64_t*, kNvLinkCounters> outs = {&l.replay_errors, &l.recovery_errors, &l.crc_flit_errors,
                                                           &l.crc_data_errors};
        for (unsigned c = 0; c < kNvLinkCounters && !g.lost; ++c) {
          if (ok(a.nvlink_counter(dev, link, c, &ull), g))
            *outs[c] = static_cast<std::int64_t>(ull & 0x7fffffffffffffffULL);
        }
      }
      g.nvlinks.push_back(l);
    }
  }
  if (a.fabric != nullptr && !g.lost) {
    NvmlGpuFabricInfo f{};
    if (ok(a.fabric(dev, &f), g)) {
      g.fabric_state = f.state;
      g.fabric_status = f.status;
    }
  }
}

}  // namespace

NvmlRead read_nvml(const std::string& library_path) {
  NvmlRead r;
  r.report.library = library_path;
  void* lib = open_library(library_path, r.why);
  if (lib == nullptr) {
    if (library_path.empty()) r.why = "no NVML library path given";
    return r;
  }
  const Api a = load_api(lib, r.report.missing_symbols);
  if (a.init == nullptr || a.count == nullptr || a.handle == nullptr) {
    r.why = library_path + " lacks nvmlInit_v2, nvmlDeviceGetCount_v2 or nvmlDeviceGetHandleByIndex_v2";
    return r;
  }
  const nvmlReturn_t init = a.init();
  if (init != kNvmlSuccess) {
    r.why = "nvmlInit_v2: " + error_text(a, init);
    return r;
  }
  char buf[kStringBytes];
  if (a.driver_version != nullptr && a.driver_version(buf, sizeof buf) == kNvmlSuccess)
    r.report.driver_version = clean(buf);
  int cuda = 0;
  if (a.cuda_driver_version != nullptr && a.cuda_driver_version(&cuda) == kNvmlSuccess)
    r.report.cuda_driver_version = cuda;
  unsigned count = 0;
  const nvmlReturn_t rc = a.count(&count);
  if (rc != kNvmlSuccess) {
    r.why = "nvmlDeviceGetCount_v2: " + error_text(a, rc);
    if (a.shutdown != nullptr) a.shutdown();
    return r;
  }
  constexpr unsigned kMaxGpus = 64;
  for (unsigned i = 0; i < count && i < kMaxGpus; ++i) {
    NvmlGpu g;
    g.index = static_cast<int>(i);
    nvmlDevice_t dev = nullptr;
    const nvmlReturn_t h = a.handle(i, &dev);
    if (!ok(h, g)) {
      g.handle_error = h;
      g.handle_error_text = error_text(a, h);
    } else {
      read_gpu(a, dev, g);
    }
    r.report.gpus.push_back(std::move(g));
  }
  if (a.shutdown != nullptr) a.shutdown();
  r.loaded = true;
  return r;
}

std::vector<std::string> decode_clock_event_reasons(std::uint64_t mask) {
  static constexpr std::array<std::pair<std::uint64_t, const char*>, 9> kBits = {{
      {0x1, "GpuIdle"},
      {0x2, "ApplicationsClocksSetting"},
      {0x4, "SwPowerCap"},
      {0x8, "HwSlowdown"},
      {0x10, "SyncBoost"},
      {0x20, "SwThermalSlowdown"},
      {0x40, "HwThermalSlowdown"},
      {0x80, "HwPowerBrakeSlowdown"},
      {0x100, "DisplayClockSetting"},
  }};
  std::vector<std::string> out;
  for (int bit = 0; bit < 64; ++bit) {
    const std::uint64_t b = std::uint64_t{1} << bit;
    if ((mask & b) == 0) continue;
    const char* name = nullptr;
    for (const auto& [v, n] : kBits)
      if (v == b) name = n;
    if (name != nullptr) {
      out.emplace_back(name);
    } else {
      char hex[24];
      std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(b));
      out.emplace_back(hex);
    }
  }
  return out;
}

std::uint64_t clock_event_reason_bit(std::string_view name) {
  for (int bit = 0; bit < 9; ++bit) {
    const std::uint64_t b = std::uint64_t{1} << bit;
    const std::vector<std::string> n = decode_clock_event_reasons(b);
    if (n.size() == 1 && n[0] == name) return b;
  }
  return 0;
}

std::string cuda_version_text(std::int64_t version) {
  if (version < 0) return "";
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

bool is_toolkit_stub_path(std::string_view path) {
  return path.find("/stubs/") != std::string_view::npos;
}

std::string nccl_version_text(int code) {
  if (code <= 0) return "";
  // NCCL_VERSION(X,Y,Z): X*10000+Y*100+Z from 2.9 on, X*1000+Y*100+Z before.
  const int major = code >= 10000 ? code / 10000 : code / 1000;
  const int rest = code >= 10000 ? code % 10000 : code % 1000;
  return std::to_string(major) + "." + std::to_string(rest / 100) + "." + std::to_string(rest % 100);
}

namespace {

// dlopen + one `int f(int*)` getter. Returns the number, or sets `why`.
bool call_int_getter(const std::string& path, const char* symbol, int& value, std::string& why) {
  void* lib = open_library(path, why);
  if (lib == nullptr) return false;
  auto fn = reinterpret_cast<int (*)(int*)>(::dlsym(lib, symbol));
  if (fn == nullptr) {
    why = path + " lacks " + symbol;
    return false;
  }
  // The CUDA toolkit's link stub (.../stubs/libcuda.so) answers with errors only; never call into it.
  Dl_info where{};
  if (::dladdr(reinterpret_cast<void*>(fn), &where) != 0 && where.dli_fname != nullptr &&
      is_toolkit_stub_path(where.dli_fname)) {
    why = std::string(where.dli_fname) + " is a toolkit link stub, not a driver library";
    return false;
  }
  int v = 0;
  const int rc = fn(&v);
  if (rc != 0) {
    why = std::string(symbol) + " returned " + std::to_string(rc);
    return false;
  }
  value = v;
  return true;
}

}  // namespace

LibraryVersion read_nccl_version(const std::string& library_path) {
  LibraryVersion v;
  int code = 0;
  if (!call_int_getter(library_path, "ncclGetVersion", code, v.why)) return v;
  v.version = nccl_version_text(code);
  v.loaded = !v.version.empty();
  if (!v.loaded) v.why = "ncclGetVersion gave " + std::to_string(code);
  return v;
}

LibraryVersion read_cuda_driver_version(const std::string& library_path) {
  LibraryVersion v;
  int code = 0;
  if (!call_int_getter(library_path, "cuDriverGetVersion", code, v.why)) return v;
  v.version = cuda_version_text(code);
  v.loaded = !v.version.empty();
  if (!v.loaded) v.why = "cuDriverGetVersion gave " + std::to_string(code);
  return v;
}

}  // namespace podperf

// The CUDA error table and its classes (contract in cuda_errors.hpp). The classes are rules over the
// error names' families, first match wins; the table rows are generated, never hand-edited.
#include "analysis/logs/cuda_errors.hpp"

#include <array>
#include <cctype>
#include <string>
#include <vector>

namespace podperf::logs {
namespace {

constexpr CudaError kCommitted[] = {
#include "analysis/logs/cuda_errors.inc"
};

#ifdef PODPERF_CUDA_ERRORS_TOOLKIT
constexpr CudaError kToolkit[] = {
#include "cuda_errors_toolkit.inc"
};
#endif

using C = SeverityClass;

constexpr std::string_view kDrainHost =
    "drain {host} (Slurm: scontrol update NodeName={host} State=DRAIN Reason=\"GPU hardware error\"; Kubernetes: "
    "kubectl cordon), run the vendor diagnostics (dcgmi diag -r 3, nvidia-smi -q -d ECC,ROW_REMAPPER) and reset or "
    "replace the GPU before it runs jobs again";

constexpr CudaErrorClass kOom{"gpu.cuda_oom", C::fail, 100, "GPU memory exhausted (CUDA out of memory)",
                              "reduce the memory footprint (batch size, activation checkpointing); nvidia-smi on "
                              "{host} for other processes holding GPU memory"};
constexpr CudaErrorClass kEcc{"gpu.ecc_uncorrectable", C::fail, 100,
                              "an uncorrectable ECC memory error on the GPU: a hardware fault, not the job",
                              kDrainHost};
constexpr CudaErrorClass kNvlink{"gpu.nvlink_error", C::fail, 100,
                                 "an uncorrectable NVLink error: a hardware fault of the GPU interconnect", kDrainHost};
constexpr CudaErrorClass kContained{
    "gpu.memory_error_contained", C::fail, 95,
    "a contained GPU memory error: the process using the faulty memory was stopped (hardware); other "
    "processes go on",
    "restart the job; if it repeats on {host}, drain it and check row remapping (nvidia-smi -q -d ROW_REMAPPER)"};
constexpr CudaErrorClass kInit{
    "gpu.cuda_init", C::fail, 90,
    "CUDA could not initialise: a driver/container mismatch, fork after CUDA init, the fabric manager not "
    "running (NVSwitch systems) or a GPU fault",
    "nvidia-smi and dmesg | grep -i xid on {host}; systemctl status nvidia-fabricmanager on NVSwitch systems; "
    "check the driver against the container's CUDA"};
constexpr CudaErrorClass kDriver{
    "cuda.driver_mismatch", C::fail, 90,
    "the CUDA driver is too old for this CUDA runtime or PTX (or the compatibility package does not fit the GPU)",
    "nvidia-smi on {host} (driver version); use a CUDA build the driver supports, or upgrade the driver"};
constexpr CudaErrorClass kNoDevice{
    "cuda.no_device", C::fail, 90,
    "no usable GPU for this process: none visible (CUDA_VISIBLE_DEVICES, the container's GPU request), a bad "
    "device index (more ranks per node than GPUs), or GPUs busy in exclusive-process mode",
    "nvidia-smi and echo $CUDA_VISIBLE_DEVICES inside the job on {host}; check ranks per node against GPUs per "
    "node and the compute mode (nvidia-smi -q -d COMPUTE)"};
constexpr CudaErrorClass kNoImage{
    "cuda.no_kernel_image", C::fail, 85,
    "the binary has no kernel for this GPU's architecture (built for other compute capabilities) or a "
    "library failed to load",
    "rebuild for this GPU's compute capability (TORCH_CUDA_ARCH_LIST, -gencode) or install a build that "
    "includes it"};
constexpr CudaErrorClass kAssert{
    "cuda.device_assert", C::fail, 70,
    "a device-side assertion in the application's kernel (an index out of range, invalid labels): an "
    "application bug, not the node",
    "rerun with CUDA_LAUNCH_BLOCKING=1 to see the failing operation"};
constexpr CudaErrorClass kIllegal{
    "cuda.illegal_memory_access", C::fail, 65,
    "a kernel accessed invalid GPU memory: an application or library bug (a kernel, a custom op, NCCL buffers "
    "freed early), or the symptom of an earlier GPU fault (look for an Xid on that host)",
    "dmesg | grep -i xid on {host}; rerun with CUDA_LAUNCH_BLOCKING=1 (and compute-sanitizer) to find the kernel"};
constexpr CudaErrorClass kKernelFault{
    "cuda.kernel_fault", C::fail, 65,
    "a kernel faulted (unspecified launch failure, illegal instruction, misaligned address, stack error): "
    "an application or library bug, or an earlier GPU fault",
    "dmesg | grep -i xid on {host}; rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel"};
constexpr CudaErrorClass kPermission{
    "gpu.imex_channel", C::fail, 90,
    "a CUDA operation was not permitted: no access to the IMEX channel (/dev/nvidia-caps-imex-channels, MNNVL), "
    "or a container without the device permissions",
    "ls -l /dev/nvidia-caps-imex-channels/ inside the job on {host}; pass the IMEX channel into the container"};
constexpr CudaErrorClass kPeer{"cuda.peer_access", C::fail, 60,
                               "CUDA peer access between GPUs failed or is unsupported (ACS/IOMMU, a VM, no P2P)",
                               "nvidia-smi topo -p2p n on {host}; check ACS (lspci -vvv | grep ACSCtl) and IOMMU"};
constexpr CudaErrorClass kMps{"cuda.mps", C::fail, 85,
                              "the CUDA MPS server failed or refused the client (MPS configuration)",
                              "check the MPS daemon and its client limits on {host}"};
constexpr CudaErrorClass kLaunch{
    "cuda.launch_config", C::fail, 60,
    "a kernel launch asked for more than the GPU allows (registers, shared memory, block or cluster size): "
    "an application or library bug",
    "read the failing operation's stack; rerun with CUDA_LAUNCH_BLOCKING=1"};
constexpr CudaErrorClass kTeardown{"cuda.teardown", C::fail, 10,
                                   "CUDA was shutting down or its context was gone: a consequence of the process "
                                   "exiting, not a cause",
                                   "look for the error that made the process exit"};
constexpr CudaErrorClass kTimeout{"cuda.timeout", C::fail, 40, "a CUDA wait timed out",
                                  "look for what the GPU was waiting on (a peer, a hang)"};
constexpr CudaErrorClass kUnknown{"cuda.unknown_error", C::fail, 45,
                                  "CUDA reported an unknown error (often a driver or GPU fault)",
                                  "dmesg | grep -i xid on {host}; nvidia-smi"};
constexpr CudaErrorClass kApi{"cuda.api_error", C::fail, 45,
                              "a CUDA call failed (invalid argument, handle or state: usually the application or a "
                              "library)",
                              "read the failing call in the stack; rerun with CUDA_LAUNCH_BLOCKING=1"};

// Rules over the runtime names: the first whose fragment is in the name wins.
struct NameRule {
  std::string_view fragment;
  const CudaErrorClass* cls;
};
constexpr std::array kNameRules = {
    NameRule{"MemoryAllocation", &kOom},
    NameRule{"ECC", &kEcc},
    NameRule{"Nvlink", &kNvlink},
    NameRule{"Contained", &kContained},
    NameRule{"InitializationError", &kInit},
    NameRule{"StartupFailure", &kInit},
    NameRule{"SystemNotReady", &kInit},
    NameRule{"DeviceUninitialized", &kInit},
    NameRule{"InsufficientDriver", &kDriver},
    NameRule{"DriverMismatch", &kDriver},
    NameRule{"CompatNotSupported", &kDriver},
    NameRule{"RequiresNewerDriver", &kDriver},
    NameRule{"UnsupportedPtxVersion", &kDriver},
    NameRule{"StubLibrary", &kDriver},
    NameRule{"IncompatibleDriverContext", &kDriver},
    NameRule{"NoDevice", &kNoDevice},
    NameRule{"InvalidDevice", &kNoDevice},
    NameRule{"DevicesUnavailable", &kNoDevice},
    NameRule{"DeviceAlreadyInUse", &kNoDevice},
    NameRule{"DeviceNotLicensed", &kNoDevice},
    NameRule{"NoKernelImage", &kNoImage},
    NameRule{"InvalidKernelImage", &kNoImage},
    NameRule{"InvalidPtx", &kNoImage},
    NameRule{"Jit", &kNoImage},
    NameRule{"InvalidSource", &kNoImage},
    NameRule{"SharedObject", &kNoImage},
    NameRule{"FileNotFound", &kNoImage},
    NameRule{"FunctionNotLoaded", &kNoImage},
    NameRule{"Assert", &kAssert},
    NameRule{"IllegalAddress", &kIllegal},
    NameRule{"LaunchFailure", &kKernelFault},
    NameRule{"HardwareStackError", &kKernelFault},
    NameRule{"IllegalInstruction", &kKernelFault},
    NameRule{"MisalignedAddress", &kKernelFault},
    NameRule{"InvalidAddressSpace", &kKernelFault},
    NameRule{"InvalidPc", &kKernelFault},
    NameRule{"ExternalDevice", &kKernelFault},
    NameRule{"NotPermitted", &kPermission},
    NameRule{"Peer", &kPeer},
    NameRule{"Mps", &kMps},
    NameRule{"OutOfResources", &kLaunch},
    NameRule{"TooLarge", &kLaunch},
    NameRule{"DepthExceeded", &kLaunch},
    NameRule{"PendingCountExceeded", &kLaunch},
    NameRule{"InvalidConfiguration", &kLaunch},
    NameRule{"ClusterSize", &kLaunch},
    NameRule{"CudartUnloading", &kTeardown},
    NameRule{"ContextIsDestroyed", &kTeardown},
    NameRule{"LaunchTimeout", &kTimeout},
    NameRule{"Timeout", &kTimeout},
    NameRule{"Unknown", &kUnknown},
};

// Families of error texts for a quoted error no table row matches (another CUDA version's wording).
struct TextRule {
  std::string_view fragment;  // lower case
  const CudaErrorClass* cls;
};
constexpr std::array kTextRules = {
    TextRule{"out of memory", &kOom},
    TextRule{"ecc", &kEcc},
    TextRule{"nvlink", &kNvlink},
    TextRule{"illegal memory access", &kIllegal},
    TextRule{"illegal address", &kIllegal},
    TextRule{"device-side assert", &kAssert},
    TextRule{"no cuda-capable device", &kNoDevice},
    TextRule{"busy or unavailable", &kNoDevice},
    TextRule{"invalid device ordinal", &kNoDevice},
    TextRule{"driver version is insufficient", &kDriver},
    TextRule{"no kernel image", &kNoImage},
    TextRule{"launch failure", &kKernelFault},
    TextRule{"misaligned address", &kKernelFault},
    TextRule{"illegal instruction", &kKernelFault},
    TextRule{"initialization error", &kInit},
    TextRule{"not permitted", &kPermission},
};

// Driver API names whose runtime name is not the same words ("CUDA_ERROR_OUT_OF_MEMORY").
struct DriverAlias {
  std::string_view driver;   // without "CUDA_ERROR_", underscores removed, lower case
  std::string_view runtime;  // the runtime name
};
constexpr std::array kDriverAliases = {
    DriverAlias{"outofmemory", "cudaErrorMemoryAllocation"},
    DriverAlias{"launchfailed", "cudaErrorLaunchFailure"},
    DriverAlias{"notinitialized", "cudaErrorInitializationError"},
    DriverAlias{"invalidimage", "cudaErrorInvalidKernelImage"},
    DriverAlias{"deinitialized", "cudaErrorCudartUnloading"},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const std::vector<CudaError>& all_errors() {
  static const std::vector<CudaError> all = [] {
    std::vector<CudaError> v(std::begin(kCommitted), std::end(kCommitted));
#ifdef PODPERF_CUDA_ERRORS_TOOLKIT
    v.insert(v.end(), std::begin(kToolkit), std::end(kToolkit));
#endif
    return v;
  }();
  return all;
}

const CudaError* by_name(std::string_view name) {
  for (const CudaError& e : all_errors()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// "CUDA_ERROR_ILLEGAL_ADDRESS" at `at`: the runtime row with the same words.
const CudaError* by_driver_name(std::string_view line, std::size_t at) {
  std::size_t e = at + 11;
  while (e < line.size() && (std::isupper(static_cast<unsigned char>(line[e])) || line[e] == '_' ||
                             std::isdigit(static_cast<unsigned char>(line[e])))) {
    ++e;
  }
  std::string words;
  for (char c : line.substr(at + 11, e - at - 11)) {
    if (c != '_') words += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (words.empty()) return nullptr;
  for (const DriverAlias& a : kDriverAliases) {
    if (a.driver == words) return by_name(a.runtime);
  }
  for (const CudaError& err : all_errors()) {
    if (lower(err.name.substr(9)) == words) return &err;
  }
  return nullptr;
}

}  // namespace

std::span<const CudaError> cuda_errors() {
  return all_errors();
}

const CudaErrorClass& cuda_error_class(std::string_view name) {
  for (const NameRule& r : kNameRules) {
    if (name.find(r.fragment) != std::string_view::npos) return *r.cls;
  }
  return kApi;
}

const CudaError* find_cuda_error(std::string_view line, const CudaErrorClass** family) {
  *family = nullptr;
  if (const std::size_t at = line.find("cudaError"); at != std::string_view::npos) {
    std::size_t e = at;
    while (e < line.size() && std::isalnum(static_cast<unsigned char>(line[e]))) ++e;
    if (const CudaError* err = by_name(line.substr(at, e - at))) {
      *family = &cuda_error_class(err->name);
      return err;
    }
  }
  if (const std::size_t at = line.find("CUDA_ERROR_"); at != std::string_view::npos) {
    if (const CudaError* err = by_driver_name(line, at)) {
      *family = &cuda_error_class(err->name);
      return err;
    }
  }
  // The longest error text in the line (so "out of memory" does not shadow a longer text that holds it).
  const CudaError* best = nullptr;
  for (const CudaError& err : all_errors()) {
    if (err.text.size() < 6 || (best && err.text.size() <= best->text.size())) continue;
    if (line.find(err.text) != std::string_view::npos) best = &err;
  }
  if (best) {
    *family = &cuda_error_class(best->name);
    return best;
  }
  const std::string low = lower(line);
  for (const TextRule& r : kTextRules) {
    if (low.find(r.fragment) != std::string::npos) {
      *family = r.cls;
      return nullptr;
    }
  }
  *family = &kApi;
  return nullptr;
}

}  // namespace podperf::logs

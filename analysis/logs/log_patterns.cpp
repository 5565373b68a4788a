// The pattern table (contract in log_patterns.hpp). Strings are verbatim from the programs that print
// them (NCCL 2.x, aws-ofi-nccl, libfabric, PyTorch c10d and torchelastic, Open MPI, UCX, Slurm, glibc,
// CPython, the NVIDIA driver); causes and next steps summarise what they mean and how to fix them.
#include "analysis/logs/log_patterns.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "analysis/logs/line_bigrams.hpp"

namespace podperf::logs {
namespace {

using S = LogSource;
using C = SeverityClass;

constexpr std::string_view kMemlock =
    "check `ulimit -l` inside the launched job; set `* soft memlock unlimited` / `* hard memlock unlimited` "
    "(Slurm and containers often reset it; docker --ulimit memlock=-1)";
constexpr std::string_view kShm =
    "df -h /dev/shm inside the job; Docker: --shm-size=1g --ulimit memlock=-1; Kubernetes: a memory-backed "
    "emptyDir on /dev/shm; remove stale /dev/shm/nccl-*";
constexpr std::string_view kEfaVisible =
    "fi_info -p efa inside the container; pass /dev/infiniband/uverbs* into it, check the EFA ENIs attached "
    "and FI_PROVIDER";
constexpr std::string_view kConnect =
    "check the peer's own log for its first error; then security group (all-traffic self-reference on AWS), "
    "firewall and NCCL_SOCKET_IFNAME / NCCL_SOCKET_FAMILY";
constexpr std::string_view kWarnBefore =
    "read the first NCCL WARN of that rank (it names the failing call); with none, rerun with NCCL_DEBUG=INFO";
constexpr std::string_view kFlightRecorder =
    "rerun with TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1 and NCCL_DEBUG=INFO, then "
    "compare the dumps with torchfrtrace";

constexpr std::string_view kCudaCause = "a CUDA call failed (classified by the CUDA error it quotes)";
constexpr std::string_view kHwFatal =
    "the host reported an uncorrected hardware error (machine check, PCIe or memory): the device or host is faulty";
constexpr std::string_view kHwFatalNext =
    "drain {host}; read the full mcelog / rasdaemon record; have the hardware checked";
// A shell in a launcher script ("sh: 11: /opt/kube/kubectl: not found", "bash: mpirun: command not found").
constexpr std::string_view kNotFound =
    "a launcher script could not find a program it runs (a binary missing from the image, or a wrong path)";
constexpr std::string_view kNotFoundNext =
    "check that the image or node has the program on that path (an MPIJob launcher needs kubectl, or the operator's "
    "delivery of it; mpirun needs Open MPI's bin in PATH)";
// DCGM diagnostics (dcgmi diag): a result row "Fail - GPU: 0", "Warn - All".
constexpr std::string_view kDcgmFail = "a DCGM diagnostic test failed on a GPU (the row names the test and the GPU)";
constexpr std::string_view kDcgmFailNext =
    "drain {host}; read the test's detail rows and dmesg -T | grep -i xid on it; rerun dcgmi diag -r 3 after a GPU "
    "reset, replace the GPU if it fails again";
constexpr std::string_view kDcgmWarn = "a DCGM diagnostic test warned on a GPU (the row names the test and the GPU)";
constexpr std::string_view kDcgmWarnNext = "read the test's detail rows; nvidia-smi -q on {host}";
constexpr std::string_view kCudaNext = "read the failing call's stack; dmesg | grep -i xid on {host}";
constexpr std::string_view kCrashNext =
    "read the rank's own output just before it (the first error), its backtrace, and dmesg on {host} (OOM killer, "
    "Xid); with a core file: gdb -batch -ex bt <binary> <core>";
constexpr std::string_view kExitNext =
    "root cause not in these lines: collect the failing rank's whole output (stderr included), dmesg of {host} "
    "(OOM killer, Xid) and the scheduler's record (sacct -j <job> -o state,exitcode,maxrss)";

// A plain array, not std::array with its deduction guide: clang stops at 256 deduced elements (its fold
// expression nesting limit), and the table is longer.
constexpr LogPattern kPatterns[] = {
    // ---- CUDA / GPU: local resources, promoted ----
    LogPattern{"gpu.cuda_oom", "Cuda failure", "out of memory", S::nccl, C::fail, 0, 100,
               "GPU memory exhausted by the application (NCCL could not allocate its buffers)",
               "reduce the memory footprint (batch size, activation checkpointing); nvidia-smi on that host"},
    LogPattern{"gpu.cuda_oom", "Failed to CUDA calloc", "", S::nccl, C::fail, 0, 100,
               "GPU memory exhausted by the application (NCCL could not allocate its buffers)",
               "reduce the memory footprint (batch size, activation checkpointing); nvidia-smi on that host"},
    LogPattern{"gpu.cuda_oom", "CUDA out of memory", "", S::pytorch, C::fail, 0, 100,
               "GPU memory exhausted on this rank", "reduce the memory footprint; torch.cuda.memory_summary()"},
    LogPattern{"gpu.cuda_oom", "OutOfMemoryError", "", S::pytorch, C::fail, 0, 100, "GPU memory exhausted on this rank",
               "reduce the memory footprint; torch.cuda.memory_summary()"},
    // ---- the driver: Xid codes and lost GPUs ----
    LogPattern{"gpu.xid", "Xid", "", S::kernel, C::fail, 0, 100, "a GPU fault reported by the driver (Xid)",
               "dmesg -T | grep -i xid on {host}", RowRule::xid},
    LogPattern{"gpu.fallen_off_bus", "fallen off the bus", "", S::kernel, C::fail, 0, 100,
               "a GPU has fallen off the bus (PCIe link or GPU hardware lost): the node cannot run GPU jobs",
               "drain {host} (Slurm: scontrol update NodeName={host} State=DRAIN Reason=\"GPU fell off the bus\"; "
               "Kubernetes: kubectl cordon), reboot it and replace the GPU or riser if it repeats"},
    LogPattern{"gpu.driver_probe_failed", "probe routine failed", "", S::kernel, C::fail, 0, 95,
               "the NVIDIA driver could not initialise a GPU", "dmesg -T | grep -i nvrm on {host}; drain {host}"},
    LogPattern{"gpu.driver_probe_failed", "RmInitAdapter failed", "", S::kernel, C::fail, 0, 95,
               "the NVIDIA driver could not initialise a GPU", "dmesg -T | grep -i nvrm on {host}; drain {host}"},
    LogPattern{"gpu.lost", "GPU is lost", "", S::other, C::fail, 0, 100,
               "a GPU is lost to the driver (hardware or a hung GPU)",
               "drain {host}; nvidia-smi -q on it; reset or reboot, replace if it repeats"},
    LogPattern{"gpu.device_unhealthy", "marked unhealthy", "", S::other, C::fail, 0, 90,
               "the Kubernetes device plugin took a GPU out of service after a critical error",
               "kubectl describe node {host}; dmesg -T | grep -i xid on it"},
    LogPattern{"gpu.device_unhealthy", "will go unhealthy", "", S::other, C::fail, 0, 90,
               "the Kubernetes device plugin took a GPU out of service after a critical error",
               "kubectl describe node {host}; dmesg -T | grep -i xid on it"},
    // ---- GPU health tools: DCGM diagnostics and NVLink state ----
    LogPattern{"nccl_tests.wrong_results", "Out of bounds values", "FAILED", S::nccl_tests, C::fail, 0, 90,
               "nccl-tests found values out of bounds: wrong results (data corruption)",
               "isolate the node or link: rerun the test on pairs of hosts; dmesg | grep -i xid on {host}"},
    LogPattern{"gpu.dcgm_diag_fail", "Fail - GPU", "", S::other, C::fail, 0, 95, kDcgmFail, kDcgmFailNext},
    LogPattern{"gpu.dcgm_diag_fail", "Fail - All", "", S::other, C::fail, 0, 95, kDcgmFail, kDcgmFailNext},
    LogPattern{"gpu.dcgm_diag_warn", "Warn - GPU", "", S::other, C::warn, 1, 60, kDcgmWarn, kDcgmWarnNext},
    LogPattern{"gpu.dcgm_diag_warn", "Warn - All", "", S::other, C::warn, 1, 60, kDcgmWarn, kDcgmWarnNext},
    LogPattern{"gpu.nvlink_down", "D D D D", "", S::other, C::warn, 1, 80,
               "NVLink links reported down (dcgmi nvlink --link-status: D): GPU-to-GPU traffic falls back to PCIe, or "
               "the GPUs have no NVLink bridge fitted",
               "nvidia-smi nvlink -s and nvidia-smi topo -m on {host}; dmesg -T | grep -i -e xid -e nvlink; if the "
               "GPUs should have NVLink, drain and reseat or replace"},
    LogPattern{
        "gpu.nvlink_down", "<inactive>", "Link ", S::other, C::warn, 1, 80,
        "NVLink links inactive (nvidia-smi nvlink -s): GPU-to-GPU traffic falls back to PCIe",
        "nvidia-smi topo -m on {host}; dmesg -T | grep -i -e xid -e nvlink; drain and reset if they should be up"},
    // ---- CUDA errors: every cudaError_t through the CUDA error table ----
    LogPattern{"nccl_tests.failure", "Test CUDA failure", "", S::nccl_tests, C::fail, 0, 40,
               "the benchmark aborted on a CUDA error", "nvidia-smi; dmesg | grep -i xid on {host}",
               RowRule::quoted_error},
    LogPattern{"gpu.cuda_init", "Cuda failure", "initialization error", S::nccl, C::fail, 0, 90,
               "CUDA context problem: fork after CUDA init, driver/container mismatch or a GPU fault",
               "nvidia-smi and dmesg | grep -i xid on {host}; check the driver against the container's CUDA"},
    LogPattern{"gpu.imex_channel", "Cuda failure", "operation not permitted", S::nccl, C::fail, 0, 90,
               "no write access to /dev/nvidia-caps-imex-channels/channel* (MNNVL)",
               "ls -l /dev/nvidia-caps-imex-channels/ inside the job; pass the IMEX channel into the container"},
    LogPattern{"cuda.error", "Cuda failure", "", S::nccl, C::fail, 0, 45, kCudaCause, kCudaNext, RowRule::cuda_error},
    LogPattern{"cuda.error", "CUDA failure", "", S::other, C::fail, 0, 45, kCudaCause, kCudaNext, RowRule::cuda_error},
    LogPattern{"cuda.error", "CUDA error", "", S::pytorch, C::fail, 0, 45, kCudaCause, kCudaNext, RowRule::cuda_error},
    LogPattern{"cuda.error", "CUDA Error", "", S::other, C::fail, 0, 45, kCudaCause, kCudaNext, RowRule::cuda_error},
    LogPattern{"cuda.error", "cudaError", "", S::other, C::fail, 0, 45, kCudaCause, kCudaNext, RowRule::cuda_error},
    LogPattern{"cuda.error", "CUDA_ERROR_", "", S::other, C::fail, 0, 45, kCudaCause, kCudaNext, RowRule::cuda_error},
    // ---- shared memory: local resources ----
    LogPattern{"shm.capacity", "Error: failed to extend", "", S::nccl, C::fail, 0, 100, "/dev/shm is full or too small",
               kShm},
    LogPattern{"shm.capacity", "posix_fallocate failed", "", S::nccl, C::fail, 0, 100, "/dev/shm is full or too small",
               kShm},
    LogPattern{"shm.attach", "Error while attaching to shared memory segment", "", S::nccl, C::fail, 0, 95,
               "the shared-memory segment was deleted (systemd RemoveIPC=yes) or the processes do not share /dev/shm",
               "set RemoveIPC=no in /etc/systemd/logind.conf; run the ranks of one node in one IPC namespace"},
    LogPattern{"shm.capacity", "Error while creating shared memory segment", "", S::nccl, C::fail, 0, 100,
               "/dev/shm capacity or configuration", kShm},
    LogPattern{"shm.unlinked", "unlink shared memory", "failed", S::nccl, C::fail, 0, 95,
               "the segment was removed underneath NCCL (systemd-logind cleanup)",
               "set RemoveIPC=no in /etc/systemd/logind.conf"},
    LogPattern{"shm.capacity", "Bus error", "", S::other, C::fail, 0, 90,
               "SIGBUS: a sparse /dev/shm page could not be backed (almost always /dev/shm capacity)", kShm},
    // ---- IB / RoCE verbs ----
    LogPattern{"ib.memlock", "Call to ibv_reg_mr", "failed", S::nccl, C::fail, 0, 100,
               "pinned-memory registration failed: locked-memory limit", kMemlock},
    LogPattern{"ib.memlock", "Call to ibv_create_qp failed", "", S::nccl, C::fail, 0, 95,
               "QP allocation failed: locked-memory limit or verbs resource limits", kMemlock},
    LogPattern{"ib.memlock", "Call to ibv_create_cq failed", "", S::nccl, C::fail, 0, 95,
               "CQ allocation failed: locked-memory limit or verbs resource limits", kMemlock},
    LogPattern{"ib.modify_qp", "Call to ibv_modify_qp failed", "", S::nccl, C::fail, 0, 90,
               "QP state transition failed: a wrong forced NCCL_IB_GID_INDEX (EINVAL) or NICs not cross-rail "
               "connected (ETIMEDOUT)",
               "leave NCCL_IB_GID_INDEX unset (NCCL >= 2.21); on ETIMEDOUT try NCCL_CROSS_NIC=0"},
    LogPattern{"ib.completion_local_protection", "Got completion", "LOC_PROT_ERR", S::nccl, C::fail, 0, 100,
               "IB completion status 4 (local protection): GPU Direct mapping or PCIe ACS",
               "confirm with NCCL_NET_GDR_LEVEL=LOC; check ACS (lspci -vvv | grep ACSCtl) and nvidia_peermem"},
    LogPattern{"ib.completion_local_protection", "Got completion", "status=4 ", S::nccl, C::fail, 0, 100,
               "IB completion status 4 (local protection): GPU Direct mapping or PCIe ACS",
               "confirm with NCCL_NET_GDR_LEVEL=LOC; check ACS (lspci -vvv | grep ACSCtl) and nvidia_peermem"},
    LogPattern{"ib.completion_local_protection", "Got completion", "with error 4,", S::nccl, C::fail, 0, 100,
               "IB completion status 4 (local protection): GPU Direct mapping or PCIe ACS",
               "confirm with NCCL_NET_GDR_LEVEL=LOC; check ACS (lspci -vvv | grep ACSCtl) and nvidia_peermem"},
    LogPattern{"ib.completion_flush", "Got completion", "WR_FLUSH_ERR", S::nccl, C::fail, 0, 15,
               "IB completion status 5 (flush): the QP was already in error, usually secondary",
               "look for the first completion error or the peer's own failure"},
    LogPattern{"ib.completion_flush", "Got completion", "status=5 ", S::nccl, C::fail, 0, 15,
               "IB completion status 5 (flush): the QP was already in error, usually secondary",
               "look for the first completion error or the peer's own failure"},
    LogPattern{"ib.completion_flush", "Got completion", "with error 5,", S::nccl, C::fail, 0, 15,
               "IB completion status 5 (flush): the QP was already in error, usually secondary",
               "look for the first completion error or the peer's own failure"},
    LogPattern{"ib.completion_error", "Got completion", "", S::nccl, C::fail, 0, 70,
               "an IB work completion failed (status 12 RETRY_EXC_ERR: link loss, congestion, a dead peer or a too "
               "short NCCL_IB_TIMEOUT)",
               "on the named peer path: perfquery, ethtool -S <if> (PFC/ECN counters), rdma statistic"},
    // ---- UCX, Open MPI's and PMIx's own lines, the RDMA driver ----
    LogPattern{"ib.completion_error", "Transport retry count exceeded", "", S::other, C::fail, 0, 70,
               "an IB/RoCE transport gave up resending (retry exceeded: a dead peer, link loss or congestion); printed "
               "by UCX or the mlx5 provider",
               "ibstat and the port's error counters on {host} and on the peer (perfquery, ethtool -S); check cabling"},
    LogPattern{"ucx.error", "UCX  ERROR", "", S::mpi, C::fail, 0, 60,
               "UCX (the transport layer under Open MPI, NCCL's UCX plugin or UCC) failed an operation",
               "read the error text; ucx_info -d on {host} for the transports it sees; UCX_LOG_LEVEL=info for more"},
    LogPattern{"ucx.warn", "UCX  WARN", "", S::mpi, C::warn, 1, 30, "UCX warned (its text says what)",
               "read the warning; ucx_info -d on {host}"},
    LogPattern{"pmix.init_failed", "pmix_init failed", "", S::mpi, C::fail, 0, 85,
               "PMIx could not initialise (a component it needs is missing, such as munge for psec, or the launcher "
               "and the MPI library disagree on PMIx)",
               "srun --mpi=list; check that the PMIx of Slurm and of the MPI library match and that munge is running"},
    LogPattern{"pmix.error", "PMIX ERROR", "", S::mpi, C::fail, 0, 60, "PMIx reported an error",
               "read the error; check the PMIx versions of the launcher and the MPI library"},
    LogPattern{"mpi.registered_memory_limited", "allow registering part of your physical memory", "", S::mpi, C::warn,
               1, 60,
               "the RDMA stack lets only part of the host's memory be registered: jobs can run erratically, hang or "
               "crash (Open MPI's warning)",
               "ulimit -l (unlimited in the job), and the mlx4/mlx5 log_num_mtt / log_mtts_per_seg module parameters "
               "on {host}"},
    LogPattern{"net.mr_registration_failed", "reg mr failed", "", S::kernel, C::warn, 1, 60,
               "the RDMA driver refused memory registrations (its limits on memory keys or pinned memory reached)",
               "ulimit -l, the NIC's resource limits and the number of processes registering memory on {host}"},
    LogPattern{"net.mr_registration_failed", "CREATE_MKEY", "limits exceeded", S::kernel, C::warn, 1, 60,
               "the RDMA driver refused memory registrations (its limits on memory keys or pinned memory reached)",
               "ulimit -l, the NIC's resource limits and the number of processes registering memory on {host}"},
    LogPattern{"net.port_not_active", "Physical state: Polling", "", S::other, C::warn, 1, 65,
               "an IB port is not linked up (Polling: no cable, or no peer at the other end)",
               "ibstat on {host}; check the cable and the switch port"},
    LogPattern{"net.port_not_active", "Physical state: Disabled", "", S::other, C::warn, 1, 65,
               "an IB port is disabled", "ibstat on {host}; ibportstate to enable it, or check why it was disabled"},
    LogPattern{"ib.async_event", "Got non-fatal async event", "", S::nccl, C::warn, 1, 60,
               "HCA port event (port flap or GID change)", "check link-flap counters: ethtool -S, ibstat"},
    LogPattern{"ib.async_event", "Got async event", "", S::nccl, C::warn, 1, 60,
               "HCA port event (port flap or GID change)", "check link-flap counters: ethtool -S, ibstat"},
    LogPattern{"ib.mismatched_devices", "mismatched physical devices", "", S::nccl, C::warn, 1, 50,
               "peers use different NIC types (heterogeneous rails)", "ibv_devinfo on both hosts"},
    // ---- EFA / aws-ofi-nccl / libfabric ----
    LogPattern{"efa.not_visible", "provider efa output empty list", "", S::libfabric, C::fail, 0, 90,
               "EFA not visible to libfabric (device not in the container, no EFA ENI, wrong libfabric)", kEfaVisible},
    LogPattern{"efa.not_visible", "No eligible providers were found", "", S::ofi_nccl, C::fail, 0, 90,
               "the libfabric provider filter matched nothing (EFA not visible or FI_PROVIDER wrong)", kEfaVisible},
    LogPattern{"efa.mr_registration_einval", "register memory", "RC: -22", S::ofi_nccl, C::fail, 0, 90,
               "EFA memory registration rejected with EINVAL (NCCL >= 2.19 on an EFA installer older than 1.29.1)",
               "set FI_EFA_SET_CUDA_SYNC_MEMOPS=0, or upgrade the EFA installer and aws-ofi-nccl"},
    LogPattern{"efa.mr_registration", "Couldn't register memory", "", S::ofi_nccl, C::fail, 0, 100,
               "EFA memory registration failed (memlock limit or EFA MR limits)", kMemlock},
    LogPattern{"efa.mr_registration", "Unable to register memory", "", S::ofi_nccl, C::fail, 0, 100,
               "EFA memory registration failed (memlock limit or EFA MR limits at high connection counts)",
               "ulimit -l inside the job; with RC -22 on NCCL >= 2.19 and EFA installer < 1.29.1 set "
               "FI_EFA_SET_CUDA_SYNC_MEMOPS=0"},
    LogPattern{"efa.mr_registration", "Could not register memory on rail", "", S::ofi_nccl, C::fail, 0, 100,
               "EFA memory registration failed (memlock limit or EFA MR limits)", kMemlock},
    LogPattern{"efa.mr_registration", "Unable to register MR", "", S::libfabric, C::fail, 0, 100,
               "EFA memory registration failed (memlock limit or EFA MR limits)", kMemlock},
    LogPattern{"net.ofi_undeliverable", "UNDELIVERABLE", "", S::ofi_nccl, C::fail, 0, 60,
               "EFA could not deliver to the peer (remote endpoint gone: the peer process died or restarted, or "
               "the path to it is broken)",
               "look for the peer's own first error; check its host's EFA (fi_info -p efa) and security groups"},
    LogPattern{"net.ofi_completion_error", "NET/OFI", "completed with error", S::ofi_nccl, C::fail, 0, 65,
               "an EFA/libfabric operation completed with an error (a network fault, a dead peer or an aws-ofi-nccl "
               "bug)",
               "read the error text and the provider error; check the peer's log and the EFA counters "
               "(rdma statistic, /sys/class/infiniband/*/ports/*/hw_counters)"},
    LogPattern{"efa.mr_registration", "Failed to register mr", "", S::kernel, C::fail, 0, 100,
               "EFA device-side MR registration hit ENOMEM",
               "fix memlock or reduce the MR footprint (connections, channels); correlate with NET/OFI WARNs"},
    LogPattern{"efa.mr_registration", "Failed to process command REG_MR", "", S::kernel, C::fail, 0, 100,
               "EFA device-side MR registration hit ENOMEM",
               "fix memlock or reduce the MR footprint (connections, channels); correlate with NET/OFI WARNs"},
    LogPattern{"efa.libfabric_object", "Couldn't open CQ", "", S::ofi_nccl, C::fail, 0, 85,
               "libfabric object creation failed (ENOMEM: memlock/EFA resources; EINVAL: plugin/libfabric mismatch)",
               "install a matching EFA installer and aws-ofi-nccl; ulimit -l inside the job"},
    LogPattern{"efa.libfabric_object", "Couldn't open AV", "", S::ofi_nccl, C::fail, 0, 85,
               "libfabric object creation failed (ENOMEM: memlock/EFA resources; EINVAL: plugin/libfabric mismatch)",
               "install a matching EFA installer and aws-ofi-nccl; ulimit -l inside the job"},
    LogPattern{"efa.libfabric_object", "Couldn't open a fabric provider", "", S::ofi_nccl, C::fail, 0, 85,
               "libfabric could not open the fabric provider", kEfaVisible},
    LogPattern{"efa.libfabric_object", "Couldn't create domain", "", S::ofi_nccl, C::fail, 0, 85,
               "libfabric domain creation failed", "install a matching EFA installer and aws-ofi-nccl"},
    LogPattern{"efa.libfabric_object", "Couldn't allocate endpoint", "", S::ofi_nccl, C::fail, 0, 85,
               "libfabric endpoint allocation failed", "install a matching EFA installer and aws-ofi-nccl"},
    LogPattern{"efa.endpoint", "Creating new endpoint for domain", "failed", S::ofi_nccl, C::fail, 0, 60,
               "endpoint creation failed after init (usually after an empty or failed provider)",
               "look for the provider error before it; fi_info -p efa"},
    LogPattern{"efa.no_protocol", "Unable to find a protocol that worked", "", S::ofi_nccl, C::fail, 0, 90,
               "neither RDMA nor SENDRECV could be set up: EFA/libfabric broken on that node", kEfaVisible},
    LogPattern{"efa.libfabric_too_old", "requires at least libfabric version", "", S::ofi_nccl, C::fail, 0, 90,
               "libfabric older than the plugin needs (version drift)", "upgrade the EFA installer"},
    LogPattern{"efa.gdr_half_configured", "GDR support reported to NCCL but then couldn't be configured", "",
               S::ofi_nccl, C::fail, 0, 90, "GPU Direct RDMA half-configured on the endpoint",
               "check FI_EFA_USE_DEVICE_RDMA, the driver and nvidia_peermem / DMA-BUF"},
    LogPattern{"efa.shm_disable", "Disabling shared memory failed", "", S::ofi_nccl, C::fail, 0, 85,
               "aws-ofi-nccl and libfabric do not match (old build instructions)",
               "rebuild aws-ofi-nccl against the installed libfabric"},
    LogPattern{"efa.plugin_init_failed", "aws-ofi-nccl initialization failed", "", S::ofi_nccl, C::fail, 0, 85,
               "the aws-ofi-nccl plugin aborted its init; NCCL falls back to IB and then to Socket (TCP)",
               "fi_info -p efa on that host; set NCCL_NET=\"AWS Libfabric\" (or Libfabric) so a fallback errors out"},
    LogPattern{
        "efa.plugin_init_failed", "Couldn't find any optimal provider", "", S::ofi_nccl, C::fail, 0, 85,
        "aws-ofi-nccl found no libfabric provider it can use (EFA not visible to the job, or libfabric built "
        "without it)",
        "fi_info -p efa on that host; pass the EFA devices into the container; set NCCL_NET=\"AWS Libfabric\" so "
        "a fallback errors out"},
    LogPattern{"efa.plugin_init_failed", "OFI NCCL failure", "", S::ofi_nccl, C::fail, 0, 80,
               "an aws-ofi-nccl call failed and the process stopped",
               "read the NET/OFI line before it; fi_info -p efa"},
    LogPattern{"efa.not_visible", "EFA libfabric provider not detected", "", S::other, C::fail, 0, 90,
               "the EFA installer's check found no EFA provider in libfabric (EFA not passed into the container, or "
               "the installer's libfabric not the one loaded)",
               "fi_info -p efa on that host; check the EFA device plugin / --device=/dev/infiniband and "
               "/opt/amazon/efa in the library path"},
    LogPattern{"efa.gdr_disabled", "disabling GDR", "", S::ofi_nccl, C::warn, 1, 50,
               "aws-ofi-nccl turned GPU Direct RDMA off (its CUDA/HMEM support could not be set up): data is staged "
               "through host memory and NCCL is held to the Simple protocol",
               "check the aws-ofi-nccl and libfabric versions against CUDA, FI_EFA_USE_DEVICE_RDMA, and nvidia_peermem "
               "/ the DMA-BUF capable driver"},
    LogPattern{"efa.gdr_disabled", "GDR disabled on GDR-supported instance type", "", S::ofi_nccl, C::warn, 1, 50,
               "GPU Direct RDMA turned off on hardware that supports it: data staged through host memory",
               "check FI_EFA_USE_DEVICE_RDMA and nvidia_peermem / the DMA-BUF capable driver"},
    LogPattern{"efa.simple_protocol", "Need to force simple protocol", "", S::ofi_nccl, C::info, 2, 5,
               "LL/LL128 not safe on this path; NCCL uses Simple", "none"},
    // ---- sockets / bootstrap ----
    LogPattern{"net.no_socket_interface", "o socket interface found", "", S::nccl, C::fail, 0, 90,
               "NCCL_SOCKET_IFNAME matched no interface",
               "ip -br addr on that host; fix the filter (e.g. ^lo,docker,veth); do not name EFA-only interfaces"},
    LogPattern{"net.message_truncated", "message truncated", "", S::nccl, C::fail, 0, 85,
               "ranks disagree on message sizes: an application mismatch, environment drift (NCCL_PROTO/ALGO) "
               "or mixed NCCL versions",
               "diff the NCCL_* environment and NCCL version across ranks"},
    LogPattern{"net.message_truncated", "Message truncated", "", S::nccl, C::fail, 0, 85,
               "ranks disagree on message sizes: an application mismatch, environment drift or mixed NCCL versions",
               "diff the NCCL_* environment and NCCL version across ranks"},
    LogPattern{"net.peer_closed", "Connection closed by remote peer", "", S::nccl, C::fail, 0, 10,
               "the peer closed the socket: usually a consequence (it crashed, ran out of memory or was killed)",
               "look for the peer's own first error"},
    LogPattern{"net.peer_closed", "Connection closed by localRank", "", S::nccl, C::fail, 0, 10,
               "the proxy thread lost its peer (a consequence)", "look for the first error on that host"},
    LogPattern{"net.proxy_lost", "Socket recv failed while polling", "", S::nccl, C::fail, 0, 10,
               "the proxy thread lost its peer (a consequence)", "look for the first error on that host"},
    LogPattern{"net.proxy_lost", "[Proxy Service", "Failed to execute operation", S::nccl, C::fail, 0, 10,
               "the proxy thread lost its peer (a consequence)", "look for the first error on that host"},
    LogPattern{"net.socket_io", "Call to recv from", "failed", S::nccl, C::fail, 0, 20,
               "socket I/O error (a peer went away, or the data path is the Socket transport)",
               "look for the peer's own first error"},
    LogPattern{"net.connect_failed", "connect to", "failed", S::nccl, C::fail, 0, 70,
               "TCP connect failed (bootstrap or Socket transport): peer not listening or dead (Connection "
               "refused), or firewall / wrong interface (No route to host)",
               kConnect},
    LogPattern{"net.connect_failed", "Connect to", "failed", S::nccl, C::fail, 0, 70,
               "TCP connect failed (bootstrap or Socket transport)", kConnect},
    LogPattern{"net.connect_failed", "Connect to", "returned", S::nccl, C::fail, 0, 70,
               "TCP connect failed during poll (bootstrap or Socket transport)", kConnect},
    LogPattern{"net.connect_failed", "exceeded error retry count", "", S::nccl, C::fail, 0, 70,
               "TCP connect retried until it gave up", kConnect},
    LogPattern{"net.connect_failed", "Call to connect", "", S::nccl, C::fail, 0, 70,
               "TCP connect failed (bootstrap or Socket transport): peer not listening, firewall or a wrong socket "
               "interface (loopback or a virtual bridge in the interface list)",
               kConnect},
    // ---- configuration / usage ----
    LogPattern{"config.duplicate_gpu", "Duplicate GPU detected", "", S::nccl, C::fail, 0, 95,
               "two ranks map to one GPU: a launcher/binding bug (local rank unused, CUDA_VISIBLE_DEVICES, "
               "tasks per node) or identical hostHash in containers",
               "check the rank to GPU mapping (LOCAL_RANK, CUDA_VISIBLE_DEVICES, --gpus-per-task)"},
    LogPattern{"config.duplicate_gpu", "Multiple Ranks are using the same GPU", "", S::nccl, C::fail, 0, 95,
               "two ranks map to one GPU (launcher/binding bug)",
               "check the rank to GPU mapping (LOCAL_RANK, CUDA_VISIBLE_DEVICES, --gpus-per-task)"},
    LogPattern{"config.nccl_version_mismatch", "Mismatched NCCL version detected", "", S::nccl, C::fail, 0, 95,
               "ranks loaded different libnccl builds (version drift)",
               "make the images identical; check torch's bundled NCCL against LD_PRELOAD / the system libnccl"},
    LogPattern{"config.nccl_version_mismatch", "NCCL version mismatch with remote peer", "", S::ras, C::fail, 0, 95,
               "ranks loaded different libnccl builds (detected by RAS)", "make the images identical"},
    LogPattern{"config.no_net_plugin", "Failed to initialize any NET plugin", "", S::nccl, C::fail, 0, 90,
               "no net plugin loaded: NCCL_NET names a plugin that did not load, or IB and Socket are both disabled",
               "check NCCL_NET, NCCL_NET_PLUGIN, NCCL_IB_DISABLE and the plugin's library path"},
    LogPattern{"nccl.mismatched_collective", "Mismatched collective detected", "", S::nccl, C::fail, 0, 80,
               "ranks called different collectives (or sizes, types, roots) at the same point: an application bug "
               "or ranks whose control flow diverged",
               "rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL (or TORCH_DISTRIBUTED_DEBUG=DETAIL) and compare "
               "the collective sequence of the ranks around the one named"},
    LogPattern{"nccl.mismatched_collective", "Detected mismatch between collectives", "", S::pytorch, C::fail, 0, 80,
               "ranks called different collectives at the same sequence number (TORCH_DISTRIBUTED_DEBUG caught it): "
               "an application bug or ranks whose control flow diverged",
               "compare the two fingerprints the line quotes; find where the ranks' code paths differ"},
    LogPattern{"transport.libibverbs_missing", "Failed to open libibverbs", "", S::nccl, C::warn, 1, 55,
               "libibverbs could not be loaded, so NCCL cannot use InfiniBand/RoCE and falls back to TCP sockets "
               "between nodes",
               "install rdma-core (libibverbs1, the provider libraries) in the image and pass /dev/infiniband into "
               "the container on {host}"},
    LogPattern{"transport.p2p_unavailable", "Custom allreduce is disabled because", "", S::other, C::warn, 1, 50,
               "vLLM found no GPU peer-to-peer path between its GPUs (PCIe-only GPUs, P2P blocked by ACS/IOMMU or a "
               "VM): all-reduce goes through NCCL over PCIe or host memory",
               "nvidia-smi topo -m and nvidia-smi topo -p2p n on {host}; expected on PCIe-only GPUs"},
    LogPattern{"transport.p2p_unavailable", "P2P is disabled between connected GPUs", "", S::nccl, C::warn, 1, 50,
               "NCCL found CUDA peer-to-peer access unavailable between GPUs it sees as connected (PCIe ACS or IOMMU, "
               "a VM or container isolation, or GPUs whose driver disables P2P): their traffic goes through host "
               "memory",
               "nvidia-smi topo -p2p n and nvidia-smi topo -m on {host}; lspci -vvv | grep ACSCtl; expected only on "
               "GPUs without P2P support"},
    LogPattern{"resource.enomem", "Cannot allocate memory", "", S::other, C::fail, 0, 90,
               "an allocation or memory registration failed with ENOMEM (locked-memory limit, NIC resource limits "
               "such as EFA/IB memory regions, or host memory)",
               kMemlock},
    LogPattern{"config.no_path", "Could not find a path for pattern", "", S::nccl, C::warn, 1, 40,
               "topology search fell back to simple order (odd topology, virtualised /sys or a bad NCCL_TOPO_FILE)",
               "nvidia-smi topo -m; check NCCL_TOPO_FILE"},
    LogPattern{"nccl.gdr_disabled_hca", "GPU Direct RDMA Disabled for HCA", "", S::nccl, C::warn, 1, 50,
               "NCCL's GPU Direct RDMA check failed for that HCA (no peermem registration or DMA-BUF)",
               "lsmod | grep nvidia_peermem; check the DMA-BUF capable open driver/kernel and ACS"},
    LogPattern{"transport.gdr_disabled_gpu", "GPU Direct RDMA Disabled for GPU", "", S::nccl, C::warn, 1, 50,
               "NCCL turned GPU Direct RDMA off for a GPU whose PCIe distance to its NIC is above NCCL_NET_GDR_LEVEL "
               "(or the default): that GPU's network traffic is staged through host memory",
               "nvidia-smi topo -m on {host}: which GPUs sit behind a CPU or host bridge from the NIC; check "
               "NCCL_NET_GDR_LEVEL and the GPU-NIC placement"},
    LogPattern{"nccl.env_override", "set by environment to", "", S::nccl, C::info, 2, 5,
               "a user override of NCCL's defaults is active (forcing PROTO, ALGO or IB_DISABLE is a common cause "
               "of slowness or hangs)",
               "check that each override is intended"},
    LogPattern{"nccl.gdrcopy_missing", "Failed to initialize GDRCopy", "", S::ofi_nccl, C::info, 2, 5,
               "GDRCopy is not available", "informational unless the SKU expects GDRCopy"},
    // ---- PyTorch c10d ----
    LogPattern{"pytorch.watchdog_timeout", "Watchdog caught collective operation timeout", "", S::pytorch, C::fail, 0,
               30, "a collective did not finish within the process group timeout", kFlightRecorder},
    LogPattern{"pytorch.watchdog_timeout", "timed out in blocking wait", "", S::pytorch, C::fail, 0, 30,
               "a collective did not finish within the process group timeout (blocking wait)", kFlightRecorder},
    LogPattern{"pytorch.watchdog_timeout", "failure detected by watchdog", "", S::pytorch, C::fail, 0, 30,
               "the process group's watchdog found a collective that failed or did not finish", kFlightRecorder},
    LogPattern{"pytorch.flight_recorder_off", "FlightRecorder is disabled", "", S::pytorch, C::info, 2, 5,
               "no flight-recorder data was collected", kFlightRecorder},
    LogPattern{"pytorch.teardown", "Some NCCL operations have failed or timed out", "", S::pytorch, C::info, 2, 0,
               "c10d teardown boilerplate (not a cause)", "none"},
    LogPattern{"pytorch.teardown", "we are taking the entire process down", "", S::pytorch, C::info, 2, 0,
               "c10d teardown boilerplate (not a cause)", "none"},
    LogPattern{"pytorch.nccl_error", "NCCL error in:", "", S::pytorch, C::fail, 0, 30,
               "an NCCL error surfaced to Python (classified by its 'Last error:' WARN text)",
               "read the NCCL WARN line it quotes; rerun with NCCL_DEBUG=INFO if there is none"},
    LogPattern{"pytorch.nccl_error", "DistBackendError", "", S::pytorch, C::fail, 0, 30,
               "an NCCL error surfaced to Python (classified by its 'Last error:' WARN text)",
               "read the NCCL WARN line it quotes; rerun with NCCL_DEBUG=INFO if there is none"},
    // ---- nccl-tests ----
    LogPattern{"nccl_tests.timeout", "Test timeout", "", S::nccl_tests, C::fail, 0, 55,
               "an operation exceeded nccl-tests' -T timeout (a hang)", "rerun that host or pair alone"},
    LogPattern{"nccl_tests.wrong_results", "# Out of bounds values", "FAILED", S::nccl_tests, C::fail, 0, 90,
               "wrong results: data corruption", "isolate the node; dmesg | grep -i xid"},
    LogPattern{"nccl_tests.low_bandwidth", "# Avg bus bandwidth", "FAILED", S::nccl_tests, C::fail, 0, 60,
               "bus bandwidth below 0.9 x NCCL_TESTS_MIN_BW", "compare per size, not the average"},
    LogPattern{"nccl_tests.failure", "Test NCCL failure", "", S::nccl_tests, C::fail, 0, 35,
               "the benchmark aborted on an NCCL error (classified by its quoted string)",
               "rerun with NCCL_DEBUG=INFO for the WARN behind it", RowRule::quoted_error},
    LogPattern{"nccl_tests.failure", "Test failure", "", S::nccl_tests, C::fail, 0, 35, "the benchmark aborted",
               "rerun with NCCL_DEBUG=INFO"},
    // ---- RAS ----
    LogPattern{"ras.dead_process", "considered dead", "", S::ras, C::fail, 0, 50,
               "a job process is dead (unreachable via the RAS network)",
               "check that host's kmsg / Xid and the process's own log"},
    LogPattern{"ras.missing_process", "Missing communicator data from", "", S::ras, C::warn, 1, 45,
               "a job process did not answer RAS (unresponsive ~5 s)", "query again; check that host"},
    LogPattern{"ras.count_mismatch", "have different", "operation counts", S::ras, C::warn, 1, 40,
               "ranks are at different operation counts (transient unless repeated queries agree)",
               "query ncclras again; if stuck, the smaller group is behind"},
    // ---- host memory, the driver stack, kernel hardware reports ----
    LogPattern{"host.oom", "running low on memory", "", S::other, C::fail, 0, 100,
               "host memory exhausted: Ray's memory monitor killed a worker",
               "reduce host memory use per worker (fewer workers, smaller batches); free -g on {host}"},
    LogPattern{"host.oom", "DefaultCPUAllocator: can't allocate memory", "", S::pytorch, C::fail, 0, 100,
               "host memory exhausted (a CPU tensor allocation failed)", "free -g on {host}; reduce host memory use"},
    LogPattern{"host.oom", "OOMKilled", "", S::other, C::fail, 0, 100,
               "host memory exhausted: Kubernetes killed the container at its memory limit (OOMKilled)",
               "kubectl describe pod; raise the container's memory limit or reduce host memory use"},
    LogPattern{"shm.capacity", "nexpected bus error", "", S::pytorch, C::fail, 0, 90,
               "a DataLoader worker got SIGBUS: /dev/shm too small for its shared memory", kShm},
    LogPattern{"gpu.driver_not_loaded", "couldn't communicate with the NVIDIA driver", "", S::other, C::fail, 0, 95,
               "the NVIDIA driver is not loaded (or the GPUs are gone) on this host",
               "nvidia-smi and lsmod | grep nvidia on {host}; dmesg | grep -i nvrm; reinstall or reload the driver"},
    LogPattern{"gpu.driver_not_loaded", "driver not loaded", "", S::other, C::fail, 0, 95,
               "the NVIDIA driver is not loaded on this host (the container runtime could not reach it)",
               "nvidia-smi and lsmod | grep nvidia on {host}"},
    LogPattern{"gpu.driver_mismatch", "Driver/library version mismatch", "", S::other, C::fail, 0, 95,
               "the loaded NVIDIA kernel module and the user-space driver libraries differ (a driver upgrade without "
               "a reboot)",
               "reboot {host} (or reload the nvidia modules) so the kernel module matches the libraries"},
    LogPattern{"gpu.nvml_unavailable", "Failed to initialize NVML", "", S::other, C::fail, 0, 90,
               "NVML could not start: the driver is missing in the container or mismatched",
               "nvidia-smi on {host} and inside the container; check the container runtime's GPU setup"},
    LogPattern{"gpu.lost", "Unable to determine the device handle for GPU", "", S::other, C::fail, 0, 100,
               "nvidia-smi cannot reach a GPU (a GPU lost to the driver)",
               "drain {host}; nvidia-smi -q and dmesg | grep -i xid on it; reset or reboot, replace if it repeats"},
    LogPattern{"config.container_gpu", "nvidia-container-cli", "error", S::other, C::fail, 0, 90,
               "the NVIDIA container runtime could not give the container its GPUs",
               "nvidia-smi on {host}; check nvidia-container-toolkit and the driver"},
    LogPattern{"config.gpu_unschedulable", "Insufficient nvidia.com/gpu", "", S::other, C::fail, 0, 80,
               "Kubernetes found no node with enough free GPUs: the pod never started",
               "kubectl describe nodes | grep -A5 Allocated; check the device plugin on the GPU nodes"},
    LogPattern{"gpu.nvswitch", "SXid", "Fatal", S::kernel, C::fail, 0, 95, "an NVSwitch reported an error (SXid)",
               "drain {host}; check the fabric manager's log and nvidia-smi nvlink -s; reset the NVSwitch fabric"},
    // The kernel's hardware error records (APEI/GHES, mce): a record is several lines and says its severity
    // in one of them; corrected errors are warnings (a rising count is the sign), uncorrected ones failures.
    LogPattern{"host.hardware_error", "[Hardware Error]", "severity: fatal", S::kernel, C::fail, 0, 95, kHwFatal,
               kHwFatalNext},
    LogPattern{"host.hardware_error", "[Hardware Error]", "ncorrected", S::kernel, C::fail, 0, 95, kHwFatal,
               kHwFatalNext},
    LogPattern{"host.hardware_error", "Fatal machine check", "", S::kernel, C::fail, 0, 95, kHwFatal, kHwFatalNext},
    LogPattern{"host.hardware_corrected", "[Hardware Error]", "", S::kernel, C::warn, 1, 60,
               "the host reported a hardware error record (PCIe AER, memory or CPU); corrected unless a line of the "
               "record says fatal or uncorrected: the hardware works, a rising count is the warning",
               "read the whole record (rasdaemon: ras-mc-ctl --errors; dmesg -T) on {host}; watch the count, and "
               "reseat or replace the device it names if it rises"},
    LogPattern{"host.hardware_error", "EDAC", "UE ", S::kernel, C::fail, 0, 95,
               "an uncorrectable host memory (DIMM) error", "drain {host}; replace the DIMM that EDAC names"},
    // ---- storage: a checkpoint or data read/write that failed ----
    LogPattern{"fs.io_error", "Input/output error", "", S::other, C::fail, 0, 80,
               "a file operation failed with EIO: the filesystem or its storage (Lustre/FSx, NFS, a failing disk) "
               "returned an error",
               "check the filesystem on {host} (lfs check servers, mount, dmesg -T | grep -i -e lustre -e nfs -e "
               "'I/O error'); podperf fs on the same path"},
    LogPattern{"fs.stale_handle", "Stale file handle", "", S::other, C::fail, 0, 80,
               "a file on a network filesystem (NFS) went away under the job (ESTALE)",
               "check the NFS server and mount on {host}; do not let another host replace files the job has open"},
    LogPattern{"fs.no_space", "No space left on device", "", S::other, C::fail, 0, 90,
               "a filesystem (or /dev/shm, /tmp) is full", "df -h on {host} for the path written; free it or grow it"},
    LogPattern{"fs.quota", "Disk quota exceeded", "", S::other, C::fail, 0, 90,
               "the job's user or project ran out of filesystem quota", "lfs quota -u $USER <mount> (or quota -s)"},
    LogPattern{"net.link_down", "Link down", "", S::kernel, C::warn, 1, 65, "a network link went down on this host",
               "ethtool and ibstat on {host}; check the cable, transceiver and switch port"},
    LogPattern{"net.link_down", "link down", "", S::kernel, C::warn, 1, 65, "a network link went down on this host",
               "ethtool and ibstat on {host}; check the cable, transceiver and switch port"},
    LogPattern{"host.hung_task", "blocked for more than", "", S::kernel, C::warn, 1, 40,
               "a task hung in the kernel (often I/O: a stuck filesystem or device)",
               "dmesg -T on {host} for the stack; check the filesystem and devices it names"},
    // ---- the collective layer above NCCL: c10d stores and communicators ----
    LogPattern{"nccl.mismatched_collective", "collective mismatch", "", S::nccl, C::fail, 0, 80,
               "ranks called collectives of different sizes at the same point (an application bug or ranks whose "
               "control flow diverged)",
               "rerun with TORCH_DISTRIBUTED_DEBUG=DETAIL (or NCCL_DEBUG_SUBSYS=COLL) and compare the ranks' calls"},
    LogPattern{"nccl.async_job_failed", "ncclAsyncJobComplete", "failed", S::nccl, C::fail, 0, 45,
               "an NCCL asynchronous job (a communicator's init or a group of calls) failed; its 'job error N' is the "
               "ncclResult (2 system, 3 internal, 5 invalid usage, 6 remote)",
               "read the NCCL WARN lines before it on that rank; rerun with NCCL_DEBUG=INFO"},
    LogPattern{"nccl.aborted", "communicator was aborted", "", S::pytorch, C::fail, 0, 15,
               "the NCCL communicator was aborted (after an error or a timeout elsewhere)",
               "look for the first error before it on any rank"},
    LogPattern{"pytorch.store_error", "DistStoreError", "", S::pytorch, C::fail, 0, 35,
               "the c10d key-value store (rendezvous) failed: ranks did not all join in time, or the store's host "
               "(MASTER_ADDR, rank 0) died or is unreachable",
               "check that every rank started and reaches MASTER_ADDR:MASTER_PORT (firewall, the right interface); "
               "read rank 0's output"},
    LogPattern{"pytorch.store_error", "DistNetworkError", "", S::pytorch, C::fail, 0, 35,
               "the c10d store connection failed: MASTER_ADDR/MASTER_PORT unreachable, or rank 0 died",
               "check that every rank reaches MASTER_ADDR:MASTER_PORT (firewall, the right interface)"},
    LogPattern{"pytorch.store_error", "RendezvousTimeoutError", "", S::pytorch, C::fail, 0, 35,
               "torchelastic's rendezvous timed out: not all nodes joined",
               "check that every node started and reaches the rendezvous endpoint"},
    LogPattern{"pytorch.store_error", "RendezvousConnectionError", "", S::pytorch, C::fail, 0, 35,
               "torchelastic could not connect to the rendezvous store (its endpoint unreachable, or its host not "
               "started)",
               "check that the rendezvous endpoint (--rdzv-endpoint, MASTER_ADDR:MASTER_PORT) is up and reachable from "
               "every node (firewall, the right interface)"},
    LogPattern{"pytorch.store_error", "The client socket has timed out after", "", S::pytorch, C::fail, 0, 35,
               "a rank gave up connecting to the c10d store: MASTER_ADDR/MASTER_PORT unreachable or rank 0 not started",
               "check that MASTER_ADDR:MASTER_PORT is reachable from every node (firewall, the right interface)"},
    LogPattern{"pytorch.store_error", "The client socket has failed to connect", "", S::pytorch, C::warn, 1, 35,
               "a rank could not reach the c10d store (it retries): MASTER_ADDR/MASTER_PORT unreachable or rank 0 "
               "not started",
               "check that MASTER_ADDR:MASTER_PORT is reachable from every node"},
    LogPattern{"net.peer_closed", "Connection reset by peer", "", S::other, C::fail, 0, 10,
               "a peer reset the connection: usually a consequence (it crashed or was killed)",
               "look for the peer's own first error"},
    LogPattern{"net.gloo", "Gloo connectFullMesh failed", "", S::other, C::fail, 0, 60,
               "Gloo could not connect the ranks (interface or firewall)",
               "set GLOO_SOCKET_IFNAME to the interface the nodes share; check the firewall"},
    LogPattern{"training.nan_loss", "NaN loss", "", S::other, C::warn, 1, 45,
               "the loss became NaN: the training diverged or its numbers are corrupt",
               "lower the learning rate or check the loss scaling; if it starts at once on one host, check its GPUs"},
    LogPattern{"training.nan_loss", "Loss is NaN", "", S::other, C::warn, 1, 45,
               "the loss became NaN: the training diverged or its numbers are corrupt",
               "lower the learning rate or check the loss scaling; if it starts at once on one host, check its GPUs"},
    LogPattern{"training.nan_loss", "loss is nan", "", S::other, C::warn, 1, 45,
               "the loss became NaN: the training diverged or its numbers are corrupt",
               "lower the learning rate or check the loss scaling; if it starts at once on one host, check its GPUs"},
    // ---- launchers failing to start the job ----
    LogPattern{"launcher.start_failed", "MPI_INIT failed", "", S::mpi, C::fail, 0, 70,
               "MPI could not initialise (no usable network transport, or a launcher/library mismatch)",
               "read the Open MPI message above it; check the MPI and PMIx versions and the network components"},
    LogPattern{"launcher.start_failed", "was unable to launch the specified application", "", S::mpi, C::fail, 0, 80,
               "mpirun could not start the program (a path, permission or library problem)",
               "check the executable's path on every node and its libraries (ldd)"},
    LogPattern{"launcher.start_failed", "unable to reliably start one or more daemons", "", S::mpi, C::fail, 0, 70,
               "mpirun could not start its daemons on some nodes (ssh, PATH or a firewall)",
               "check passwordless ssh and PATH/LD_LIBRARY_PATH of Open MPI on every node"},
    LogPattern{"launcher.start_failed", "daemon has unexpectedly failed", "", S::mpi, C::fail, 0, 40,
               "an MPI daemon died (its node failed or was killed)", "check the node it names"},
    LogPattern{"launcher.start_failed", "lost communication with a remote daemon", "", S::mpi, C::fail, 0, 40,
               "mpirun lost a node's daemon (the node failed or the network between them)", "check the node it names"},
    LogPattern{"launcher.start_failed", "Unable to create step for job", "", S::slurm, C::fail, 0, 60,
               "Slurm could not start the job step", "read the reason srun gives; squeue/scontrol show job"},
    LogPattern{"slurm.node_failure", "Node failure on", "", S::slurm, C::fail, 0, 90,
               "Slurm lost a node of the job (node failure)", "sinfo -R; scontrol show node on the failed node"},
    LogPattern{"launcher.teardown", "Job step aborted", "", S::slurm, C::fail, 0, 20,
               "Slurm is tearing the job step down after a task failed (a consequence)", kExitNext},
    LogPattern{"mpi.openfabrics", "error initializing an OpenFabrics device", "", S::mpi, C::warn, 1, 45,
               "Open MPI could not use an InfiniBand device (it falls back to a slower transport)",
               "check ibv_devinfo and the Open MPI transport (UCX) settings"},
    // ---- crashes: signals, aborts, native asserts, heap corruption (the signal's class in the rule) ----
    LogPattern{"crash.signal", "Process received signal", "", S::mpi, C::fail, 0, 25,
               "a process was killed by a signal (Open MPI's banner; the signal is named on the line after it)",
               kCrashNext},
    LogPattern{"crash.signal", "Signal: ", "", S::mpi, C::fail, 0, 25, "a process was killed by a signal", kCrashNext,
               RowRule::signal},
    LogPattern{"crash.signal", "Caught signal ", "", S::other, C::fail, 0, 25, "a process was killed by a signal",
               kCrashNext, RowRule::signal},
    LogPattern{"crash.signal", "Fatal Python error: ", "", S::other, C::fail, 0, 25,
               "the Python interpreter was killed by a signal", kCrashNext, RowRule::signal},
    LogPattern{"crash.signal", "core dumped", "", S::other, C::fail, 0, 25, "a process was killed by a signal",
               kCrashNext, RowRule::signal},
    LogPattern{"crash.signal", "exited on signal", "", S::mpi, C::fail, 0, 25, "a rank was killed by a signal",
               kCrashNext, RowRule::signal},
    LogPattern{"crash.signal", "received by PID", "", S::pytorch, C::fail, 0, 25, "a rank was killed by a signal",
               kCrashNext, RowRule::signal},
    LogPattern{"crash.signal", "<Signals.SIG", "", S::pytorch, C::fail, 0, 25, "a rank was killed by a signal",
               kCrashNext, RowRule::signal},
    LogPattern{"crash.signal", "killed by signal", "", S::pytorch, C::fail, 0, 25, "a process was killed by a signal",
               kCrashNext, RowRule::signal},
    LogPattern{"crash.signal", "Killed", "", S::other, C::fail, 0, 20, "a process was killed (SIGKILL)", kCrashNext,
               RowRule::signal},
    LogPattern{"crash.uncaught_exception", "terminate called after throwing an instance of", "", S::other, C::fail, 0,
               25, "an uncaught C++ exception aborted the process (SIGABRT); the what() line after it names the error",
               kCrashNext},
    LogPattern{"crash.uncaught_exception", "terminate called without an active exception", "", S::other, C::fail, 0, 25,
               "std::terminate aborted the process (SIGABRT)", kCrashNext},
    LogPattern{"crash.assert", "Assertion `", "failed", S::other, C::fail, 0, 55,
               "an assertion failed in native code and aborted the process (SIGABRT)", kCrashNext},
    LogPattern{"crash.assert", "Check failed:", "", S::other, C::fail, 0, 55,
               "a CHECK failed in native code and aborted the process", kCrashNext},
    LogPattern{"crash.memory_corruption", "double free or corruption", "", S::other, C::fail, 0, 60,
               "glibc detected heap corruption and aborted the process (a native-code bug)", kCrashNext},
    LogPattern{"crash.memory_corruption", "free(): invalid", "", S::other, C::fail, 0, 60,
               "glibc detected heap corruption and aborted the process (a native-code bug)", kCrashNext},
    LogPattern{"crash.memory_corruption", "malloc(): ", "corrupt", S::other, C::fail, 0, 60,
               "glibc detected heap corruption and aborted the process (a native-code bug)", kCrashNext},
    LogPattern{"crash.memory_corruption", "corrupted size vs. prev_size", "", S::other, C::fail, 0, 60,
               "glibc detected heap corruption and aborted the process (a native-code bug)", kCrashNext},
    LogPattern{"crash.memory_corruption", "munmap_chunk(): invalid pointer", "", S::other, C::fail, 0, 60,
               "glibc detected heap corruption and aborted the process (a native-code bug)", kCrashNext},
    LogPattern{"crash.memory_corruption", "stack smashing detected", "", S::other, C::fail, 0, 60,
               "a stack buffer overflow was detected and the process aborted (a native-code bug)", kCrashNext},
    // ---- launchers, schedulers and serving frameworks: a rank's exit (the status in the rule) ----
    LogPattern{"launcher.exit", "exits with return code", "", S::other, C::fail, 0, 20,
               "a rank exited with a non-zero status", kExitNext, RowRule::exit_status},
    LogPattern{"launcher.exit", "exitcode", "", S::pytorch, C::fail, 0, 20, "a rank exited with a non-zero status",
               kExitNext, RowRule::exit_status},
    LogPattern{"launcher.child_failed", "FAILED with no error file", "", S::pytorch, C::fail, 0, 20,
               "torchelastic reported a failed worker that left no error file (its own error is in its output)",
               kExitNext},
    LogPattern{"launcher.child_failed", "ChildFailedError", "", S::pytorch, C::fail, 0, 20,
               "torchelastic reported a failed worker (its own error is printed above it or in its error file)",
               kExitNext},
    LogPattern{"slurm.daemon_fatal", "slurmd: fatal", "", S::slurm, C::fail, 0, 85,
               "slurmd stopped on a fatal error: the node cannot run jobs",
               "read the error; scontrol show node {host}"},
    LogPattern{"slurm.daemon_fatal", "slurmstepd: fatal", "", S::slurm, C::fail, 0, 60,
               "slurmstepd stopped on a fatal error: the job step on that node is lost", "read the error on {host}"},
    LogPattern{"launcher.exit", "status=1/FAILURE", "", S::other, C::fail, 0, 40,
               "a service or process exited with a failure status (systemd)",
               "systemctl status and journalctl -u of it"},
    LogPattern{"launcher.exit", "command terminated with exit code", "", S::other, C::fail, 0, 20,
               "a command run in a pod (kubectl exec, an MPIJob launcher) exited with a non-zero status", kExitNext,
               RowRule::exit_status},
    LogPattern{"launcher.command_not_found", ": not found", "sh: ", S::other, C::fail, 0, 45, kNotFound, kNotFoundNext},
    LogPattern{"launcher.command_not_found", ": command not found", "", S::other, C::fail, 0, 45, kNotFound,
               kNotFoundNext},
    LogPattern{"launcher.exit", "returned a non-zero exit code", "", S::mpi, C::fail, 0, 20,
               "a rank exited with a non-zero status", kExitNext},
    LogPattern{"launcher.exit", "exited with non-zero status", "", S::mpi, C::fail, 0, 20,
               "a rank exited with a non-zero status", kExitNext},
    LogPattern{"launcher.exit", "exiting improperly", "", S::mpi, C::fail, 0, 20,
               "a rank exited without calling MPI_Finalize", kExitNext},
    LogPattern{"ray.worker_died", "The actor died unexpectedly", "", S::other, C::fail, 0, 25,
               "a Ray worker died (its own error, or the host's OOM killer, is the cause)", kExitNext},
    LogPattern{"ray.worker_died", "ActorDiedError", "", S::other, C::fail, 0, 25,
               "a Ray worker died (its own error, or the host's OOM killer, is the cause)", kExitNext},
    LogPattern{"ray.worker_died", "RayActorError", "", S::other, C::fail, 0, 25,
               "a Ray worker died (its own error, or the host's OOM killer, is the cause)", kExitNext},
    LogPattern{"ray.worker_died", "A worker died or was killed", "", S::other, C::fail, 0, 25,
               "a Ray worker died (its own error, or the host's OOM killer, is the cause)", kExitNext},
    LogPattern{"ray.worker_died", "Worker exit type: SYSTEM_ERROR", "", S::other, C::fail, 0, 25,
               "a Ray worker died (its own error, or the host's OOM killer, is the cause)", kExitNext},
    LogPattern{"vllm.engine_failed", "EngineDeadError", "", S::other, C::fail, 0, 25,
               "the vLLM engine died (a worker's own error is the cause)", kExitNext},
    LogPattern{"vllm.engine_failed", "Engine core initialization failed", "", S::other, C::fail, 0, 25,
               "the vLLM engine failed to start (a worker's own error is the cause)", kExitNext},
    LogPattern{"vllm.engine_failed", "EngineCore failed to start", "", S::other, C::fail, 0, 25,
               "the vLLM engine failed to start (a worker's own error is the cause)", kExitNext},
    LogPattern{"vllm.engine_failed", "WorkerProc hit an exception", "", S::other, C::fail, 0, 25,
               "a vLLM worker raised an exception (printed with it)", kExitNext},
    LogPattern{"vllm.engine_failed", "Engine process failed to start", "", S::other, C::fail, 0, 25,
               "the vLLM engine failed to start (a worker's own error is the cause)", kExitNext},
    LogPattern{"app.interrupted", "KeyboardInterrupt", "", S::other, C::fail, 0, 40,
               "the job was interrupted (SIGINT: Ctrl-C, or a launcher stopping it)",
               "check who stopped the job (the launcher's log, the scheduler's record)"},
    LogPattern{"slurm.node_failure", "DUE TO NODE FAILURE", "", S::slurm, C::fail, 0, 90,
               "Slurm lost a node of the job (node failure)", "sinfo -R; scontrol show node on the failed node"},
    LogPattern{"slurm.oom_kill", "oom_kill event", "", S::slurm, C::fail, 0, 100, "host memory exhausted (OOM killer)",
               "sacct -j <job> -o maxrss; reduce host memory use"},
    LogPattern{"launcher.teardown", "Killing subprocess", "", S::other, C::info, 2, 0,
               "the launcher stops the other ranks after one failed (teardown)", "none"},
    // ---- MPI / Slurm: the launcher saying a process died (cascades) ----
    LogPattern{"mpi.abort", "MPI_ABORT was invoked", "", S::mpi, C::fail, 0, 20,
               "a rank called MPI_Abort (a consequence of the error it reported)", "read that rank's own error"},
    LogPattern{"mpi.abort", "noticed that process rank", "", S::mpi, C::fail, 0, 20,
               "the launcher saw a rank exit (a consequence)", "read that rank's own error"},
    LogPattern{"slurm.time_limit", "DUE TO TIME LIMIT", "", S::slurm, C::fail, 0, 45,
               "the job ran out of its Slurm time limit (a hang or a slow run)", "sacct -j <job> -o elapsed,timelimit"},
    LogPattern{"slurm.cancelled", "CANCELLED AT", "", S::slurm, C::fail, 0, 30,
               "the job or step was cancelled (by a user, the scheduler, or after a failure)",
               "sacct -j <job> -o state,exitcode,reason; look for the first error before it"},
    LogPattern{"slurm.task_failed", "srun: error:", "exited with exit code", S::slurm, C::fail, 0, 15,
               "a task exited non-zero (a consequence)", "read that task's own error"},
    LogPattern{"slurm.task_failed", "srun: error:", "Exited with exit code", S::slurm, C::fail, 0, 15,
               "a task exited non-zero (a consequence)", "read that task's own error"},
    LogPattern{"slurm.task_failed", "srun: error:", "task", S::slurm, C::fail, 0, 15, "a task ended abnormally",
               kExitNext, RowRule::exit_status},
    LogPattern{"slurm.oom_kill", "oom-kill", "", S::slurm, C::fail, 0, 100, "host memory exhausted (OOM killer)",
               "sacct -j <job> -o maxrss; reduce host memory use"},
    LogPattern{"slurm.oom_kill", "Out of memory: Killed process", "", S::kernel, C::fail, 0, 100,
               "host memory exhausted (kernel OOM killer)", "dmesg -T | grep -i oom on that host"},
    // ---- NCCL's own error strings (nccl.h ncclGetErrorString), quoted by any caller: the most generic
    // rows, last, so a line that also names its cause matches that cause's row first ----
    LogPattern{"nccl.system_error", "unhandled system error", "", S::nccl, C::fail, 0, 35,
               "ncclSystemError: a system call failed (socket, shared memory, verbs registration or the OS; mostly "
               "configuration, not hardware)",
               kWarnBefore},
    LogPattern{"nccl.system_error", "ncclSystemError", "", S::nccl, C::fail, 0, 35,
               "ncclSystemError: a system call failed (socket, shared memory, verbs or the OS)", kWarnBefore},
    LogPattern{"nccl.cuda_error", "unhandled cuda error", "", S::nccl, C::fail, 0, 40,
               "ncclUnhandledCudaError: a CUDA call failed inside NCCL", kWarnBefore},
    LogPattern{"nccl.cuda_error", "ncclUnhandledCudaError", "", S::nccl, C::fail, 0, 40,
               "ncclUnhandledCudaError: a CUDA call failed inside NCCL", kWarnBefore},
    LogPattern{"nccl.remote_error", "remote process exited or there was a network error", "", S::nccl, C::fail, 0, 15,
               "ncclRemoteError: a peer process died or the network failed (usually a consequence)",
               "look for the peer's own first error"},
    LogPattern{"nccl.remote_error", "ncclRemoteError", "", S::nccl, C::fail, 0, 15,
               "ncclRemoteError: a peer process died or the network failed (usually a consequence)",
               "look for the peer's own first error"},
    LogPattern{"nccl.internal_error", "internal error - please report this issue", "", S::nccl, C::fail, 0, 15,
               "ncclInternalError: often downstream of a system or remote error", kWarnBefore},
    LogPattern{"nccl.internal_error", "ncclInternalError", "", S::nccl, C::fail, 0, 15,
               "ncclInternalError: often downstream of a system or remote error", kWarnBefore},
    LogPattern{"nccl.invalid_usage", "ncclInvalidUsage", "", S::nccl, C::fail, 0, 60,
               "ncclInvalidUsage: the application or launcher used NCCL wrongly (e.g. two ranks on one GPU)",
               kWarnBefore},
    LogPattern{"nccl.invalid_usage", "invalid usage (run with NCCL_DEBUG=WARN", "", S::nccl, C::fail, 0, 60,
               "ncclInvalidUsage: the application or launcher used NCCL wrongly", kWarnBefore},
    LogPattern{"nccl.invalid_argument", "ncclInvalidArgument", "", S::nccl, C::fail, 0, 60,
               "ncclInvalidArgument: a bad argument to an NCCL call (application bug or mismatched sizes)",
               kWarnBefore},
    LogPattern{"nccl.timeout", "ncclTimeout", "", S::nccl, C::fail, 0, 30, "ncclTimeout: an NCCL operation timed out",
               kWarnBefore},
    // ---- multi-line forms and generic lines: last, so any specific row above wins ----
    LogPattern{"app.traceback", "Traceback (most recent call last)", "", S::other, C::info, 2, 0,
               "a Python traceback starts", "none", RowRule::traceback},
    LogPattern{"launcher.exit", "host      : ", "", S::pytorch, C::info, 2, 0, "torchelastic's failure summary", "none",
               RowRule::elastic_field},
    LogPattern{"libfabric.warn", "libfabric:", "<warn>", S::libfabric, C::warn, 1, 40,
               "libfabric warned (its provider and function are on the line)",
               "read the warning; fi_info -p efa on {host}"},
    LogPattern{"app.python_exception", "Error: ", "", S::other, C::fail, 0, 50,
               "an uncaught Python exception ended the process", "read the traceback above it",
               RowRule::python_exception},
    LogPattern{"app.python_exception", "Exception: ", "", S::other, C::fail, 0, 50,
               "an uncaught Python exception ended the process", "read the traceback above it",
               RowRule::python_exception},
    LogPattern{"app.python_exception", "Error", "", S::other, C::fail, 0, 50,
               "an uncaught Python exception ended the process", "read the traceback above it",
               RowRule::python_exception},
    LogPattern{"completion", "exits successfully", "", S::other, C::info, 2, 0, "a rank finished", "none",
               RowRule::completion},
    LogPattern{"completion", "WorkerState.SUCCEEDED", "", S::pytorch, C::info, 2, 0, "the workers finished", "none",
               RowRule::completion},
    LogPattern{"completion", "Training completed", "", S::other, C::info, 2, 0, "the training finished", "none",
               RowRule::completion},
    LogPattern{"completion", "` stopped: `max_", "", S::other, C::info, 2, 0, "the training finished", "none",
               RowRule::completion},
    LogPattern{"completion", "Application startup complete", "", S::other, C::info, 2, 0, "the server started", "none",
               RowRule::completion},
    LogPattern{"completion", "Test PASSED", "", S::other, C::info, 2, 0, "a GPU test passed (CUDA samples, validators)",
               "none", RowRule::completion},
    LogPattern{"completion", "Test passed", "", S::other, C::info, 2, 0, "a GPU test passed", "none",
               RowRule::completion},
    LogPattern{"completion", "Matrix (GB/s)", "P2P=", S::other, C::info, 2, 0,
               "a GPU bandwidth test printed its results (p2pBandwidthLatencyTest)", "none", RowRule::completion},
    LogPattern{"completion", "# OSU MPI", "", S::other, C::info, 2, 0, "an OSU micro-benchmark ran", "none",
               RowRule::completion},
    LogPattern{"completion", "Physical state: LinkUp", "", S::other, C::info, 2, 0, "an IB port is up", "none",
               RowRule::completion},
    LogPattern{"completion", "Serving Benchmark Result", "", S::other, C::info, 2, 0, "a serving benchmark finished",
               "none", RowRule::completion},
    LogPattern{"completion", "PERFORMANCE OVERVIEW", "", S::other, C::info, 2, 0, "a benchmark finished", "none",
               RowRule::completion},
    LogPattern{"completion", "init engine (profile, create kv cache", "", S::other, C::info, 2, 0,
               "the inference engine started", "none", RowRule::completion},
    LogPattern{"completion", "Pass - All", "", S::other, C::info, 2, 0, "a DCGM diagnostic test passed", "none",
               RowRule::completion},
    LogPattern{"completion", "Pass - GPU", "", S::other, C::info, 2, 0, "a DCGM diagnostic test passed", "none",
               RowRule::completion},
    LogPattern{"training.loss_scale_collapse", "loss scale", "reducing", S::other, C::warn, 1, 45,
               "the fp16 loss scale fell to a few units: gradients overflow at almost every step (a diverging run, "
               "bad data or a learning rate too high); the steps are skipped, so the model does not learn",
               "look for the step where the loss or grad norm first jumped; lower the learning rate, check the data, "
               "or train in bf16",
               RowRule::loss_scale},
    LogPattern{"progress", "loss", "", S::other, C::info, 2, 0, "training progress", "none", RowRule::progress},
    LogPattern{"progress", "Loss", "", S::other, C::info, 2, 0, "training progress", "none", RowRule::progress},
    LogPattern{"progress", "LOSS", "", S::other, C::info, 2, 0, "training progress", "none", RowRule::progress},
    LogPattern{"progress", "samples/sec", "", S::other, C::info, 2, 0, "training progress", "none", RowRule::progress},
    LogPattern{"progress", "SamplesPerSec", "", S::other, C::info, 2, 0, "training progress", "none",
               RowRule::progress},
    LogPattern{"progress", "samples_per_second", "", S::other, C::info, 2, 0, "training progress", "none",
               RowRule::progress},
    LogPattern{"progress", "tokens/s", "", S::other, C::info, 2, 0, "training progress", "none", RowRule::progress},
    LogPattern{"progress", "it/s", "", S::other, C::info, 2, 0, "training progress", "none", RowRule::progress},
    LogPattern{"progress", "TFLOPS", "", S::other, C::info, 2, 0, "training progress", "none", RowRule::progress},
    LogPattern{"env", "NCCL_", "=", S::other, C::info, 2, 5, "an NCCL setting in the job's environment",
               "check that it is intended", RowRule::env_assignment},
};

}  // namespace

std::span<const LogPattern> log_patterns() {
  return kPatterns;
}

namespace {

// A prefilter that keeps the table scan cheap on multi-GiB logs, where almost no line matches: the
// set of adjacent byte pairs (bigrams) of a line, hashed into 4096 bits. A row whose match string has a
// bigram the line lacks cannot match (no false negatives), so its substring search is skipped.

// Up to eight bigrams of each row's match string (spread over it, first and last included) and up to four
// of its second string, computed once, the rarest first: a line must hold all of them for the row's
// substring searches to run. Rows are indexed by their rarest bigram, so a line visits only the rows
// whose rarest bigram it holds (the table has over 200 rows; scanning them all was a quarter of the
// time on a 2 GiB log).
struct RowKey {
  std::array<std::size_t, 12> h{};
  std::size_t n = 0;
};

// How rare a byte pair is in log text, roughly: lower-case letters and blanks are common, capitals,
// digits and punctuation less so.
int rarity(char a, char b) {
  auto one = [](char c) {
    if (c >= 'a' && c <= 'z') return 0;
    if (c == ' ') return 0;
    if (c >= 'A' && c <= 'Z') return 2;
    if (c >= '0' && c <= '9') return 1;
    return 3;
  };
  return one(a) + one(b);
}

void add_bigrams(std::string_view m, std::size_t most, std::vector<std::pair<int, std::size_t>>& all) {
  if (m.size() < 2) return;
  const std::size_t pairs = m.size() - 1;
  const std::size_t take = std::min(most, pairs);
  for (std::size_t j = 0; j < take; ++j) {
    const std::size_t at = take == 1 ? 0 : j * (pairs - 1) / (take - 1);
    all.emplace_back(rarity(m[at], m[at + 1]), bigram_hash(m[at], m[at + 1]));
  }
}

struct RowIndex {
  std::array<RowKey, std::size(kPatterns)> keys{};
  std::array<std::vector<std::uint16_t>, kBigramBits> by_bigram;  // rarest bigram -> rows, in table order
  std::vector<std::uint16_t> unkeyed;                             // rows with no bigram (too short)
};

const RowIndex& row_index() {
  static const RowIndex index = [] {
    RowIndex x;
    for (std::size_t i = 0; i < std::size(kPatterns); ++i) {
      std::vector<std::pair<int, std::size_t>> all;
      add_bigrams(kPatterns[i].match, 8, all);
      add_bigrams(kPatterns[i].also, 4, all);
      std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
      for (const auto& [r, h] : all) x.keys[i].h[x.keys[i].n++] = h;
      if (x.keys[i].n == 0) {
        x.unkeyed.push_back(static_cast<std::uint16_t>(i));
      } else {
        x.by_bigram[x.keys[i].h[0]].push_back(static_cast<std::uint16_t>(i));
      }
    }
    return x;
  }();
  return index;
}

}  // namespace

const LogPattern* match_log_pattern(std::string_view text, const LogPattern* after) {
  return match_log_pattern(text, BigramSet::of(text), after);
}

const LogPattern* match_log_pattern(std::string_view text, const BigramSet& present, const LogPattern* after) {
  const RowIndex& index = row_index();
  const std::size_t start = after ? static_cast<std::size_t>(after - std::data(kPatterns)) + 1 : 0;
  // The rows whose rarest bigram the line holds (the set's bits, each bucket once), then the unkeyed rows.
  std::array<std::uint16_t, std::size(kPatterns)> candidates;
  std::size_t n = 0;
  for (std::size_t w = 0; w < present.words.size(); ++w) {
    for (std::uint64_t bits = present.words[w]; bits != 0; bits &= bits - 1) {
      const std::size_t h = w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
      for (std::uint16_t row : index.by_bigram[h]) {
        if (row >= start) candidates[n++] = row;
      }
    }
  }
  for (std::uint16_t row : index.unkeyed) {
    if (row >= start) candidates[n++] = row;
  }
  std::sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(n));
  for (std::size_t c = 0; c < n; ++c) {
    const std::size_t i = candidates[c];
    const LogPattern& p = kPatterns[i];
    const RowKey& key = index.keys[i];
    bool possible = true;
    for (std::size_t k = 1; k < key.n && possible; ++k) possible = present.has(key.h[k]);
    if (!possible || text.find(p.match) == std::string_view::npos) continue;
    if (!p.also.empty() && text.find(p.also) == std::string_view::npos) continue;
    return &p;
  }
  return nullptr;
}

}  // namespace podperf::logs

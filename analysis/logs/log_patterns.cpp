// The pattern table (contract in log_patterns.hpp). Strings are verbatim from shared/LOG-PATTERNS.md
// sections 1 and 2; causes and next steps summarise its meaning and fix columns.
#include "analysis/logs/log_patterns.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

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

constexpr std::array kPatterns = {
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
    LogPattern{"gpu.xid", "NVRM: Xid", "", S::kernel, C::fail, 0, 100,
               "GPU fault reported by the driver (see shared/FIELD-NOTES.md Xid catalogue)",
               "dmesg -T | grep -i xid on that host; drain or reset the node per the Xid code"},
    LogPattern{"gpu.cuda_init", "Cuda failure", "initialization error", S::nccl, C::fail, 0, 90,
               "CUDA context problem: fork after CUDA init, driver/container mismatch or a GPU fault",
               "nvidia-smi and dmesg | grep -i xid on that host; check the driver against the container's CUDA"},
    LogPattern{"gpu.imex_channel", "Cuda failure", "operation not permitted", S::nccl, C::fail, 0, 90,
               "no write access to /dev/nvidia-caps-imex-channels/channel* (MNNVL)",
               "ls -l /dev/nvidia-caps-imex-channels/ inside the job; pass the IMEX channel into the container"},
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
    LogPattern{"efa.gdr_disabled", "GDR disabled on GDR-supported instance type", "", S::ofi_nccl, C::warn, 1, 50,
               "GPU Direct RDMA turned off on hardware that supports it: data staged through host memory",
               "check FI_EFA_USE_DEVICE_RDMA and nvidia_peermem / the DMA-BUF capable driver"},
    LogPattern{"efa.simple_protocol", "Need to force simple protocol", "", S::ofi_nccl, C::info, 2, 5,
               "LL/LL128 not safe on this path; NCCL uses Simple", "none"},
    // ---- sockets / bootstrap ----
    LogPattern{"net.no_socket_interface", "no socket interface found", "", S::nccl, C::fail, 0, 90,
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
    LogPattern{"config.no_path", "Could not find a path for pattern", "", S::nccl, C::warn, 1, 40,
               "topology search fell back to simple order (odd topology, virtualised /sys or a bad NCCL_TOPO_FILE)",
               "nvidia-smi topo -m; check NCCL_TOPO_FILE"},
    LogPattern{"nccl.gdr_disabled_hca", "GPU Direct RDMA Disabled for HCA", "", S::nccl, C::warn, 1, 50,
               "NCCL's GPU Direct RDMA check failed for that HCA (no peermem registration or DMA-BUF)",
               "lsmod | grep nvidia_peermem; check the DMA-BUF capable open driver/kernel and ACS"},
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
               "rerun with NCCL_DEBUG=INFO for the WARN behind it"},
    LogPattern{"nccl_tests.failure", "Test CUDA failure", "", S::nccl_tests, C::fail, 0, 40,
               "the benchmark aborted on a CUDA error", "nvidia-smi; dmesg | grep -i xid"},
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
    // ---- MPI / Slurm: the launcher saying a process died (cascades) ----
    LogPattern{"mpi.abort", "MPI_ABORT was invoked", "", S::mpi, C::fail, 0, 20,
               "a rank called MPI_Abort (a consequence of the error it reported)", "read that rank's own error"},
    LogPattern{"mpi.abort", "noticed that process rank", "", S::mpi, C::fail, 0, 20,
               "the launcher saw a rank exit (a consequence)", "read that rank's own error"},
    LogPattern{"slurm.time_limit", "DUE TO TIME LIMIT", "", S::slurm, C::fail, 0, 45,
               "the job ran out of its Slurm time limit (a hang or a slow run)", "sacct -j <job> -o elapsed,timelimit"},
    LogPattern{"slurm.task_failed", "srun: error:", "exited with exit code", S::slurm, C::fail, 0, 15,
               "a task exited non-zero (a consequence)", "read that task's own error"},
    LogPattern{"slurm.task_failed", "srun: error:", "Exited with exit code", S::slurm, C::fail, 0, 15,
               "a task exited non-zero (a consequence)", "read that task's own error"},
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
};

}  // namespace

std::span<const LogPattern> log_patterns() {
  return kPatterns;
}

namespace {

// A prefilter that keeps the table scan cheap on multi-GiB logs, where almost no line matches: the
// set of adjacent byte pairs (bigrams) of a line, hashed into 4096 bits. A row whose match string has a
// bigram the line lacks cannot match (no false negatives), so its substring search is skipped.
constexpr std::size_t kBigramBits = 4096;

constexpr std::size_t bigram_hash(char a, char b) {
  return (static_cast<unsigned char>(a) * 131u + static_cast<unsigned char>(b)) % kBigramBits;
}

struct BigramSet {
  std::array<std::uint64_t, kBigramBits / 64> words{};
  void add(std::size_t h) { words[h / 64] |= std::uint64_t{1} << (h % 64); }
  [[nodiscard]] bool has(std::size_t h) const { return (words[h / 64] >> (h % 64)) & 1u; }
};

// Up to three bigrams of each row's match string (first, middle, last), computed once.
struct RowKey {
  std::array<std::size_t, 3> h{};
  std::size_t n = 0;
};

const std::array<RowKey, kPatterns.size()>& row_keys() {
  static const std::array<RowKey, kPatterns.size()> keys = [] {
    std::array<RowKey, kPatterns.size()> k{};
    for (std::size_t i = 0; i < kPatterns.size(); ++i) {
      const std::string_view m = kPatterns[i].match;
      if (m.size() < 2) continue;
      for (std::size_t at : {std::size_t{0}, (m.size() - 2) / 2, m.size() - 2}) {
        k[i].h[k[i].n++] = bigram_hash(m[at], m[at + 1]);
      }
    }
    return k;
  }();
  return keys;
}

}  // namespace

const LogPattern* match_log_pattern(std::string_view text) {
  BigramSet present;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) present.add(bigram_hash(text[i], text[i + 1]));
  const auto& keys = row_keys();
  for (std::size_t i = 0; i < kPatterns.size(); ++i) {
    const LogPattern& p = kPatterns[i];
    bool possible = true;
    for (std::size_t k = 0; k < keys[i].n && possible; ++k) possible = present.has(keys[i].h[k]);
    if (!possible || text.find(p.match) == std::string_view::npos) continue;
    if (!p.also.empty() && text.find(p.also) == std::string_view::npos) continue;
    return &p;
  }
  return nullptr;
}

}  // namespace podperf::logs

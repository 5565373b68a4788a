#pragma once
// The order of likely causes: where a host finding ranks when podperf lists the causes of a slow pair
// (a straggler, a slow link) or of a slow filesystem node, lower first. One scale, here; every table
// that writes host findings names a rank per row (signals/rules.cpp, bench/efa_rounds.cpp,
// analysis/logs/nccl_log_findings.cpp), so a new rule must say where it ranks.
namespace podperf::cause_rank {

// A slow pair: hardware errors during the run first (Xids, lost or degraded GPUs, EFA errors), then
// throttled GPUs and PCIe, then the transport, then the host's configuration.
inline constexpr int kXid = 0;
inline constexpr int kGpuLost = 1;
inline constexpr int kGpuRowRemap = 2;
inline constexpr int kGpuEcc = 3;
inline constexpr int kGpuNvlink = 4;
inline constexpr int kGpuFabric = 5;
inline constexpr int kEfaRoundErrors = 6;
inline constexpr int kEfaCounters = 7;
inline constexpr int kGpuClockEvents = 9;
inline constexpr int kGpuTemperature = 10;
inline constexpr int kPcie = 11;
inline constexpr int kTcpFallback = 12;
inline constexpr int kLibfabricTcp = 13;
inline constexpr int kNoGdrdma = 14;
inline constexpr int kEfaCount = 15;
inline constexpr int kLibfabric = 16;
inline constexpr int kNcclOther = 17;  // NCCL's other findings, NCCL's version
inline constexpr int kGovernor = 18;
inline constexpr int kIowait = 19;
inline constexpr int kSteal = 20;
inline constexpr int kMemlock = 21;
inline constexpr int kShm = 22;
inline constexpr int kGpuOther = 23;
inline constexpr int kOther = 24;  // configuration that rarely slows a pair (kernel, stack, versions)

// A slow filesystem node: I/O wait, a full root or data mount, Lustre OSTs, then the rest in order.
inline constexpr int kFsIowait = 0;
inline constexpr int kFsRootFull = 1;
inline constexpr int kFsMounts = 2;
inline constexpr int kFsLustreOst = 3;
inline constexpr int kFsOther = 5;

}  // namespace podperf::cause_rank

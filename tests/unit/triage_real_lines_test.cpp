// podperf triage on real-format lines: every error and transport string triage knows,
// filled in the way NCCL, aws-ofi-nccl, libfabric, PyTorch c10d, nccl-tests, RAS, the kernel and the
// launchers print them (with the wrappers of section 0), each mapped to the finding it must produce.
// The error rate of the table (rows whose first finding is not the expected one) must be zero, and no
// row with a FAIL-class line may give PASS.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/logs/log_reader.hpp"
#include "analysis/logs/triage.hpp"

namespace podperf::logs {
namespace {

struct RealLine {
  std::string line;   // as printed, wrappers included
  std::string check;  // the finding it must produce
  std::string tag;    // its tag
};

// clang-format off
const std::vector<RealLine> kRealLines = {
  // CUDA / GPU
  {"node-b2:9001:9100 [3] enqueue.cc:1532 NCCL WARN Cuda failure 'out of memory'", "gpu.cuda_oom", "FAIL"},
  {"3: node-b2:9001:9100 [3] NCCL WARN Failed to CUDA calloc 33554432 bytes", "gpu.cuda_oom", "FAIL"},
  {"[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "gpu.cuda_oom", "FAIL"},
  {"node-c:11:12 [0] init.cc:402 NCCL WARN Cuda failure 3 'initialization error'", "gpu.cuda_init", "FAIL"},
  {"node-c:11:12 [0] NCCL WARN Cuda failure 800 'operation not permitted'", "gpu.imex_channel", "FAIL"},
  {"[ 4211.123456] NVRM: Xid (PCI:0000:b9:00): 79, pid=2211, name=python, GPU has fallen off the bus.", "gpu.xid", "FAIL"},
  // shared memory
  {"node-1:22:33 [6] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-Qm71Xa to 9637892 bytes, error: No space left on device (28)", "shm.capacity", "FAIL"},
  {"node-1:22:33 [6] NCCL WARN Call to posix_fallocate failed : No space left on device", "shm.capacity", "FAIL"},
  {"node-1:22:33 [6] misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Qm71Xa (size 9637888), error: No space left on device (28)", "shm.capacity", "FAIL"},
  {"node-1:22:33 [6] misc/shmutils.cc:132 NCCL WARN Error while attaching to shared memory segment /dev/shm/nccl-Qm71Xa (size 9637888), error: No such file or directory (2)", "shm.attach", "FAIL"},
  {"node-1:22:33 [6] NCCL WARN unlink shared memory /dev/shm/nccl-Qm71Xa failed, error: No such file or directory (2)", "shm.unlinked", "FAIL"},
  {"srun: error: node-1: task 3: Bus error", "shm.capacity", "FAIL"},
  // IB verbs
  {"gpu-01:101:202 [0] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_mr failed", "ib.memlock", "FAIL"},
  {"gpu-01:101:202 [0] NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory", "ib.memlock", "FAIL"},
  {"gpu-01:101:202 [0] NCCL WARN Call to ibv_create_qp failed", "ib.memlock", "FAIL"},
  {"gpu-01:101:202 [0] NCCL WARN Call to ibv_modify_qp failed with 22 Invalid argument, on dev mlx5_0:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:10.0.0.1, remote GID ::ffff:10.0.0.2", "ib.modify_qp", "FAIL"},
  {"gpu-01:101:202 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<34567> with error 12, opcode 0, len 0, vendor err 129", "ib.completion_error", "FAIL"},
  {"gpu-01:101:202 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<34567> with status=4 opcode=0 len=0 vendor err 81 (Send) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2", "ib.completion_local_protection", "FAIL"},
  {"gpu-01:101:202 [0] NCCL WARN NET/IB: Got completion from peer 10.0.0.2<34567> with status=WR_FLUSH_ERR(5) opcode=SEND(0) vendor_err=249 hca mlx5_0", "ib.completion_flush", "FAIL"},
  {"gpu-01:101:202 [0] NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port error(10)", "ib.async_event", "WARN"},
  // EFA / aws-ofi-nccl / libfabric
  {"libfabric:8812:1700000000::core:core:fi_getinfo_():1138<warn> fi_getinfo: provider efa output empty list", "efa.not_visible", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI No eligible providers were found", "efa.not_visible", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI Couldn't open CQ. RC: -12, ERROR: Cannot allocate memory", "efa.libfabric_object", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI Couldn't open AV. RC: -22, ERROR: Invalid argument", "efa.libfabric_object", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI aws-ofi-nccl initialization failed", "efa.plugin_init_failed", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI Unable to find a protocol that worked.  Failing initialization.", "efa.no_protocol", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI EFA provider requires at least libfabric version 1.22.0.", "efa.libfabric_too_old", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI GDR support reported to NCCL but then couldn't be configured on an endpoint.  Cannot continue.", "efa.gdr_half_configured", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI Disabling shared memory failed: -22", "efa.shm_disable", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI Unable to register memory (type = 2) for device 4. RC: -12, Error: Cannot allocate memory", "efa.mr_registration", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI Unable to register memory (type = 2) for device 4. RC: -22, Error: Invalid argument", "efa.mr_registration_einval", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI Could not register memory on rail 3 with flag 2", "efa.mr_registration", "FAIL"},
  {"[Mon Nov 30 10:00:00 2026] infiniband efa_0: Failed to process command REG_MR (opcode 7) comp_status 1 err -12", "efa.mr_registration", "FAIL"},
  {"p5-1:77:88 [0] NCCL WARN NET/OFI GDR disabled on GDR-supported instance type p5.48xlarge", "efa.gdr_disabled", "WARN"},
  // sockets / bootstrap
  {"[1,3]<stdout>:node-2:41:42 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.5<48111> failed : Connection refused", "net.connect_failed", "FAIL"},
  {"node-2:41:42 [0] NCCL WARN ncclOsSocketConnect: connect to 10.0.0.5<48111> returned Connection timed out, exceeded error retry count after 35 attempts", "net.connect_failed", "FAIL"},
  {"node-2:41:42 [0] NCCL WARN socketPollConnect: Connect to 10.0.0.5<48111> returned 113(No route to host) errno 113(No route to host)", "net.connect_failed", "FAIL"},
  {"node-2:41:42 [0] NCCL WARN Bootstrap : no socket interface found", "net.no_socket_interface", "FAIL"},
  {"node-2:41:42 [0] NCCL WARN NET/Socket : peer 10.0.0.5<48111> message truncated : receiving 1048576 bytes instead of 65536. If you believe your socket network is in a healthy state, there may be a mismatch in collective sizes or environment settings (e.g. NCCL_PROTO, NCCL_ALGO) between ranks", "net.message_truncated", "FAIL"},
  {"node-2:41:42 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer node-3<54012>", "net.peer_closed", "FAIL"},
  {"node-2:41:42 [0] NCCL WARN Net : Call to recv from 10.0.0.5<48111> failed : Broken pipe", "net.socket_io", "FAIL"},
  {"node-2:41:42 [0] proxy.cc:1326 NCCL WARN Socket recv failed while polling for opId=0x7f3b2c00a8e0", "net.proxy_lost", "FAIL"},
  // configuration
  {"node-2:41:42 [0] init.cc:944 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1b000", "config.duplicate_gpu", "FAIL"},
  {"node-2:41:42 [0] NCCL WARN Multiple Ranks are using the same GPU/Partition. Set NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this configuration.", "config.duplicate_gpu", "FAIL"},
  {"node-2:41:42 [0] NCCL WARN Mismatched NCCL version detected : rank 0 version 22105 rank 3 version 21805", "config.nccl_version_mismatch", "FAIL"},
  {"node-2:41:42 [0] NCCL WARN Failed to initialize any NET plugin", "config.no_net_plugin", "FAIL"},
  {"node-2:41:42 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'", "nccl.gdr_disabled_hca", "WARN"},
  {"node-2:41:42 [0] NCCL INFO Could not find a path for pattern 4, falling back to simple order", "config.no_path", "WARN"},
  // PyTorch c10d
  {"[rank0]:[E1130 10:00:00.123 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=57, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=600000) ran for 600013 milliseconds before timing out.", "pytorch.watchdog_timeout", "FAIL"},
  {"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5", "pytorch.nccl_error", "FAIL"},
  {"RuntimeError: [Rank 3] Work WorkNCCL(SeqNum=9, OpType=BROADCAST, Timeout(ms)=1800000) timed out in blocking wait.", "pytorch.watchdog_timeout", "FAIL"},
  // nccl-tests
  {"node-1: Test NCCL failure common.cu:1005 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '", "nccl_tests.failure", "FAIL"},
  {"node-1: Test CUDA failure common.cu:892 'an illegal memory access was encountered'", "nccl_tests.failure", "FAIL"},
  {"node-1: Test timeout (600s) all_reduce.cu:88", "nccl_tests.timeout", "FAIL"},
  {"# Out of bounds values : 12 FAILED", "nccl_tests.wrong_results", "FAIL"},
  {"# Avg bus bandwidth    : 12.5 FAILED", "nccl_tests.low_bandwidth", "FAIL"},
  // RAS text
  {"  Missing communicator data from 1 job process", "ras.missing_process", "WARN"},
  {"  job process 10.1.0.12:5302 is considered dead (unreachable via the RAS network)", "ras.dead_process", "FAIL"},
  {"  Communicator ranks have different collective operation counts", "ras.count_mismatch", "WARN"},
  {"node-2:41:42 [0] NCCL WARN NCCL version mismatch with remote peer 10.1.0.12<28028> (local: 2.30.7, remote 2.28.3)", "config.nccl_version_mismatch", "FAIL"},
  // launchers
  {"MPI_ABORT was invoked on rank 3 in communicator MPI_COMM_WORLD with errorcode 1.", "mpi.abort", "FAIL"},
  {"slurmstepd: error: *** JOB 1234 ON node-1 CANCELLED AT 2026-11-30T10:00:00 DUE TO TIME LIMIT ***", "slurm.time_limit", "FAIL"},
  {"[ 9911.000001] Out of memory: Killed process 2211 (python) total-vm:1234kB", "slurm.oom_kill", "FAIL"},
  // NCCL return strings and chains
  {"node-2:41:42 [0] NCCL INFO transport/net.cc:1302 -> 2", "nccl.rc.ncclSystemError", "FAIL"},
  {"ncclUnhandledCudaError: Call to CUDA function failed.", "nccl.cuda_error", "FAIL"},
  {"ncclRemoteError: remote process exited or there was a network error", "nccl.remote_error", "FAIL"},
  {"node-2:41:42 [0] NCCL WARN some warning no table row knows", "nccl.warn", "WARN"},
};
// clang-format on

TriageResult triage_of(const std::string& text) {
  TriageAccumulator acc;
  std::size_t order = 0;
  acc.add_file(read_log_text(text, "real.log", order, [&](const LogEvent& ev) { acc.add(ev); }));
  return acc.finish();
}

TEST(TriageRealLines, EachLineGivesItsFinding) {
  std::size_t wrong = 0;
  for (const RealLine& row : kRealLines) {
    const TriageResult r = triage_of(row.line + "\n");
    ASSERT_FALSE(r.findings.empty()) << row.line;
    const TriageFinding& first = r.findings.front();
    const bool ok = first.check == row.check && first.tag == row.tag;
    if (!ok) ++wrong;
    EXPECT_TRUE(ok) << row.line << "\n  wanted " << row.tag << " " << row.check << ", got " << first.tag << " "
                    << first.check;
    if (row.tag == "FAIL") {
      EXPECT_NE(r.verdict, "PASS") << row.line;
      EXPECT_TRUE(r.has_fail()) << row.line;
    }
    if (row.tag == "WARN") {
      EXPECT_NE(r.verdict, "PASS") << row.line;
    }
  }
  EXPECT_EQ(wrong, 0u) << wrong << " of " << kRealLines.size() << " real lines misread";
}

TEST(TriageRealLines, TransportLinesCarryTheVerdict) {
  const std::string p = "node-1:10:11 [0] NCCL INFO ";
  const std::string q = "node-2:20:21 [0] NCCL INFO ";
  // Socket between two nodes: the TCP fallback (WARN), never PASS.
  const TriageResult tcp = triage_of(p + "Using network Socket\n" + q + "Using network Socket\n" + p +
                                     "comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0\n");
  EXPECT_EQ(tcp.verdict, "WARN");
  // NET/IB : Using with a missing external plugin is IB, not a fallback.
  const TriageResult ib = triage_of(p + "NET/Plugin: Could not find: libnccl-net.so\n" + p +
                                    "NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>\n" + q +
                                    "NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.2<0>\n");
  for (const TriageFinding& f : ib.findings) EXPECT_NE(f.check, "transport.tcp_fallback");
  // Old wording of the Socket transport.
  const TriageResult old = triage_of(p + "Using internal Network Socket\n" + q + "Using internal Network Socket\n");
  bool fallback = false;
  for (const TriageFinding& f : old.findings) fallback = fallback || f.check == "transport.tcp_fallback";
  EXPECT_TRUE(fallback);
  // Channels without GDRDMA, SHM inside a node, libfabric over tcp, environment overrides.
  const TriageResult degraded =
      triage_of(p + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/Libfabric/0\n" + p +
                "Channel 00 : 0[0] -> 1[1] via SHM/direct/direct\n" + p + "Channel 00 : 2[2] -> 3[3] via P2P/IPC\n" +
                p + "NET/OFI Selected provider is tcp, fabric is 10.0.0.0/16 (found 1 nics)\n" + p +
                "NCCL_PROTO set by environment to LL\n");
  std::vector<std::string> checks;
  for (const TriageFinding& f : degraded.findings) checks.push_back(f.check);
  for (const std::string want : {"transport.shm_intra_node", "transport.libfabric_tcp", "nccl.env_overrides"}) {
    EXPECT_NE(std::find(checks.begin(), checks.end(), want), checks.end()) << want;
  }
  // Over tcp, missing GDRDMA is expected: no second finding.
  EXPECT_EQ(std::find(checks.begin(), checks.end(), "transport.no_gdrdma"), checks.end());
  const TriageResult nogdr = triage_of(p + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0\n");
  ASSERT_FALSE(nogdr.findings.empty());
  EXPECT_EQ(nogdr.findings.front().check, "transport.no_gdrdma");
  EXPECT_EQ(nogdr.verdict, "WARN");
}

}  // namespace
}  // namespace podperf::logs

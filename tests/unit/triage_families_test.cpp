// podperf triage by families, not strings (issue 33): every CUDA error of the generated table and every
// NCCL result code mapped to a class, Xid codes with their meaning and the node named in the next step,
// crashes (signal banners, backtraces, core dumps, launcher and torchelastic exit statuses, Python
// exceptions), hosts from the line itself (or its launcher task, its pid, the file's name) and never from
// the line before it, nested launcher prefixes, the verdict semantics (FAIL without its cause, INCONCLUSIVE
// only when the logs cannot say whether the job ran, PASS only on healthy evidence) and the degraded
// transports that are WARN with the setting to fix.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/logs/code_tables.hpp"
#include "analysis/logs/cuda_errors.hpp"
#include "analysis/logs/log_patterns.hpp"
#include "analysis/logs/log_prefix.hpp"
#include "analysis/logs/log_reader.hpp"
#include "analysis/logs/triage.hpp"
#include "analysis/report/triage_report.hpp"

namespace podperf::logs {
namespace {

TriageResult triage_of(const std::string& text, const std::string& name = "job.log") {
  TriageAccumulator acc;
  std::size_t order = 0;
  acc.add_file(read_log_text(text, name, order, [&](const LogEvent& ev) { acc.add(ev); }));
  return acc.finish();
}

const TriageFinding* find(const TriageResult& r, const std::string& check) {
  for (const TriageFinding& f : r.findings) {
    if (f.check == check) return &f;
  }
  return nullptr;
}

bool contains(const std::string& s, const std::string& p) {
  return s.find(p) != std::string::npos;
}

LogEvent parsed(std::string_view line) {
  LogEvent ev;
  parse_log_line(line, ev);
  return ev;
}

// ---- the CUDA error table ----

TEST(TriageCudaErrors, EveryErrorOfTheTableHasAClass) {
  ASSERT_GE(cuda_errors().size(), 100u);  // CUDA 13 has 133 errors; the committed table is always there
  for (const CudaError& e : cuda_errors()) {
    EXPECT_TRUE(e.name.starts_with("cudaError")) << e.name;
    EXPECT_FALSE(e.text.empty()) << e.name;
    const CudaErrorClass& c = cuda_error_class(e.name);
    EXPECT_FALSE(c.check.empty()) << e.name;
    EXPECT_FALSE(c.cause.empty()) << e.name;
    EXPECT_FALSE(c.next_step.empty()) << e.name;
    // Each text quoted as PyTorch prints it is found again as that error.
    const CudaErrorClass* fam = nullptr;
    const CudaError* back = find_cuda_error("RuntimeError: CUDA error: " + std::string(e.text), &fam);
    ASSERT_NE(back, nullptr) << e.name;
    ASSERT_NE(fam, nullptr) << e.name;
    EXPECT_EQ(cuda_error_class(back->name).check, c.check) << e.name << " came back as " << back->name;
  }
}

TEST(TriageCudaErrors, FamiliesOfTheClasses) {
  EXPECT_EQ(cuda_error_class("cudaErrorMemoryAllocation").check, "gpu.cuda_oom");
  EXPECT_EQ(cuda_error_class("cudaErrorECCUncorrectable").check, "gpu.ecc_uncorrectable");
  EXPECT_EQ(cuda_error_class("cudaErrorNvlinkUncorrectable").check, "gpu.nvlink_error");
  EXPECT_EQ(cuda_error_class("cudaErrorIllegalAddress").check, "cuda.illegal_memory_access");
  EXPECT_EQ(cuda_error_class("cudaErrorLaunchFailure").check, "cuda.kernel_fault");
  EXPECT_EQ(cuda_error_class("cudaErrorAssert").check, "cuda.device_assert");
  EXPECT_EQ(cuda_error_class("cudaErrorNoKernelImageForDevice").check, "cuda.no_kernel_image");
  EXPECT_EQ(cuda_error_class("cudaErrorInsufficientDriver").check, "cuda.driver_mismatch");
  EXPECT_EQ(cuda_error_class("cudaErrorNoDevice").check, "cuda.no_device");
  EXPECT_EQ(cuda_error_class("cudaErrorInitializationError").check, "gpu.cuda_init");
  EXPECT_EQ(cuda_error_class("cudaErrorNotPermitted").check, "gpu.imex_channel");
  EXPECT_EQ(cuda_error_class("cudaErrorCudartUnloading").check, "cuda.teardown");
  EXPECT_EQ(cuda_error_class("cudaErrorSomethingNew").check, "cuda.api_error");
}

TEST(TriageCudaErrors, QuotedAsEveryCallerPrintsThem) {
  const CudaErrorClass* fam = nullptr;
  ASSERT_NE(find_cuda_error("init.cc:194 Cuda failure 'an illegal memory access was encountered'", &fam), nullptr);
  EXPECT_EQ(fam->check, "cuda.illegal_memory_access");
  ASSERT_NE(find_cuda_error("CUDA_ERROR_ECC_UNCORRECTABLE", &fam), nullptr);
  EXPECT_EQ(fam->check, "gpu.ecc_uncorrectable");
  ASSERT_NE(find_cuda_error("failed with CUDA_ERROR_OUT_OF_MEMORY", &fam), nullptr);
  EXPECT_EQ(fam->check, "gpu.cuda_oom");
  ASSERT_NE(find_cuda_error("returned cudaErrorLaunchFailure", &fam), nullptr);
  EXPECT_EQ(fam->check, "cuda.kernel_fault");
  // Another CUDA version's wording: the family of the words.
  EXPECT_EQ(find_cuda_error("CUDA error: all CUDA-capable devices are busy or unavailable", &fam), nullptr);
  ASSERT_NE(fam, nullptr);
  EXPECT_EQ(fam->check, "cuda.no_device");
}

TEST(TriageCudaErrors, LinesBecomeTheirClass) {
  const TriageResult ecc = triage_of(
      "[default0]:[rank12]:[E ProcessGroupNCCL.cpp:916] [Rank 12] NCCL watchdog thread terminated with exception: "
      "CUDA error: uncorrectable ECC error encountered\n");
  EXPECT_EQ(ecc.verdict, "FAIL");
  EXPECT_EQ(ecc.findings.front().check, "gpu.ecc_uncorrectable");
  EXPECT_EQ(ecc.findings.front().role, "cause");
  const TriageResult assert_ = triage_of("RuntimeError: CUDA error: device-side assert triggered\n");
  EXPECT_EQ(assert_.findings.front().check, "cuda.device_assert");
  // Not an error: a line that only mentions CUDA errors.
  const TriageResult talk = triage_of("INFO setting CUDA error checking to lazy mode\n");
  EXPECT_EQ(find(talk, "cuda.api_error"), nullptr);
}

// ---- NCCL result codes ----

TEST(TriageNcclResults, EveryCodeHasAClassByNameTextAndChain) {
  ASSERT_EQ(nccl_results().size(), 8u);
  for (const NcclResult& r : nccl_results()) {
    EXPECT_EQ(return_code_name(r.rc), r.name);
    if (r.rc == 7) continue;  // ncclInProgress is not an error
    const TriageResult by_name = triage_of(std::string(r.name) + ": call failed\n");
    ASSERT_FALSE(by_name.findings.empty()) << r.name;
    EXPECT_EQ(by_name.findings.front().check, r.check) << r.name;
    EXPECT_EQ(by_name.verdict, "FAIL") << r.name;
    const TriageResult by_chain =
        triage_of("h1:1:2 [0] NCCL INFO transport/net.cc:1 -> " + std::to_string(r.rc) + "\n");
    ASSERT_FALSE(by_chain.findings.empty()) << r.name;
    EXPECT_EQ(by_chain.findings.front().check, "nccl.rc." + std::string(r.name));
  }
  EXPECT_EQ(nccl_result_in("NCCL error in: x.cpp:1, unhandled system error (run with NCCL_DEBUG=INFO)")->rc, 2);
  EXPECT_EQ(nccl_result_in("NCCL error in: x.cpp:1, invalid usage (run with NCCL_DEBUG=WARN for details)")->rc, 5);
  EXPECT_EQ(nccl_result_in("an invalid usage of the API"), nullptr);  // common words outside NCCL's error
}

// ---- Xid ----

TEST(TriageXid, MeaningActionAndTheNodeInTheNextStep) {
  const TriageResult hw = triage_of(
      "2025-05-01T10:00:00+0000 ip-10-1-9-9 kernel: NVRM: Xid (PCI:0000:b9:00): 79, pid=2211, "
      "name=python, GPU has fallen off the bus.\n");
  ASSERT_FALSE(hw.findings.empty());
  const TriageFinding& f = hw.findings.front();
  EXPECT_EQ(f.check, "gpu.xid");
  EXPECT_EQ(f.host, "ip-10-1-9-9");
  EXPECT_TRUE(contains(f.cause, "Xid 79")) << f.cause;
  EXPECT_TRUE(contains(f.cause, "hardware")) << f.cause;
  EXPECT_TRUE(contains(f.next_step, "drain ip-10-1-9-9")) << f.next_step;
  EXPECT_TRUE(contains(f.next_step, "NodeName=ip-10-1-9-9")) << f.next_step;
  const TriageResult app = triage_of(
      "Mar  4 13:59:01 gpu-7 kernel: NVRM: Xid (PCI:0000:3b:00): 13, Graphics "
      "Exception: ESR 0x404600=0x80000002\n");
  EXPECT_EQ(app.findings.front().host, "gpu-7");
  EXPECT_TRUE(contains(app.findings.front().cause, "usually the application")) << app.findings.front().cause;
  EXPECT_TRUE(contains(app.findings.front().next_step, "keep gpu-7 in service")) << app.findings.front().next_step;
  EXPECT_LT(app.findings.front().cause_rank, hw.findings.front().cause_rank);
  const TriageResult info = triage_of("[ 12.5] NVRM: Xid (PCI:0000:3b:00): 63, pid=1, Row Remapper: New row\n");
  EXPECT_EQ(info.findings.front().tag, "WARN");
  const TriageResult plugin =
      triage_of("2020/08/10 19:09:42 XidCriticalError: Xid=48 on Device=GPU-1a2b, the device will go unhealthy.\n",
                "logs/node-a7/device-plugin.log");
  EXPECT_EQ(plugin.findings.front().check, "gpu.xid");
  EXPECT_TRUE(contains(plugin.findings.front().cause, "Xid 48")) << plugin.findings.front().cause;
  EXPECT_EQ(plugin.findings.front().host, "node-a7");  // from the folder's name
  const TriageResult unknown = triage_of("NVRM: Xid (PCI:0000:3b:00): 999, something new\n");
  EXPECT_TRUE(contains(unknown.findings.front().cause, "does not know")) << unknown.findings.front().cause;
  EXPECT_EQ(unknown.findings.front().host, "unknown");
  EXPECT_TRUE(contains(unknown.findings.front().next_step, "its lines name none"));
  for (const XidCode& x : xid_codes()) EXPECT_FALSE(x.meaning.empty()) << x.code;
}

// The names of the developers' notes a clone lacks, spelt so that this file does not cite them itself.
const std::string kFieldNotes = std::string("FIELD") + "-NOTES";
const std::string kLogPatterns = std::string("LOG") + "-PATTERNS";

TEST(TriageXid, NoOutputNamesAFileUsersLack) {
  for (const LogPattern& p : log_patterns()) {
    for (std::string_view s : {p.cause, p.next_step}) {
      EXPECT_EQ(s.find("shared/"), std::string_view::npos) << p.check;
      EXPECT_EQ(s.find(kFieldNotes), std::string_view::npos) << p.check;
      EXPECT_EQ(s.find(kLogPatterns), std::string_view::npos) << p.check;
    }
  }
  const TriageResult r = triage_of("[ 1.0] NVRM: Xid (PCI:0000:b9:00): 79, GPU has fallen off the bus.\n");
  const std::string text = triage_text(r) + triage_markdown(r) + triage_json(r).dump();
  EXPECT_FALSE(contains(text, "shared/")) << text;
  EXPECT_FALSE(contains(text, kFieldNotes)) << text;
}

// ---- hosts: from the line, its task, its pid, the file name; never from the line before ----

TEST(TriageHosts, NeverFromThePreviousLine) {
  const TriageResult r = triage_of(
      "8: node-b2:2201:2201 [0] include/alloc.h:124 NCCL WARN Cuda failure 'out of memory'\n"
      "srun: error: node-a1: task 0: Exited with exit code 1\n"
      "RuntimeError: CUDA error: an illegal memory access was encountered\n");
  const TriageFinding* srun = find(r, "slurm.task_failed");
  ASSERT_NE(srun, nullptr);
  EXPECT_EQ(srun->host, "node-a1");
  const TriageFinding* ima = find(r, "cuda.illegal_memory_access");
  ASSERT_NE(ima, nullptr);
  EXPECT_EQ(ima->host, "unknown");
}

TEST(TriageHosts, FromTheLaunchersTaskAndThePid) {
  const TriageResult r = triage_of(
      "3: gpu-12:4411:4411 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
      "5: gpu-14:5511:5511 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
      "3: RuntimeError: CUDA error: an illegal memory access was encountered\n"
      "(RayWorkerWrapper pid=5511) Fatal Python error: Segmentation fault\n");
  ASSERT_NE(find(r, "cuda.illegal_memory_access"), nullptr);
  EXPECT_EQ(find(r, "cuda.illegal_memory_access")->host, "gpu-12");
  ASSERT_NE(find(r, "crash.sigsegv"), nullptr);
  EXPECT_EQ(find(r, "crash.sigsegv")->host, "gpu-14");
}

TEST(TriageHosts, FromTheFileName) {
  EXPECT_EQ(host_from_file_name("logs/ip-10-1-9-9.dmesg"), "ip-10-1-9-9");
  EXPECT_EQ(host_from_file_name("job/node-a1/stdout.log"), "node-a1");
  EXPECT_EQ(host_from_file_name("dmesg.10.0.9.52.txt"), "10.0.9.52");
  EXPECT_EQ(host_from_file_name("rank3_gpu-st-p4d24xlarge-2.log"), "gpu-st-p4d24xlarge-2");
  for (const char* none : {"slurm-1234.out", "rank-3.log", "train-2024-05-01.log", "llama-7b.log",
                           "001-nccl-tests-ib-error12.log", "all-reduce-2node.log", "job.log", "x"}) {
    EXPECT_EQ(host_from_file_name(none), "") << none;
  }
}

TEST(TriageHosts, EveryWrapperNamesItsHost) {
  EXPECT_EQ(parsed("[node-n1:825452] *** Process received signal ***").host, "node-n1");
  EXPECT_EQ(parsed("[node-n1:825452] *** Process received signal ***").pid, 825452);
  EXPECT_EQ(parsed("[node-c23:3333 :0:3423] Caught signal 11 (Segmentation fault)").host, "node-c23");
  EXPECT_EQ(parsed("Dec  4 13:59:01 ip-10-1-9-9 kernel: NVRM: Xid").host, "ip-10-1-9-9");
  EXPECT_EQ(parsed("2024-05-01T12:00:03Z node-a1: [rank3]: boom").host, "node-a1");
  EXPECT_EQ(parsed("[pod/job-worker-1/pytorch] RuntimeError: x").host, "job-worker-1");
  EXPECT_EQ(parsed("(RayWorker pid=12, ip=10.0.0.3) RuntimeError: x").host, "10.0.0.3");
  EXPECT_EQ(parsed("mpirun noticed that process rank 0 with PID 8445 on node node-nh1 exited on signal 11").host,
            "node-nh1");
  EXPECT_EQ(parsed("slurmstepd: error: *** JOB 12 ON gpu-3 CANCELLED AT 2025-01-01T00:00:00 ***").host, "gpu-3");
  EXPECT_EQ(parsed(" .. node-4090-2 pid 914454: Test failure common.cu:844").host, "node-4090-2");
  // Not hosts: a clock time, a source file, a glog severity.
  EXPECT_EQ(parsed("[22:31:52] src/van.h:659: Check failed: x").host, "");
  EXPECT_EQ(parsed("[ProcessGroupNCCL.cpp:916] boom").host, "");
  EXPECT_EQ(parsed("[E321 02:07:08.408 ProcessGroupNCCL.cpp:607] boom").host, "");
}

TEST(TriageHosts, NestedLauncherPrefixes) {
  const LogEvent nested = parsed("[default0]:[rank12]:[E ProcessGroupNCCL.cpp:563] [Rank 12] Watchdog caught");
  EXPECT_EQ(nested.rank, 12);
  EXPECT_TRUE(nested.text.starts_with("[E ProcessGroupNCCL.cpp:563]")) << nested.text;
  const LogEvent color = parsed("[36m(RayWorkerWrapper pid=4009)[0m [rank1]:[E ProcessGroupNCCL.cpp:563] x");
  EXPECT_EQ(color.pid, 4009);
  EXPECT_EQ(color.rank, 1);
  const LogEvent esc = parsed("\x1b[36m(RayWorkerWrapper pid=4009)\x1b[0m node-1:4009:4010 [0] NCCL WARN y");
  EXPECT_EQ(esc.host, "node-1");
  EXPECT_EQ(esc.level, "WARN");
  const LogEvent llama = parsed("[80746] [rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] x");
  EXPECT_EQ(llama.rank, 0);
  EXPECT_EQ(llama.pid, 80746);
  const LogEvent device = parsed("[0] NCCL INFO NET/IB : No device found.");  // NCCL's [dev], not a pid
  EXPECT_EQ(device.cuda_dev, 0);
  EXPECT_EQ(device.level, "INFO");
}

// ---- crashes ----

TEST(TriageCrashes, SignalBannersCoreDumpsAndLaunchers) {
  struct Case {
    std::string text, check;
  };
  const std::vector<Case> cases = {
      {"[node-n1:1] *** Process received signal ***\n[node-n1:1] Signal: Segmentation fault (11)\n", "crash.sigsegv"},
      {"[node-c24:29733:0:29762] Caught signal 11 (Segmentation fault: address not mapped to object)\n",
       "crash.sigsegv"},
      {"Fatal Python error: Segmentation fault\n", "crash.sigsegv"},
      {"Segmentation fault (core dumped)\n", "crash.sigsegv"},
      {"Illegal instruction (core dumped)\n", "crash.sigill"},
      {"prterun noticed that process rank 3 with PID 0 on node gpu-07 exited on signal 11 (Segmentation fault).\n",
       "crash.sigsegv"},
      {"srun: error: gpu-3: tasks 0-7: Killed\n", "crash.sigkill"},
      {"[2023-04-14 13:11:27,885] [ERROR] [launch.py:434:sigkill_handler] ['python'] exits with return code = -9\n",
       "crash.sigkill"},
      {"[ERROR] [launch.py:321:sigkill_handler] ['python', 'train.py'] exits with return code = 1\n", "launcher.exit"},
      {"torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 12) of binary: py\n",
       "launcher.exit"},
      {"bash: line 1: 4242 Killed python train.py\n", ""},
      {"Killed\n", "crash.sigkill"},
      {"terminate called after throwing an instance of 'c10::Error'\n", "crash.uncaught_exception"},
      {"python: src/x.c:15: f: Assertion `n > 0' failed.\n", "crash.assert"},
      {"double free or corruption (out)\n", "crash.memory_corruption"},
      {"torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n", "launcher.child_failed"},
      {"ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n", "ray.worker_died"},
      {"vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue.\n", "vllm.engine_failed"},
  };
  for (const Case& c : cases) {
    const TriageResult r = triage_of(c.text);
    if (c.check.empty()) {
      EXPECT_EQ(find(r, "crash.sigkill"), nullptr) << c.text;
      continue;
    }
    ASSERT_FALSE(r.findings.empty()) << c.text;
    EXPECT_EQ(r.findings.front().check, c.check) << c.text;
    EXPECT_EQ(r.verdict, "FAIL") << c.text;
  }
  // Exit status 0 is no failure.
  EXPECT_EQ(find(triage_of("[launch.py:1:main] exits with return code = 0\n"), "launcher.exit"), nullptr);
}

TEST(TriageCrashes, TorchelasticSummaryNamesTheHostOfItsRecord) {
  const TriageResult r = triage_of(
      "Root Cause (first observed failure):\n[0]:\n  time      : 2025-12-23_05:17:58\n  host      : node-b200-1\n"
      "  rank      : 0 (local_rank: 0)\n  exitcode  : -11 (pid: 3304209)\n  error_file: <N/A>\n"
      "  traceback : Signal 11 (SIGSEGV) received by PID 3304209\n");
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_EQ(r.findings.front().check, "crash.sigsegv");
  EXPECT_EQ(r.findings.front().host, "node-b200-1");
}

TEST(TriageCrashes, BacktraceLibrariesJoinTheCrash) {
  const TriageResult r = triage_of(
      "*** Process received signal ***\nSignal: Segmentation fault (11)\n"
      "[ 1] /usr/lib/libibverbs/libmlx4-rdmav2.so(+0x1aee)[0x7ff320091aee]\n"
      "[ 2] /usr/lib/x86_64-linux-gnu/libnccl.so.2(+0x2b136)[0x7ff2bf5c3136]\n*** End of error message ***\n");
  EXPECT_EQ(r.findings.front().check, "crash.sigsegv");
  EXPECT_TRUE(contains(r.findings.front().cause, "libnccl.so.2")) << r.findings.front().cause;
  EXPECT_TRUE(contains(r.findings.front().cause, "libmlx4-rdmav2.so")) << r.findings.front().cause;
}

TEST(TriageCrashes, PythonExceptionEndsATraceback) {
  const TriageResult r = triage_of(
      "Traceback (most recent call last):\n  File \"fail.py\", line 1, in <module>\n    garbage\n"
      "NameError: name 'garbage' is not defined\n");
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_EQ(r.findings.front().check, "app.python_exception");
  EXPECT_TRUE(contains(r.findings.front().cause, "NameError")) << r.findings.front().cause;
  // Without a traceback, "SomethingError: ..." prose is no exception.
  EXPECT_EQ(find(triage_of("ValueError: is what the docs call it\n"), "app.python_exception"), nullptr);
}

// ---- verdict semantics ----

TEST(TriageVerdicts, FailedWithoutItsCauseIsFail) {
  for (const char* text : {
           "node-2:1:2 [0] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer 10.0.0.3<1>\n",
           "[rank0]:[E1 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: "
           "WorkNCCL(SeqNum=5, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600060 milliseconds before timing out.\n",
           "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1, remote process exited or there "
           "was a network error, NCCL version 2.21.5\n",
           "MPI_ABORT was invoked on rank 3 in communicator MPI_COMM_WORLD with errorcode 1.\n",
       }) {
    const TriageResult r = triage_of(text);
    EXPECT_EQ(r.verdict, "FAIL") << text;
    EXPECT_EQ(r.findings.front().role, "") << text;  // no root cause claimed
    EXPECT_TRUE(contains(r.collect_next, "root cause is not in these logs")) << text;
    EXPECT_TRUE(contains(triage_text(r), "root cause is not in these logs")) << text;
  }
}

TEST(TriageVerdicts, MismatchedCollectiveAndMpiAbortAfterInitAreFail) {
  const TriageResult m = triage_of(
      "init.cc:1247 NCCL WARN Mismatched collective detected, please check your collective calls at and around "
      "rank 39.\n");
  EXPECT_EQ(m.verdict, "FAIL");
  EXPECT_EQ(m.findings.front().check, "nccl.mismatched_collective");
  EXPECT_EQ(m.findings.front().role, "cause");
  const TriageResult abort = triage_of(
      "n1:1:2 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n"
      "MPI_ABORT was invoked on rank 0 in communicator MPI_COMM_WORLD with errorcode 1.\n");
  EXPECT_EQ(abort.verdict, "FAIL");
}

TEST(TriageVerdicts, InconclusiveOnlyWhenTheLogsCannotSay) {
  const std::string p = "node-1:10:11 [0] NCCL INFO ";
  const TriageResult preamble = triage_of(p + "NCCL version 2.21.5+cuda12.4\n" + p + "Using network IB\n" + p +
                                          "NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>\n");
  EXPECT_EQ(preamble.verdict, "INCONCLUSIVE");
  EXPECT_TRUE(contains(preamble.collect_next, "preamble")) << preamble.collect_next;
  const TriageResult started =
      triage_of(p + "comm 0x1 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 - Init START\n");
  EXPECT_EQ(started.verdict, "INCONCLUSIVE");
  EXPECT_TRUE(contains(started.collect_next, "Init START without Init COMPLETE")) << started.collect_next;
  const TriageResult rings = triage_of(p + "Connected all rings\n");
  EXPECT_EQ(rings.verdict, "INCONCLUSIVE");
  EXPECT_EQ(triage_of("hello\n").verdict, "INCONCLUSIVE");
  EXPECT_EQ(triage_of("#  Rank  0 Group  0 Pid 1 on node-h2 device  0 [0x01] NVIDIA H100\n").verdict, "INCONCLUSIVE");
}

TEST(TriageVerdicts, PassOnlyOnHealthyEvidence) {
  const std::string p = "node-1:10:11 [0] NCCL INFO ";
  const TriageResult init = triage_of(p + "comm 0x1 rank 0 nRanks 2 - Init START\n" + p +
                                      "ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 - Init COMPLETE\n");
  EXPECT_EQ(init.verdict, "PASS");
  EXPECT_EQ(init.findings.back().tag, "PASS");
  const TriageResult trees = triage_of(p + "Connected all rings\n" + p + "Connected all trees\n");
  EXPECT_EQ(trees.verdict, "PASS");
  const std::string row =
      "   134217728      33554432     float     sum      -1   1603.7   83.69  156.92      0   1579.6   84.97  159.31   "
      "   0\n";
  const TriageResult table = triage_of(row + row);
  EXPECT_EQ(table.verdict, "PASS");
  EXPECT_TRUE(contains(table.findings.back().cause, "159.31 GB/s")) << table.findings.back().cause;
  const std::string old_row =
      "    16777216       2097152   float    418.5   20.05   20.05  0e+00    414.0   20.26   20.26  0e+00\n";
  EXPECT_EQ(triage_of(old_row).verdict, "PASS");
  const std::string wrong =
      "   134217728      33554432     float     sum      -1   1603.7   83.69  156.92      3   1579.6   84.97  159.31   "
      "   0\n";
  const TriageResult bad = triage_of(row + wrong);
  EXPECT_EQ(bad.verdict, "FAIL");
  EXPECT_EQ(bad.findings.front().check, "nccl_tests.wrong_results");
  const TriageResult progress = triage_of(
      " iteration      122/  250000 | consumed samples: 124928 | lm loss: 2.504220E+00 | number of nan iterations:   0 "
      "|\n"
      " iteration      123/  250000 | consumed samples: 125952 | lm loss: 2.493043E+00 | number of nan iterations:   0 "
      "|\n");
  EXPECT_EQ(progress.verdict, "PASS");
  EXPECT_EQ(triage_of(" iteration 1/ 2 | lm loss: 2.5 |\n").verdict, "INCONCLUSIVE");  // one line is too little
  const TriageResult nan = triage_of("step 10 | loss: nan | 1200 tokens/s\nstep 11 | loss: nan | 1210 tokens/s\n");
  EXPECT_EQ(nan.verdict, "WARN");
  EXPECT_NE(find(nan, "training.nan_loss"), nullptr);
  // A configuration dump mentions the loss without progress.
  EXPECT_EQ(triage_of("  loss_scale ...................... None\n  loss_scale_window ....... 1000\n").verdict,
            "INCONCLUSIVE");
}

// ---- degraded transports: WARN with the setting to fix ----

TEST(TriageTransport, DegradedTransportsAreWarnWithTheSetting) {
  const std::string p = "node-1:10:11 [0] NCCL INFO ";
  const std::string done = p + "comm 0x1 rank 0 nranks 2 cudaDev 0 - Init COMPLETE\n";
  struct Case {
    std::string text, check, fix;
  };
  const std::vector<Case> cases = {
      // NET = inter-node: NET/Socket channels are a TCP fallback even when the hosts are anonymised.
      {":1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0\n:1:1 [0] NCCL INFO Using network "
       "Socket\n",
       "transport.tcp_fallback", "NCCL_NET"},
      {p + "NCCL_IB_DISABLE set by environment to 1.\n" + p + "NET/Socket : Using [0]ib0:10.0.0.2<0>\n" + p +
           "Using network Socket\n",
       "config.ib_disabled", "NCCL_IB_DISABLE"},
      {p + "NCCL_IB_HCA set to mlx5_0:1,mlx5_1:1\n" + p + "NET/IB : No device found.\n" + p + "Using network Socket\n",
       "transport.tcp_fallback", "NCCL_NET"},
      {"node-1:10:10 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n",
       "transport.libibverbs_missing", "rdma-core"},
      {p + "NCCL_P2P_LEVEL set by environment to LOC\n", "config.p2p_disabled", "NCCL_P2P_LEVEL"},
      {p + "NCCL_P2P_DISABLE set by environment to 1.\n", "config.p2p_disabled", "NCCL_P2P_DISABLE"},
      {p + "NCCL_SHM_DISABLE set by environment to 1.\n", "config.shm_disabled", "NCCL_SHM_DISABLE"},
      {p + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\n" + p +
           "Channel 01/0 : 0[0] -> 8[0] [send] via NET/IB/1\n",
       "transport.no_gdrdma", "nvidia_peermem"},
      {p + "NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n", "nccl.gdr_disabled_hca", "nvidia_peermem"},
      {p + "Bootstrap : Using [0]eth0:10.0.0.2<0> [1]docker0:172.17.0.1<0>\n", "config.virtual_bridge_interface",
       "NCCL_SOCKET_IFNAME"},
      {p + "NET/Socket : Using [0]eth0:10.0.0.2<0> [1]br-3f2a9c:172.18.0.1<0>\n", "config.virtual_bridge_interface",
       "NCCL_SOCKET_IFNAME"},
      {p + "NCCL_PROTO set by environment to LL128\n", "config.forced_protocol", "NCCL_PROTO"},
      {p + "NCCL_ALGO set by environment to Ring\n", "config.forced_protocol", "NCCL_ALGO"},
      {"+ export NCCL_P2P_DISABLE=1\n", "config.p2p_disabled", "NCCL_P2P_DISABLE"},
      {p + "NET : Using interface lo:127.0.0.1<0>\n" + p + "NET : Using interface eth0:10.0.0.1<0>\n" +
           "node-2:10:11 [0] NCCL INFO NET : Using interface eth0:10.0.0.2<0>\n",
       "config.loopback_interface", "NCCL_SOCKET_IFNAME"},
      {"(VllmWorker rank=0 pid=2057) WARNING 08-06 03:26:00 [custom_all_reduce.py:147] Custom allreduce is disabled "
       "because your platform lacks GPU P2P capability or P2P test failed.\n",
       "transport.p2p_unavailable", "topo"},
  };
  for (const Case& c : cases) {
    const TriageResult r = triage_of(c.text + done);
    EXPECT_EQ(r.verdict, "WARN") << c.text << triage_text(r);
    const TriageFinding* f = find(r, c.check);
    ASSERT_NE(f, nullptr) << c.text << triage_text(r);
    EXPECT_EQ(f->tag, "WARN") << c.text;
    EXPECT_TRUE(contains(f->next_step, c.fix)) << c.check << ": " << f->next_step;
  }
}

TEST(TriageTransport, NotDegraded) {
  const std::string p = "node-1:10:11 [0] NCCL INFO ";
  const std::string done = p + "comm 0x1 rank 0 nranks 2 cudaDev 0 - Init COMPLETE\n";
  for (const std::string& text : {
           // One node over loopback, Socket inside one node, libibverbs missing printed at INFO on one node.
           p + "NCCL_SOCKET_IFNAME set by environment to lo\n" + p + "Bootstrap : Using lo:127.0.0.1<0>\n",
           p + "NET/IB : No device found.\n" + p + "Using network Socket\n" + p +
               "comm 0x1 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0\n",
           p + "Failed to open libibverbs.so[.1]\n", p + "NCCL_IB_GID_INDEX set by environment to 3.\n",
           p + "cudaDriverVersion 12000\n" + p + "NCCL version 2.19.3+cuda12.2\n",  // CUDA minor version compat
       }) {
    const TriageResult r = triage_of(text + done);
    EXPECT_EQ(r.verdict, "PASS") << text << triage_text(r);
  }
}

TEST(TriageTransport, PluginFailureWithAFallbackIsDegradedNotFailed) {
  const std::string p = "ip-10-0-0-2:86:2554 [0] ";
  const TriageResult r =
      triage_of(p +
                "nccl_net_ofi_create_plugin:335 NCCL WARN NET/OFI aws-ofi-nccl initialization "
                "failed\n" +
                p + "NCCL INFO NET/IB : No device found.\n" + p + "NCCL INFO Using network Socket\n");
  EXPECT_EQ(r.verdict, "WARN");
  EXPECT_EQ(r.findings.front().check, "efa.plugin_init_failed");
  EXPECT_TRUE(contains(r.findings.front().cause, "fallback")) << r.findings.front().cause;
  // Alone, with no network after it, it stays a failure.
  EXPECT_EQ(triage_of(p + "NCCL WARN NET/OFI aws-ofi-nccl initialization failed\n").verdict, "FAIL");
}

TEST(TriageTransport, EveryNcclWarnIsAtLeastWarnWithItsSubsystem) {
  struct Case {
    std::string location, check;
  };
  for (const Case& c : std::vector<Case>{{"transport/net_ib.cc:788", "nccl.warn.net_ib"},
                                         {"misc/socket.cc:50", "nccl.warn.socket"},
                                         {"proxy.cc:1143", "nccl.warn.proxy"},
                                         {"graph/topo.h:230", "nccl.warn.topology"},
                                         {"misc/frobnicate.cc:12", "nccl.warn"}}) {
    const TriageResult r = triage_of("h1:1:2 [0] " + c.location + " NCCL WARN something new happened\n");
    ASSERT_FALSE(r.findings.empty()) << c.location;
    EXPECT_EQ(r.findings.front().check, c.check) << c.location;
    EXPECT_EQ(r.findings.front().tag, "WARN");
    EXPECT_NE(r.verdict, "PASS");
  }
  // A WARN-level line matching an informational row is still WARN.
  const TriageResult env =
      triage_of("h1:1:2 [0] init.cc:1 NCCL WARN NCCL_GDRCOPY_ENABLE: Failed to initialize GDRCopy\n");
  EXPECT_EQ(env.verdict, "WARN");
}

TEST(TriageTransport, ForcedProtocolOnTheHealthyFixture) {
  const std::string dir = std::string(PODPERF_FIXTURES_DIR) + "/triage/";
  TriageAccumulator acc;
  std::size_t order = 0;
  acc.add_file(read_log_file(dir + "healthy_efa_ray.log", order, [&](const LogEvent& ev) { acc.add(ev); }));
  acc.add_file(read_log_text("p5-node-1:4411:4411 [0] NCCL INFO NCCL_PROTO set by environment to Simple\n", "x.log",
                             order, [&](const LogEvent& ev) { acc.add(ev); }));
  const TriageResult r = acc.finish();
  EXPECT_EQ(r.verdict, "WARN");
  ASSERT_NE(find(r, "config.forced_protocol"), nullptr);
  EXPECT_EQ(find(r, "config.forced_protocol")->host, "p5-node-1");
}

}  // namespace
}  // namespace podperf::logs

// ---- the families the second held-out set (logs 111-152) found missing ----

namespace podperf::logs {
namespace {

std::string test_table(const std::vector<double>& busbw, const std::string& tag) {
  std::string out =
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw "
      "#wrong\n";
  long long size = 1 << 20;
  for (double bw : busbw) {
    out += fmt::format(
        "{}{:>12} {:>12}     float     sum      -1{}  1000.0  {:6.2f}  {:6.2f}      0{}  1000.0  {:6.2f}  {:6.2f}      "
        "0\n",
        tag, size, size / 4, tag, bw / 2, bw, tag, bw / 2, bw);
    size *= 2;
  }
  return out;
}

TEST(TriageHeldOut2, NcclTestsRowsWithRankTagsAreReadAndABusbwCollapseIsWarn) {
  // Rising and levelling off: healthy, read through the rank tags a launcher put inside the rows.
  const TriageResult flat = triage_of(test_table({10, 20, 40, 80, 150, 180, 185}, "[0]"));
  EXPECT_EQ(flat.verdict, "PASS");
  EXPECT_EQ(find(flat, "nccl_tests.busbw_drop"), nullptr);
  // A dip at a protocol switch is not a collapse.
  EXPECT_EQ(find(triage_of(test_table({10, 20, 40, 80, 150, 120, 140}, "")), "nccl_tests.busbw_drop"), nullptr);
  // Large messages at a fraction of what smaller ones reached.
  const TriageResult drop = triage_of(test_table({12, 16, 24, 29, 5.3, 5.2, 4.1}, "[0]"));
  EXPECT_EQ(drop.verdict, "WARN");
  const TriageFinding* f = find(drop, "nccl_tests.busbw_drop");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->cause, "29.00 GB/s at 8 MiB")) << f->cause;
  EXPECT_TRUE(contains(f->cause, "4.10 GB/s at the largest size, 64 MiB")) << f->cause;
}

TEST(TriageHeldOut2, RendezvousAndStoreConnectFailuresFail) {
  for (const std::string line :
       {"[E socket.cpp:793] [c10d] The client socket has timed out after 60s while trying to connect to (10.0.0.1, "
        "2222).",
        "    \"message\": \"RendezvousConnectionError: The connection to the C10d store has failed. See inner "
        "exception "
        "for details.\","}) {
    const TriageResult r = triage_of(line + "\n");
    EXPECT_EQ(r.verdict, "FAIL") << line;
    EXPECT_NE(find(r, "pytorch.store_error"), nullptr) << line;
  }
}

TEST(TriageHeldOut2, PeerToPeerDisabledBetweenGpusIsDegraded) {
  const TriageResult r = triage_of(
      "node-a1:100:200 [0] NCCL INFO P2P is disabled between connected GPUs 0 and 1. You can repress this message "
      "with NCCL_IGNORE_DISABLED_P2P=1.\n");
  EXPECT_EQ(r.verdict, "WARN");
  EXPECT_NE(find(r, "transport.p2p_unavailable"), nullptr);
}

TEST(TriageHeldOut2, GpuHealthToolsDcgmAndNvlink) {
  const std::string head =
      "+---------------------------+------------------------------------------------+\n"
      "| Diagnostic                | Result                                         |\n";
  const TriageResult fail =
      triage_of(head +
                    "| GPU Memory                | Pass - GPU: 1                                  |\n"
                    "|                           | Fail - GPU: 0                                  |\n",
                "node-a3-diag.log");
  EXPECT_EQ(fail.verdict, "FAIL");
  ASSERT_NE(find(fail, "gpu.dcgm_diag_fail"), nullptr);
  const TriageResult pass =
      triage_of(head +
                "| Denylist                  | Pass - All                                     |\n"
                "| Memory                    | Pass - All                                     |\n");
  EXPECT_EQ(pass.verdict, "PASS");
  EXPECT_EQ(
      triage_of(head + "| PCIe                      | Warn - GPU: 2                                  |\n").verdict,
      "WARN");
  const TriageResult grid = triage_of(
      "GPUs:\n    gpuId 0:\n        D D D D D D D D D D D D\nKey: Up=U, Down=D, Disabled=X, Not Supported=_\n");
  EXPECT_EQ(grid.verdict, "WARN");
  EXPECT_NE(find(grid, "gpu.nvlink_down"), nullptr);
  EXPECT_EQ(triage_of("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1)\n\t Link 0: <inactive>\n").verdict, "WARN");
  // An all-up grid says nothing wrong.
  EXPECT_EQ(find(triage_of("    gpuId 0:\n        U U U U U U U U\n"), "gpu.nvlink_down"), nullptr);
}

TEST(TriageHeldOut3, ABusbwCollapseInTheMiddleOfATableIsWarn) {
  // 1.3 GB/s at 256 KiB, then 0.03 at 2-8 MiB, then up to 90: a path that stalls at those sizes.
  const TriageResult r = triage_of(test_table({0.6, 0.6, 1.3, 0.7, 0.7, 0.03, 0.07, 0.3, 15, 27, 51, 89, 91}, ""));
  EXPECT_EQ(r.verdict, "WARN");
  const TriageFinding* f = find(r, "nccl_tests.busbw_drop");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->cause, "to 0.03 GB/s at 32 MiB before it rises again")) << f->cause;
  // Halving at a protocol switch is no dip.
  EXPECT_EQ(find(triage_of(test_table({0.6, 0.6, 1.3, 0.7, 0.7, 2.0, 5.0, 9.0}, "")), "nccl_tests.busbw_drop"),
            nullptr);
}

TEST(TriageHeldOut3, EfaSetupFailuresAndGdrTurnedOff) {
  const TriageResult provider = triage_of(
      "10.0.0.1: WARN: Function: find_ofi_provider Line: 543: NET/OFI Couldn't find any optimal provider\n"
      "10.0.0.1: WARN: Function: main Line: 66: NET/OFI OFI NCCL failure: 2\n");
  EXPECT_EQ(provider.verdict, "FAIL");
  EXPECT_NE(find(provider, "efa.plugin_init_failed"), nullptr);
  const TriageResult installer = triage_of("== Testing EFA device ==\nError: EFA libfabric provider not detected.\n");
  EXPECT_EQ(installer.verdict, "FAIL");
  EXPECT_NE(find(installer, "efa.not_visible"), nullptr);
  const TriageResult gdr =
      triage_of("node-a1:10:20 [0] NCCL INFO NET/OFI Could not disable CUDA API usage for HMEM, disabling GDR\n");
  EXPECT_EQ(gdr.verdict, "WARN");
  EXPECT_NE(find(gdr, "efa.gdr_disabled"), nullptr);
}

TEST(TriageHeldOut3, AnNcclWarnThatReportsAnErrorFails) {
  const TriageResult r =
      triage_of("node-a1:257:257 [2] graph/xml.h:381 NCCL WARN Error : too many XML nodes (max 256)\n");
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_NE(find(r, "nccl.error.topology"), nullptr);
  // A WARN that is not worded as an error stays a WARN.
  EXPECT_EQ(
      triage_of("node-a1:257:257 [2] graph/xml.h:381 NCCL WARN Attribute foo of node bar has odd value\n").verdict,
      "WARN");
}

TEST(TriageHeldOut3, ALauncherThatCannotFindItsProgramFails) {
  const TriageResult r =
      triage_of("/etc/mpi/kubexec.sh: 11: /opt/kube/kubectl: not found\ncommand terminated with exit code 1\n");
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_NE(find(r, "launcher.command_not_found"), nullptr);
  EXPECT_EQ(triage_of("bash: mpirun: command not found\n").verdict, "FAIL");
  EXPECT_EQ(triage_of("command terminated with exit code 0\n").verdict, "INCONCLUSIVE");
}

TEST(TriageHeldOut4, ATracebackWithoutItsExceptionLineFailsUnlessTheJobWentOn) {
  const std::string tb =
      "Traceback (most recent call last):\n  File \"train.py\", line 27, in <module>\n    pretrain()\n";
  const TriageResult cut = triage_of(tb, "node-a4.log");
  EXPECT_EQ(cut.verdict, "FAIL");
  const TriageFinding* f = find(cut, "app.python_exception");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->host, "node-a4");
  // Caught and printed: training went on after it.
  EXPECT_EQ(
      find(triage_of(tb + "iteration      600/  500000 | lm loss: 6.3E+00 | elapsed time per iteration (ms): 1549.5\n"),
           "app.python_exception"),
      nullptr);
  // A bare Exception ends a traceback too.
  EXPECT_EQ(triage_of(tb + "Exception: Skipped 50 iterations in a row due to Overflow - Exiting training.\n").verdict,
            "FAIL");
}

TEST(TriageHeldOut4, StorageFailuresAndAWorkerWithoutAnErrorFile) {
  for (const std::string line : {"OSError: [Errno 5] Input/output error", "OSError: [Errno 116] Stale file handle",
                                 "OSError: [Errno 28] No space left on device", "write failed: Disk quota exceeded"}) {
    EXPECT_EQ(triage_of(line + "\n").verdict, "FAIL") << line;
  }
  EXPECT_NE(find(triage_of("I0215 errors/__init__.py:368] ('local_rank %s FAILED with no error file. Decorate your "
                           "entrypoint fn with @record for traceback info.', 0)\n"),
                 "launcher.child_failed"),
            nullptr);
}

TEST(TriageHeldOut4, HardwareErrorRecordsBySeverity) {
  const std::string head = "{8}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 514\n";
  EXPECT_EQ(triage_of(head + "{8}[Hardware Error]: event severity: corrected\n").verdict, "WARN");
  EXPECT_EQ(triage_of(head + "{8}[Hardware Error]: event severity: fatal\n").verdict, "FAIL");
  EXPECT_EQ(triage_of("mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 5: Uncorrected error\n").verdict, "FAIL");
}

TEST(TriageHeldOut4, AsyncJobFailureSlowInitAndATinyLossScale) {
  EXPECT_EQ(
      triage_of("node-a1:1:1 [0] group.cc:74 NCCL WARN ncclAsyncJobComplete: job 0x7f27 failed, job error 3\n").verdict,
      "FAIL");
  const TriageResult slow = triage_of(
      "node-a1:2:3 [0] NCCL INFO ncclCommInitRankConfig comm 0x56 rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId 18000 "
      "commId 0x2f - Init COMPLETE\n"
      "node-a1:2:3 [0] NCCL INFO Init timings - ncclCommInitRankConfig: rank 0 nranks 8 total 55.17 (kernels 52.33, "
      "alloc 0.42, bootstrap 0.84)\n");
  EXPECT_EQ(slow.verdict, "WARN");
  EXPECT_NE(find(slow, "nccl.slow_init"), nullptr);
  EXPECT_EQ(find(triage_of("node-a1:2:3 [0] NCCL INFO Init timings - ncclCommInitRank: rank 0 nranks 8 total 1.20 "
                           "(kernels 0.3)\n"),
                 "nccl.slow_init"),
            nullptr);
  const std::string overflow =
      "[INFO] [loss_scaler.py:181:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. "
      "Attempted loss scale: ";
  EXPECT_EQ(triage_of(overflow + "8, reducing to 4\n").verdict, "WARN");
  EXPECT_EQ(find(triage_of(overflow + "65536, reducing to 32768\n"), "training.loss_scale_collapse"), nullptr);
}

TEST(TriageHeldOut4, ABandwidthMatrixIsEvidenceTheTestRan) {
  EXPECT_EQ(triage_of("Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)\n   D\\D     0      1\n     0 "
                      "1488.10  56.57\n     1   56.57 1416.77\n")
                .verdict,
            "PASS");
}

TEST(TriageHeldOut5, NewerWatchdogWordingAndOldNcclTestsErrorsFail) {
  EXPECT_EQ(triage_of("[rank7]:[E909 08:45:30.167701534 ProcessGroupNCCL.cpp:2252] [PG ID 2 PG GUID 3 Rank 7]  failure "
                      "detected by watchdog at work sequence id: 40231 PG status: last enqueued work: 40267\n")
                .verdict,
            "FAIL");
  // The old nccl-tests format prints a max error, not #wrong; and "Out of bounds values" without a '#'.
  const std::string head =
      "       size         count    type     time   algbw   busbw  error     time   algbw   busbw  error\n";
  const TriageResult bad =
      triage_of(head +
                "  4294967296     134217728   float    29122  129.05  129.05  1e+00    29169  128.84  128.84  1e+00\n"
                " Out of bounds values : 2 FAILED\n");
  EXPECT_EQ(bad.verdict, "FAIL");
  EXPECT_NE(find(bad, "nccl_tests.wrong_results"), nullptr);
  EXPECT_EQ(triage_of(head + "  4294967296     134217728   float    29122  129.05  129.05  0e+00    29169  128.84  "
                             "128.84  0e+00\n Out of bounds values : 0 OK\n")
                .verdict,
            "PASS");
}

TEST(TriageHeldOut5, TheHpcLayerUcxPmixSlurmdAndTheRdmaDriver) {
  EXPECT_EQ(triage_of("[node-a1:2330856:0:2330856] ib_mlx5_log.c:177  Transport retry count exceeded on mlx5_0:1/IB "
                      "(synd 0x15 vend 0x81 hw_synd 0/0)\n")
                .verdict,
            "FAIL");
  EXPECT_EQ(triage_of("[1750835683.514020] [node-a1:1392 :0]         libperf.c:1183 UCX  ERROR ucp_ep_create() failed: "
                      "Destination is unreachable\n")
                .verdict,
            "FAIL");
  EXPECT_EQ(triage_of("It looks like pmix_init failed for some reason; your parallel process is\n").verdict, "FAIL");
  EXPECT_EQ(
      triage_of("Aug 09 22:11:24 node-a1 slurmd[3136]: slurmd: fatal: Unable to determine this slurmd's NodeName\n")
          .verdict,
      "FAIL");
  EXPECT_EQ(
      triage_of("WARNING: It appears that your OpenFabrics subsystem is configured to only\nallow registering part "
                "of your physical memory.  This can cause MPI jobs to\n")
          .verdict,
      "WARN");
  EXPECT_EQ(
      triage_of("[33058.244455] infiniband mlx5_0: create_mkey_warn:158:(pid 0): async reg mr failed. status -121\n")
          .verdict,
      "WARN");
  EXPECT_EQ(
      triage_of("        Port 1:\n                State: Active\n                Physical state: LinkUp\n").verdict,
      "PASS");
  EXPECT_EQ(
      triage_of("        Port 1:\n                State: Down\n                Physical state: Polling\n").verdict,
      "WARN");
}

TEST(TriageHeldOut5, ServingAndMicroBenchmarksThatFinishedAreEvidence) {
  for (const std::string text :
       {"============ Serving Benchmark Result ============\nSuccessful requests:   10240\n",
        "= PERFORMANCE OVERVIEW \nRequest Throughput (req/sec):   7.3411\n",
        "# OSU MPI-CUDA Bandwidth Test v7.2\n# Size      Bandwidth (MB/s)\n1    1.01\n",
        "(EngineCore pid=105) INFO 07-04 03:10:44 [core.py:337] init engine (profile, create kv "
        "cache, warmup model) took 90.00 s (compilation: 8.90 s)\n"}) {
    EXPECT_EQ(triage_of(text).verdict, "PASS") << text;
  }
}

TEST(TriageHeldOut2, APassedGpuTestIsEvidenceTheJobRan) {
  const TriageResult r = triage_of(
      "[Vector addition of 50000 elements]\nCopy input data from the host memory to the CUDA device\nTest PASSED\n"
      "Done\n");
  EXPECT_EQ(r.verdict, "PASS");
}

}  // namespace
}  // namespace podperf::logs

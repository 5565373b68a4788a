// podperf triage: the line grammar (every wrapper, NCCL prefix and return chains), the pattern table,
// the streaming reader (binary, long lines, no final newline, gzip), and the findings, ranking and verdict
// on the fixture logs of tests/fixtures/triage (one per pattern family), with
// a golden JSON of the OOM cascade.
#include "analysis/logs/triage.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/logs/log_patterns.hpp"
#include "analysis/logs/log_prefix.hpp"
#include "analysis/logs/log_reader.hpp"
#include "analysis/report/triage_report.hpp"
#include "golden.hpp"

namespace podperf::logs {
namespace {

const std::string kDir = std::string(PODPERF_FIXTURES_DIR) + "/triage/";

TriageResult triage_files(const std::vector<std::string>& names) {
  TriageAccumulator acc;
  std::size_t order = 0;
  for (const std::string& n : names) {
    acc.add_file(read_log_file(kDir + n, order, [&](const LogEvent& ev) { acc.add(ev); }));
  }
  return acc.finish();
}

TriageResult triage_text_of(const std::string& content) {
  TriageAccumulator acc;
  std::size_t order = 0;
  acc.add_file(read_log_text(content, "mem.log", order, [&](const LogEvent& ev) { acc.add(ev); }));
  return acc.finish();
}

const TriageFinding* find(const TriageResult& r, const std::string& check) {
  for (const TriageFinding& f : r.findings) {
    if (f.check == check) return &f;
  }
  return nullptr;
}

LogEvent parsed(std::string_view line) {
  LogEvent ev;
  parse_log_line(line, ev);
  return ev;
}

// ---- line grammar ----

TEST(TriagePrefix, PlainNcclInfoLine) {
  const LogEvent ev = parsed("node-a1:1201:1350 [3] NCCL INFO Using network IB");
  EXPECT_EQ(ev.host, "node-a1");
  EXPECT_EQ(ev.pid, 1201);
  EXPECT_EQ(ev.cuda_dev, 3);
  EXPECT_EQ(ev.level, "INFO");
  EXPECT_EQ(ev.source, LogSource::nccl);
  EXPECT_EQ(ev.text, "Using network IB");
}

TEST(TriagePrefix, WarnWithCodeLocationAndTimestamp) {
  const LogEvent ev =
      parsed("[2025-03-01 10:00:03] ip-10-0-1-5:901:990 [0] misc/shmutils.cc:87 NCCL WARN Error: failed to extend");
  EXPECT_EQ(ev.time, "2025-03-01 10:00:03");
  EXPECT_EQ(ev.host, "ip-10-0-1-5");
  EXPECT_EQ(ev.code_location, "misc/shmutils.cc:87");
  EXPECT_EQ(ev.level, "WARN");
  EXPECT_EQ(ev.text, "Error: failed to extend");
}

TEST(TriagePrefix, ReturnChain) {
  const LogEvent ev = parsed("h:1:2 [0] NCCL INFO misc/socket.cc:752 -> 6");
  EXPECT_EQ(ev.return_code, 6);
  EXPECT_EQ(ev.code_location, "misc/socket.cc:752");
  EXPECT_EQ(return_code_name(6), "ncclRemoteError");
  EXPECT_EQ(return_code_name(2), "ncclSystemError");
  EXPECT_EQ(return_code_name(42), "rc 42");
}

TEST(TriagePrefix, LauncherWrappers) {
  EXPECT_EQ(parsed("12: h:1:2 [0] NCCL INFO x").rank, 12);                   // srun -l
  EXPECT_EQ(parsed("[1,7]<stdout>:h:1:2 [0] NCCL INFO x").rank, 7);          // mpirun
  EXPECT_EQ(parsed("[1,7]<stderr>:h:1:2 [0] NCCL WARN x").level, "WARN");    // mpirun stderr
  const LogEvent pdsh = parsed("node-12: node-12: h9:1:2 [0] NCCL INFO x");  // pdsh, doubled
  EXPECT_EQ(pdsh.host, "h9");
  EXPECT_EQ(pdsh.text, "x");
  const LogEvent k8s = parsed("2025-06-02T08:15:00.101Z stdout F w-0:77:77 [0] NCCL INFO y");
  EXPECT_EQ(k8s.time, "2025-06-02T08:15:00.101Z");
  EXPECT_EQ(k8s.host, "w-0");
  const LogEvent cw = parsed("  | 2025-01-10T04:00:01.000Z | t-3:501:501 [0] NCCL INFO z");
  EXPECT_EQ(cw.time, "2025-01-10T04:00:01.000Z");
  EXPECT_EQ(cw.text, "z");
  EXPECT_EQ(parsed("(WorkerDict pid=4411) p:1:1 [0] NCCL INFO r").host, "p");  // Ray
  EXPECT_EQ(parsed("[rank3]:[E501 ProcessGroupNCCL.cpp:607] boom").rank, 3);   // torchrun
  const LogEvent dmesg = parsed("[ 8812.113010] infiniband efa_0: Failed to register mr [-12]");
  EXPECT_EQ(dmesg.source, LogSource::kernel);
  EXPECT_EQ(dmesg.time, "8812.113010");
}

TEST(TriagePrefix, NotAHostWordIsKept) {
  // "RuntimeError: ..." is not a pdsh host (capitals, no digit).
  const LogEvent ev = parsed("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error");
  EXPECT_EQ(ev.host, "");
  EXPECT_EQ(ev.source, LogSource::pytorch);
}

TEST(TriagePrefix, NcclAfterProgressBar) {
  const LogEvent ev = parsed("  3%|#    | 12/400 [00:10<05:00] n1:5:6 [1] NCCL WARN Cuda failure 'out of memory'");
  EXPECT_EQ(ev.host, "n1");
  EXPECT_EQ(ev.level, "WARN");
  EXPECT_EQ(ev.text, "Cuda failure 'out of memory'");
}

TEST(TriagePrefix, ArbitraryBytesDoNotCrash) {
  std::string junk;
  for (int i = 1; i < 256; ++i) junk.push_back(static_cast<char>(i));
  LogEvent ev;
  parse_log_line(junk, ev);
  parse_log_line("[", ev);
  parse_log_line("[1,", ev);
  parse_log_line(": NCCL WARN", ev);
  parse_log_line("NCCL INFO a.cc:1 -> ", ev);
  SUCCEED();
}

// ---- pattern table ----

TEST(TriagePatterns, EveryRowMatchesItsOwnStrings) {
  for (const LogPattern& p : log_patterns()) {
    const std::string text = std::string(p.match) + " " + std::string(p.also);
    const LogPattern* m = match_log_pattern(text);
    ASSERT_NE(m, nullptr) << p.check;
    EXPECT_FALSE(p.cause.empty()) << p.check;
    EXPECT_FALSE(p.next_step.empty()) << p.check;
    EXPECT_LE(p.priority, 2) << p.check;
  }
}

TEST(TriagePatterns, SpecificBeforeGeneral) {
  EXPECT_EQ(match_log_pattern("Cuda failure 'out of memory'")->check, "gpu.cuda_oom");
  EXPECT_EQ(match_log_pattern("Cuda failure 'initialization error'")->check, "gpu.cuda_init");
  EXPECT_EQ(match_log_pattern("NET/IB : Got completion from peer 1.2.3.4 with status=4 opcode=0")->check,
            "ib.completion_local_protection");
  EXPECT_EQ(match_log_pattern("NET/IB : Got completion from peer 1.2.3.4 with status=5 opcode=0")->check,
            "ib.completion_flush");
  EXPECT_EQ(match_log_pattern("NET/IB : Got completion from peer 1.2.3.4 with status=12 opcode=0")->check,
            "ib.completion_error");
  EXPECT_EQ(match_log_pattern("Error while attaching to shared memory segment /dev/shm/x")->check, "shm.attach");
  EXPECT_EQ(match_log_pattern("a plain line"), nullptr);
}

// ---- reader ----

TEST(TriageReader, BinaryIsSkipped) {
  std::size_t order = 0;
  int events = 0;
  const std::string bin("ELF\0\0\x01\x02 NCCL WARN x\n", 20);
  const ReadStats s = read_log_text(bin, "core.bin", order, [&](const LogEvent&) { ++events; });
  EXPECT_TRUE(s.binary);
  EXPECT_EQ(events, 0);
}

TEST(TriageReader, LongLinesCutAndLastLineWithoutNewline) {
  std::size_t order = 0;
  std::vector<LogEvent> evs;
  const std::string content =
      "h:1:1 [0] NCCL WARN " + std::string(kMaxLineBytes * 2, 'x') + "\r\nh:1:1 [0] NCCL INFO Using network IB";
  const ReadStats s = read_log_text(content, "m.log", order, [&](const LogEvent& ev) { evs.push_back(ev); });
  EXPECT_EQ(s.lines, 2u);
  EXPECT_EQ(s.truncated_lines, 1u);
  ASSERT_EQ(evs.size(), 2u);
  EXPECT_LE(evs[0].text.size(), kMaxLineBytes);
  EXPECT_EQ(evs[1].text, "Using network IB");
  EXPECT_EQ(evs[1].line, 2u);
}

TEST(TriageReader, GzipReadAsIs) {
  const std::string path = (std::filesystem::temp_directory_path() / "podperf_triage_test.log.gz").string();
  {
    gzFile gz = gzopen(path.c_str(), "wb");
    ASSERT_NE(gz, nullptr);
    const std::string text = "n:1:1 [0] NCCL WARN Cuda failure 'out of memory'\n";
    gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
    gzclose(gz);
  }
  std::size_t order = 0;
  std::vector<LogEvent> evs;
  const ReadStats s = read_log_file(path, order, [&](const LogEvent& ev) { evs.push_back(ev); });
  std::filesystem::remove(path);
  EXPECT_TRUE(s.error.empty());
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].text, "Cuda failure 'out of memory'");
}

// Changed (issue 33): a line without a host of its own no longer takes the host of the line before it (an
// interleaved log's previous line is often another host's); the reader keeps that host as prior_host, for
// podperf's own one-process NCCL logs only.
TEST(TriageReader, UnprefixedLinesKeepTheHostBeforeThemApart) {
  std::size_t order = 0;
  std::vector<LogEvent> evs;
  read_log_text("h7:1:1 [0] NCCL INFO x\nRuntimeError: NCCL error in: a.cpp:1, unhandled system error\n", "f", order,
                [&](const LogEvent& ev) { evs.push_back(ev); });
  ASSERT_EQ(evs.size(), 2u);
  EXPECT_EQ(evs[1].host, "");
  EXPECT_EQ(evs[1].prior_host, "h7");
}

// ---- findings and verdicts on the fixtures ----

TEST(TriageFixtures, OomCascadeRootComesLaterInTheFile) {
  const TriageResult r = triage_files({"oom_cascade_srun.log"});
  EXPECT_EQ(r.verdict, "FAIL");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().check, "gpu.cuda_oom");
  EXPECT_EQ(r.findings.front().role, "cause");
  EXPECT_EQ(r.findings.front().host, "node-b2");
  const TriageFinding* closed = find(r, "net.peer_closed");
  ASSERT_NE(closed, nullptr);
  EXPECT_EQ(closed->role, "consequence");
  const TriageFinding* rc6 = find(r, "nccl.rc.ncclRemoteError");
  ASSERT_NE(rc6, nullptr);
  EXPECT_EQ(rc6->occurrences, 3u);
  EXPECT_EQ(find(r, "transport.tcp_fallback"), nullptr);  // NET/IB : Using is present
}

TEST(TriageFixtures, OomCascadeGoldenJson) {
  const TriageResult r = triage_files({"oom_cascade_srun.log"});
  std::string json = triage_json(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  // The fixture path depends on the checkout: keep the file name only.
  for (std::size_t at; (at = json.find(kDir)) != std::string::npos;) json.erase(at, kDir.size());
  golden::expect_golden("triage_oom_cascade.json", json);
}

TEST(TriageFixtures, IbCompletionOnOnePeer) {
  const TriageResult r = triage_files({"ib_completion_mpirun.log"});
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_EQ(r.findings.front().check, "ib.completion_error");
  EXPECT_EQ(r.findings.front().peer, "10.1.0.2");
  EXPECT_EQ(r.findings.front().occurrences, 2u);
  const TriageFinding* link = find(r, "link.one_peer");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->peer, "10.1.0.2");
  EXPECT_NE(find(r, "mpi.abort"), nullptr);
  EXPECT_EQ(find(r, "transport.tcp_fallback"), nullptr);
}

TEST(TriageFixtures, ShmUnderPdshWithTimestamps) {
  const TriageResult r = triage_files({"shm_pdsh.log"});
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_EQ(r.findings.front().check, "shm.capacity");
  EXPECT_EQ(r.findings.front().host, "ip-10-0-1-5");
  EXPECT_NE(find(r, "nccl.rc.ncclSystemError"), nullptr);
}

// Changed (issue 33): EFA not visible, then NCCL goes on over TCP sockets and completes init: the job runs,
// degraded. That is WARN (was FAIL); the plugin's errors stay first, as WARN, with the fallback named.
TEST(TriageFixtures, EfaNotVisibleFallsBackToSocket) {
  const TriageResult r = triage_files({"efa_fallback_k8s.log"});
  EXPECT_EQ(r.verdict, "WARN");
  EXPECT_EQ(r.findings.front().check, "efa.not_visible");
  EXPECT_EQ(r.findings.front().tag, "WARN");
  EXPECT_EQ(r.findings.front().host, "worker-0");  // the libfabric line's pid 77 is worker-0's
  EXPECT_NE(find(r, "efa.plugin_init_failed"), nullptr);
  ASSERT_EQ(r.transport.size(), 1u);
  EXPECT_EQ(r.transport[0].net, "Socket");
  EXPECT_EQ(r.transport[0].socket_channels, 2);
  EXPECT_EQ(r.transport[0].nnodes, 2);
  // The plugin tried (NET/OFI lines) but NCCL says Socket on a 2-node job: a TCP fallback.
  const TriageFinding* fallback = find(r, "transport.tcp_fallback");
  ASSERT_NE(fallback, nullptr);
  EXPECT_EQ(fallback->tag, "WARN");
}

TEST(TriageFixtures, BootstrapConnectUnderCloudWatch) {
  const TriageResult r = triage_files({"connect_cloudwatch.log"});
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_EQ(r.findings.front().check, "net.connect_failed");
  EXPECT_EQ(r.findings.front().peer, "10.2.0.9");
  EXPECT_EQ(r.findings.front().occurrences, 2u);
}

// Changed (issue 33): the fixture's forced NCCL_PROTO=Simple made it a WARN (a forced protocol is a
// degraded setting now, config.forced_protocol, tested below); the healthy run sets NCCL_SOCKET_IFNAME.
TEST(TriageFixtures, HealthyEfaUnderRayPasses) {
  const TriageResult r = triage_files({"healthy_efa_ray.log"});
  EXPECT_EQ(r.verdict, "PASS") << triage_text(r);
  EXPECT_FALSE(r.has_fail());
  ASSERT_EQ(r.transport.size(), 1u);
  const HostTransport& t = r.transport[0];
  EXPECT_EQ(t.net, "Libfabric");
  EXPECT_EQ(t.provider, "efa");
  EXPECT_EQ(t.nics_found, 32);
  EXPECT_EQ(t.instance_type, "p5.48xlarge");
  EXPECT_EQ(t.sku_efa_devices, 32);
  EXPECT_EQ(t.gdrdma_channels, 3);
  EXPECT_EQ(t.net_channels, 3);
  EXPECT_TRUE(t.pxn);
  EXPECT_EQ(t.nvls, "available");
  EXPECT_EQ(t.coll_channels, 32);
  EXPECT_EQ(t.plugin_version, "1.9.1-aws");
  EXPECT_EQ(t.nic_indices, (std::set<int>{0, 1}));
  EXPECT_TRUE(t.intra.count("P2P/CUMEM"));
  EXPECT_TRUE(t.env_overrides.count("NCCL_SOCKET_IFNAME=ens"));
  EXPECT_NE(find(r, "nccl.env_overrides"), nullptr);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.back().tag, "PASS");  // what it saw
  EXPECT_NE(r.findings.back().cause.find("Init COMPLETE"), std::string::npos) << r.findings.back().cause;
}

TEST(TriageFixtures, DesyncAcrossRanks) {
  const TriageResult r = triage_files({"desync_torchrun.log"});
  const TriageFinding* d = find(r, "pytorch.desync");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->tag, "FAIL");
  EXPECT_NE(d->cause.find("SeqNum=2030 OpType=_ALLGATHER_BASE on 1 rank(s)"), std::string::npos) << d->cause;
  EXPECT_NE(d->next_step.find("TORCH_NCCL_TRACE_BUFFER_SIZE"), std::string::npos);
  EXPECT_NE(d->next_step.find("TORCH_NCCL_DUMP_ON_TIMEOUT"), std::string::npos);
  EXPECT_EQ(find(r, "pytorch.hang"), nullptr);
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_EQ(r.findings.front().check, "pytorch.desync");
}

// Changed (issue 33): watchdog timeouts show that the job failed, only not why: FAIL (was INCONCLUSIVE),
// with no root cause named and what to collect.
TEST(TriageFixtures, LateWatchdogIsAFailWithoutItsCause) {
  const TriageResult r = triage_files({"late_watchdog.log"});
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_FALSE(r.collect_next.empty());
  EXPECT_TRUE(r.has_fail());
  EXPECT_EQ(r.findings.front().role, "");
  EXPECT_NE(find(r, "pytorch.hang"), nullptr);
  const TriageFinding* late = find(r, "pytorch.watchdog_late");
  ASSERT_NE(late, nullptr);
  EXPECT_NE(late->cause.find("ran for 9001 s against a 1800 s timeout"), std::string::npos) << late->cause;
}

TEST(TriageFixtures, RasDeadProcess) {
  const TriageResult r = triage_files({"ras_status.txt"});
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_EQ(r.findings.front().check, "ras.dead_process");
  EXPECT_NE(find(r, "ras.missing_process"), nullptr);
}

TEST(TriageFixtures, SingleNodeSocketIsNoFallback) {
  const TriageResult r = triage_files({"single_rank.log"});
  EXPECT_EQ(find(r, "transport.tcp_fallback"), nullptr);
  ASSERT_EQ(r.transport.size(), 1u);
  EXPECT_TRUE(r.transport[0].intra.count("SHM"));
  // Its GPUs talk via SHM: the one degraded setting (GPUs with P2P support would use it).
  EXPECT_EQ(r.verdict, "WARN") << triage_text(r);
  for (const TriageFinding& f : r.findings) {
    if (f.tag == "WARN") {
      EXPECT_EQ(f.check, "transport.shm_intra_node");
    }
  }
}

TEST(TriageFixtures, MultiNodeSocketIsFallback) {
  const TriageResult r = triage_text_of(
      "a1:1:1 [0] NCCL INFO Using network Socket\nb2:1:1 [0] NCCL INFO Using network Socket\n"
      "a1:1:1 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0\n");
  const TriageFinding* f = find(r, "transport.tcp_fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(r.verdict, "WARN");
}

TEST(TriageFixtures, OldWordingSystemicIbError) {
  const TriageResult r = triage_files({"old_nccl_systemic.log"});
  EXPECT_EQ(r.verdict, "FAIL");
  const TriageFinding& f = r.findings.front();
  EXPECT_EQ(f.check, "ib.completion_error");
  EXPECT_EQ(f.host, "systemic: 3 hosts");
  EXPECT_NE(f.cause.find("systemic"), std::string::npos);
  bool shm = false;
  for (const HostTransport& t : r.transport) shm = shm || t.intra.count("SHM") > 0;
  EXPECT_TRUE(shm);  // "via direct shared memory" (old wording)
  EXPECT_EQ(find(r, "transport.tcp_fallback"), nullptr);
}

TEST(TriageFixtures, UnknownWarnIsNeverPass) {
  const TriageResult r = triage_files({"unknown_warn.log"});
  EXPECT_EQ(r.verdict, "WARN");
  ASSERT_NE(find(r, "nccl.warn"), nullptr);
}

TEST(TriageFixtures, KernelEfaAndXid) {
  const TriageResult r = triage_files({"kernel_efa_dmesg.log"});
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_NE(find(r, "efa.mr_registration"), nullptr);
  EXPECT_NE(find(r, "gpu.xid"), nullptr);
}

TEST(TriageFixtures, NcclTestsWrongResults) {
  const TriageResult r = triage_files({"nccl_tests_fail.log"});
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_EQ(r.findings.front().check, "nccl_tests.wrong_results");
}

TEST(TriageFixtures, VersionDriftAndOldDriver) {
  const TriageResult r = triage_files({"version_drift.log"});
  EXPECT_EQ(r.verdict, "WARN");
  const TriageFinding* d = find(r, "transport.drift.nccl_version");
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->cause.find("2.20.3+cuda12.3 on b-node-2"), std::string::npos) << d->cause;
  const TriageFinding* old = find(r, "transport.driver_older_than_nccl");
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(old->host, "a-node-1");
}

TEST(TriageFixtures, UnprefixedCauseLinesReachTheTable) {
  const TriageResult r = triage_text_of("loading shards\nBus error (core dumped)\n");
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_EQ(r.findings.front().check, "shm.capacity");
  EXPECT_EQ(r.findings.front().evidence.front(), "mem.log:2: Bus error (core dumped)");
}

TEST(TriageFixtures, NothingKnownIsInconclusive) {
  const TriageResult r = triage_text_of("hello\nworld\n");
  EXPECT_EQ(r.verdict, "INCONCLUSIVE");
  EXPECT_FALSE(r.has_fail());
}

// Changed (issue 33): an MPI abort shows the job failed: FAIL (was INCONCLUSIVE), its cause not in the log.
TEST(TriageFixtures, LauncherAbortAloneIsAFailWithoutItsCause) {
  const TriageResult r = triage_files({"mpi_abort_only.log"});
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_TRUE(r.has_fail());
  EXPECT_FALSE(r.collect_next.empty());
  EXPECT_EQ(r.findings.front().role, "");
}

TEST(TriageFixtures, AllFilesTogetherNeverPassAFailLine) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(kDir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  const TriageResult r = triage_files(names);
  EXPECT_EQ(r.verdict, "FAIL");
  EXPECT_EQ(r.findings.front().cause_rank, 100);
  const std::string md = triage_markdown(r);
  EXPECT_NE(md.find("**Root cause:**"), std::string::npos);
}

TEST(TriageWatchdog, ParsesOldWordingWithoutNumel) {
  WatchdogTimeout w;
  ASSERT_TRUE(
      parse_watchdog("[Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, "
                     "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800542 milliseconds before timing out.",
                     w));
  EXPECT_EQ(w.seq, 7);
  EXPECT_EQ(w.op, "ALLREDUCE");
  EXPECT_EQ(w.numel_in, -1);
  EXPECT_EQ(w.timeout_ms, 1800000);
  EXPECT_EQ(w.ran_for_ms, 1800542);
  EXPECT_EQ(w.rank, 5);
}

}  // namespace
}  // namespace podperf::logs

// parse_nccl_log, nccl_log_findings, parse_nccl_log_dir and describe_transport: every line of
// FIELD-NOTES section 5, the prefix variants launchers add, and the fixtures in tests/fixtures/nccl_logs.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/nccl_log.hpp"

namespace podperf {
namespace {

const std::string kPrefix = "ip-10-1-2-3:12345:12345 [0] ";

std::string fixture_path(const std::string& name) { return std::string(PODPERF_FIXTURES_DIR) + "/nccl_logs/" + name; }

std::string fixture(const std::string& name) {
  std::ifstream in(fixture_path(name), std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << fixture_path(name);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Facts of the one process that `lines` (each a full NCCL line) belong to.
NcclProcessFacts facts_of(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  const NcclLogSummary s = parse_nccl_log(text);
  EXPECT_EQ(s.processes.size(), 1u) << text;
  return s.processes.empty() ? NcclProcessFacts{} : s.processes.front();
}

NcclProcessFacts info(const std::string& message) { return facts_of({kPrefix + "NCCL INFO " + message}); }
NcclProcessFacts warn(const std::string& message) {
  return facts_of({"ip-10-1-2-3:12345:12399 [0] misc/ibvwrap.cc:190 NCCL WARN " + message});
}

std::vector<const Finding*> with_check(const std::vector<Finding>& fs, const std::string& check) {
  std::vector<const Finding*> out;
  for (const auto& f : fs)
    if (f.check == check) out.push_back(&f);
  return out;
}

std::size_t count_tag(const std::vector<Finding>& fs, Tag tag) {
  return static_cast<std::size_t>(std::count_if(fs.begin(), fs.end(), [&](const Finding& f) { return f.tag == tag; }));
}

bool contains(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }

std::string dump(const std::vector<Finding>& fs) {
  std::string out;
  for (const auto& f : fs) {
    out += std::string(tag_name(f.tag)) + " " + f.check + " [" + f.host + "] " + f.observed + "\n";
  }
  return out;
}

// Every finding carries the fields the report prints.
void expect_complete(const std::vector<Finding>& fs) {
  for (const auto& f : fs) {
    EXPECT_EQ(f.source, "nccl-log");
    EXPECT_FALSE(f.check.empty());
    EXPECT_FALSE(f.observed.empty()) << f.check;
    EXPECT_FALSE(f.expected.empty()) << f.check;
    EXPECT_FALSE(f.meaning.empty()) << f.check;
    EXPECT_FALSE(f.effect.empty()) << f.check;
    EXPECT_FALSE(f.next_step.empty()) << f.check;
  }
}

// ---- FIELD-NOTES section 5, line by line ----

TEST(NcclLogLines, ProviderEfaDirect) {
  const auto f = info("NET/OFI Selected provider is efa, fabric is efa-direct (found 32 nics)");
  EXPECT_EQ(f.ofi_provider, "efa");
  EXPECT_EQ(f.ofi_fabric, "efa-direct");
  EXPECT_EQ(f.nic_count, 32);
  EXPECT_EQ(f.host, "ip-10-1-2-3");
  EXPECT_EQ(f.pid, 12345);
}

TEST(NcclLogLines, ProviderOlderWording) {
  const auto f = info("NET/OFI Selected Provider is efa (found 4 nics)");
  EXPECT_EQ(f.ofi_provider, "efa");
  EXPECT_EQ(f.ofi_fabric, "");
  EXPECT_EQ(f.nic_count, 4);
  const auto g = info("NET/OFI Selected Provider is efa");  // oldest plugins print no count
  EXPECT_EQ(g.ofi_provider, "efa");
  EXPECT_EQ(g.nic_count, -1);
}

TEST(NcclLogLines, ProviderTcp) {
  EXPECT_EQ(info("NET/OFI Selected provider is tcp, fabric is 10.1.0.0/16 (found 2 nics)").ofi_provider, "tcp");
  EXPECT_EQ(info("NET/OFI Selected provider is tcp, fabric is 10.1.0.0/16 (found 2 nics)").ofi_fabric, "10.1.0.0/16");
  const auto f = info("NET/OFI Selected Provider is tcp;ofi_rxm");
  EXPECT_EQ(f.ofi_provider, "tcp;ofi_rxm");
  EXPECT_EQ(f.nic_count, -1);
}

TEST(NcclLogLines, PluginMissing) {
  EXPECT_TRUE(info("NET/Plugin: Could not find: libnccl-net.so").plugin_missing);
  EXPECT_TRUE(info("NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.").plugin_missing);
  EXPECT_TRUE(info("NET/Plugin : No plugin found (libnccl-net.so), using internal implementation").plugin_missing);
  // Other plugin kinds are not the net plugin.
  EXPECT_FALSE(facts_of({kPrefix + "NCCL INFO ENV/Plugin: Could not find: libnccl-env.so",
                         kPrefix + "NCCL INFO PROFILER/Plugin: Could not find: libnccl-profiler.so.",
                         kPrefix + "NCCL INFO Using network Libfabric"})
                   .plugin_missing);
  // A plugin found under another name afterwards clears it.
  EXPECT_FALSE(facts_of({kPrefix + "NCCL INFO NET/Plugin: Could not find: libnccl-net-ofi.so",
                         kPrefix + "NCCL INFO NET/Plugin: Loaded net plugin Libfabric (v10)"})
                   .plugin_missing);
}

TEST(NcclLogLines, SocketInterfaces) {
  EXPECT_EQ(info("NET/Socket : Using [0]eth0:10.0.0.1<0>").socket_ifaces, std::vector<std::string>{"eth0"});
  const auto f = info("NET/Socket : Using [0]ens5:10.0.0.1<0> [1]br-eaee979aadb0:172.19.0.1<0> "
                      "[2]veth1:fe80::c821:6bff:fea5:dcf9%veth1<0>");
  EXPECT_EQ(f.socket_ifaces, (std::vector<std::string>{"ens5", "br-eaee979aadb0", "veth1"}));
  // The bootstrap interface is not the data transport.
  EXPECT_TRUE(info("Bootstrap : Using eth0:10.0.0.1<0>").socket_ifaces.empty());
}

TEST(NcclLogLines, UsingNetwork) {
  EXPECT_EQ(info("Using network Socket").net, "Socket");
  EXPECT_EQ(info("Using network Libfabric").net, "Libfabric");
  EXPECT_EQ(info("Using network AWS Libfabric").net, "AWS Libfabric");
  EXPECT_EQ(info("Using network IB").net, "IB");
}

TEST(NcclLogLines, NetChannelsAndGdrdma) {
  const auto socket = info("Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0");
  EXPECT_EQ(socket.net, "Socket");  // known from the channel line when "Using network" was not seen
  EXPECT_TRUE(socket.net_without_gdrdma_seen);
  EXPECT_FALSE(socket.gdrdma_seen);

  const auto gdr = info("Channel 00/0 : 0[0] -> 8[0] [send] via NET/Libfabric/0/GDRDMA");
  EXPECT_TRUE(gdr.gdrdma_seen);
  EXPECT_FALSE(gdr.net_without_gdrdma_seen);
  EXPECT_EQ(gdr.net, "Libfabric");
  EXPECT_TRUE(info("Channel 01/1 : 3[3] -> 11[3] [send] via NET/Libfabric/3(2)/GDRDMA/Shared").gdrdma_seen);
  EXPECT_TRUE(info("Channel 00/0 : 11[3] -> 2[2] [send] via NET/AWS Libfabric/0/GDRDMA").gdrdma_seen);
  EXPECT_TRUE(info("Ring 00 : 7 -> 8 [send] via NET/AWS Libfabric/0").net_without_gdrdma_seen);

  const auto no_gdr = info("Channel 00/0 : 7[7] -> 15[7] [receive] via NET/Libfabric/7");
  EXPECT_TRUE(no_gdr.net_without_gdrdma_seen);
  EXPECT_FALSE(no_gdr.gdrdma_seen);
}

TEST(NcclLogLines, IntraNodePaths) {
  EXPECT_EQ(info("Channel 00/0 : 0[0] -> 1[1] via P2P/IPC").intra_paths, std::set<std::string>{"P2P/IPC"});
  EXPECT_EQ(info("Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read").intra_paths, std::set<std::string>{"P2P/CUMEM"});
  EXPECT_EQ(info("Channel 00 : 10[201c0] -> 15[a01d0] via P2P/IPC/read").intra_paths, std::set<std::string>{"P2P/IPC"});
  EXPECT_EQ(info("Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer/read").intra_paths,
            std::set<std::string>{"P2P/direct pointer"});
  EXPECT_EQ(info("Channel 00 : 0[0] -> 1[1] via SHM/direct/direct").intra_paths, std::set<std::string>{"SHM/direct"});
  EXPECT_EQ(info("Ring 00 : 2[3d000] -> 3[3e000] via direct shared memory").intra_paths,
            std::set<std::string>{"SHM/direct"});
}

TEST(NcclLogLines, ChannelCount) {
  EXPECT_EQ(info("Channel 00/32 :    0   1   2   3   4   5   6   7").channels, 32);
  EXPECT_EQ(info("Channel 00/02 :    0   1").channels, 2);
  EXPECT_EQ(info("32 coll channels, 32 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer")
                .channels,
            32);
  // "/0" after a channel number on a connection line is the connection index, not a count.
  EXPECT_EQ(info("Channel 00/0 : 0[0] -> 1[1] via P2P/IPC").channels, -1);
  EXPECT_EQ(facts_of({kPrefix + "NCCL INFO Channel 00/04 :    0   1", kPrefix + "NCCL INFO Channel 00/16 :    0   1"})
                .channels,
            16);
}

TEST(NcclLogLines, MemlockFailure) {
  EXPECT_TRUE(warn("Call to ibv_reg_mr failed").memlock_failure);
  EXPECT_TRUE(warn("Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory").memlock_failure);
  EXPECT_TRUE(warn("NET/OFI Couldn't register memory region for device 0. RC: -12, Error: Cannot allocate memory")
                  .memlock_failure);
  EXPECT_TRUE(warn("NET/OFI Unable to register memory (type = 1) for device 0. RC: 12, Error: Cannot allocate memory")
                  .memlock_failure);
  // EINVAL from registration is a different problem (DMA-BUF / libfabric bug), not the memlock limit.
  EXPECT_FALSE(warn("NET/OFI Unable to register memory (type = 2) for device 4. RC: -22, Error: Invalid argument")
                   .memlock_failure);
}

TEST(NcclLogLines, DevShmFailure) {
  const auto f = facts_of({"ip-10-1-2-3:9621:9691 [6] misc/shmutils.cc:71 NCCL WARN Error: failed to extend "
                           "/dev/shm/nccl-fjwOOB to 5967876 bytes"});
  EXPECT_TRUE(f.shm_failure);
  EXPECT_EQ(f.warnings, std::vector<std::string>{"Error: failed to extend /dev/shm/nccl-fjwOOB to 5967876 bytes"});
  EXPECT_TRUE(warn("Error while creating shared memory segment /dev/shm/nccl-KWfVyt (size 5967872)").shm_failure);
  EXPECT_TRUE(warn("Call to posix_fallocate failed : No space left on device").shm_failure);
}

TEST(NcclLogLines, ErrorLines) {
  for (const std::string msg : {"unhandled system error", "unhandled cuda error",
                                "remote process exited or there was a network error", "internal error",
                                "ncclSystemError", "Cuda failure 'out of memory'"}) {
    const auto f = warn("Something failed: " + msg);
    ASSERT_EQ(f.errors.size(), 1u) << msg;
    EXPECT_TRUE(contains(f.errors[0], msg));
  }
  EXPECT_TRUE(info("Connected all rings").errors.empty());
}

TEST(NcclLogLines, NvlsUnavailable) {
  EXPECT_TRUE(info("NVLS multicast support is not available on dev 0").nvls_unavailable);
  EXPECT_TRUE(info("NVLS multicast support is not available on dev 3 (NVLS_NCHANNELS 0)").nvls_unavailable);
  EXPECT_FALSE(info("NVLS multicast support is available on dev 0 (NVLS_NCHANNELS 16)").nvls_unavailable);
}

TEST(NcclLogLines, Version) {
  const auto f = info("NCCL version 2.28.3+cuda13.0");
  EXPECT_EQ(f.nccl_version, "2.28.3");
  EXPECT_EQ(f.nccl_cuda, "13.0");
  EXPECT_EQ(info("NCCL version 2.4.8+cuda10.1").nccl_version, "2.4.8");
  EXPECT_TRUE(info("NCCL git version HEAD ebd1e92").nccl_version.empty());
}

TEST(NcclLogLines, WarningsAreDeduplicatedAndCapped) {
  std::vector<std::string> lines;
  for (int i = 0; i < 3; ++i) lines.push_back(kPrefix + "transport.cc:1 NCCL WARN same message");
  for (int i = 0; i < 80; ++i) lines.push_back(kPrefix + "x.cc:1 NCCL WARN message " + std::to_string(i));
  const auto f = facts_of(lines);
  EXPECT_EQ(f.warnings.size(), 50u);
  EXPECT_EQ(f.warnings[0], "same message");
}

// ---- prefixes ----

TEST(NcclLogPrefix, LauncherTagsTimestampsAndWarnLocations) {
  const std::string text =
      "[1,3]<stdout>:ip-172-32-45-165:72593:73427 [7] NCCL INFO Using network AWS Libfabric\n"
      "3: ip-172-32-45-165:72593:72593 [7] NCCL INFO NCCL version 2.26.2+cuda12.2\n"
      "[2025-06-06 09:52:01] ip-172-32-45-165:72593:73427 [7] misc/shmutils.cc:87 NCCL WARN Error: failed to extend "
      "/dev/shm/nccl-YrFC5V to 33030532 bytes, error: No space left on device (28)\n"
      "[2026-09-17 04:02:30] ip-172-32-45-165:72593:72593 [7] int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**)"
      ":418 NCCL WARN NET/OFI aws-ofi-nccl initialization failed\n"
      "(RayWorkerWrapper pid=1148) ip-172-32-45-165:72593:72593 [7] NCCL INFO NET/OFI Selected Provider is efa\n";
  const NcclLogSummary s = parse_nccl_log(text);
  ASSERT_EQ(s.processes.size(), 1u);
  const auto& f = s.processes[0];
  EXPECT_EQ(f.host, "ip-172-32-45-165");
  EXPECT_EQ(f.pid, 72593);
  EXPECT_EQ(f.cuda_devices, std::vector<int>{7});
  EXPECT_EQ(f.net, "AWS Libfabric");
  EXPECT_EQ(f.nccl_version, "2.26.2");
  EXPECT_TRUE(f.shm_failure);
  EXPECT_EQ(f.ofi_provider, "efa");
  ASSERT_EQ(f.warnings.size(), 2u);
  EXPECT_EQ(f.warnings[1], "NET/OFI aws-ofi-nccl initialization failed");
  EXPECT_EQ(s.nccl_lines, 5u);
  EXPECT_EQ(s.unparsed_lines, 0u);
}

TEST(NcclLogPrefix, LinesWithoutPrefixGoToTheOnlyProcess) {
  const std::string text = kPrefix + "NCCL INFO cudaDriverVersion 12080\n"
                                     "NCCL version 2.21.5+cuda12.4\n"
                                     "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error\n";
  const NcclLogSummary s = parse_nccl_log(text);
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_EQ(s.processes[0].nccl_version, "2.21.5");
  EXPECT_EQ(s.processes[0].nccl_cuda, "12.4");
  ASSERT_EQ(s.processes[0].errors.size(), 1u);
  EXPECT_EQ(s.unparsed_lines, 1u);
}

TEST(NcclLogPrefix, PyTorchErrorEndingInAVersionIsAnError) {
  const std::string text =
      kPrefix + "NCCL INFO NCCL version 2.21.5+cuda12.4\n" +
      "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error (run "
      "with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n";
  const NcclLogSummary s = parse_nccl_log(text);
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_EQ(s.processes[0].nccl_version, "2.21.5");
  EXPECT_EQ(s.processes[0].nccl_cuda, "12.4");
  ASSERT_EQ(s.processes[0].errors.size(), 1u);
  EXPECT_TRUE(contains(s.processes[0].errors[0], "DistBackendError"));
}

TEST(NcclLogPrefix, BareVersionLineGoesToTheProcessBeforeIt) {
  const std::string text =
      "ip-10-1-2-3:1:1 [0] NCCL INFO cudaDriverVersion 12080\n"
      "NCCL version 2.21.5+cuda12.4\n"
      "ip-10-1-4-5:2:2 [0] NCCL INFO cudaDriverVersion 12080\n"
      "ip-10-1-4-5:2:2 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n";
  const NcclLogSummary s = parse_nccl_log(text);
  ASSERT_EQ(s.processes.size(), 2u);
  EXPECT_EQ(s.processes[0].nccl_version, "2.21.5");
  EXPECT_EQ(s.nccl_lines, 4u);
}

TEST(NcclLogPrefix, StrippedLinesOfSeveralProcessesAreKeptRunWide) {
  const std::string text =
      "ip-10-1-2-3:1:1 [0] NCCL INFO Using network Libfabric\n"
      "ip-10-1-4-5:2:2 [0] NCCL INFO Using network Libfabric\n"
      "NCCL INFO Using network Socket\n";  // pasted without its prefix: whose is unknown
  const NcclLogSummary s = parse_nccl_log(text);
  ASSERT_EQ(s.processes.size(), 3u);
  EXPECT_EQ(s.processes[2].host, "");
  EXPECT_EQ(s.processes[2].pid, -1);
  EXPECT_EQ(s.processes[2].net, "Socket");
  const auto fs = nccl_log_findings(s, 0);
  const auto tcp = with_check(fs, "nccl.tcp_fallback");
  ASSERT_EQ(tcp.size(), 1u);
  EXPECT_EQ(tcp[0]->host, "");
  EXPECT_EQ(with_check(fs, "nccl.summary").size(), 2u);  // the two real hosts; none for the stripped lines
}

TEST(NcclLogPrefix, OnlyTextSafeForReports) {
  const std::string text = kPrefix + "x.cc:1 NCCL WARN bad \x01\xff\xfe bytes \xc3\xa9t\xc3\xa9\n";
  const auto s = parse_nccl_log(text);
  ASSERT_EQ(s.processes.size(), 1u);
  ASSERT_EQ(s.processes[0].warnings.size(), 1u);
  EXPECT_EQ(s.processes[0].warnings[0], "bad ??? bytes \xc3\xa9t\xc3\xa9");
}

// ---- fixtures ----

TEST(NcclLogFixtures, HealthyP5) {
  const NcclLogSummary s = parse_nccl_log(fixture("efa_healthy_p5.log"));
  ASSERT_EQ(s.processes.size(), 8u);
  EXPECT_EQ(s.unparsed_lines, 0u);
  EXPECT_FALSE(s.truncated_last_line);
  for (const auto& p : s.processes) {
    EXPECT_EQ(p.nccl_version, "2.28.3");
    EXPECT_EQ(p.nccl_cuda, "13.0");
    EXPECT_EQ(p.net, "Libfabric");
    EXPECT_EQ(p.ofi_provider, "efa");
    EXPECT_EQ(p.ofi_fabric, "efa-direct");
    EXPECT_EQ(p.nic_count, 32);
    EXPECT_FALSE(p.plugin_missing);
    EXPECT_TRUE(p.gdrdma_seen);
    EXPECT_FALSE(p.net_without_gdrdma_seen);
    EXPECT_EQ(p.intra_paths, std::set<std::string>{"P2P/CUMEM"});
    EXPECT_EQ(p.channels, 32);
    EXPECT_EQ(p.nodes, 2);
    EXPECT_EQ(p.cuda_devices.size(), 1u);
    EXPECT_TRUE(p.warnings.empty());
    EXPECT_TRUE(p.errors.empty());
    EXPECT_FALSE(p.nvls_unavailable);
  }
  EXPECT_EQ(describe_transport(s.processes[0]), "Libfabric/efa 32 NICs GDRDMA");

  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  const auto ok = with_check(fs, "nccl.summary");
  ASSERT_EQ(ok.size(), 2u) << dump(fs);
  EXPECT_EQ(ok[0]->tag, Tag::kOk);
  EXPECT_EQ(ok[0]->host, "ip-10-1-2-3");
  EXPECT_EQ(ok[1]->host, "ip-10-1-4-5");
  for (const std::string part : {"Libfabric/efa", "32 NICs", "GDRDMA", "efa-direct", "P2P/CUMEM", "NCCL 2.28.3"}) {
    EXPECT_TRUE(contains(ok[0]->observed, part)) << ok[0]->observed;
  }
  EXPECT_EQ(fs.size(), 2u) << dump(fs);
}

TEST(NcclLogFixtures, NicCountBelowTheBaselineIsOneFindingPerHost) {
  const auto fs = nccl_log_findings(parse_nccl_log(fixture("efa_healthy_p5.log")), 64);
  const auto nic = with_check(fs, "nccl.efa_nic_count");
  ASSERT_EQ(nic.size(), 2u) << dump(fs);  // 8 processes, 2 hosts
  EXPECT_EQ(nic[0]->tag, Tag::kConcern);
  EXPECT_TRUE(contains(nic[0]->observed, "32")) << nic[0]->observed;
  EXPECT_TRUE(contains(nic[0]->expected, "64")) << nic[0]->expected;
  EXPECT_TRUE(with_check(fs, "nccl.summary").empty());
  // No expectation given: no NIC check at all.
  EXPECT_TRUE(with_check(nccl_log_findings(parse_nccl_log(fixture("efa_healthy_p5.log")), 0), "nccl.efa_nic_count")
                  .empty());
}

TEST(NcclLogFixtures, SocketFallback) {
  const NcclLogSummary s = parse_nccl_log(fixture("socket_fallback.log"));
  ASSERT_EQ(s.processes.size(), 1u);
  const auto& p = s.processes[0];
  EXPECT_TRUE(p.plugin_missing);
  EXPECT_EQ(p.net, "Socket");
  EXPECT_EQ(p.socket_ifaces, std::vector<std::string>{"eth0"});
  EXPECT_EQ(describe_transport(p), "Socket (TCP fallback) on eth0");

  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  const auto tcp = with_check(fs, "nccl.tcp_fallback");
  ASSERT_EQ(tcp.size(), 1u) << dump(fs);
  EXPECT_EQ(tcp[0]->tag, Tag::kConcern);
  EXPECT_EQ(tcp[0]->host, "ip-10-1-9-9");
  EXPECT_TRUE(contains(tcp[0]->observed, "eth0")) << tcp[0]->observed;
  EXPECT_TRUE(with_check(fs, "nccl.no_gdrdma").empty()) << "sockets never have GDRDMA: one finding is enough";
  EXPECT_TRUE(with_check(fs, "nccl.summary").empty());
}

TEST(NcclLogFixtures, SocketFallbackOnOneNodeIsOnlyInfo) {
  const std::string text = kPrefix + "NCCL INFO NET/Plugin: Could not find: libnccl-net.so\n" + kPrefix +
                           "NCCL INFO Using network Socket\n" + kPrefix +
                           "NCCL INFO comm 0x1 rank 0 nRanks 8 nNodes 1 localRanks 8 localRank 0 MNNVL 0\n" + kPrefix +
                           "NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM\n";
  const auto fs = nccl_log_findings(parse_nccl_log(text), 0);
  const auto tcp = with_check(fs, "nccl.tcp_fallback");
  ASSERT_EQ(tcp.size(), 1u);
  EXPECT_EQ(tcp[0]->tag, Tag::kInfo);
  EXPECT_EQ(with_check(fs, "nccl.summary").size(), 1u);
}

TEST(NcclLogFixtures, PluginMissingWithoutANetworkLineIsStillReported) {
  const std::string missing = kPrefix + "NCCL INFO NET/Plugin: Could not find: libnccl-net.so\n";
  const auto fs = nccl_log_findings(parse_nccl_log(missing), 0);
  const auto tcp = with_check(fs, "nccl.tcp_fallback");
  ASSERT_EQ(tcp.size(), 1u) << dump(fs);
  EXPECT_EQ(tcp[0]->tag, Tag::kConcern);
  EXPECT_TRUE(contains(tcp[0]->observed, "not logged")) << tcp[0]->observed;
  // With NCCL's internal IB plugin the missing external plugin is normal.
  const auto ib = nccl_log_findings(parse_nccl_log(missing + kPrefix + "NCCL INFO Using network IB\n"), 0);
  EXPECT_TRUE(with_check(ib, "nccl.tcp_fallback").empty()) << dump(ib);
}

TEST(NcclLogFixtures, OfiTcpProvider) {
  const NcclLogSummary s = parse_nccl_log(fixture("ofi_tcp_provider.log"));
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_EQ(s.processes[0].ofi_provider, "tcp;ofi_rxm");
  EXPECT_EQ(s.processes[0].nic_count, 1);
  EXPECT_TRUE(contains(describe_transport(s.processes[0]), "TCP, not EFA"));
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  const auto tcp = with_check(fs, "nccl.ofi_tcp");
  ASSERT_EQ(tcp.size(), 1u) << dump(fs);
  EXPECT_EQ(tcp[0]->tag, Tag::kConcern);
  EXPECT_TRUE(contains(tcp[0]->observed, "tcp;ofi_rxm"));
  EXPECT_TRUE(with_check(fs, "nccl.tcp_fallback").empty());
  EXPECT_TRUE(with_check(fs, "nccl.no_gdrdma").empty());
  EXPECT_TRUE(with_check(fs, "nccl.efa_nic_count").empty()) << "the NIC count of a tcp provider is not EFA's";
}

TEST(NcclLogFixtures, OlderPluginWording) {
  const NcclLogSummary s = parse_nccl_log(fixture("older_plugin.log"));
  ASSERT_EQ(s.processes.size(), 2u);
  for (const auto& p : s.processes) {
    EXPECT_EQ(p.net, "AWS Libfabric");
    EXPECT_EQ(p.ofi_provider, "efa");
    EXPECT_EQ(p.nic_count, 4);
    EXPECT_EQ(p.nccl_version, "2.12.12");
    EXPECT_TRUE(p.gdrdma_seen);
    EXPECT_EQ(p.intra_paths, std::set<std::string>{"P2P/IPC"});
    EXPECT_EQ(p.channels, 8);
  }
  EXPECT_EQ(describe_transport(s.processes[0]), "AWS Libfabric/efa 4 NICs GDRDMA");
  const auto fs = nccl_log_findings(s, 4);
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  EXPECT_EQ(with_check(fs, "nccl.summary").size(), 1u);
}

TEST(NcclLogFixtures, NoGdrdma) {
  const NcclLogSummary s = parse_nccl_log(fixture("no_gdrdma.log"));
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_TRUE(s.processes[0].net_without_gdrdma_seen);
  EXPECT_FALSE(s.processes[0].gdrdma_seen);
  EXPECT_EQ(describe_transport(s.processes[0]), "Libfabric/efa 32 NICs without GDRDMA");
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  const auto gdr = with_check(fs, "nccl.no_gdrdma");
  ASSERT_EQ(gdr.size(), 1u) << dump(fs);
  EXPECT_EQ(gdr[0]->tag, Tag::kConcern);
  EXPECT_EQ(gdr[0]->host, "ip-10-1-6-6");
}

TEST(NcclLogFixtures, VersionDrift) {
  const NcclLogSummary s = parse_nccl_log(fixture("version_drift.log"));
  ASSERT_EQ(s.processes.size(), 4u);
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  const auto drift = with_check(fs, "nccl.version_drift");
  ASSERT_EQ(drift.size(), 1u) << dump(fs);
  EXPECT_EQ(drift[0]->tag, Tag::kConcern);
  EXPECT_EQ(drift[0]->host, "");
  for (const std::string part : {"2.28.3+cuda13.0", "2.27.7+cuda12.9", "ip-10-1-2-3", "ip-10-1-4-5"}) {
    EXPECT_TRUE(contains(drift[0]->observed, part)) << drift[0]->observed;
  }
  // Each host on its own is healthy.
  EXPECT_EQ(with_check(fs, "nccl.summary").size(), 2u);
  // The healthy run has one version: no drift.
  EXPECT_TRUE(with_check(nccl_log_findings(parse_nccl_log(fixture("efa_healthy_p5.log")), 32), "nccl.version_drift")
                  .empty());
}

TEST(NcclLogFixtures, ShmInsideANode) {
  const NcclLogSummary s = parse_nccl_log(fixture("shm_intra_node.log"));
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_EQ(s.processes[0].intra_paths, std::set<std::string>{"SHM/direct"});
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  const auto shm = with_check(fs, "nccl.shm_intra_node");
  ASSERT_EQ(shm.size(), 1u) << dump(fs);
  EXPECT_EQ(shm[0]->tag, Tag::kConcern);
  EXPECT_TRUE(contains(shm[0]->observed, "SHM/direct"));
}

TEST(NcclLogFixtures, MemlockFailure) {
  const NcclLogSummary s = parse_nccl_log(fixture("memlock_failure.log"));
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_TRUE(s.processes[0].memlock_failure);
  EXPECT_FALSE(s.processes[0].shm_failure);
  EXPECT_EQ(s.processes[0].warnings.size(), 2u);
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  const auto mem = with_check(fs, "nccl.memlock");
  ASSERT_EQ(mem.size(), 1u) << dump(fs);
  EXPECT_EQ(mem[0]->tag, Tag::kConcern);
  EXPECT_TRUE(contains(mem[0]->observed, "RC: -12")) << mem[0]->observed;
  EXPECT_EQ(with_check(fs, "nccl.warnings").size(), 1u);
  EXPECT_EQ(with_check(fs, "nccl.warnings")[0]->tag, Tag::kInfo);
}

TEST(NcclLogFixtures, DevShmTooSmall) {
  const NcclLogSummary s = parse_nccl_log(fixture("dev_shm_too_small.log"));
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_TRUE(s.processes[0].shm_failure);
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  const auto shm = with_check(fs, "nccl.dev_shm");
  ASSERT_EQ(shm.size(), 1u) << dump(fs);
  EXPECT_EQ(shm[0]->tag, Tag::kConcern);
  EXPECT_TRUE(contains(shm[0]->observed, "failed to extend /dev/shm")) << shm[0]->observed;
  // The test harness's "unhandled system error" line has no prefix; the log has one process: it is its.
  const auto err = with_check(fs, "nccl.errors");
  ASSERT_EQ(err.size(), 1u) << dump(fs);
  EXPECT_EQ(err[0]->host, "ip-10-1-3-3");
  EXPECT_TRUE(contains(err[0]->observed, "unhandled system error"));
}

TEST(NcclLogFixtures, InterleavedStdoutIsSeparatedByHostAndPid) {
  const NcclLogSummary s = parse_nccl_log(fixture("interleaved_stdout.log"));
  ASSERT_EQ(s.processes.size(), 4u);
  const std::vector<std::pair<std::string, long>> expected = {
      {"ip-10-1-2-3", 7100}, {"ip-10-1-2-3", 7101}, {"ip-10-1-4-5", 7411}, {"ip-10-1-4-5", 7412}};
  std::vector<std::pair<std::string, long>> seen;
  for (const auto& p : s.processes) {
    seen.emplace_back(p.host, p.pid);
    EXPECT_EQ(p.cuda_devices.size(), 1u);
    EXPECT_EQ(p.nic_count, 32);
    EXPECT_TRUE(p.gdrdma_seen);
    EXPECT_EQ(p.nodes, 2);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(s.unparsed_lines, 13u);  // nccl-tests' own output
  const auto fs = nccl_log_findings(s, 32);
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  EXPECT_EQ(with_check(fs, "nccl.summary").size(), 2u);
  EXPECT_TRUE(with_check(fs, "nccl.unreadable").empty());
}

TEST(NcclLogFixtures, TruncatedFileKeepsWhatCameBeforeTheCut) {
  const std::string text = fixture("truncated.log");
  ASSERT_NE(text.back(), '\n');
  const NcclLogSummary s = parse_nccl_log(text);
  EXPECT_TRUE(s.truncated_last_line);
  ASSERT_EQ(s.processes.size(), 2u);
  EXPECT_EQ(s.processes[0].nic_count, 32);
  EXPECT_EQ(s.processes[1].nic_count, -1) << "the cut '(found 3' must not read as 3 NICs";
  EXPECT_EQ(s.processes[1].ofi_provider, "");
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  EXPECT_EQ(with_check(fs, "nccl.truncated").size(), 1u);
  EXPECT_TRUE(with_check(fs, "nccl.efa_nic_count").empty()) << dump(fs);
}

TEST(NcclLogFixtures, OneLineWithoutNewlineIsNotTruncated) {
  const auto s = parse_nccl_log(kPrefix + "NCCL INFO Using network Socket");
  EXPECT_FALSE(s.truncated_last_line);
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_EQ(s.processes[0].net, "Socket");
}

TEST(NcclLogFixtures, GarbageDoesNotCrashAndIsUnreadable) {
  const std::string text = fixture("garbage.bin");
  ASSERT_GT(text.size(), 1000u);
  const NcclLogSummary s = parse_nccl_log(text);
  EXPECT_GT(s.lines, 100u);
  for (const auto& p : s.processes) {
    EXPECT_EQ(p.nic_count, -1);
    EXPECT_EQ(p.pid, -1) << "no valid host:pid prefix in the garbage";
  }
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  const auto unreadable = with_check(fs, "nccl.unreadable");
  ASSERT_EQ(unreadable.size(), 1u) << dump(fs);
  EXPECT_EQ(unreadable[0]->tag, Tag::kInfo);
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  EXPECT_EQ(count_tag(fs, Tag::kOk), 0u) << dump(fs);
}

TEST(NcclLogFixtures, NotAnNcclLogIsUnreadable) {
  const NcclLogSummary s = parse_nccl_log(fixture("not_nccl.log"));
  EXPECT_EQ(s.nccl_lines, 0u);
  EXPECT_TRUE(s.processes.empty());
  const auto fs = nccl_log_findings(s, 32);
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].check, "nccl.unreadable");
  EXPECT_EQ(fs[0].tag, Tag::kInfo);
  EXPECT_TRUE(contains(fs[0].observed, "no NCCL")) << fs[0].observed;

  const auto empty = nccl_log_findings(parse_nccl_log(""), 32);
  ASSERT_EQ(empty.size(), 1u);
  EXPECT_EQ(empty[0].check, "nccl.unreadable");
}

TEST(NcclLogFixtures, AnyCutOrDamageOfARealLogIsSafe) {
  const std::string text = fixture("efa_healthy_p5.log");
  for (std::size_t cut = 0; cut < text.size(); cut += 97) {
    const auto s = parse_nccl_log(std::string_view(text).substr(0, cut));
    (void)nccl_log_findings(s, 32);
  }
  std::mt19937 rng(7);
  std::string damaged = text;
  for (int i = 0; i < 2000; ++i) {
    damaged[rng() % damaged.size()] = static_cast<char>(rng() % 256);
  }
  const auto s = parse_nccl_log(damaged);
  EXPECT_FALSE(s.processes.empty());
  (void)nccl_log_findings(s, 32);
}

// ---- directory and merge ----

TEST(NcclLogDir, ReadsEveryNcclFileOfARunDirectory) {
  const NcclLogSummary s = parse_nccl_log_dir(fixture_path("run_dir"));
  ASSERT_EQ(s.processes.size(), 2u);  // notes.txt is not an nccl.* file
  EXPECT_EQ(s.processes[0].host, "ip-10-1-2-3");
  EXPECT_EQ(s.processes[0].pid, 88001);
  EXPECT_EQ(s.processes[1].host, "ip-10-1-4-5");
  EXPECT_EQ(s.processes[0].channels, 16);
  for (const auto& p : s.processes) EXPECT_EQ(p.net, "Libfabric");
  const auto fs = nccl_log_findings(s, 32);
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  EXPECT_EQ(count_tag(fs, Tag::kOk), 2u) << dump(fs);
}

TEST(NcclLogDir, MissingDirectoryIsEmpty) {
  const NcclLogSummary s = parse_nccl_log_dir("/nonexistent/podperf/run");
  EXPECT_TRUE(s.processes.empty());
  EXPECT_EQ(s.lines, 0u);
  const auto fs = nccl_log_findings(s, 32);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].check, "nccl.unreadable");
}

TEST(NcclLogMerge, SameProcessIsCombinedOthersAppended) {
  NcclLogSummary a = parse_nccl_log(kPrefix + "NCCL INFO NCCL version 2.28.3+cuda13.0\n");
  const NcclLogSummary b = parse_nccl_log(kPrefix + "NCCL INFO Using network Libfabric\n" +
                                          "ip-10-1-4-5:7:7 [1] NCCL INFO Using network Socket\n");
  merge_into(a, b);
  ASSERT_EQ(a.processes.size(), 2u);
  EXPECT_EQ(a.processes[0].nccl_version, "2.28.3");
  EXPECT_EQ(a.processes[0].net, "Libfabric");
  EXPECT_EQ(a.processes[1].host, "ip-10-1-4-5");
  EXPECT_EQ(a.lines, 3u);
  EXPECT_EQ(a.nccl_lines, 3u);
}

TEST(NcclLogDescribe, Transports) {
  NcclProcessFacts f;
  EXPECT_EQ(describe_transport(f), "unknown transport");
  f.intra_paths = {"P2P/CUMEM"};
  EXPECT_EQ(describe_transport(f), "intra-node only (P2P/CUMEM)");
  f.net = "IB";
  f.gdrdma_seen = true;
  EXPECT_EQ(describe_transport(f), "IB GDRDMA");
  NcclProcessFacts s;
  s.net = "Socket";
  EXPECT_EQ(describe_transport(s), "Socket (TCP fallback)");
  s.socket_ifaces = {"eth0", "eth1"};
  EXPECT_EQ(describe_transport(s), "Socket (TCP fallback) on eth0,eth1");
}

}  // namespace
}  // namespace podperf

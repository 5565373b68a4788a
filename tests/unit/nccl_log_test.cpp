// podperf's captured NCCL log read by the triage reader (analysis/logs/nccl_log.hpp over analysis/logs/):
// the transport facts of every NCCL and aws-ofi-nccl debug line podperf reads, the prefix variants launchers add, the
// captured-log findings on the fixtures in tests/fixtures/nccl_logs, parse_nccl_log_dir and
// describe_transport. (Ported from the tests of the old private parser, analysis/nccl_log_parse.cpp: the
// facts are now per host, HostTransport, not per (host, pid); where an expectation changed the comment
// says why.)
#include "analysis/logs/nccl_log.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace podperf {
namespace {

using logs::HostTransport;
using logs::TriageResult;

const std::string kPrefix = "ip-10-1-2-3:12345:12345 [0] ";

std::string fixture_path(const std::string& name) {
  return std::string(PODPERF_FIXTURES_DIR) + "/nccl_logs/" + name;
}

std::string fixture(const std::string& name) {
  std::ifstream in(fixture_path(name), std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << fixture_path(name);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Facts of the one host that `lines` (each a full NCCL line) belong to.
HostTransport facts_of(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  const TriageResult s = parse_nccl_log(text);
  EXPECT_EQ(s.transport.size(), 1u) << text;
  return s.transport.empty() ? HostTransport{} : s.transport.front();
}

HostTransport info(const std::string& message) {
  return facts_of({kPrefix + "NCCL INFO " + message});
}
// The captured-log findings of one WARN line.
std::vector<Finding> warn_findings(const std::string& message) {
  return nccl_log_findings(
      parse_nccl_log("ip-10-1-2-3:12345:12399 [0] misc/ibvwrap.cc:190 NCCL WARN " + message + "\n"), 0);
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

bool contains(const std::string& s, const std::string& needle) {
  return s.find(needle) != std::string::npos;
}

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

// ---- NCCL and aws-ofi-nccl debug lines, line by line ----

TEST(NcclLogLines, ProviderEfaDirect) {
  const auto f = info("NET/OFI Selected provider is efa, fabric is efa-direct (found 32 nics)");
  EXPECT_EQ(f.provider, "efa");
  EXPECT_EQ(f.fabric, "efa-direct");
  EXPECT_EQ(f.nics_found, 32);
  EXPECT_EQ(f.host, "ip-10-1-2-3");
  EXPECT_EQ(f.pids, std::set<long>{12345});
}

TEST(NcclLogLines, ProviderOlderWording) {
  const auto f = info("NET/OFI Selected Provider is efa (found 4 nics)");
  EXPECT_EQ(f.provider, "efa");
  EXPECT_EQ(f.fabric, "");
  EXPECT_EQ(f.nics_found, 4);
  const auto g = info("NET/OFI Selected Provider is efa");  // oldest plugins print no count
  EXPECT_EQ(g.provider, "efa");
  EXPECT_EQ(g.nics_found, -1);
}

TEST(NcclLogLines, ProviderTcp) {
  EXPECT_EQ(info("NET/OFI Selected provider is tcp, fabric is 10.1.0.0/16 (found 2 nics)").provider, "tcp");
  EXPECT_EQ(info("NET/OFI Selected provider is tcp, fabric is 10.1.0.0/16 (found 2 nics)").fabric, "10.1.0.0/16");
  const auto f = info("NET/OFI Selected Provider is tcp;ofi_rxm");
  EXPECT_EQ(f.provider, "tcp;ofi_rxm");
  EXPECT_EQ(f.nics_found, -1);
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
  EXPECT_EQ(info("NET/Socket : Using [0]eth0:10.0.0.1<0>").socket_ifaces, std::set<std::string>{"eth0"});
  const auto f = info(
      "NET/Socket : Using [0]ens5:10.0.0.1<0> [1]br-eaee979aadb0:172.19.0.1<0> "
      "[2]veth1:fe80::c821:6bff:fea5:dcf9%veth1<0>");
  EXPECT_EQ(f.socket_ifaces, (std::set<std::string>{"ens5", "br-eaee979aadb0", "veth1"}));
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
  EXPECT_EQ(socket.socket_channels, 1);  // the Socket transport is known from the channel line alone
  EXPECT_TRUE(uses_socket_transport(socket));
  EXPECT_EQ(socket.gdrdma_channels, 0);

  const auto gdr = info("Channel 00/0 : 0[0] -> 8[0] [send] via NET/Libfabric/0/GDRDMA");
  EXPECT_EQ(gdr.gdrdma_channels, 1);
  EXPECT_EQ(gdr.net_channels, 1);
  EXPECT_EQ(gdr.nic_indices, std::set<int>{0});
  const auto pxn = info("Channel 01/1 : 3[3] -> 11[3] [send] via NET/Libfabric/3(2)/GDRDMA/Shared");
  EXPECT_EQ(pxn.gdrdma_channels, 1);
  EXPECT_TRUE(pxn.pxn);
  EXPECT_EQ(info("Channel 00/0 : 11[3] -> 2[2] [send] via NET/AWS Libfabric/0/GDRDMA").gdrdma_channels, 1);
  const auto ring = info("Ring 00 : 7 -> 8 [send] via NET/AWS Libfabric/0");
  EXPECT_EQ(ring.net_channels, 1);
  EXPECT_EQ(ring.gdrdma_channels, 0);

  const auto no_gdr = info("Channel 00/0 : 7[7] -> 15[7] [receive] via NET/Libfabric/7");
  EXPECT_EQ(no_gdr.net_channels, 1);
  EXPECT_EQ(no_gdr.gdrdma_channels, 0);
}

TEST(NcclLogLines, IntraNodePaths) {
  // The triage's names: P2P/CUMEM (also MNNVL), P2P/IPC, P2P/direct (also the old "direct pointer"), SHM.
  EXPECT_EQ(info("Channel 00/0 : 0[0] -> 1[1] via P2P/IPC").intra, std::set<std::string>{"P2P/IPC"});
  EXPECT_EQ(info("Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read").intra, std::set<std::string>{"P2P/CUMEM"});
  EXPECT_EQ(info("Channel 00 : 10[201c0] -> 15[a01d0] via P2P/IPC/read").intra, std::set<std::string>{"P2P/IPC"});
  EXPECT_EQ(info("Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer/read").intra, std::set<std::string>{"P2P/direct"});
  EXPECT_EQ(info("Ring 00 : 0[0] -> 1[1] via direct pointer").intra, std::set<std::string>{"P2P/direct"});
  EXPECT_EQ(info("Channel 00 : 0[0] -> 1[1] via SHM/direct/direct").intra, std::set<std::string>{"SHM"});
  EXPECT_EQ(info("Ring 00 : 2[3d000] -> 3[3e000] via direct shared memory").intra, std::set<std::string>{"SHM"});
}

TEST(NcclLogLines, ChannelCount) {
  EXPECT_EQ(info("Channel 00/32 :    0   1   2   3   4   5   6   7").coll_channels, 32);
  EXPECT_EQ(info("Channel 00/02 :    0   1").coll_channels, 2);
  EXPECT_EQ(info("32 coll channels, 32 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer")
                .coll_channels,
            32);
  // "/0" after a channel number on a connection line is the connection index, not a count.
  EXPECT_EQ(info("Channel 00/0 : 0[0] -> 1[1] via P2P/IPC").coll_channels, -1);
  EXPECT_EQ(facts_of({kPrefix + "NCCL INFO Channel 00/04 :    0   1", kPrefix + "NCCL INFO Channel 00/16 :    0   1"})
                .coll_channels,
            16);
}

TEST(NcclLogLines, MemlockFailure) {
  for (const std::string msg :
       {"Call to ibv_reg_mr failed", "Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory",
        "NET/OFI Unable to register memory (type = 1) for device 0. RC: 12, Error: Cannot allocate memory"}) {
    EXPECT_EQ(with_check(warn_findings(msg), "nccl.memlock").size(), 1u) << msg << dump(warn_findings(msg));
  }
  EXPECT_EQ(with_check(warn_findings("NET/OFI Couldn't register memory region for device 0. RC: -12, Error: Cannot "
                                     "allocate memory"),
                       "nccl.memlock")
                .size(),
            1u);
  // EINVAL from registration is a different problem (NCCL >= 2.19 on an old EFA installer), not the
  // memlock limit: an error with its own next step.
  const auto einval =
      warn_findings("NET/OFI Unable to register memory (type = 2) for device 4. RC: -22, Error: Invalid argument");
  EXPECT_TRUE(with_check(einval, "nccl.memlock").empty()) << dump(einval);
  ASSERT_EQ(with_check(einval, "nccl.errors").size(), 1u) << dump(einval);
  EXPECT_TRUE(contains(with_check(einval, "nccl.errors")[0]->next_step, "FI_EFA_SET_CUDA_SYNC_MEMOPS=0"));
}

TEST(NcclLogLines, DevShmFailure) {
  const std::string line =
      "ip-10-1-2-3:9621:9691 [6] misc/shmutils.cc:71 NCCL WARN Error: failed to extend "
      "/dev/shm/nccl-fjwOOB to 5967876 bytes";
  const auto f = facts_of({line});
  EXPECT_EQ(f.warnings, std::vector<std::string>{"Error: failed to extend /dev/shm/nccl-fjwOOB to 5967876 bytes"});
  EXPECT_EQ(with_check(nccl_log_findings(parse_nccl_log(line + "\n"), 0), "nccl.dev_shm").size(), 1u);
  for (const std::string msg : {"Error while creating shared memory segment /dev/shm/nccl-KWfVyt (size 5967872)",
                                "Call to posix_fallocate failed : No space left on device"}) {
    EXPECT_EQ(with_check(warn_findings(msg), "nccl.dev_shm").size(), 1u) << msg;
  }
}

TEST(NcclLogLines, ErrorLines) {
  for (const std::string msg :
       {"unhandled system error", "unhandled cuda error", "remote process exited or there was a network error",
        "internal error - please report this issue", "ncclSystemError", "Cuda failure 'out of memory'"}) {
    const auto fs = warn_findings("Something failed: " + msg);
    const auto err = with_check(fs, "nccl.errors");
    ASSERT_EQ(err.size(), 1u) << msg << dump(fs);
    EXPECT_TRUE(contains(err[0]->observed, msg)) << err[0]->observed;
    EXPECT_TRUE(with_check(fs, "nccl.summary").empty());
  }
  const auto ok = nccl_log_findings(parse_nccl_log(kPrefix + "NCCL INFO Connected all rings\n"), 0);
  EXPECT_TRUE(with_check(ok, "nccl.errors").empty());
}

TEST(NcclLogLines, UnknownWarnIsAConcernNotOk) {
  // Changed: the old parser made every WARN outside its 14 phrases INFO and still gave the host an OK.
  const auto fs = warn_findings("NET/IB : Got completion from peer 10.0.0.2<4321> with status=12 opcode=0 len=0");
  EXPECT_EQ(with_check(fs, "nccl.errors").size(), 1u) << dump(fs);
  const auto unknown = warn_findings("Some warning podperf has never seen");
  EXPECT_EQ(with_check(unknown, "nccl.degraded").size(), 1u) << dump(unknown);
  EXPECT_TRUE(with_check(unknown, "nccl.summary").empty()) << dump(unknown);
}

TEST(NcclLogLines, NvlsUnavailable) {
  EXPECT_EQ(info("NVLS multicast support is not available on dev 0").nvls, "not available");
  EXPECT_EQ(info("NVLS multicast support is not available on dev 3 (NVLS_NCHANNELS 0)").nvls, "not available");
  EXPECT_EQ(info("NVLS multicast support is available on dev 0 (NVLS_NCHANNELS 16)").nvls, "available");
}

TEST(NcclLogLines, Version) {
  EXPECT_EQ(info("NCCL version 2.28.3+cuda13.0").nccl_version, "2.28.3+cuda13.0");
  EXPECT_EQ(info("NCCL version 2.4.8+cuda10.1").nccl_version, "2.4.8+cuda10.1");
  EXPECT_TRUE(info("NCCL git version HEAD ebd1e92").nccl_version.empty());
}

TEST(NcclLogLines, WarningsAreDeduplicatedAndCapped) {
  std::vector<std::string> lines;
  for (int i = 0; i < 3; ++i) lines.push_back(kPrefix + "transport.cc:1 NCCL WARN same message");
  for (int i = 0; i < 80; ++i) lines.push_back(kPrefix + "x.cc:1 NCCL WARN message " + std::to_string(i));
  const auto f = facts_of(lines);
  EXPECT_EQ(f.warnings.size(), logs::kMaxListed);
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
  const TriageResult s = parse_nccl_log(text);
  ASSERT_EQ(s.transport.size(), 1u);
  const auto& f = s.transport[0];
  EXPECT_EQ(f.host, "ip-172-32-45-165");
  EXPECT_EQ(f.pids, std::set<long>{72593});
  EXPECT_EQ(f.cuda_devices, std::set<int>{7});
  EXPECT_EQ(f.net, "AWS Libfabric");
  EXPECT_EQ(f.nccl_version, "2.26.2+cuda12.2");
  EXPECT_EQ(f.provider, "efa");
  ASSERT_EQ(f.warnings.size(), 2u);
  EXPECT_EQ(f.warnings[1], "NET/OFI aws-ofi-nccl initialization failed");
  EXPECT_EQ(s.nccl_lines, 5u);
  const auto fs = nccl_log_findings(s, 0);
  EXPECT_EQ(with_check(fs, "nccl.dev_shm").size(), 1u) << dump(fs);
  EXPECT_EQ(with_check(fs, "nccl.errors").size(), 1u) << dump(fs);  // the plugin's init failure
}

TEST(NcclLogPrefix, LinesWithoutPrefixGoToTheHostBeforeThem) {
  const std::string text = kPrefix +
                           "NCCL INFO cudaDriverVersion 12080\n"
                           "NCCL version 2.21.5+cuda12.4\n"
                           "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error\n";
  const TriageResult s = parse_nccl_log(text);
  ASSERT_EQ(s.transport.size(), 1u);
  EXPECT_EQ(s.transport[0].nccl_version, "2.21.5+cuda12.4");
  EXPECT_EQ(s.transport[0].cuda_driver, "12080");
  const auto fs = nccl_log_findings(s, 0);
  const auto err = with_check(fs, "nccl.errors");
  ASSERT_EQ(err.size(), 1u) << dump(fs);
  EXPECT_EQ(err[0]->host, "ip-10-1-2-3");
}

TEST(NcclLogPrefix, PyTorchErrorEndingInAVersionIsAnError) {
  const std::string text =
      kPrefix + "NCCL INFO NCCL version 2.21.5+cuda12.4\n" +
      "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error (run "
      "with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n";
  const TriageResult s = parse_nccl_log(text);
  ASSERT_EQ(s.transport.size(), 1u);
  EXPECT_EQ(s.transport[0].nccl_version, "2.21.5+cuda12.4");
  const std::vector<Finding> findings = nccl_log_findings(s, 0);  // with_check points into it
  const auto err = with_check(findings, "nccl.errors");
  ASSERT_EQ(err.size(), 1u);
  EXPECT_TRUE(contains(err[0]->observed, "DistBackendError"));
}

TEST(NcclLogPrefix, BareVersionLineGoesToTheProcessBeforeIt) {
  const std::string text =
      "ip-10-1-2-3:1:1 [0] NCCL INFO cudaDriverVersion 12080\n"
      "NCCL version 2.21.5+cuda12.4\n"
      "ip-10-1-4-5:2:2 [0] NCCL INFO cudaDriverVersion 12080\n"
      "ip-10-1-4-5:2:2 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n";
  const TriageResult s = parse_nccl_log(text);
  ASSERT_EQ(s.transport.size(), 2u);
  EXPECT_EQ(s.transport[0].host, "ip-10-1-2-3");
  EXPECT_EQ(s.transport[0].nccl_version, "2.21.5+cuda12.4");
  EXPECT_EQ(s.nccl_lines, 4u);
}

TEST(NcclLogPrefix, StrippedLinesOfSeveralProcessesAreKeptRunWide) {
  const std::string text =
      "ip-10-1-2-3:1:1 [0] NCCL INFO Using network Libfabric\n"
      "ip-10-1-4-5:2:2 [0] NCCL INFO Using network Libfabric\n"
      "NCCL INFO Using network Socket\n";  // pasted without its prefix: whose is unknown
  const TriageResult s = parse_nccl_log(text);
  ASSERT_EQ(s.transport.size(), 3u);
  EXPECT_EQ(s.transport[0].host, "(unknown host)");
  EXPECT_EQ(s.transport[0].net, "Socket");
  const auto fs = nccl_log_findings(s, 0);
  const auto tcp = with_check(fs, "nccl.tcp_fallback");
  ASSERT_EQ(tcp.size(), 1u);
  EXPECT_EQ(tcp[0]->host, "");
  EXPECT_EQ(with_check(fs, "nccl.summary").size(), 2u);  // the two real hosts; none for the stripped lines
}

TEST(NcclLogPrefix, OnlyTextSafeForReports) {
  const std::string text = kPrefix + "x.cc:1 NCCL WARN bad \x01\xff\xfe bytes \xc3\xa9t\xc3\xa9\n";
  const auto s = parse_nccl_log(text);
  ASSERT_EQ(s.transport.size(), 1u);
  ASSERT_EQ(s.transport[0].warnings.size(), 1u);
  // Changed: the shared text::printable shows every byte outside printable ASCII as '?' (the old parser
  // kept valid UTF-8).
  EXPECT_EQ(s.transport[0].warnings[0], "bad ??? bytes ??t??");
}

// ---- fixtures ----

TEST(NcclLogFixtures, HealthyP5) {
  const TriageResult s = parse_nccl_log(fixture("efa_healthy_p5.log"));
  ASSERT_EQ(s.transport.size(), 2u);  // 8 processes on 2 hosts
  ASSERT_EQ(s.files.size(), 1u);
  EXPECT_EQ(s.nccl_lines, s.files[0].lines) << "every line is NCCL's";
  EXPECT_FALSE(s.files[0].unterminated_last_line);
  for (const auto& p : s.transport) {
    EXPECT_EQ(p.pids.size(), 4u);
    EXPECT_EQ(p.cuda_devices.size(), 4u);
    EXPECT_EQ(p.nccl_version, "2.28.3+cuda13.0");
    EXPECT_EQ(p.net, "Libfabric");
    EXPECT_EQ(p.provider, "efa");
    EXPECT_EQ(p.fabric, "efa-direct");
    EXPECT_EQ(p.nics_found, 32);
    EXPECT_EQ(p.sku_efa_devices, 32);  // "Running on p5.48xlarge" against configs/skus
    EXPECT_FALSE(p.plugin_missing);
    EXPECT_GT(p.gdrdma_channels, 0);
    EXPECT_EQ(p.gdrdma_channels, p.net_channels);
    EXPECT_EQ(p.intra, std::set<std::string>{"P2P/CUMEM"});
    EXPECT_EQ(p.coll_channels, 32);
    EXPECT_EQ(p.nnodes, 2);
    EXPECT_TRUE(p.warnings.empty());
    EXPECT_NE(p.nvls, "not available");
  }
  EXPECT_EQ(describe_transport(s.transport[0]), "Libfabric/efa 32 NICs GDRDMA");
  EXPECT_EQ(s.verdict, "PASS");

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
  EXPECT_TRUE(
      with_check(nccl_log_findings(parse_nccl_log(fixture("efa_healthy_p5.log")), 0), "nccl.efa_nic_count").empty());
}

TEST(NcclLogFixtures, SocketFallback) {
  const TriageResult s = parse_nccl_log(fixture("socket_fallback.log"));
  ASSERT_EQ(s.transport.size(), 1u);
  const auto& p = s.transport[0];
  EXPECT_TRUE(p.plugin_missing);
  EXPECT_EQ(p.net, "Socket");
  EXPECT_EQ(p.socket_ifaces, std::set<std::string>{"eth0"});
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
  const TriageResult s = parse_nccl_log(fixture("ofi_tcp_provider.log"));
  ASSERT_EQ(s.transport.size(), 1u);
  EXPECT_EQ(s.transport[0].provider, "tcp;ofi_rxm");
  EXPECT_EQ(s.transport[0].nics_found, 1);
  EXPECT_TRUE(contains(describe_transport(s.transport[0]), "TCP, not EFA"));
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
  const TriageResult s = parse_nccl_log(fixture("older_plugin.log"));
  ASSERT_EQ(s.transport.size(), 1u);  // 2 processes of one host
  for (const auto& p : s.transport) {
    EXPECT_EQ(p.pids.size(), 2u);
    EXPECT_EQ(p.net, "AWS Libfabric");
    EXPECT_EQ(p.provider, "efa");
    EXPECT_EQ(p.nics_found, 4);
    EXPECT_EQ(p.nccl_version.substr(0, 7), "2.12.12");
    EXPECT_GT(p.gdrdma_channels, 0);
    EXPECT_EQ(p.intra, std::set<std::string>{"P2P/IPC"});
    EXPECT_EQ(p.coll_channels, 8);
  }
  EXPECT_EQ(describe_transport(s.transport[0]), "AWS Libfabric/efa 4 NICs GDRDMA");
  const auto fs = nccl_log_findings(s, 4);
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  EXPECT_EQ(with_check(fs, "nccl.summary").size(), 1u);
}

TEST(NcclLogFixtures, NoGdrdma) {
  const TriageResult s = parse_nccl_log(fixture("no_gdrdma.log"));
  ASSERT_EQ(s.transport.size(), 1u);
  EXPECT_GT(s.transport[0].net_channels, 0);
  EXPECT_EQ(s.transport[0].gdrdma_channels, 0);
  EXPECT_EQ(describe_transport(s.transport[0]), "Libfabric/efa 32 NICs without GDRDMA");
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  const auto gdr = with_check(fs, "nccl.no_gdrdma");
  ASSERT_EQ(gdr.size(), 1u) << dump(fs);
  EXPECT_EQ(gdr[0]->tag, Tag::kConcern);
  EXPECT_EQ(gdr[0]->host, "ip-10-1-6-6");
}

TEST(NcclLogFixtures, VersionDrift) {
  const TriageResult s = parse_nccl_log(fixture("version_drift.log"));
  ASSERT_EQ(s.transport.size(), 2u);
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
  EXPECT_TRUE(
      with_check(nccl_log_findings(parse_nccl_log(fixture("efa_healthy_p5.log")), 32), "nccl.version_drift").empty());
}

TEST(NcclLogFixtures, ShmInsideANode) {
  const TriageResult s = parse_nccl_log(fixture("shm_intra_node.log"));
  ASSERT_EQ(s.transport.size(), 1u);
  EXPECT_EQ(s.transport[0].intra, std::set<std::string>{"SHM"});
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  const auto shm = with_check(fs, "nccl.shm_intra_node");
  ASSERT_EQ(shm.size(), 1u) << dump(fs);
  EXPECT_EQ(shm[0]->tag, Tag::kConcern);
  EXPECT_TRUE(contains(shm[0]->observed, "SHM"));
}

TEST(NcclLogFixtures, MemlockFailure) {
  const TriageResult s = parse_nccl_log(fixture("memlock_failure.log"));
  ASSERT_EQ(s.transport.size(), 1u);
  EXPECT_EQ(s.transport[0].warnings.size(), 2u);
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
  const TriageResult s = parse_nccl_log(fixture("dev_shm_too_small.log"));
  ASSERT_EQ(s.transport.size(), 1u);
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
  const TriageResult s = parse_nccl_log(fixture("interleaved_stdout.log"));
  ASSERT_EQ(s.transport.size(), 2u);
  EXPECT_EQ(s.transport[0].host, "ip-10-1-2-3");
  EXPECT_EQ(s.transport[0].pids, (std::set<long>{7100, 7101}));
  EXPECT_EQ(s.transport[1].host, "ip-10-1-4-5");
  EXPECT_EQ(s.transport[1].pids, (std::set<long>{7411, 7412}));
  for (const auto& p : s.transport) {
    EXPECT_EQ(p.cuda_devices.size(), 2u);
    EXPECT_EQ(p.nics_found, 32);
    EXPECT_GT(p.gdrdma_channels, 0);
    EXPECT_EQ(p.nnodes, 2);
  }
  const auto fs = nccl_log_findings(s, 32);
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  EXPECT_EQ(with_check(fs, "nccl.summary").size(), 2u);
  EXPECT_TRUE(with_check(fs, "nccl.unreadable").empty());
}

TEST(NcclLogFixtures, TruncatedFileKeepsWhatCameBeforeTheCut) {
  const std::string text = fixture("truncated.log");
  ASSERT_NE(text.back(), '\n');
  const TriageResult s = parse_nccl_log(text);
  ASSERT_EQ(s.files.size(), 1u);
  EXPECT_TRUE(s.files[0].unterminated_last_line);
  // Both processes are on ip-10-1-2-3: the first printed "(found 32 nics)", the cut "(found 3" of the
  // second must not change that to 3.
  ASSERT_EQ(s.transport.size(), 1u);
  EXPECT_EQ(s.transport[0].pids.size(), 2u);
  EXPECT_EQ(s.transport[0].nics_found, 32) << "the cut '(found 3' must not read as 3 NICs";
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  EXPECT_EQ(with_check(fs, "nccl.truncated").size(), 1u);
  EXPECT_TRUE(with_check(fs, "nccl.efa_nic_count").empty()) << dump(fs);
}

TEST(NcclLogFixtures, OneLineWithoutNewlineIsNotTruncated) {
  const auto s = parse_nccl_log(kPrefix + "NCCL INFO Using network Socket");
  EXPECT_FALSE(s.files[0].unterminated_last_line);
  ASSERT_EQ(s.transport.size(), 1u);
  EXPECT_EQ(s.transport[0].net, "Socket");
}

TEST(NcclLogFixtures, GarbageDoesNotCrashAndIsUnreadable) {
  const std::string text = fixture("garbage.bin");
  ASSERT_GT(text.size(), 1000u);
  const TriageResult s = parse_nccl_log(text);
  ASSERT_EQ(s.files.size(), 1u);
  // Changed: garbage.bin holds NUL bytes in its first block; the shared reader skips such a file as
  // binary (the old parser read it line by line). Read the same bytes with the NULs replaced too.
  EXPECT_TRUE(s.files[0].binary);
  std::string text_only = text;
  std::replace(text_only.begin(), text_only.end(), '\0', ' ');
  const TriageResult t = parse_nccl_log(text_only);
  EXPECT_GT(t.files[0].lines, 100u);
  for (const auto& p : t.transport) {
    EXPECT_EQ(p.nics_found, -1);
    EXPECT_TRUE(p.pids.empty()) << "no valid host:pid prefix in the garbage";
  }
  EXPECT_EQ(count_tag(nccl_log_findings(t, 32), Tag::kOk), 0u);
  const auto fs = nccl_log_findings(s, 32);
  expect_complete(fs);
  const auto unreadable = with_check(fs, "nccl.unreadable");
  ASSERT_EQ(unreadable.size(), 1u) << dump(fs);
  EXPECT_EQ(unreadable[0]->tag, Tag::kInfo);
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  EXPECT_EQ(count_tag(fs, Tag::kOk), 0u) << dump(fs);
}

TEST(NcclLogFixtures, NotAnNcclLogIsUnreadable) {
  const TriageResult s = parse_nccl_log(fixture("not_nccl.log"));
  EXPECT_EQ(s.nccl_lines, 0u);
  EXPECT_TRUE(s.transport.empty());
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
  EXPECT_FALSE(s.transport.empty());
  (void)nccl_log_findings(s, 32);
}

// ---- directory and merge ----

TEST(NcclLogDir, ReadsEveryNcclFileOfARunDirectory) {
  const TriageResult s = parse_nccl_log_dir(fixture_path("run_dir"));
  EXPECT_EQ(s.files.size(), 2u);  // notes.txt is not an nccl.* file
  ASSERT_EQ(s.transport.size(), 2u);
  EXPECT_EQ(s.transport[0].host, "ip-10-1-2-3");
  EXPECT_EQ(s.transport[0].pids, std::set<long>{88001});
  EXPECT_EQ(s.transport[1].host, "ip-10-1-4-5");
  EXPECT_EQ(s.transport[0].coll_channels, 16);
  for (const auto& p : s.transport) EXPECT_EQ(p.net, "Libfabric");
  const auto fs = nccl_log_findings(s, 32);
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  EXPECT_EQ(count_tag(fs, Tag::kOk), 2u) << dump(fs);
}

TEST(NcclLogDir, MissingDirectoryIsEmpty) {
  const TriageResult s = parse_nccl_log_dir("/nonexistent/podperf/run");
  EXPECT_TRUE(s.transport.empty());
  EXPECT_TRUE(s.files.empty());
  const auto fs = nccl_log_findings(s, 32);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].check, "nccl.unreadable");
}

TEST(NcclLogMerge, SeveralGatheredLogsAreOneTriage) {
  const TriageResult s = parse_nccl_logs({{"rank 0", kPrefix + "NCCL INFO NCCL version 2.28.3+cuda13.0\n"},
                                          {"rank 1", kPrefix + "NCCL INFO Using network Libfabric\n" +
                                                         "ip-10-1-4-5:7:7 [1] NCCL INFO Using network Socket\n"}});
  ASSERT_EQ(s.transport.size(), 2u);
  EXPECT_EQ(s.transport[0].nccl_version, "2.28.3+cuda13.0");
  EXPECT_EQ(s.transport[0].net, "Libfabric");
  EXPECT_EQ(s.transport[1].host, "ip-10-1-4-5");
  ASSERT_EQ(s.files.size(), 2u);
  EXPECT_EQ(s.files[1].file, "rank 1");
  EXPECT_EQ(s.nccl_lines, 3u);
}

TEST(NcclLogDescribe, Transports) {
  HostTransport f;
  EXPECT_EQ(describe_transport(f), "unknown transport");
  f.intra = {"P2P/CUMEM"};
  EXPECT_EQ(describe_transport(f), "intra-node only (P2P/CUMEM)");
  f.net = "IB";
  f.net_channels = 2;
  f.gdrdma_channels = 2;
  EXPECT_EQ(describe_transport(f), "IB GDRDMA");
  HostTransport s;
  s.net = "Socket";
  EXPECT_EQ(describe_transport(s), "Socket (TCP fallback)");
  s.socket_ifaces = {"eth0", "eth1"};
  EXPECT_EQ(describe_transport(s), "Socket (TCP fallback) on eth0,eth1");
}

}  // namespace
}  // namespace podperf

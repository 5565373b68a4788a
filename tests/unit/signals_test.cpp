// signals/: collectors on the fixture trees of tests/fixtures/signals (make_fixtures.sh), the kmsg/Xid
// parser, configs/rules.toml validation, the rules (evaluate, evaluate_delta, evaluate_drift) and
// run_signals_command.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/base/embedded_configs.hpp"
#include "analysis/base/errors.hpp"
#include "analysis/report/findings_table.hpp"
#include "offline/signals_command.hpp"
#include "signals/kmsg.hpp"
#include "signals/rules.hpp"
#include "signals/snapshot.hpp"
#include "signals/snapshot_json.hpp"

namespace podperf {
namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

std::string fixture_root(const std::string& name) { return std::string(PODPERF_FIXTURES_DIR) + "/signals/" + name; }
std::string rules_path() { return std::string(PODPERF_FIXTURES_DIR) + "/../../configs/rules.toml"; }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing file " << path;
  std::stringstream b;
  b << in.rdbuf();
  return b.str();
}

const Rules& rules() {
  static const Rules r = load_rules_file(rules_path());
  return r;
}

bool contains(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }

std::string dump(const std::vector<Finding>& fs) {
  std::string out;
  for (const auto& f : fs) out += std::string(tag_name(f.tag)) + " " + f.check + " [" + f.host + "] " + f.observed + "\n";
  return out;
}

const Finding* find(const std::vector<Finding>& fs, const std::string& check) {
  for (const auto& f : fs)
    if (f.check == check) return &f;
  return nullptr;
}

std::vector<const Finding*> find_all(const std::vector<Finding>& fs, const std::string& check) {
  std::vector<const Finding*> out;
  for (const auto& f : fs)
    if (f.check == check) out.push_back(&f);
  return out;
}

std::size_t count_tag(const std::vector<Finding>& fs, Tag t) {
  return static_cast<std::size_t>(std::count_if(fs.begin(), fs.end(), [&](const Finding& f) { return f.tag == t; }));
}

// Every finding is complete: what was seen, what healthy is, meaning, effect, next step.
void expect_complete(const std::vector<Finding>& fs) {
  for (const auto& f : fs) {
    EXPECT_EQ(f.source, "signals") << f.check;
    EXPECT_FALSE(f.check.empty());
    EXPECT_FALSE(f.observed.empty()) << f.check;
    EXPECT_FALSE(f.expected.empty()) << f.check;
    EXPECT_FALSE(f.meaning.empty()) << f.check;
    EXPECT_FALSE(f.effect.empty()) << f.check;
    EXPECT_FALSE(f.next_step.empty()) << f.check;
  }
}

StatvfsFn fixed_statvfs(std::map<std::string, FsSpace> spaces) {
  return [spaces = std::move(spaces)](const std::string& mp) -> std::optional<FsSpace> {
    auto it = spaces.find(mp);
    if (it == spaces.end()) return std::nullopt;
    return it->second;
  };
}

CollectInputs healthy_inputs() {
  CollectInputs in;
  in.env = {{"NCCL_DEBUG", "INFO"}, {"FI_PROVIDER", "efa"}, {"PATH", "/usr/bin"}, {"HOME", "/root"},
            {"LD_LIBRARY_PATH", "/opt/amazon/efa/lib"}};
  in.memlock = Rlimit{true, 0};
  in.stack = Rlimit{false, 8 * kMiB};
  in.statvfs = fixed_statvfs({{"/", {100 * kGiB, 60 * kGiB}},
                              {"/dev/shm", {64 * kGiB, 64 * kGiB}},
                              {"/fsx", {1200 * kGiB, 600 * kGiB}}});
  in.kmsg_text = read_file(fixture_root("healthy/dev/kmsg"));
  return in;
}

// ---------------------------------------------------------------- rules.toml

TEST(SignalRules, ShippedFileLoadsWithTheFieldNotesValues) {
  const Rules& r = rules();
  EXPECT_EQ(r.governor_expected, "performance");
  EXPECT_DOUBLE_EQ(r.iowait_concern_percent, 20.0);
  EXPECT_EQ(r.shm_min_bytes, kGiB);
  EXPECT_EQ(r.shm_concern_bytes, 64 * kMiB);
  EXPECT_DOUBLE_EQ(r.root_used_concern_fraction, 0.90);
  EXPECT_EQ(r.memlock_min_bytes, 16 * kGiB);
  EXPECT_GT(r.ost_fill_imbalance_points, 0.0);
  const std::map<std::string, int> efa = {{"p4d.24xlarge", 4},  {"p4de.24xlarge", 4},  {"p5.48xlarge", 32},
                                          {"p5e.48xlarge", 32}, {"p5en.48xlarge", 16}, {"p6-b200.48xlarge", 8}};
  EXPECT_EQ(r.efa_expected_count, efa);
  for (int code : {46, 48, 62, 64, 74, 79, 92, 95, 119, 120, 140, 150, 155}) EXPECT_TRUE(r.xid_concern_codes.contains(code)) << code;
  for (int code : {13, 31, 43, 45, 63, 94, 154}) EXPECT_FALSE(r.xid_concern_codes.contains(code)) << code;
  for (const char* c : {"retrans_pkts", "retrans_timeout_events", "unresponsive_remote_events",
                        "impaired_remote_conn_events", "rx_drops", "rdma_read_wr_err", "rdma_write_wr_err"}) {
    EXPECT_NE(std::find(r.efa_concern_counters.begin(), r.efa_concern_counters.end(), c), r.efa_concern_counters.end())
        << c;
  }
  EXPECT_EQ(std::find(r.efa_concern_counters.begin(), r.efa_concern_counters.end(), "tx_bytes"),
            r.efa_concern_counters.end());
}

struct BadRules {
  std::string from;      // text in the shipped file
  std::string to;        // replacement
  std::string key;       // the key the error must name
  std::string expected;  // another fragment of the message
  bool line = true;      // message names the line of `to`
  int line_delta = 0;    // ...plus this many lines (`to` adds a line before the bad key)
};

class SignalRulesErrors : public ::testing::TestWithParam<BadRules> {};

TEST_P(SignalRulesErrors, NameFileLineAndKey) {
  const BadRules& c = GetParam();
  std::string text = read_file(rules_path());
  const std::size_t at = text.find(c.from);
  ASSERT_NE(at, std::string::npos) << c.from;
  text.replace(at, c.from.size(), c.to);
  const auto line = 1 + c.line_delta + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  try {
    (void)parse_rules(text, "my-rules.toml");
    FAIL() << "no error for " << c.to;
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_TRUE(contains(msg, c.line ? "my-rules.toml:" + std::to_string(line) + ":" : "my-rules.toml")) << msg;
    EXPECT_TRUE(contains(msg, c.key)) << msg;
    EXPECT_TRUE(contains(msg, c.expected)) << msg;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, SignalRulesErrors,
    ::testing::Values(
        BadRules{"governor = \"performance\"", "governor = \"performance\"\ngovernour = \"x\"", "cpu.governour",
                 "expected one of", true, 1},
        BadRules{"iowait_concern_percent = 20.0", "iowait_concern_percent = \"20\"", "cpu.iowait_concern_percent",
                 "must be a number"},
        BadRules{"iowait_concern_percent = 20.0", "iowait_concern_percent = 120.0", "cpu.iowait_concern_percent",
                 "expected 0 to 100"},
        BadRules{"governor = \"performance\"", "governor = \"turbo\"", "cpu.governor", "expected one of"},
        BadRules{"governor = \"performance\"", "governor = 1", "cpu.governor", "must be a string"},
        BadRules{"shm_min_bytes = 1073741824", "shm_min_bytes = 1.5", "memory.shm_min_bytes", "whole number"},
        BadRules{"shm_concern_bytes = 67108864", "shm_concern_bytes = 2147483648", "memory.shm_concern_bytes",
                 "memory.shm_min_bytes"},
        BadRules{"memlock_min_bytes = 17179869184", "memlock_min_bytes = -1", "memory.memlock_min_bytes",
                 "out of range"},
        BadRules{"root_used_concern_fraction = 0.90", "root_used_concern_fraction = 90", "storage.root_used_concern_fraction",
                 "expected 0 to 1"},
        BadRules{"\"p5.48xlarge\" = 32", "\"p5.48xlarge\" = \"32\"", "efa.expected_count.\"p5.48xlarge\"",
                 "whole number"},
        BadRules{"\"retrans_pkts\",", "\"Retrans Pkts\",", "efa.concern_counters", "counter names"},
        BadRules{"\"retrans_pkts\",", "\"rx_drops\",", "efa.concern_counters", "twice"},
        BadRules{"concern_codes = [46,", "concern_codes = [46, 46,", "xid.concern_codes", "twice"},
        BadRules{"concern_codes = [46,", "concern_codes = [0,", "xid.concern_codes", "expected 1 to 999"},
        BadRules{"[xid]", "[xid]\nconcern = 1", "xid.concern", "unknown key", true, 1},
        BadRules{"[storage]", "[storgae]", "storgae", "unknown key"},
        BadRules{"ost_fill_imbalance_points = 20.0", "", "storage.ost_fill_imbalance_points", "missing key", false},
        BadRules{"governor = \"performance\"", "governor = \"performance", "my-rules.toml", "", true}));

TEST(SignalRules, UnreadableFileAndEmbeddedFallback) {
  EXPECT_THROW((void)load_rules_file("/nonexistent/rules.toml"), ConfigError);
  try {
    (void)load_rules("/nonexistent/rules.toml");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_TRUE(contains(e.what(), "/nonexistent/rules.toml")) << e.what();
  }
  EXPECT_EQ(load_rules(rules_path()).source, rules_path());
}

TEST(SignalRules, BuiltInCopyMatchesTheFile) {
  // embedded_configs() holds configs/*.toml as of the last CMake configure.
  if (!embedded_configs().contains("rules.toml")) GTEST_SKIP() << "configs/rules.toml not embedded in this build yet";
  const Rules built_in = load_rules("");
  EXPECT_EQ(built_in.source, "configs/rules.toml (built in)");
  EXPECT_EQ(built_in.efa_expected_count, rules().efa_expected_count);
  EXPECT_EQ(built_in.xid_concern_codes, rules().xid_concern_codes);
  EXPECT_EQ(built_in.memlock_min_bytes, rules().memlock_min_bytes);
}

// ---------------------------------------------------------------- parsers

TEST(SignalParsers, ProcStatMeminfoMountinfoDriver) {
  auto t = parse_proc_stat("intr 1\ncpu  1 2 3 4 5 6 7 8 9 10\ncpu0 1 1 1 1\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->user, 1u);
  EXPECT_EQ(t->iowait, 5u);
  EXPECT_EQ(t->steal, 8u);
  EXPECT_EQ(t->total(), 36u);
  EXPECT_TRUE(parse_proc_stat("cpu  1 2 3 4\n"));  // old kernels: 4 fields
  EXPECT_FALSE(parse_proc_stat("cpu  1 2 x 4\n"));
  EXPECT_FALSE(parse_proc_stat("cpu0 1 2 3 4\n"));

  const MemInfo m = parse_meminfo("MemTotal: 100 kB\nMemAvailable:  50 kB\nHugePages_Total: 3\nbogus\nHugepagesize: 2048 kB\n");
  EXPECT_EQ(m.mem_total_kib, 100);
  EXPECT_EQ(m.mem_available_kib, 50);
  EXPECT_EQ(m.hugepages_total, 3);
  EXPECT_EQ(m.hugepages_free, -1);
  EXPECT_EQ(m.hugepage_size_kib, 2048);

  const auto mounts = parse_mountinfo(
      "22 1 259:1 / / rw - overlay overlay rw\n"
      "garbage line\n"
      "30 22 0:5 / /proc rw - proc proc rw\n"
      "31 22 0:6 / /run/user/0 rw - ext4 /dev/x rw\n"
      "32 22 0:7 / /mnt/a\\040b rw shared:1 master:2 - nfs4 server:/export rw\n"
      "33 22 0:8 / /dev/shm rw - tmpfs tmpfs rw\n"
      "34 22 0:9 / /dev/shm rw - tmpfs shm rw,size=65536k\n"
      "35 22 0:10 / /home rw - autofs systemd-1 rw\n");
  ASSERT_EQ(mounts.size(), 3u);
  EXPECT_EQ(mounts[0].mount_point, "/");
  EXPECT_EQ(mounts[0].fstype, "overlay");
  EXPECT_EQ(mounts[1].mount_point, "/mnt/a b");
  EXPECT_EQ(mounts[1].fstype, "nfs4");
  EXPECT_EQ(mounts[1].source, "server:/export");
  EXPECT_EQ(mounts[2].mount_point, "/dev/shm");
  EXPECT_EQ(mounts[2].source, "shm");  // the over-mount wins

  // The filesystem holding a path (podperf fs names it): every entry, the longest mount point above
  // the path, an over-mount over the mount it hides; /proc and tmpfs count here.
  const auto all = parse_mountinfo_all(
      "22 1 259:1 / / rw - ext4 /dev/vda rw\n"
      "garbage line\n"
      "40 22 0:20 / /tmp/small rw - tmpfs podperf rw,size=24k\n"
      "41 22 0:21 / /fsx rw - lustre 10.0.0.5@tcp:/fsx rw\n"
      "42 41 0:22 / /fsx rw - nfs4 server:/x rw\n"
      "43 22 0:23 / /mnt/a\\040b rw - xfs /dev/y rw\n");
  ASSERT_EQ(all.size(), 5u);
  auto type_of = [&](const std::string& path) {
    const MountInfo* holding = mount_holding(all, path);
    return holding != nullptr ? holding->fstype : std::string("none");
  };
  EXPECT_EQ(type_of("/tmp/small/podperf-x"), "tmpfs");
  EXPECT_EQ(type_of("/tmp/smaller"), "ext4");  // a name prefix is not a parent directory
  EXPECT_EQ(type_of("/tmp/small"), "tmpfs");
  EXPECT_EQ(type_of("/fsx/data"), "nfs4");  // the over-mount
  EXPECT_EQ(type_of("/mnt/a b/c"), "xfs");
  EXPECT_EQ(type_of("/"), "ext4");
  EXPECT_EQ(mount_holding({}, "/x"), nullptr);

  EXPECT_EQ(parse_nvidia_driver_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n"),
            "535.104.05");
  EXPECT_EQ(parse_nvidia_driver_version(
                "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build  (dvs-builder@U16)  Tue Mar  5 2024"),
            "550.54.15");
  EXPECT_EQ(parse_nvidia_driver_version("garbage\n535.1.1"), "");
}

TEST(SignalParsers, TrackedEnvironment) {
  for (const char* n : {"NCCL_DEBUG", "FI_PROVIDER", "OFI_NCCL_PROTOCOL", "RDMAV_FORK_SAFE", "TORCH_NCCL_ASYNC_ERROR_HANDLING",
                        "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH"})
    EXPECT_TRUE(is_tracked_env(n)) << n;
  for (const char* n : {"PATH", "NCCL_", "HOME", "XNCCL_DEBUG", "CUDA_HOME", "FI"}) EXPECT_FALSE(is_tracked_env(n)) << n;
}

// ---------------------------------------------------------------- kmsg / Xid

struct XidCase {
  std::string message;
  bool found;
  bool sxid;
  int code;
  std::string pci;
  std::string text;
};

class XidMessage : public ::testing::TestWithParam<XidCase> {};

TEST_P(XidMessage, Parses) {
  const XidCase& c = GetParam();
  auto e = parse_xid_message(c.message);
  ASSERT_EQ(e.has_value(), c.found) << c.message;
  if (!e) return;
  EXPECT_EQ(e->sxid, c.sxid);
  EXPECT_EQ(e->code, c.code);
  EXPECT_EQ(e->pci, c.pci);
  EXPECT_EQ(e->text, c.text);
}

INSTANTIATE_TEST_SUITE_P(
    Table, XidMessage,
    ::testing::Values(
        XidCase{"NVRM: Xid (PCI:0000:b9:00): 79, pid=1234, name=python3, GPU has fallen off the bus.", true, false, 79,
                "0000:b9:00", "pid=1234, name=python3, GPU has fallen off the bus."},
        XidCase{"NVRM: Xid (0000:01:00): 48, An uncorrectable double bit error", true, false, 48, "0000:01:00",
                "An uncorrectable double bit error"},
        XidCase{"NVRM: Xid (PCI:0000:01:00): 119", true, false, 119, "0000:01:00", ""},
        XidCase{"nvidia-nvswitch3: SXid (PCI:0000:86:00.0): 12028, Non-fatal, Link 32", true, true, 12028,
                "0000:86:00.0", "Non-fatal, Link 32"},
        XidCase{"NVRM: Xid (PCI:0000:01:00): pid=1", false, false, 0, "", ""},
        XidCase{"NVRM: Xid (PCI:0000:01:00", false, false, 0, "", ""},
        XidCase{"FooXid (PCI:0000:01:00): 79, x", false, false, 0, "", ""},
        XidCase{"NVRM: GPU at PCI:0000:b9:00: GPU-abc", false, false, 0, "", ""}));

TEST(Kmsg, RecordsWithContinuationLinesAndWindow) {
  const std::string text = read_file(fixture_root("kmsg/xid_kmsg.txt"));
  const auto all = parse_kmsg_xids(text);
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all[0].code, 13);
  EXPECT_EQ(all[0].seq, 2002);
  EXPECT_EQ(all[0].usec, 8000000);
  EXPECT_EQ(all[1].code, 79);
  EXPECT_EQ(all[1].pci, "0000:b9:00");
  EXPECT_EQ(all[1].usec, 120000000);
  EXPECT_EQ(all[2].code, 48);  // flags field "c" (continued record) still parses
  EXPECT_TRUE(all[3].sxid);
  EXPECT_EQ(all[3].code, 12028);
  EXPECT_TRUE(all[4].sxid);

  const auto window = parse_kmsg_xids(text, 100000000);  // from 100 s after boot
  ASSERT_EQ(window.size(), 4u);
  EXPECT_EQ(window[0].code, 79);
  EXPECT_TRUE(parse_kmsg_xids(text, 200000000).empty());
}

// Found by fuzz_kmsg: a timestamp too large for microseconds overflowed a signed multiplication.
TEST(Kmsg, HugeTimestampIsNotAKernelTimestamp) {
  const std::string text =
      "[44444444444444001.0] NVRM: Xid (PCI:0000:b9:00): 79, pid=1, name=x, GPU has fallen off the bus.\n"
      "[9223372036854.775807] NVRM: Xid (PCI:0000:b9:00): 48, pid=1, name=x, DBE\n"
      "[  120.000000] NVRM: Xid (PCI:0000:b9:00): 13, pid=1, name=x, Graphics Exception\n";
  const auto all = parse_kmsg_xids(text);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].usec, -1);  // no usable time, as for a line without one
  EXPECT_EQ(all[1].usec, -1);
  EXPECT_EQ(all[2].usec, 120000000);
}

TEST(Kmsg, DmesgTextAndLinesWithoutTime) {
  const std::string text = read_file(fixture_root("kmsg/xid_dmesg.txt"));
  const auto all = parse_kmsg_xids(text);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].code, 79);
  EXPECT_EQ(all[0].usec, 120000000);
  EXPECT_EQ(all[0].seq, -1);
  EXPECT_EQ(all[1].code, 48);
  EXPECT_EQ(all[1].usec, 130500000);
  EXPECT_EQ(all[2].code, 63);  // "<4>[ ...]" raw dmesg prefix
  EXPECT_EQ(all[2].usec, 131000001);
  EXPECT_EQ(all[3].code, 94);  // journalctl line: no monotonic time
  EXPECT_EQ(all[3].usec, -1);
  const auto window = parse_kmsg_xids(text, 125000000);
  ASSERT_EQ(window.size(), 2u);  // 48 and 63; the untimed 94 cannot be placed in the window
  EXPECT_EQ(window[0].code, 48);
  EXPECT_EQ(window[1].code, 63);
}

TEST(Kmsg, GarbageNeverThrows) {
  std::string junk = "\x01\x02;;;,,,\n 1,2,3;\n[abc] Xid (\n5,x,y,-;NVRM: Xid (PCI:1): 79\n[ 1.5 NVRM: Xid (PCI:2): 48, a\n";
  junk += std::string(1000, 'X') + "Xid (" + std::string(1000, '(');
  const auto events = parse_kmsg_xids(junk);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].code, 79);
  EXPECT_EQ(events[0].usec, -1);  // "5,x,y,-;" is no record header
  EXPECT_EQ(events[1].code, 48);
  EXPECT_TRUE(parse_kmsg_xids("").empty());
}

TEST(Kmsg, CatalogIsDataAndComplete) {
  const auto& c = xid_catalog();
  EXPECT_TRUE(std::is_sorted(c.begin(), c.end(), [](const XidInfo& a, const XidInfo& b) { return a.code < b.code; }));
  EXPECT_EQ(std::adjacent_find(c.begin(), c.end(), [](const XidInfo& a, const XidInfo& b) { return a.code == b.code; }),
            c.end());
  for (int code : {13, 31, 43, 45, 46, 48, 62, 63, 64, 74, 79, 92, 94, 95, 109, 119, 120, 136, 140, 143, 144, 147, 150, 154,
                   155, 56, 57, 58, 65, 68, 69, 73, 80, 81}) {
    auto info = xid_info(code);
    ASSERT_TRUE(info) << code;
    EXPECT_FALSE(info->meaning.empty());
    EXPECT_FALSE(info->action.empty());
  }
  EXPECT_TRUE(contains(std::string(xid_info(79)->meaning), "fallen off the bus"));
  EXPECT_TRUE(contains(std::string(xid_info(48)->meaning), "double-bit ECC"));
  EXPECT_FALSE(xid_info(31)->hardware);
  EXPECT_FALSE(xid_info(999));
  // Every code the rules file treats as a concern is described by the catalog.
  for (int code : rules().xid_concern_codes) EXPECT_TRUE(xid_info(code)) << code;
}

TEST(Kmsg, ReadNonblockingFileAndMissingPath) {
  const KmsgRead ok = read_kmsg_nonblocking(fixture_root("healthy/dev/kmsg"));
  ASSERT_TRUE(ok.ok) << ok.why;
  EXPECT_EQ(ok.text, read_file(fixture_root("healthy/dev/kmsg")));
  const KmsgRead missing = read_kmsg_nonblocking("/nonexistent/dev/kmsg");
  EXPECT_FALSE(missing.ok);
  EXPECT_TRUE(contains(missing.why, "/nonexistent/dev/kmsg")) << missing.why;
  // The real device: readable, or a reason (EPERM under dmesg_restrict); never blocks.
  const KmsgRead real = read_kmsg_nonblocking("/dev/kmsg");
  EXPECT_TRUE(real.ok || !real.why.empty());
}

// ---------------------------------------------------------------- snapshot + evaluate

TEST(Signals, HealthyNodeHasNoConcern) {
  const HostSnapshot s = collect_snapshot(fixture_root("healthy"), healthy_inputs());
  EXPECT_EQ(s.hostname.value, "node-a");
  EXPECT_EQ(s.instance_type.value, "p4d.24xlarge");
  EXPECT_EQ(s.instance_id.value, "i-0123456789abcdef0");
  EXPECT_EQ(s.kernel_release.value, "5.15.0-1051-aws");
  ASSERT_TRUE(s.governors.readable);
  EXPECT_EQ(s.governors.value.size(), 4u);  // "cpufreq" and "possible" are no CPUs
  ASSERT_TRUE(s.cpu_times.readable);
  EXPECT_EQ(s.cpu_times.value.iowait, 200u);
  ASSERT_TRUE(s.meminfo.readable);
  EXPECT_EQ(s.meminfo.value.hugepages_total, 5128);
  ASSERT_TRUE(s.mounts.readable);
  std::vector<std::string> mps;
  for (const auto& m : s.mounts.value) mps.push_back(m.mount_point);
  EXPECT_EQ(mps, (std::vector<std::string>{"/", "/dev/shm", "/fsx", "/opt/local scratch"}));
  EXPECT_TRUE(s.mounts.value[0].stat_ok);
  EXPECT_FALSE(s.mounts.value[3].stat_ok);  // the injected statvfs knows no such path
  ASSERT_TRUE(s.efa.readable);
  ASSERT_EQ(s.efa.value.size(), 4u);  // mlx5_0 (vendor 0x15b3) is not EFA
  EXPECT_EQ(s.efa.value[0].counters.at("tx_bytes"), 987654321u);
  EXPECT_EQ(s.efa.value[0].counters.at("retrans_pkts"), 0u);
  EXPECT_EQ(s.efa_installer.value, "1.30.0");
  EXPECT_EQ(s.efa_module_version.value, "2.6.0g");
  ASSERT_EQ(s.gpu_pcie.value.size(), 2u);  // the EFA PCI function (x8 of x16) is no GPU
  EXPECT_EQ(s.gpu_pcie.value[0].bdf, "0000:10:1c.0");
  EXPECT_EQ(s.gpu_pcie.value[0].current_width, 16);
  EXPECT_EQ(s.gpu_pcie.value[0].current_speed, "16.0 GT/s PCIe");
  ASSERT_EQ(s.lustre_osts.value.size(), 4u);
  EXPECT_EQ(s.nvidia_driver.value, "535.161.08");
  ASSERT_TRUE(s.xids.readable);
  EXPECT_TRUE(s.xids.value.empty());
  EXPECT_EQ(s.env, (std::map<std::string, std::string>{
                       {"FI_PROVIDER", "efa"}, {"LD_LIBRARY_PATH", "/opt/amazon/efa/lib"}, {"NCCL_DEBUG", "INFO"}}));

  const auto fs = evaluate(s, rules());
  expect_complete(fs);
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  for (const char* check : {"signals.instance_type", "signals.kernel", "signals.cpu_governor", "signals.dev_shm",
                            "signals.root_fs", "signals.memlock", "signals.efa_count", "signals.efa_versions",
                            "signals.nvidia_driver", "signals.pcie_width", "signals.lustre_ost", "signals.xid"}) {
    const Finding* f = find(fs, check);
    ASSERT_NE(f, nullptr) << check << "\n" << dump(fs);
    EXPECT_EQ(f->tag, Tag::kOk) << check << ": " << f->observed;
    EXPECT_EQ(f->host, "node-a");
  }
  EXPECT_TRUE(contains(find(fs, "signals.efa_count")->observed, "4 EFA devices"));
  EXPECT_TRUE(contains(find(fs, "signals.mounts")->observed, "/fsx lustre 50% used"));
  EXPECT_TRUE(contains(find(fs, "signals.mounts")->observed, "statvfs failed: /opt/local scratch xfs"));
}

TEST(Signals, MissingTreeGivesInfoNeverConcernOrCrash) {
  const HostSnapshot s = collect_snapshot("/nonexistent/podperf-root", CollectInputs{});
  EXPECT_EQ(s.hostname.value, "unknown-host");
  EXPECT_FALSE(s.kernel_release.readable);
  EXPECT_TRUE(contains(s.kernel_release.why, "/nonexistent/podperf-root/proc/sys/kernel/osrelease")) << s.kernel_release.why;
  const auto fs = evaluate(s, rules());
  expect_complete(fs);
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  EXPECT_EQ(count_tag(fs, Tag::kOk), 0u) << dump(fs);
  for (const char* check : {"signals.instance_type", "signals.kernel", "signals.cpu_governor", "signals.meminfo",
                            "signals.mounts", "signals.memlock", "signals.efa_count", "signals.nvidia_driver",
                            "signals.pcie_width", "signals.lustre_ost", "signals.xid"}) {
    const Finding* f = find(fs, check);
    ASSERT_NE(f, nullptr) << check;
    EXPECT_EQ(f->tag, Tag::kInfo) << check;
  }
  const auto delta = evaluate_delta(s, s, rules());
  expect_complete(delta);
  EXPECT_EQ(count_tag(delta, Tag::kConcern), 0u) << dump(delta);
}

TEST(Signals, UnreadableKmsgSaysWhy) {
  CollectInputs in;
  in.kmsg_why = "open /dev/kmsg: Operation not permitted (with kernel.dmesg_restrict=1 reading the kernel log needs CAP_SYSLOG)";
  const auto fs = evaluate(collect_snapshot(fixture_root("healthy"), in), rules());
  const Finding* f = find(fs, "signals.xid");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tag, Tag::kInfo);
  EXPECT_TRUE(contains(f->observed, "CAP_SYSLOG")) << f->observed;
}

// The likely-cause rank is a column of the rule table: every finding carries its row's ranks, and the
// order is hardware errors, then throttling, then transport, then configuration (a slow pair); I/O wait,
// a full mount, Lustre OSTs first (a slow filesystem node).
TEST(Signals, EveryFindingCarriesItsRowsCauseRanks) {
  for (const char* fixture : {"healthy", "governor_powersave"}) {
    const HostSnapshot s = collect_snapshot(fixture_root(fixture), {});
    for (const std::vector<Finding>& findings : {evaluate(s, rules()), evaluate_delta(s, s, rules())}) {
      for (const Finding& f : findings) {
        const std::optional<CauseRanks> rank = signal_cause_ranks(f.check);
        ASSERT_TRUE(rank.has_value()) << f.check << " has no row";
        EXPECT_EQ(f.pair_cause_rank, rank->pair) << f.check;
        EXPECT_EQ(f.fs_cause_rank, rank->fs) << f.check;
      }
    }
  }
  const auto pair = [](const char* check) { return signal_cause_ranks(check).value().pair; };
  const auto fs = [](const char* check) { return signal_cause_ranks(check).value().fs; };
  EXPECT_LT(pair("signals.xid_new"), pair("signals.gpu_ecc"));
  EXPECT_LT(pair("signals.gpu_ecc"), pair("signals.efa_counters"));
  EXPECT_LT(pair("signals.efa_counters"), pair("signals.gpu_clock_events"));
  EXPECT_LT(pair("signals.gpu_pcie"), pair("signals.libfabric"));
  EXPECT_LT(pair("signals.libfabric"), pair("signals.cpu_governor"));
  EXPECT_LT(pair("signals.cpu_governor"), pair("signals.kernel"));
  EXPECT_LT(fs("signals.iowait"), fs("signals.root_fs"));
  EXPECT_LT(fs("signals.root_fs"), fs("signals.lustre_ost"));
  EXPECT_LT(fs("signals.lustre_ost"), fs("signals.xid"));
  EXPECT_FALSE(signal_cause_ranks("signals.no_such_check").has_value());
}

TEST(Signals, GovernorPowersave) {
  const auto fs = evaluate(collect_snapshot(fixture_root("governor_powersave"), {}), rules());
  const Finding* f = find(fs, "signals.cpu_governor");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tag, Tag::kConcern);
  EXPECT_EQ(f->host, "node-gov");
  EXPECT_TRUE(contains(f->observed, "powersave on 3 of 4 CPUs")) << f->observed;
  EXPECT_TRUE(contains(f->observed, "cpu1")) << f->observed;
  EXPECT_TRUE(contains(f->next_step, "cpupower frequency-set -g performance")) << f->next_step;
  EXPECT_TRUE(contains(f->next_step, "cat /sys/devices/system/cpu/cpu")) << f->next_step;
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 1u) << dump(fs);
}

TEST(Signals, PcieWidthBelowMax) {
  const auto fs = evaluate(collect_snapshot(fixture_root("pcie_degraded"), {}), rules());
  const Finding* f = find(fs, "signals.pcie_width");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tag, Tag::kConcern);
  EXPECT_EQ(f->observed, "0000:53:00.0 x8 of x16");
}

TEST(Signals, EfaCountShortOnP5) {
  const HostSnapshot s = collect_snapshot(fixture_root("efa_short"), {});
  const auto fs = evaluate(s, rules());
  const Finding* f = find(fs, "signals.efa_count");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tag, Tag::kConcern);
  EXPECT_EQ(f->observed, "30 EFA devices");
  EXPECT_EQ(f->expected, "32 EFA devices on p5.48xlarge");
  // The same host with all 32 would be OK; an unknown type is an INFO with the count.
  HostSnapshot unknown = s;
  unknown.instance_type.value = "x9.large";
  EXPECT_EQ(find(evaluate(unknown, rules()), "signals.efa_count")->tag, Tag::kInfo);
  // EFA-type instance without /sys/class/infiniband: all missing.
  HostSnapshot none = s;
  none.efa = {};
  none.efa.why = "/sys/class/infiniband: No such file or directory";
  EXPECT_EQ(find(evaluate(none, rules()), "signals.efa_count")->tag, Tag::kConcern);
}

TEST(Signals, EfaCountersRiseAndIowaitBetweenSnapshots) {
  const HostSnapshot before = collect_snapshot(fixture_root("efa_retrans/before"), {});
  const HostSnapshot after = collect_snapshot(fixture_root("efa_retrans/after"), {});
  const auto fs = evaluate_delta(before, after, rules());
  expect_complete(fs);
  const Finding* efa = find(fs, "signals.efa_counters");
  ASSERT_NE(efa, nullptr);
  EXPECT_EQ(efa->tag, Tag::kConcern);
  EXPECT_EQ(efa->host, "node-retrans");
  EXPECT_TRUE(contains(efa->observed, "rdmap32s27 retrans_pkts +1234")) << efa->observed;
  EXPECT_TRUE(contains(efa->observed, "rdmap144s27 unresponsive_remote_events +2")) << efa->observed;
  EXPECT_FALSE(contains(efa->observed, "tx_bytes")) << efa->observed;
  // 300 of 1200 ticks in iowait = 25% > 20%; steal 100 of 1200 = 8.3% <= 10%.
  const Finding* io = find(fs, "signals.iowait");
  ASSERT_NE(io, nullptr);
  EXPECT_EQ(io->tag, Tag::kConcern);
  EXPECT_TRUE(contains(io->observed, "25.0%")) << io->observed;
  const Finding* steal = find(fs, "signals.steal");
  ASSERT_NE(steal, nullptr);
  EXPECT_EQ(steal->tag, Tag::kOk);
  EXPECT_TRUE(contains(steal->observed, "8.3%")) << steal->observed;
  // No change: OK.
  const auto same = evaluate_delta(before, before, rules());
  EXPECT_EQ(find(same, "signals.efa_counters")->tag, Tag::kOk);
  EXPECT_EQ(find(same, "signals.iowait")->tag, Tag::kInfo);  // no time elapsed
}

TEST(Signals, DevShmSmallAndRootFull) {
  CollectInputs in = healthy_inputs();
  in.statvfs = fixed_statvfs({{"/", {100 * kGiB, 5 * kGiB}}, {"/dev/shm", {64 * kMiB, 64 * kMiB}}});
  const auto fs = evaluate(collect_snapshot(fixture_root("healthy"), in), rules());
  const Finding* shm = find(fs, "signals.dev_shm");
  ASSERT_NE(shm, nullptr);
  EXPECT_EQ(shm->tag, Tag::kConcern);
  EXPECT_TRUE(contains(shm->observed, "64 MiB")) << shm->observed;
  EXPECT_TRUE(contains(shm->next_step, "--shm-size")) << shm->next_step;
  const Finding* root = find(fs, "signals.root_fs");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->tag, Tag::kConcern);
  EXPECT_TRUE(contains(root->observed, "95.0% used")) << root->observed;

  in.statvfs = fixed_statvfs({{"/", {100 * kGiB, 11 * kGiB}}, {"/dev/shm", {512 * kMiB, 512 * kMiB}}});
  const auto mid = evaluate(collect_snapshot(fixture_root("healthy"), in), rules());
  EXPECT_EQ(find(mid, "signals.dev_shm")->tag, Tag::kInfo);  // between 64 MiB and 1 GiB
  EXPECT_EQ(find(mid, "signals.root_fs")->tag, Tag::kOk);    // 89% used
  in.statvfs = {};
  const auto unknown = evaluate(collect_snapshot(fixture_root("healthy"), in), rules());
  EXPECT_EQ(find(unknown, "signals.dev_shm")->tag, Tag::kInfo);
  EXPECT_EQ(find(unknown, "signals.root_fs")->tag, Tag::kInfo);
}

TEST(Signals, MemlockLimit) {
  CollectInputs in = healthy_inputs();
  in.memlock = Rlimit{false, 64 * 1024};
  const Finding* f = nullptr;
  const auto fs = evaluate(collect_snapshot(fixture_root("healthy"), in), rules());
  f = find(fs, "signals.memlock");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tag, Tag::kConcern);
  EXPECT_EQ(f->observed, "64 KiB");
  EXPECT_TRUE(contains(f->next_step, "ulimit -l")) << f->next_step;
  in.memlock = Rlimit{false, 16 * kGiB};
  EXPECT_EQ(find(evaluate(collect_snapshot(fixture_root("healthy"), in), rules()), "signals.memlock")->tag, Tag::kOk);
  // A node without RDMA devices and no EFA-type: a low limit is only an INFO.
  in.memlock = Rlimit{false, 64 * 1024};
  EXPECT_EQ(find(evaluate(collect_snapshot(fixture_root("governor_powersave"), in), rules()), "signals.memlock")->tag,
            Tag::kInfo);
}

TEST(Signals, OneOstFarFuller) {
  const HostSnapshot s = collect_snapshot(fixture_root("ost_imbalance"), {});
  ASSERT_TRUE(s.lustre_osts.readable);  // from /proc/fs/lustre/osc (older Lustre)
  ASSERT_EQ(s.lustre_osts.value.size(), 4u);
  const auto fs = evaluate(s, rules());
  const Finding* f = find(fs, "signals.lustre_ost");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tag, Tag::kConcern);
  EXPECT_TRUE(contains(f->observed, "scratch-OST0002-osc-ffff8881 95%")) << f->observed;
  EXPECT_FALSE(contains(f->observed, "OST0001")) << f->observed;
}

TEST(Signals, XidsInTheKernelLog) {
  CollectInputs in;
  in.kmsg_text = read_file(fixture_root("kmsg/xid_kmsg.txt"));
  const auto fs = evaluate(collect_snapshot(fixture_root("healthy"), in), rules());
  const auto xids = find_all(fs, "signals.xid");
  ASSERT_EQ(xids.size(), 5u) << dump(fs);
  auto by = [&](const std::string& prefix) -> const Finding* {
    for (const auto* f : xids)
      if (f->observed.starts_with(prefix)) return f;
    return nullptr;
  };
  ASSERT_NE(by("Xid 79 "), nullptr);
  EXPECT_EQ(by("Xid 79 ")->tag, Tag::kConcern);
  EXPECT_TRUE(contains(by("Xid 79 ")->observed, "0000:b9:00")) << by("Xid 79 ")->observed;
  EXPECT_TRUE(contains(by("Xid 79 ")->meaning, "fallen off the bus"));
  EXPECT_TRUE(contains(by("Xid 79 ")->next_step, "reboot"));
  ASSERT_NE(by("Xid 48 "), nullptr);
  EXPECT_EQ(by("Xid 48 ")->tag, Tag::kConcern);
  ASSERT_NE(by("Xid 13 "), nullptr);
  EXPECT_EQ(by("Xid 13 ")->tag, Tag::kInfo);
  ASSERT_NE(by("SXid 24007 "), nullptr);
  EXPECT_EQ(by("SXid 24007 ")->tag, Tag::kConcern);  // "Fatal"
  ASSERT_NE(by("SXid 12028 "), nullptr);
  EXPECT_EQ(by("SXid 12028 ")->tag, Tag::kInfo);     // "Non-fatal"

  // Window: only what happened from 125 s on.
  in.kmsg_window_start_usec = 125000000;
  const auto windowed_findings = evaluate(collect_snapshot(fixture_root("healthy"), in), rules());
  EXPECT_EQ(find_all(windowed_findings, "signals.xid").size(), 3u);  // 48 and the two SXids
}

TEST(Signals, NewXidsBetweenSnapshots) {
  const std::string text = read_file(fixture_root("kmsg/xid_kmsg.txt"));
  CollectInputs in;
  in.kmsg_text = text.substr(0, text.find("4,2005"));  // up to and including Xid 79
  const HostSnapshot before = collect_snapshot(fixture_root("healthy"), in);
  in.kmsg_text = text;
  const HostSnapshot after = collect_snapshot(fixture_root("healthy"), in);
  const auto delta = evaluate_delta(before, after, rules());
  const auto fs = find_all(delta, "signals.xid_new");
  ASSERT_EQ(fs.size(), 3u);  // Xid 48, SXid 12028, SXid 24007
  EXPECT_TRUE(fs[0]->observed.starts_with("Xid 48 ")) << fs[0]->observed;
  EXPECT_EQ(fs[0]->tag, Tag::kConcern);
  const auto unchanged = evaluate_delta(after, after, rules());
  const auto none = find_all(unchanged, "signals.xid_new");
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0]->tag, Tag::kOk);
}

// ---------------------------------------------------------------- drift

TEST(SignalsDrift, DriverAndEnvironmentDiffer) {
  CollectInputs a;
  a.env = {{"NCCL_PROTO", "simple"}, {"FI_EFA_USE_DEVICE_RDMA", "1"}};
  CollectInputs b;
  b.env = {{"FI_EFA_USE_DEVICE_RDMA", "1"}};
  CollectInputs c = a;
  c.hostname = "node-c";
  const std::vector<HostSnapshot> nodes = {collect_snapshot(fixture_root("drift/node-a"), a),
                                           collect_snapshot(fixture_root("drift/node-b"), b),
                                           collect_snapshot(fixture_root("drift/node-a"), c)};
  const auto fs = evaluate_drift(nodes);
  expect_complete(fs);
  const Finding* driver = find(fs, "drift.nvidia_driver");
  ASSERT_NE(driver, nullptr);
  EXPECT_EQ(driver->tag, Tag::kConcern);
  EXPECT_EQ(driver->host, "");
  EXPECT_EQ(driver->observed, "535.161.08: node-a, node-c; 550.54.15: node-b");
  for (const char* same : {"drift.kernel", "drift.instance_type", "drift.efa_installer"}) {
    ASSERT_NE(find(fs, same), nullptr) << same;
    EXPECT_EQ(find(fs, same)->tag, Tag::kOk) << same;
  }
  EXPECT_EQ(find(fs, "drift.efa_module"), nullptr);  // unreadable everywhere: nothing to compare
  const Finding* env = find(fs, "drift.env.NCCL_PROTO");
  ASSERT_NE(env, nullptr);
  EXPECT_EQ(env->tag, Tag::kConcern);
  EXPECT_EQ(env->observed, "(unset): node-b; simple: node-a, node-c");
  EXPECT_EQ(find(fs, "drift.env.FI_EFA_USE_DEVICE_RDMA"), nullptr);
  EXPECT_EQ(find(fs, "drift.env"), nullptr);
}

TEST(SignalsDrift, SameEverywhereAndSingleNode) {
  CollectInputs a;
  a.env = {{"NCCL_PROTO", "simple"}};
  CollectInputs b = a;
  b.hostname = "node-z";
  const auto fs = evaluate_drift({collect_snapshot(fixture_root("drift/node-a"), a),
                                  collect_snapshot(fixture_root("drift/node-a"), b)});
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
  ASSERT_NE(find(fs, "drift.env"), nullptr);
  EXPECT_EQ(find(fs, "drift.env")->tag, Tag::kOk);
  const auto one = evaluate_drift({collect_snapshot(fixture_root("drift/node-a"), a)});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].check, "drift.nodes");
  EXPECT_EQ(one[0].tag, Tag::kInfo);
  EXPECT_EQ(evaluate_drift({}).size(), 1u);
}

// Under srun/mpirun: each host's CONCERNs, the drift across hosts and the totals, in one summary; a
// CONCERN anywhere (a host's or a drift's) fails with --fail-on concern.
TEST(SignalsDrift, SummaryOfSeveralHostsAndTheExitCode) {
  CollectInputs a;
  a.hostname = "node-a";
  a.env = {{"NCCL_PROTO", "simple"}};
  CollectInputs b;
  b.hostname = "node-b";
  const std::vector<HostSnapshot> hosts = {collect_snapshot(fixture_root("drift/node-a"), a),
                                           collect_snapshot(fixture_root("drift/node-b"), b)};
  const Rules rules = load_rules("");
  std::vector<Finding> findings;
  for (const HostSnapshot& h : hosts) {
    for (Finding& f : evaluate(h, rules)) findings.push_back(std::move(f));
  }
  std::vector<Finding> drift = evaluate_drift(hosts);
  findings.insert(findings.end(), drift.begin(), drift.end());
  const std::string text = findings_by_host({"node-a", "node-b"}, findings);
  EXPECT_NE(text.find("2 hosts: each host's CONCERN findings, then the differences across hosts\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\nhost node-a: "), std::string::npos) << text;
  EXPECT_NE(text.find("\nhost node-b: "), std::string::npos) << text;
  EXPECT_NE(text.find("\nAcross the 2 hosts (drift):\n"), std::string::npos) << text;
  EXPECT_NE(text.find("drift.nvidia_driver"), std::string::npos) << text;
  EXPECT_NE(text.find("535.161.08: node-a; 550.54.15: node-b"), std::string::npos) << text;
  EXPECT_NE(text.find("drift.env.NCCL_PROTO"), std::string::npos) << text;
  EXPECT_NE(text.find("\nTotal: "), std::string::npos) << text;
  EXPECT_EQ(signals_exit_code(drift, "concern"), kExitFlagged);  // the driver differs: a CONCERN across hosts
  EXPECT_EQ(signals_exit_code(drift, "never"), kExitOk);
  std::vector<Finding> fine = {Finding{}};
  fine[0].tag = Tag::kInfo;
  EXPECT_EQ(signals_exit_code(fine, "concern"), kExitOk);
}

// The table prints every value whole: a long observed value is not cut (its next step goes below it).
TEST(SignalsTable, LongValuesArePrintedWhole) {
  Finding f;
  f.tag = Tag::kConcern;
  f.check = "signals.environment";
  f.observed = "NCCL_SOCKET_IFNAME=" + std::string(150, 'x');
  f.next_step = "check it";
  const std::string table = findings_to_table({f});
  EXPECT_NE(table.find(f.observed + "\n"), std::string::npos) << table;
  EXPECT_NE(table.find("check it\n"), std::string::npos) << table;
  EXPECT_EQ(table.find("..."), std::string::npos) << table;
  const nlohmann::json j = nlohmann::json::parse(findings_to_json({f}));
  EXPECT_EQ(j[0]["observed"], f.observed);
}

// ---------------------------------------------------------------- snapshot JSON

bool same_findings(const std::vector<Finding>& a, const std::vector<Finding>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].tag != b[i].tag || a[i].check != b[i].check || a[i].host != b[i].host || a[i].observed != b[i].observed ||
        a[i].expected != b[i].expected || a[i].next_step != b[i].next_step)
      return false;
  }
  return true;
}

TEST(SnapshotJson, RoundTripGivesTheSameFindings) {
  CollectInputs in = healthy_inputs();
  in.kmsg_text = read_file(fixture_root("kmsg/xid_kmsg.txt"));
  const HostSnapshot s = collect_snapshot(fixture_root("healthy"), in);
  const std::string text = snapshot_to_json(s).dump();
  const HostSnapshot back = snapshot_from_json(nlohmann::json::parse(text));
  EXPECT_EQ(back.hostname.value, "node-a");
  EXPECT_EQ(back.efa.value.size(), 4u);
  EXPECT_EQ(back.xids.value.size(), 5u);
  EXPECT_EQ(back.env, s.env);
  EXPECT_TRUE(same_findings(evaluate(s, rules()), evaluate(back, rules()))) << dump(evaluate(back, rules()));
  EXPECT_TRUE(same_findings(evaluate_delta(s, s, rules()), evaluate_delta(back, back, rules())));
  // Drift on snapshots that travelled as JSON.
  const HostSnapshot b = snapshot_from_json(snapshot_to_json(collect_snapshot(fixture_root("drift/node-b"), {})));
  const auto drift = evaluate_drift({back, b});
  ASSERT_NE(find(drift, "drift.nvidia_driver"), nullptr);
  EXPECT_EQ(find(drift, "drift.nvidia_driver")->tag, Tag::kConcern);
}

TEST(SnapshotJson, MalformedInputIsAnInputError) {
  EXPECT_THROW((void)snapshot_from_json(nlohmann::json::array()), InputError);
  EXPECT_THROW((void)snapshot_from_json(nlohmann::json{{"hostname", {{"value", 3}}}}), InputError);
  EXPECT_THROW((void)snapshot_from_json(nlohmann::json{{"snapshot_version", kSnapshotJsonVersion + 1}}), InputError);
  const HostSnapshot empty = snapshot_from_json(nlohmann::json::object());
  EXPECT_FALSE(empty.kernel_release.readable);
  const auto fs = evaluate(empty, rules());
  EXPECT_EQ(count_tag(fs, Tag::kConcern), 0u) << dump(fs);
}

// ---------------------------------------------------------------- command

TEST(SignalsCommand, TableJsonAndBadRules) {
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(run_signals_command(fixture_root("healthy"), false, rules_path(), out, err), 0);
  EXPECT_TRUE(contains(out.str(), "host node-a")) << out.str();
  EXPECT_TRUE(contains(out.str(), "signals.cpu_governor")) << out.str();
  EXPECT_TRUE(contains(out.str(), "NEXT STEP")) << out.str();
  EXPECT_TRUE(err.str().empty());

  std::ostringstream jout;
  EXPECT_EQ(run_signals_command(fixture_root("governor_powersave"), true, rules_path(), jout, err), 0);
  const nlohmann::json j = nlohmann::json::parse(jout.str());
  ASSERT_TRUE(j.is_array());
  ASSERT_FALSE(j.empty());
  EXPECT_TRUE(jout.str().find("\"tag\"") < jout.str().find("\"source\"")) << "fields in Finding order";
  bool saw_concern = false;
  for (const auto& f : j) {
    for (const char* k : {"tag", "source", "check", "host", "observed", "expected", "meaning", "effect", "next_step"})
      EXPECT_TRUE(f.contains(k)) << k;
    const std::string tag = f.at("tag");
    EXPECT_TRUE(tag == "OK" || tag == "CONCERN" || tag == "INFO") << tag;
    if (f.at("check") == "signals.cpu_governor") saw_concern = tag == "CONCERN";
  }
  EXPECT_TRUE(saw_concern);

  const std::string bad = ::testing::TempDir() + "/podperf-bad-rules.toml";
  {
    std::ofstream f(bad);
    f << "[cpu]\ngovernor = 3\n";
  }
  std::ostringstream bout;
  std::ostringstream berr;
  EXPECT_EQ(run_signals_command(fixture_root("healthy"), false, bad, bout, berr), kExitUsage);
  EXPECT_TRUE(bout.str().empty());
  const std::string error = berr.str();
  EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << error;
  EXPECT_TRUE(contains(error, bad)) << error;
}

TEST(SignalsCommand, SecondSampleAddsDeltaFindings) {
  SignalsOptions o;
  o.rules_path = rules_path();
  o.sample_seconds = 0.2;
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(run_signals_command(o, out, err), 0) << err.str();
  EXPECT_TRUE(contains(out.str(), "signals.iowait")) << out.str();
  o.sample_seconds = -1;
  std::ostringstream err2;
  EXPECT_EQ(run_signals_command(o, out, err2), kExitUsage);
  EXPECT_TRUE(contains(err2.str(), "--sample")) << err2.str();
}

TEST(SignalsCommand, ThisHostExitsZero) {
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(run_signals_command("/", false, rules_path(), out, err), 0) << err.str();
  EXPECT_TRUE(contains(out.str(), "signals.nvidia_driver")) << out.str();
}

}  // namespace
}  // namespace podperf

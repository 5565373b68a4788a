// podperf triage beyond line logs: NCCL RAS JSON, PyTorch flight-recorder JSON dumps compared across
// ranks, pickle dumps named as not read, and cross-rank ordering by timestamp (first failure against
// cascade) on the fixtures of tests/fixtures/triage.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analysis/logs/json_dumps.hpp"
#include "analysis/logs/log_reader.hpp"
#include "analysis/logs/triage.hpp"
#include "analysis/report/triage_report.hpp"

namespace podperf::logs {
namespace {

const std::string kDir = std::string(PODPERF_FIXTURES_DIR) + "/triage/";

// Each file as `podperf triage` reads it: a JSON dump when it is one, else a line log.
TriageResult triage_paths(const std::vector<std::string>& names) {
  TriageAccumulator acc;
  std::size_t order = 0;
  for (const std::string& n : names) {
    ReadStats dump;
    if (read_json_dump_file(kDir + n, order, acc, dump) != DumpKind::not_a_dump) {
      acc.add_file(dump);
      continue;
    }
    acc.add_file(read_log_file(kDir + n, order, [&](const LogEvent& ev) { acc.add(ev); }));
  }
  return acc.finish();
}

const TriageFinding* find(const TriageResult& r, const std::string& check) {
  for (const TriageFinding& f : r.findings) {
    if (f.check == check) return &f;
  }
  return nullptr;
}

TEST(TriageRasJson, DeadRankAndCountsBehind) {
  const TriageResult r = triage_paths({"ras_dump.json"});
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].format, "ras-json");
  const TriageFinding* dead = find(r, "ras.dead_process");
  ASSERT_NE(dead, nullptr);
  EXPECT_EQ(dead->tag, "FAIL");
  EXPECT_EQ(dead->host, "10.1.0.12");
  ASSERT_FALSE(dead->evidence.empty());
  EXPECT_NE(dead->evidence[0].find("rank 3"), std::string::npos) << dead->evidence[0];
  const TriageFinding* behind = find(r, "ras.count_mismatch");
  ASSERT_NE(behind, nullptr);
  EXPECT_NE(behind->evidence[0].find("AllReduce 5119 of 5120"), std::string::npos) << behind->evidence[0];
  EXPECT_EQ(r.findings.front().check, "ras.dead_process");
  EXPECT_EQ(r.verdict, "FAIL");
}

TEST(TriageRasJson, HealthyDumpIsOnlyLiveness) {
  std::string text = R"({"nccl_version": "2.30.7", "communicators": [{"hash": "0x1", "ranks": [
      {"rank": 0, "host": "10.0.0.1", "pid": 1, "status": {"async_error": 0, "abort_flag": false},
       "collective_counts": {"AllReduce": 7}},
      {"rank": 1, "host": "10.0.0.2", "pid": 2, "status": {"async_error": 0, "abort_flag": false},
       "collective_counts": {"AllReduce": 7}}], "missing_ranks": []}]})";
  TriageAccumulator acc;
  std::size_t order = 0;
  ASSERT_EQ(read_json_dump(text, "ras.json", order, acc), DumpKind::ras_json);
  const TriageResult r = acc.finish();
  ASSERT_NE(find(r, "ras.all_running"), nullptr);
  EXPECT_NE(r.verdict, "PASS") << "RAS measures liveness, not progress: no NCCL log, no PASS";
  // An async error on a rank is a FAIL naming the rc.
  text.replace(text.find("\"async_error\": 0"), 16, "\"async_error\": 2");
  TriageAccumulator acc2;
  ASSERT_EQ(read_json_dump(text, "ras.json", order, acc2), DumpKind::ras_json);
  const TriageResult e = acc2.finish();
  const TriageFinding* err = find(e, "ras.async_error");
  ASSERT_NE(err, nullptr);
  EXPECT_NE(err->evidence[0].find("ncclSystemError"), std::string::npos) << err->evidence[0];
}

TEST(TriageFlightRecorder, TheRankBehindIsNamed) {
  const TriageResult r = triage_paths(
      {"fr_dumps/nccl_trace_rank_0.json", "fr_dumps/nccl_trace_rank_1.json", "fr_dumps/nccl_trace_rank_2.json"});
  for (const ReadStats& s : r.files) EXPECT_EQ(s.format, "flight-recorder-json") << s.file;
  const TriageFinding* behind = find(r, "pytorch.fr_behind");
  ASSERT_NE(behind, nullptr);
  EXPECT_EQ(behind->tag, "FAIL");
  EXPECT_NE(behind->cause.find("rank(s) 2 never reached collective 42"), std::string::npos) << behind->cause;
  EXPECT_EQ(r.findings.front().check, "pytorch.fr_behind");
  EXPECT_EQ(r.verdict, "FAIL");
}

TEST(TriageFlightRecorder, AllRanksInOneCollectiveIsAHangAndInconclusive) {
  const TriageResult r = triage_paths({"fr_dumps/nccl_trace_rank_0.json", "fr_dumps/nccl_trace_rank_1.json"});
  const TriageFinding* hang = find(r, "pytorch.fr_hang");
  ASSERT_NE(hang, nullptr);
  EXPECT_NE(hang->cause.find("collective 42 nccl:all_reduce"), std::string::npos) << hang->cause;
  EXPECT_EQ(r.verdict, "INCONCLUSIVE");
  EXPECT_FALSE(r.collect_next.empty());
  EXPECT_TRUE(r.has_fail());
}

TEST(TriageFlightRecorder, DifferentOpsAtOneSequenceIsADesync) {
  TriageAccumulator acc;
  std::size_t order = 0;
  const auto dump = [](int rank, const char* op) {
    return std::string(R"({"rank": )") + std::to_string(rank) +
           R"(, "entries": [{"pg_id": 0, "collective_seq_id": 5, "profiling_name": ")" + op +
           R"(", "state": "started", "is_p2p": false}]})";
  };
  ASSERT_EQ(read_json_dump(dump(0, "nccl:all_reduce"), "a", order, acc), DumpKind::flight_recorder_json);
  ASSERT_EQ(read_json_dump(dump(1, "nccl:broadcast"), "b", order, acc), DumpKind::flight_recorder_json);
  const TriageResult r = acc.finish();
  ASSERT_NE(find(r, "pytorch.fr_desync"), nullptr);
  EXPECT_EQ(r.verdict, "FAIL");
}

TEST(TriageFlightRecorder, PickleIsNamedNotRead) {
  const std::string path = ::testing::TempDir() + "nccl_trace_rank_0";
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string("\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00}\x94.", 14);
  }
  TriageAccumulator acc;
  std::size_t order = 0;
  ReadStats stats;
  ASSERT_EQ(read_json_dump_file(path, order, acc, stats), DumpKind::pickle);
  acc.add_file(stats);
  const TriageResult r = acc.finish();
  const TriageFinding* f = find(r, "input.pickle_skipped");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->next_step.find("pickle.load"), std::string::npos);
}

TEST(TriageFlightRecorder, NotADumpIsReadAsLines) {
  TriageAccumulator acc;
  std::size_t order = 0;
  EXPECT_EQ(read_json_dump(R"({"level": "info", "msg": "NCCL INFO Using network Socket"})", "x", order, acc),
            DumpKind::not_a_dump);
  EXPECT_EQ(read_json_dump("{ broken", "x", order, acc), DumpKind::not_a_dump);
  EXPECT_EQ(order, 0u);
}

TEST(TriageTimeOrder, FirstInTimeBeatsFileOrderAmongEqualCauses) {
  const TriageResult r = triage_paths({"cross_rank_time_order.log"});
  ASSERT_GE(r.findings.size(), 2u);
  // connect failure (gpu-a, 10:00:09, first in the file) and IB completion error (gpu-b, 10:00:02) rank
  // alike as network errors: the earlier by timestamp is the root cause.
  EXPECT_EQ(r.findings.front().check, "ib.completion_error");
  EXPECT_EQ(r.findings.front().host, "gpu-b");
  EXPECT_EQ(r.findings.front().first_time, "2026-11-30 10:00:02");
  EXPECT_EQ(r.first_failure, "ib.completion_error");
  const TriageFinding* connect = find(r, "net.connect_failed");
  ASSERT_NE(connect, nullptr);
  EXPECT_EQ(connect->first_time, "2026-11-30 10:00:09");
}

TEST(TriageTimeOrder, CascadeBeforeItsCauseIsNamedFirstFailure) {
  // The consequence happened first in time, the OOM a second later: the OOM is the root cause, and the
  // report says which line came first.
  TriageAccumulator acc;
  std::size_t order = 0;
  const std::string text =
      "[2026-11-30 10:00:01] node-a:1:2 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote "
      "peer node-b<5000>\n"
      "[2026-11-30 10:00:02] node-b:3:4 [1] enqueue.cc:1 NCCL WARN Cuda failure 'out of memory'\n";
  acc.add_file(read_log_text(text, "m.log", order, [&](const LogEvent& ev) { acc.add(ev); }));
  const TriageResult r = acc.finish();
  EXPECT_EQ(r.findings.front().check, "gpu.cuda_oom");
  EXPECT_EQ(r.first_failure, "net.peer_closed");
  EXPECT_NE(triage_text(r).find("first failure in time: net.peer_closed at 2026-11-30 10:00:01"), std::string::npos)
      << triage_text(r);
}

TEST(TriageTimeOrder, AbsoluteSeconds) {
  EXPECT_DOUBLE_EQ(absolute_seconds("1970-01-01 00:00:01"), 1.0);
  EXPECT_DOUBLE_EQ(absolute_seconds("2026-11-30T10:00:02.5Z"), absolute_seconds("2026-11-30 10:00:02") + 0.5);
  EXPECT_DOUBLE_EQ(absolute_seconds("2026-11-30T12:00:02+02:00"), absolute_seconds("2026-11-30 10:00:02"));
  EXPECT_LT(absolute_seconds("4211.123456"), 0);
  EXPECT_LT(absolute_seconds("2026-13-30 10:00:02"), 0);
  EXPECT_LT(absolute_seconds(""), 0);
}

}  // namespace
}  // namespace podperf::logs

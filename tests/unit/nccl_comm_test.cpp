// The NCCL communicator lifecycle (bench/nccl_comm) and loader (bench/nccl_api) on the fake NCCL of
// tests/fake_nccl, played by $FAKE_NCCL: every path ends in a named error or an abort, never a hang.
#include "bench/nccl_comm.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <pthread.h>

#include <cstdlib>
#include <string>

#include "analysis/base/errors.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/model/run.hpp"
#include "bench/nccl_api.hpp"

namespace podperf {
namespace {

// One fake library: its table and its test hooks.
struct Fake {
  NcclApi api;
  void* lib = nullptr;
  explicit Fake(const char* path) : api(load_nccl_api({path})), lib(::dlopen(path, RTLD_NOW | RTLD_LOCAL)) { reset(); }
  int count(const char* what) const {
    auto* fn = reinterpret_cast<int (*)(const char*)>(::dlsym(lib, "fake_nccl_count"));
    return fn(what);
  }
  int group_depth() const { return reinterpret_cast<int (*)()>(::dlsym(lib, "fake_nccl_group_depth"))(); }
  void* last_split_slot() const { return reinterpret_cast<void* (*)()>(::dlsym(lib, "fake_nccl_last_split_slot"))(); }
  void complete_splits() const { reinterpret_cast<void (*)()>(::dlsym(lib, "fake_nccl_complete_splits"))(); }
  void reset() const { reinterpret_cast<void (*)()>(::dlsym(lib, "fake_nccl_reset"))(); }
};

class NcclCommTest : public ::testing::Test {
 protected:
  void TearDown() override { ::unsetenv("FAKE_NCCL"); }
  static void play(const char* script) { ::setenv("FAKE_NCCL", script, 1); }
  Fake fake{PODPERF_FAKE_NCCL};
  NcclUniqueId id{};
};

bool on_this_threads_stack(const void* p) {
  pthread_attr_t attr;
  pthread_getattr_np(pthread_self(), &attr);
  void* base = nullptr;
  std::size_t size = 0;
  pthread_attr_getstack(&attr, &base, &size);
  pthread_attr_destroy(&attr);
  const auto* b = static_cast<const char*>(base);
  return static_cast<const char*>(p) >= b && static_cast<const char*>(p) < b + size;
}

TEST_F(NcclCommTest, LoadsTheTableAndTheVersion) {
  EXPECT_EQ(fake.api.version, 22809);
  EXPECT_NE(fake.api.alltoall, nullptr);
  // run.json's nccl_log note names the version and the file the dynamic linker opened.
  EXPECT_EQ(loaded_nccl_description(), std::string("NCCL 2.28.9 (") + fake.api.file + ")");
  EXPECT_NE(fake.api.file.find("fake_nccl"), std::string::npos) << fake.api.file;
  // ... and run.json records both as fields, on an nccl run only, and reads them back.
  EXPECT_EQ(loaded_nccl().file, fake.api.file);
  EXPECT_EQ(loaded_nccl().version, "2.28.9");
  podperf::Run run;
  run.run_id = "nccl-library";  // what a reader requires of a run (docs/run.schema.json)
  run.command = "pairs";
  run.ranks = 2;
  run.nodes = {NodeInfo{0, "h0", "h0", "", "", {0, 1}, false, {}, "", ""}};
  run.backend = "host";
  record_backend_library(run);
  EXPECT_EQ(run.backend_library, "");
  run.backend = "nccl";
  record_backend_library(run);
  EXPECT_EQ(run.backend_library, fake.api.file);
  EXPECT_EQ(run.backend_library_version, "2.28.9");
  std::string text;
  write_run_json(run, [&](std::string_view piece) { text += piece; });
  EXPECT_NE(text.find("\"backend_library_version\": \"2.28.9\""), std::string::npos) << text.substr(0, 600);
  const podperf::Run back = parse_run_json(text, "run.json");
  EXPECT_EQ(back.backend_library, fake.api.file);
  EXPECT_EQ(back.backend_library_version, "2.28.9");
}

TEST_F(NcclCommTest, OldNcclWithoutAlltoAllLoadsAndFallsBackToGroupedSendRecv) {
  Fake old(PODPERF_FAKE_NCCL_OLD);
  EXPECT_EQ(old.api.version, 21805);
  EXPECT_EQ(old.api.alltoall, nullptr);
  NcclComm comm = NcclComm::init(old.api, 4, id, 0, 5.0);
  NcclOpCall call;
  call.kind = OpKind::kAllToAll;
  call.nranks = 4;
  nccl_enqueue(comm, call, nccl_deadline_after(5.0), "alltoall");
  EXPECT_EQ(old.count("send"), 4);
  EXPECT_EQ(old.count("recv"), 4);
  EXPECT_EQ(old.count("group_start"), 1);
  EXPECT_EQ(old.count("group_end"), 1);
  EXPECT_EQ(old.group_depth(), 0);
}

TEST_F(NcclCommTest, RefusesNcclOlderThan218AndNamesEveryCandidate) {
  play("version=21703");
  try {
    (void)load_nccl_api({"/nonexistent/libnccl.so.2", PODPERF_FAKE_NCCL});
    FAIL() << "loaded an NCCL older than 2.18";
  } catch (const UsageError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("/nonexistent/libnccl.so.2"), std::string::npos) << m;
    EXPECT_NE(m.find("NCCL 2.17.3 is older than 2.18.0"), std::string::npos) << m;
    EXPECT_NE(m.find("--nccl-library"), std::string::npos) << m;
  }
}

TEST_F(NcclCommTest, CandidatesFollowTheOrderNcclUsersExpect) {
  EXPECT_EQ(nccl_library_candidates("/opt/x/libnccl.so", {"/site"}), std::vector<std::string>{"/opt/x/libnccl.so"});
  const std::vector<std::string> want{"libnccl.so.2", "/a/nvidia/nccl/lib/libnccl.so.2",
                                      "/b/nvidia/nccl/lib/libnccl.so.2"};
  EXPECT_EQ(nccl_library_candidates("", {"/a", "/b"}), want);
}

TEST_F(NcclCommTest, InitInProgressForSomePollsThenReadyAndFinalizedAtTheEnd) {
  play("init_polls=5");
  {
    NcclComm comm = NcclComm::init(fake.api, 2, id, 0, 5.0);
    EXPECT_FALSE(comm.failed());
  }
  EXPECT_EQ(fake.count("finalize"), 1);
  EXPECT_EQ(fake.count("destroy"), 1);
  EXPECT_EQ(fake.count("abort"), 0);
}

TEST_F(NcclCommTest, InitThatNeverCompletesTimesOutAndAborts) {
  play("init_polls=-1");
  EXPECT_THROW((void)NcclComm::init(fake.api, 2, id, 0, 0.05), TimeoutError);
  EXPECT_EQ(fake.count("abort"), 1);
  EXPECT_EQ(fake.count("finalize"), 0);
}

TEST_F(NcclCommTest, InitErrorOnOneRankIsNamedThere) {
  play("init_error=5,init_error_rank=1");
  try {
    (void)NcclComm::init(fake.api, 2, id, 1, 5.0);
    FAIL() << "init error not thrown";
  } catch (const RuntimeFailure& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("rank 1 of 2"), std::string::npos) << m;
    EXPECT_NE(m.find("ncclCommInitRankConfig"), std::string::npos) << m;
    EXPECT_NE(m.find("fake init failure on rank 1"), std::string::npos) << m;
  }
  EXPECT_EQ(fake.count("finalize"), 0);
  // Rank 0 of the same job initialises fine.
  NcclComm ok = NcclComm::init(fake.api, 2, id, 0, 5.0);
  EXPECT_FALSE(ok.failed());
}

TEST_F(NcclCommTest, AsyncErrorAfterInitIsThrownAndAborts) {
  play("async_error=6");
  EXPECT_THROW((void)NcclComm::init(fake.api, 2, id, 0, 5.0), RuntimeFailure);
  EXPECT_EQ(fake.count("abort"), 1);
  EXPECT_EQ(fake.count("finalize"), 0);
}

TEST_F(NcclCommTest, FailingGetAsyncErrorIsAnErrorNotAHang) {
  play("getasync_fail=3");
  try {
    (void)NcclComm::init(fake.api, 2, id, 0, 5.0);
    FAIL();
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find("ncclCommGetAsyncError"), std::string::npos) << e.what();
  }
  EXPECT_EQ(fake.count("abort"), 1);
}

TEST_F(NcclCommTest, SplitThatNeverCompletesTimesOutAbortsTheParentAndLeavesNoStackSlot) {
  NcclComm world = NcclComm::init(fake.api, 2, id, 0, 5.0);
  play("split_polls=-1");
  EXPECT_THROW((void)world.split(0, 0, 0.05), TimeoutError);
  EXPECT_TRUE(world.empty());  // aborted
  EXPECT_EQ(fake.count("abort"), 1);
  // NCCL's thread finishing late writes into the slot it was given: not on any stack of ours.
  void* slot = fake.last_split_slot();
  ASSERT_NE(slot, nullptr);
  EXPECT_FALSE(on_this_threads_stack(slot));
  fake.complete_splits();
  // The next split names the earlier failure instead of calling into an aborted communicator.
  EXPECT_THROW((void)world.split(0, 0, 1.0), RuntimeFailure);
}

TEST_F(NcclCommTest, SplitInProgressForSomePollsGivesAReadyChild) {
  NcclComm world = NcclComm::init(fake.api, 2, id, 0, 5.0);
  play("split_polls=3");
  NcclComm child = world.split(1, 0, 5.0);
  EXPECT_FALSE(child.empty());
  NcclComm none = world.split(-1, 0, 5.0);
  EXPECT_TRUE(none.empty());
}

TEST_F(NcclCommTest, SendThatFailsInsideAGroupClosesTheGroupAndAborts) {
  {
    NcclComm comm = NcclComm::init(fake.api, 2, id, 0, 5.0);
    play("send_fail=4");
    NcclOpCall call;
    call.kind = OpKind::kSendRecv;
    call.nranks = 2;
    EXPECT_THROW(nccl_enqueue(comm, call, nccl_deadline_after(5.0), "sendrecv"), RuntimeFailure);
    EXPECT_EQ(fake.group_depth(), 0);
    EXPECT_EQ(fake.count("group_end"), 1);
    EXPECT_TRUE(comm.failed());
  }
  EXPECT_EQ(fake.count("abort"), 1);
  EXPECT_EQ(fake.count("finalize"), 0);
}

TEST_F(NcclCommTest, CollectiveInProgressIsWaitedForThenAlltoAllIsNcclsOwn) {
  play("coll_polls=4");
  NcclComm comm = NcclComm::init(fake.api, 2, id, 0, 5.0);
  NcclOpCall call;
  call.kind = OpKind::kAllToAll;
  call.nranks = 2;
  nccl_enqueue(comm, call, nccl_deadline_after(5.0), "alltoall");
  EXPECT_EQ(fake.count("alltoall"), 1);
  EXPECT_EQ(fake.count("send"), 0);
}

TEST_F(NcclCommTest, CollectiveStuckInProgressTimesOut) {
  play("coll_polls=-1");
  {
    NcclComm comm = NcclComm::init(fake.api, 2, id, 0, 5.0);
    NcclOpCall call;
    EXPECT_THROW(nccl_enqueue(comm, call, nccl_deadline_after(0.05), "all_reduce of 8 bytes"), TimeoutError);
  }
  EXPECT_EQ(fake.count("abort"), 1);
}

TEST_F(NcclCommTest, FinalizeErrorFallsBackToAbort) {
  play("finalize_error=3");
  { NcclComm comm = NcclComm::init(fake.api, 2, id, 0, 5.0); }
  EXPECT_EQ(fake.count("finalize"), 1);
  EXPECT_EQ(fake.count("destroy"), 0);
  EXPECT_EQ(fake.count("abort"), 1);
}

}  // namespace
}  // namespace podperf

// run_offline_command: the exit codes and error lines every offline command (report, compare, sweep,
// signals) gives, and the commands themselves going through it.
#include "offline/offline_command.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "offline/report_command.hpp"
#include "offline/signals_command.hpp"

namespace podperf {
namespace {

TEST(OfflineCommand, ReturnsWhatTheBodyReturnsAndWritesNothing) {
  std::ostringstream err;
  EXPECT_EQ(run_offline_command("podperf x", err, [] { return kExitFlagged; }), kExitFlagged);
  EXPECT_EQ(err.str(), "");
}

TEST(OfflineCommand, UsageErrorsAndTheirKindsAreExit2) {
  for (int kind = 0; kind < 3; ++kind) {
    std::ostringstream err;
    const int rc = run_offline_command("podperf report", err, [kind]() -> int {
      if (kind == 0) throw UsageError("--format pdf: expected html");
      if (kind == 1) throw ConfigError("t.toml:3: key 'x' unknown");
      throw InputError("run.json: byte 12: truncated");
    });
    EXPECT_EQ(rc, kExitUsage) << kind;
    const char* expected[] = {"podperf report: error: --format pdf: expected html\n",
                              "podperf report: error: t.toml:3: key 'x' unknown\n",
                              "podperf report: error: run.json: byte 12: truncated\n"};
    EXPECT_EQ(err.str(), expected[kind]);
  }
}

TEST(OfflineCommand, AnyOtherExceptionIsExit3) {
  std::ostringstream err;
  EXPECT_EQ(run_offline_command("podperf", err, []() -> int { throw RuntimeFailure("out.html: cannot write"); }),
            kExitRuntime);
  EXPECT_EQ(err.str(), "podperf: error: out.html: cannot write\n");
  std::ostringstream err2;
  EXPECT_EQ(run_offline_command("podperf", err2, []() -> int { throw std::bad_alloc(); }), kExitRuntime);
  EXPECT_NE(err2.str().find("podperf: error: "), std::string::npos);
}

TEST(OfflineCommand, SignalsRejectsASampleOutOfRangeWithExit2) {
  SignalsOptions o;
  o.sample_seconds = 601.0;
  std::ostringstream out, err;
  EXPECT_EQ(run_signals_command(o, out, err), kExitUsage);
  EXPECT_EQ(err.str(), "podperf signals: error: --sample 601 is out of range (expected 0 to 600 seconds)\n");
  EXPECT_EQ(out.str(), "");
}

TEST(OfflineCommand, SignalsNamesABadRulesFileWithExit2) {
  SignalsOptions o;
  o.rules_path = "/nonexistent/rules.toml";
  o.sample_seconds = 0.0;
  std::ostringstream out, err;
  EXPECT_EQ(run_signals_command(o, out, err), kExitUsage);
  EXPECT_NE(err.str().find("podperf signals: error: "), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("/nonexistent/rules.toml"), std::string::npos) << err.str();
}

TEST(OfflineCommand, ReportOfAMissingRunIsExit2) {
  ReportOptions o;
  o.run = "/nonexistent/run.json";
  std::ostringstream out, err;
  EXPECT_EQ(run_report_command(o, out, err), kExitUsage);
  EXPECT_EQ(err.str().rfind("podperf: error: ", 0), 0U) << err.str();
}

}  // namespace
}  // namespace podperf

// Progress lines: format_duration and the line Progress::step_done prints.
#include "bench/progress.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace podperf {
namespace {

TEST(FormatDuration, Table) {
  struct Case {
    double seconds;
    const char* text;
  };
  const std::vector<Case>
      cases{
          {0.0, "0.0s"},      {0.5, "0.5s"},     {12.34, "12.3s"},  {59.9, "59.9s"},
          {60.0, "1m00s"},    {65.0, "1m05s"},   {119.6, "2m00s"},  // whole seconds from a minute on, rounded
          {3599.0, "59m59s"}, {3600.0, "1h00m"}, {7380.0, "2h03m"}, {90000.0, "25h00m"},
          {-3.0, "0.0s"},  // a clock step backwards is shown as 0
      };
  for (const Case& c : cases) EXPECT_EQ(format_duration(c.seconds), c.text) << c.seconds;
}

TEST(FormatDuration, JustBelowAMinuteDoesNotPrintSixtySeconds) {
  // 59.97 s rounds to 60.0 at one decimal: it should read as a minute, not "60.0s".
  EXPECT_EQ(format_duration(59.97), "1m00s");
  // Same at the hour boundary: 3599.6 s is one hour.
  EXPECT_EQ(format_duration(3599.6), "1h00m");
}

TEST(Progress, StepDoneLine) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  Progress progress(4, "round", out);
  progress.step_done(1, "node0 <-> node1");
  progress.step_done(4, "");
  std::rewind(out);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), out));
  std::fclose(out);
  EXPECT_NE(text.find("podperf: round 1/4 done, elapsed "), std::string::npos) << text;
  EXPECT_NE(text.find(" left; node0 <-> node1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("podperf: round 4/4 done"), std::string::npos) << text;
  EXPECT_NE(text.find("~0.0s left\n"), std::string::npos) << "the last step has nothing left\n" << text;
}

}  // namespace
}  // namespace podperf

namespace podperf {
namespace {

std::string lines_of(int total, int steps, double min_interval_s) {
  std::FILE* out = std::tmpfile();
  Progress progress(total, "round", out, min_interval_s);
  for (int i = 1; i <= steps; ++i) progress.step_done(i, "");
  std::rewind(out);
  std::string text(1 << 16, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), out));
  std::fclose(out);
  return text;
}

// Hundreds of fast steps print the first, the last and at most one line per interval in between; few
// steps print every one.
TEST(Progress, ManyFastStepsAreThrottled) {
  const std::string many = lines_of(500, 500, 3600.0);
  EXPECT_EQ(std::count(many.begin(), many.end(), '\n'), 2) << many;
  EXPECT_NE(many.find("round 1/500 done"), std::string::npos) << many;
  EXPECT_NE(many.find("round 500/500 done"), std::string::npos) << many;
  const std::string every = lines_of(500, 500, 0.0);
  EXPECT_EQ(std::count(every.begin(), every.end(), '\n'), 500);
  const std::string few = lines_of(Progress::kEveryStepUpTo, Progress::kEveryStepUpTo, 3600.0);
  EXPECT_EQ(std::count(few.begin(), few.end(), '\n'), Progress::kEveryStepUpTo);
}

}  // namespace
}  // namespace podperf

namespace podperf {
namespace {

// Every "podperf: round K/N done" line of `text`: {K, N}.
std::vector<std::pair<int, int>> counters(const std::string& text) {
  std::vector<std::pair<int, int>> out;
  std::size_t at = 0;
  while ((at = text.find("podperf: round ", at)) != std::string::npos) {
    at += 15;
    int k = 0, n = 0;
    if (std::sscanf(text.c_str() + at, "%d/%d done", &k, &n) == 2) out.emplace_back(k, n);
  }
  return out;
}

std::string read_all(std::FILE* out) {
  std::rewind(out);
  std::string text(1 << 16, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), out));
  std::fclose(out);
  return text;
}

// Steps planned later (a retest pass) grow the total before they run, on a line that says so; the
// counter never passes the total.
TEST(Progress, RetestStepsGrowTheTotalBeforeTheyRun) {
  std::FILE* out = std::tmpfile();
  Progress progress(3, "round", out);
  for (int i = 0; i < 3; ++i) progress.next_step_done("plan");
  progress.plan_more(2, "retest 1: 3 flagged pairs at 64M, measured again");
  EXPECT_EQ(progress.total(), 5);
  progress.next_step_done("retest 1, step 1/2");
  progress.next_step_done("retest 1, step 2/2");
  progress.finish("not printed: every planned step ran");
  const std::string text = read_all(out);
  EXPECT_NE(text.find("podperf: retest 1: 3 flagged pairs at 64M, measured again: 2 more rounds, 5 in all (was 3)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("not printed"), std::string::npos) << text;
  const auto c = counters(text);
  ASSERT_EQ(c.size(), 5u) << text;
  for (const auto& [k, n] : c) EXPECT_LE(k, n) << text;
  EXPECT_EQ(c.back(), std::make_pair(5, 5));
  EXPECT_EQ(c[2], std::make_pair(3, 3));
}

// A schedule that ends before its total (the adaptive search deciding early) says how many ran.
TEST(Progress, EndingBeforeTheTotalIsSaid) {
  std::FILE* out = std::tmpfile();
  Progress progress(20, "round", out);
  for (int i = 0; i < 6; ++i) progress.next_step_done("adaptive");
  progress.finish("the adaptive search decided in 6 of its 20 rounds");
  EXPECT_EQ(progress.total(), 6);
  const std::string text = read_all(out);
  EXPECT_NE(text.find("podperf: 6 rounds in all, not 20: the adaptive search decided in 6 of its 20 rounds\n"),
            std::string::npos)
      << text;
}

// A long plan is throttled, but a short retest pass after it prints every step.
TEST(Progress, AShortRetestPassAfterALongPlanPrintsEveryStep) {
  std::FILE* out = std::tmpfile();
  Progress progress(500, "round", out, 3600.0);
  for (int i = 0; i < 500; ++i) progress.next_step_done("plan");
  progress.plan_more(15, "retest 1");
  for (int i = 0; i < 15; ++i) progress.next_step_done("retest 1, step " + std::to_string(i + 1) + "/15");
  const auto c = counters(read_all(out));
  ASSERT_EQ(c.size(), 2u + 15u);
  EXPECT_EQ(c[1], std::make_pair(500, 500));
  EXPECT_EQ(c.back(), std::make_pair(515, 515));
}

}  // namespace
}  // namespace podperf

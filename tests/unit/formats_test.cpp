// The one table of report formats (analysis/report/formats) is the single source of what podperf
// report accepts, what it writes and what every run leaves beside run.json: every row renders a fixture
// run, every row has a file of its own, the names the CLI accepts are the table's, and a name not in
// the table is refused by podperf report --format, with the table's names in the error.
#include "analysis/report/formats.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/io/run_json.hpp"
#include "app/cli.hpp"

namespace podperf {
namespace {

namespace fs = std::filesystem;

Run fixture_run() {
  return read_run_json(std::string(PODPERF_FIXTURES_DIR) + "/runs/report_run.json");
}

TEST(ReportFormats, EveryRowRendersTheFixtureRunIntoAFileOfItsOwn) {
  const podperf::Run run = fixture_run();
  std::set<std::string_view> names, files;
  ASSERT_FALSE(report_formats().empty());
  for (const ReportFormat& f : report_formats()) {
    SCOPED_TRACE(std::string(f.name));
    EXPECT_FALSE(f.name.empty());
    EXPECT_TRUE(names.insert(f.name).second) << "name listed twice";
    EXPECT_TRUE(files.insert(f.file_name).second) << "file name shared: " << f.file_name;
    ASSERT_NE(f.render, nullptr);
    const std::string text = f.render(run);
    EXPECT_FALSE(text.empty());
    EXPECT_EQ(render_report(run, std::string(f.name)), text);
    EXPECT_EQ(report_file_name(std::string(f.name)), f.file_name);
    EXPECT_EQ(find_report_format(f.name), &f);
  }
  // What --format accepts is the table, in its order.
  std::vector<std::string> expected;
  for (const ReportFormat& f : report_formats()) expected.emplace_back(f.name);
  EXPECT_EQ(report_format_names(), expected);
}

TEST(ReportFormats, WriteReportsLeavesExactlyTheAfterEveryRunRows) {
  const fs::path dir = fs::temp_directory_path() / ("podperf-formats-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_reports(fixture_run(), dir.string());
  for (const ReportFormat& f : report_formats()) {
    EXPECT_EQ(fs::exists(dir / f.file_name), f.after_every_run) << f.name;
  }
  fs::remove_all(dir);
}

TEST(ReportFormats, ANameNotInTheTableIsRefused) {
  EXPECT_EQ(find_report_format("xyz"), nullptr);
  try {
    (void)render_report(fixture_run(), "xyz");
    ADD_FAILURE() << "render_report accepted xyz";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--format xyz: expected html, md, csv or junit");
  }
  EXPECT_THROW((void)report_file_name("xyz"), UsageError);
  // podperf report --format xyz: the command line refuses it (exit 2); a name of the table passes.
  for (const auto& [format, expected] :
       {std::pair{"xyz", std::optional<int>(kExitUsage)}, std::pair{"junit", std::optional<int>()}}) {
    CommandLine cli;
    std::vector<std::string> args{"podperf", "report", std::string(PODPERF_FIXTURES_DIR) + "/runs/report_run.json",
                                  "--format", format};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    EXPECT_EQ(parse_command_line(static_cast<int>(argv.size()), argv.data(), cli), expected) << format;
  }
}

}  // namespace
}  // namespace podperf

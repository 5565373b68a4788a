// JUnit XML of a verdict (analysis/report/junit): a golden string, escaping, determinism.
#include "analysis/report/junit.hpp"

#include <gtest/gtest.h>

namespace podperf {
namespace {

Run verdict_run() {
  Run run;
  run.run_id = "r1";
  run.verdict.status = "FAIL";
  run.verdict.profile = "quick";
  run.verdict.sku = "p5.48xlarge";
  run.verdict.checks = {
      {"h1", "straggler", "PASS", "0 of 3 pairs flagged at 1G (not most)"},
      {"h3", "straggler", "FAIL", "3 of 3 pairs < 0.5 \"baseline\" & slow"},
      {"h2", "concern", "WARN", "signals.cpu_governor (powersave)"},
      {"h1", "busbw_min", "SKIP", "backend host"},
      {"", "run_complete", "PASS", "the run finished"},
  };
  return run;
}

TEST(Junit, Golden) {
  const std::string want =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"podperf accept\" tests=\"5\" failures=\"1\" errors=\"0\" skipped=\"1\">\n"
      "  <testsuite name=\"podperf accept r1 (profile quick, SKU p5.48xlarge): FAIL\" tests=\"5\" failures=\"1\" "
      "errors=\"0\" skipped=\"1\">\n"
      "    <testcase classname=\"h1\" name=\"straggler\"><system-out>0 of 3 pairs flagged at 1G (not "
      "most)</system-out></testcase>\n"
      "    <testcase classname=\"h3\" name=\"straggler\"><failure message=\"3 of 3 pairs &lt; 0.5 "
      "&quot;baseline&quot; &amp; slow\" type=\"FAIL\">3 of 3 pairs &lt; 0.5 &quot;baseline&quot; &amp; "
      "slow</failure></testcase>\n"
      "    <testcase classname=\"h2\" name=\"concern\"><system-out>WARN: signals.cpu_governor "
      "(powersave)</system-out></testcase>\n"
      "    <testcase classname=\"h1\" name=\"busbw_min\"><skipped message=\"backend host\"/></testcase>\n"
      "    <testcase classname=\"run\" name=\"run_complete\"><system-out>the run finished</system-out></testcase>\n"
      "  </testsuite>\n"
      "</testsuites>\n";
  EXPECT_EQ(render_junit(verdict_run()), want);
  EXPECT_EQ(render_junit(verdict_run()), render_junit(verdict_run()));
}

TEST(Junit, EscapesMarkupAndControlCharacters) {
  EXPECT_EQ(xml_escape("a<b>&\"c'\x01\td\n"), "a&lt;b&gt;&amp;&quot;c&apos;?\td\n");
}

}  // namespace
}  // namespace podperf

#pragma once
// JUnit XML of an acceptance verdict (podperf accept --junit FILE; junit.xml in the results
// directory), for CI systems. A projection of run.verdict: computes nothing. Pure.
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

// One <testsuite> (inside <testsuites>) named after the run, profile and SKU, with one <testcase> per
// verdict check, in the verdict's order: classname = the node's label ("run" for run-wide checks),
// name = the check id. FAIL -> <failure message="detail" type="FAIL">; WARN -> passes, the detail in
// <system-out>; SKIP -> <skipped message="detail"/>; PASS -> the detail in <system-out>. Text is
// XML-escaped; no timestamps or durations, so the output depends only on the verdict.
std::string render_junit(const Run& run);
// The same with `verdict` in place of run.verdict (a verdict judged in memory, without copying the run).
std::string render_junit(const Run& run, const Verdict& verdict);

// &, <, >, " and ' escaped; control characters other than tab and newline become '?' (not allowed in
// XML 1.0).
std::string xml_escape(const std::string& text);

}  // namespace podperf

#include "analysis/report/junit.hpp"

#include <fmt/format.h>

#include <iterator>

#include "analysis/report/common.hpp"
#include "analysis/report/format_append.hpp"

namespace podperf {

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n') {
          out += '?';
        } else {
          out += ch;
        }
    }
  }
  return out;
}

std::string render_junit(const Run& run) {
  return render_junit(run, run.verdict);
}

std::string render_junit(const Run& run, const Verdict& v) {
  int failures = 0;
  int skipped = 0;
  for (const VerdictCheck& c : v.checks) {
    if (c.status == "FAIL") ++failures;
    if (c.status == "SKIP") ++skipped;
  }
  const std::string suite = fmt::format("podperf accept {} (profile {}, SKU {}): {}", run.run_id, v.profile,
                                        v.sku.empty() ? "none" : v.sku, v.status);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  append(out, "<testsuites name=\"podperf accept\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
         v.checks.size(), failures, skipped);
  append(out, "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n", xml_escape(suite),
         v.checks.size(), failures, skipped);
  if (run.simulated) {
    append(out, "    <properties><property name=\"simulated\" value=\"{}\"/></properties>\n",
           xml_escape(simulated_note(run)));
  }
  for (const VerdictCheck& c : v.checks) {
    const std::string classname = xml_escape(c.node.empty() ? "run" : c.node);
    const std::string detail = xml_escape(c.detail);
    append(out, "    <testcase classname=\"{}\" name=\"{}\">", classname, xml_escape(c.check));
    if (c.status == "FAIL") {
      append(out, "<failure message=\"{}\" type=\"FAIL\">{}</failure>", detail, detail);
    } else if (c.status == "SKIP") {
      append(out, "<skipped message=\"{}\"/>", detail);
    } else {
      append(out, "<system-out>{}{}</system-out>", c.status == "WARN" ? "WARN: " : "", detail);
    }
    append(out, "</testcase>\n");
  }
  append(out, "  </testsuite>\n</testsuites>\n");
  return out;
}

}  // namespace podperf

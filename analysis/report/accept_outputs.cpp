// podperf accept's verdict text and files, for both of its commands. Printers' wing; local.
#include "analysis/report/accept_outputs.hpp"

#include <fmt/format.h>

#include <exception>
#include <filesystem>
#include <vector>

#include "analysis/base/file_write.hpp"
#include "analysis/report/accept_text.hpp"
#include "analysis/report/junit.hpp"
#include "analysis/report/node_rows.hpp"
#include "analysis/report/prometheus.hpp"

namespace podperf {

AcceptOutputs write_accept_outputs(const Run& run, const AcceptOutputTargets& to) {
  AcceptOutputs out;
  out.text = render_verdict(run, to.cluster_name);
  const auto write = [&out](const std::string& file, const std::string& what, const std::string& content) {
    try {
      write_file_atomically(file, content);
      out.text += fmt::format("{}: {}\n", what, file);
    } catch (const std::exception& e) {
      out.errors += fmt::format("podperf: error: {}\n", e.what());
    }
  };
  std::vector<std::string> junit_files;
  if (!to.results_dir.empty()) junit_files.push_back((std::filesystem::path(to.results_dir) / "junit.xml").string());
  if (!to.junit.empty()) junit_files.push_back(to.junit);
  if (!junit_files.empty()) {
    const std::string xml = render_junit(run);
    for (const std::string& f : junit_files) write(f, "JUnit", xml);
  }
  if (!to.prometheus.empty()) write(to.prometheus, "Prometheus textfile", render_prometheus(run, summarize_nodes(run)));
  return out;
}

}  // namespace podperf

#include "offline/compare_command.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <ostream>

#include "analysis/compare.hpp"
#include "analysis/report/compare_html.hpp"
#include "analysis/report/comparison_json.hpp"
#include "analysis/report/comparison_text.hpp"
#include "analysis/errors.hpp"
#include "analysis/file_write.hpp"
#include "offline/offline_command.hpp"
#include "analysis/run_json.hpp"
#include "analysis/topology.hpp"

namespace podperf {

std::string resolve_run_json(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    const std::filesystem::path file = std::filesystem::path(path) / "run.json";
    if (!std::filesystem::exists(file, ec)) {
      throw InputError(
          fmt::format("{}: a directory without run.json (expected a run.json or a results directory)", path));
    }
    return file.string();
  }
  return path;
}

int run_compare_command(const CompareOptions& o, std::ostream& out, std::ostream& err) {
  // Exit 2: unreadable or invalid runs or settings (InputError, ConfigError); 3: the HTML page cannot
  // be written (RuntimeFailure) or anything else that fails.
  return run_offline_command("podperf compare", err, [&] {
    CompareSettings settings = load_compare_settings(o.config);
    if (o.alpha >= 0.0) settings.alpha = o.alpha;
    if (o.min_change_percent >= 0.0) settings.min_change_percent = o.min_change_percent;
    const std::string before_path = resolve_run_json(o.before);
    const std::string after_path = resolve_run_json(o.after);
    Run before = read_run_json(before_path);
    Run after = read_run_json(after_path);
    if (!o.topology.empty()) {
      // Read before comparing anything: a bad file is exit 2 naming it. Both runs get the same topology.
      const Topology topology = load_topology(o.topology, o.topology_format);
      apply_topology(before, topology);
      apply_topology(after, topology);
    }
    Comparison c = compare_runs(before, after, settings);
    c.before_source = before_path;
    c.after_source = after_path;
    if (o.json) {
      nlohmann::json j = comparison_json(c);
      j["fail_on_percent"] = o.fail_on_percent;
      j["regressed"] = regressed_beyond(c, o.fail_on_percent);
      out << j.dump(2) << "\n";
    } else {
      out << comparison_text(c, o.fail_on_percent);
    }
    out.flush();
    if (!o.html.empty()) {
      write_file_atomically(o.html, render_compare_html(c, o.fail_on_percent));
      err << "podperf compare: wrote " << o.html << "\n";
    }
    return regressed_beyond(c, o.fail_on_percent) ? kExitFlagged : kExitOk;
  });
}

}  // namespace podperf

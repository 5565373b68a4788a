// podperf's command line: the arguments checked as text, the subcommands (the MPI job's from
// app/job_options, the offline commands' here), the parse, and which command it names. App floor (above
// bench/ and offline/), local; help and errors are printed on launcher rank 0 only; throws nothing for
// user input. Every option's value is checked by a rule of app/cli_checks while parsing.
#include "app/cli.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>

#include "analysis/base/errors.hpp"
#include "analysis/io/run_metadata.hpp"
#include "analysis/report/formats.hpp"
#include "app/cli_checks.hpp"
#include "app/help_formatter.hpp"
#include "app/job_options.hpp"
#include "bench/watchdog.hpp"

namespace podperf {
namespace {

namespace rule = cli_checks;

// Strict UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + n >= s.size()) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += n + 1;
  }
  return true;
}

// "r\xff": printable ASCII as is, other bytes as \xNN.
std::string escaped(std::string_view s) {
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7F) {
      out.push_back(ch);
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  return out;
}

// Arguments end up in run.json (argv, paths, run id): they must be text. kExitUsage when one is not
// (said on stderr when `print`), else nullopt.
std::optional<int> check_arguments_are_text(int argc, char** argv, bool print) {
  for (int i = 1; i < argc; ++i) {
    if (!valid_utf8(argv[i])) {
      if (print) {
        std::fprintf(stderr,
                     "podperf: error: argument %d ('%s') is not valid UTF-8: podperf records its command line, paths "
                     "and run id in run.json\n",
                     i, escaped(argv[i]).c_str());
      }
      return kExitUsage;
    }
  }
  return std::nullopt;
}

// One function per offline subcommand: its options write into the command's own Options struct in `cli`.
void add_signals_subcommand(CLI::App& app, CommandLine& cli) {
  CLI::App* signals =
      app.add_subcommand("signals", "read-only health signals of this host, or of every host under srun");
  signals->footer(
      "GPU PCIe, Xid, EFA, CPU governor, memory, /dev/shm, mounts, Lustre OSTs, versions, NCCL/EFA environment, "
      "each tagged OK / CONCERN / INFO with the next step. Alone (before a job, a Slurm prolog or "
      "HealthCheckProgram) it needs no MPI; as several ranks under srun or mpirun it reads every host and prints "
      "once, with the drift across hosts (--local: each rank its own host, no MPI). Exit 0, or 1 for a CONCERN with "
      "--fail-on concern; 2 bad rules file; 3 runtime "
      "failure. Details: docs/signals.md.");
  signals->add_option("--root", cli.signals.root, "read every path under DIR (a fixture tree in tests)")
      ->check(rule::existing_directory())
      ->capture_default_str();
  signals->add_flag("--json", cli.signals.json, "print the findings as JSON");
  signals->add_option("--rules", cli.signals.rules_path, "rules file replacing the built-in configs/rules.toml")
      ->check(rule::existing_file());
  signals
      ->add_option("--sample", cli.signals.sample_seconds,
                   "seconds between two snapshots (iowait, steal, EFA counter rises, new Xids); 0: one snapshot")
      ->check(rule::number_in(0, 3600, "seconds"))
      ->capture_default_str();
  signals
      ->add_option("--fail-on", cli.signals.fail_on,
                   "concern: exit 1 when any finding is a CONCERN (a prolog or health check fails the node); "
                   "never: exit 0 whatever was found")
      ->check(rule::one_of({"never", "concern"}))
      ->capture_default_str();
  signals->add_flag("--local", cli.signals.local, "this host only, also under srun or mpirun (no MPI, no drift)");
}

void add_report_subcommand(CLI::App& app, CommandLine& cli) {
  CLI::App* report = app.add_subcommand("report", "render a finished run as HTML, Markdown, CSV or JUnit (offline)");
  report->footer(
      "RUN is run.json or its results directory (a run without run.json is rebuilt from events.jsonl): a "
      "self-contained HTML report (inline SVG charts), a Markdown summary for a ticket, a CSV of every "
      "measurement, or the acceptance verdict as JUnit XML. Details: docs/report.md.");
  report->add_option("RUN", cli.report.run, "run.json, or the results directory holding it")
      ->check(rule::existing_path())
      ->required();
  report->add_option("--format", cli.report.format, report_formats_help())
      ->check(rule::one_of(report_format_names()))
      ->capture_default_str();
  report
      ->add_option("--out", cli.report.out,
                   "file to write (default: report.html/.md/.csv beside run.json; - for stdout)")
      ->check(rule::output_file());
  add_topology_options(report, cli.report.topology, cli.report.topology_format);
}

void add_compare_subcommand(CLI::App& app, CommandLine& cli) {
  CLI::App* compare = app.add_subcommand("compare", "compare runs metric by metric: slower, faster, or no change");
  compare->footer(
      "Offline, no MPI: compare runs (run.json files or results directories; BEFORE AFTER, or --before RUN... "
      "--after RUN... with repeats of each setup) metric by metric (busbw per pair or collective case and size, "
      "filesystem MB/s, IOPS and p99 latency per probe and node). The run is the unit: each metric's run-to-run "
      "spread is moderated with the metrics of its kind and size and tested with a t test (one run against several: "
      "against the other side's spread), p adjusted within one family per metric kind; pairs are also tested as a "
      "common shift and per node, and pairs a node explains roll up into it; with one run a side each pair is tested "
      "against the spread of all pairs' changes and the common shift is untestable. Every test states the change it "
      "would find with 80% power at its family's real alpha. The first line says REGRESSION, INCONCLUSIVE (some "
      "level could not have seen a change of --fail-on, or of twice --min-change) or No regression. Also: which side's "
      "runs are less consistent, and the stragglers and slow links the runs' own verdicts name. Warns when the sides "
      "differ (nodes, sizes, backend, NCCL version, environment) and compares what they share. Exit 0 no regression "
      "(or INCONCLUSIVE without --max-mde), 1 a regression beyond --fail-on, 2 unreadable input or runs of one side "
      "that are not repeats of one setup, 3 the --html page not written, 4 --max-mde and some level could not have "
      "seen a change of that size. Details: docs/compare.md.");
  compare->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  compare->add_option("BEFORE", cli.compare.before, "run.json (or results directory) of the earlier run")
      ->check(rule::existing_path());
  compare->add_option("AFTER", cli.compare.after, "run.json (or results directory) of the later run")
      ->check(rule::existing_path());
  compare
      ->add_option("--before", cli.compare.before_runs,
                   "runs of the earlier setup (repeats: separate jobs; 3 or more per side to test a change)")
      ->check(rule::existing_path())
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1, -1);
  compare->add_option("--after", cli.compare.after_runs, "runs of the later setup")
      ->check(rule::existing_path())
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1, -1);
  compare
      ->add_option("--allowance", cli.compare.allowance_percent,
                   "blocks of one job as units (--repeat, one run a side): no change smaller than PCT percent counts "
                   "(default from configs/compare.toml: 25)")
      ->check(rule::number_in(0, 1000, "percent"));
  compare
      ->add_option("--max-mde", cli.compare.max_mde_percent,
                   "exit 4 when some level of the comparison (all pairs, nodes, links, other metrics) could not have "
                   "seen a change of PCT percent (its worst minimum detectable effect is larger, or it is untestable): "
                   "INCONCLUSIVE as a failure for CI")
      ->check(rule::number_in(0, 1000, "percent"));
  compare
      ->add_option("--fail-on", cli.compare.fail_on_percent,
                   "exit 1 when a metric is slower by more than PCT percent (0: any slower verdict, which already "
                   "needs p < alpha and at least --min-change)")
      ->check(rule::number_in(0, 1000, "percent"))
      ->capture_default_str();
  compare
      ->add_option("--min-change", cli.compare.min_change_percent,
                   "smallest change in percent that counts as slower or faster (default from configs/compare.toml: 2)")
      ->check(rule::number_in(0, 1000, "percent"));
  compare
      ->add_option("--alpha", cli.compare.alpha,
                   "significance level of the test (default from configs/compare.toml: 0.05)")
      ->check(rule::number_in(1e-6, 0.5, ""));
  add_topology_options(compare, cli.compare.topology, cli.compare.topology_format);
  compare->add_flag("--json", cli.compare.json, "print the comparison as JSON (every metric) instead of text");
  compare->add_option("--config", cli.compare.config, "settings file replacing the built-in configs/compare.toml")
      ->check(rule::existing_file());
  compare
      ->add_option("--html", cli.compare.html,
                   "also write the comparison as a self-contained HTML page (summary, a before/after chart per "
                   "metric with intervals, the slower and faster metrics) to FILE; exit 3 when it cannot be "
                   "written")
      ->check(rule::output_file());
}

void add_sweep_subcommand(CLI::App& app, CommandLine& cli) {
  CLI::App* sweep = app.add_subcommand("sweep", "try NCCL/libfabric settings: one job per point, ranked by busbw");
  sweep->footer(
      "Try NCCL/libfabric settings, sizes and ops: one fresh job per point of a sweep file (configs/sweeps/*.toml), "
      "launched with srun inside a Slurm allocation, else mpirun (or the file's launcher), as an argument vector, "
      "never through a shell; every point's run kept; ends with the points ranked by busbw per message size with "
      "95% intervals and the best setting per size (sweep.json, sweep.csv). Run it directly, not under srun/mpirun. "
      "Exit 0 all points ran, 1 some point failed or exited non-zero, 2 bad sweep file, 3 interrupted. Details: "
      "docs/sweep.md.");
  sweep->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  sweep
      ->add_option("FILE", cli.sweep.file,
                   "sweep file, or the name of a built-in one (nccl-algo-proto, efa, host-smoke)")
      ->check(rule::name_or_existing_file())
      ->required();
  sweep->add_option("--out", cli.sweep.out, "results root; the sweep goes to OUT/SWEEP_ID/, each point's run below it")
      ->check(rule::output_directory())
      ->capture_default_str();
  sweep->add_option("--sweep-id", cli.sweep.sweep_id, "name of the sweep's directory (default: sweep-<time>-p<pid>)")
      ->check(rule::non_empty_text());
  sweep
      ->add_option("--launcher", cli.sweep.launcher,
                   "auto (the file's launch.argv, else srun when SLURM_JOB_ID is set, else mpirun), srun, mpirun, "
                   "file (the file's launch.argv), none (podperf alone, one rank)")
      ->check(rule::one_of({"auto", "srun", "mpirun", "file", "none"}))
      ->capture_default_str();
  sweep->add_option("--np", cli.sweep.np, "ranks per point: mpirun -np N (srun -n N); default the file's launch.np")
      ->check(rule::whole_number(1, 1 << 24));
  sweep->add_option("--hostfile", cli.sweep.hostfile, "mpirun --hostfile FILE; default the file's launch.hostfile")
      ->check(rule::existing_file());
  sweep
      ->add_option("--timeout", cli.sweep.timeout_s,
                   "seconds one point may take before its launcher is stopped (default the file's timeout_s, 3600)")
      ->check(rule::number_above(0, "seconds"));
  sweep->add_flag("--dry-run", cli.sweep.dry_run, "print every point's command and variables; run nothing");
}

void add_triage_subcommand(CLI::App& app, CommandLine& cli) {
  CLI::App* triage = app.add_subcommand("triage", "a failed or slow job's logs in, the root cause out (offline)");
  triage->footer(
      "Offline, no MPI: a failed or slow training job's own logs in, the root cause out: NCCL_DEBUG output from "
      "any launcher, PyTorch c10d errors, aws-ofi-nccl/libfabric, ncclras, dmesg, nccl-tests and Slurm output "
      "(files or directories, .gz read as is); findings FAIL/WARN/INFO with P0-P2, evidence lines, cause and next "
      "step, the root cause first, a transport table per host. Exit 0 PASS or WARN, 1 FAIL or INCONCLUSIVE (the "
      "logs do not show a job that ran), 2 unreadable input or bad usage. Details: docs/triage.md.");
  triage->add_option("PATH", cli.triage.paths, "log files or directories (read recursively)")
      ->check(rule::existing_path())
      ->required();
  triage->add_flag("--json", cli.triage.json, "print the triage as JSON (docs/triage.md)");
  triage->add_flag("--md", cli.triage.md, "print the triage as Markdown for a ticket");
}

// Adds podperf signals, report, compare, sweep and triage to `app` (in this order, the help's).
void add_offline_subcommands(CLI::App& app, CommandLine& cli) {
  add_signals_subcommand(app, cli);
  add_report_subcommand(app, cli);
  add_compare_subcommand(app, cli);
  add_sweep_subcommand(app, cli);
  add_triage_subcommand(app, cli);
}

// Parses argv into `cli`'s structs; --help and --version print (when `print`) and end with 0, bad usage
// with 2; nullopt to go on.
std::optional<int> parse(CLI::App& app, int argc, char** argv, const bool& version, bool print) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      if (print) app.exit(e);
      return 0;
    }
    if (print) std::fprintf(stderr, "podperf: error: %s\n", usage_line(e).c_str());
    return kExitUsage;
  }
  if (version) {
    if (print) {
#ifdef PODPERF_HAVE_NCCL
      std::printf("podperf %s (backends: host, nccl, sim)\n", PODPERF_VERSION);
#else
      std::printf("podperf %s (backends: host, sim; built without the NCCL backend)\n", PODPERF_VERSION);
#endif
    }
    return 0;
  }
  return std::nullopt;
}

// Sets cli.command (and the job's) to the subcommand that was parsed, and accept's given option names.
// With none, prints the help (when `print`) and returns kExitUsage.
std::optional<int> record_command(const CLI::App& app, CommandLine& cli, bool print) {
  for (const CLI::App* sub : app.get_subcommands()) cli.command = sub->get_name();  // at most one
  if (cli.command.empty()) {
    if (print) std::fprintf(stdout, "%s", app.help().c_str());
    return kExitUsage;
  }
  if (cli.command == "accept") {
    for (const CLI::Option* opt : app.get_subcommand("accept")->get_options()) {
      if (opt->count() == 0) continue;
      for (const std::string& n : opt->get_lnames()) cli.job.accept.judging.given.insert("--" + n);
      for (const std::string& n : opt->get_snames()) cli.job.accept.judging.given.insert("-" + n);
    }
  }
  cli.job.command = cli.command;
  return std::nullopt;
}

}  // namespace

std::string usage_line(const CLI::Error& e) {
  const std::string line = cli_checks::usage_error_line(e);
  // A rule's line names the option and the value; CLI11's own (an unknown option, a missing argument)
  // gets the pointer to the help.
  if (line != e.what()) return line;
  return line + " (podperf --help, podperf COMMAND --help)";
}

void define_command_line(CLI::App& app, CommandLine& cli, bool& version) {
  // Before the subcommands: each takes its parent's formatter when it is added.
  app.formatter(std::make_shared<HelpFormatter>());
  app.require_subcommand(0, 1);
  app.add_flag("--version", version, "print the version and the backends this build has");
  add_job_subcommands(app, cli.job);
  add_offline_subcommands(app, cli);
}

namespace {

// A rank that does not print stays a while before it exits on bad usage: the launcher aborts the whole
// job when the first rank exits non-zero, and when a quiet rank got there before rank 0 had printed,
// mpirun killed rank 0 and the user saw no error at all (seen in CI: `-b 0` under `mpirun -np 4`). When
// rank 0 fails the same way, the launcher's SIGTERM ends the wait at once.
constexpr auto kQuietRankExitDelay = std::chrono::seconds(5);

std::optional<int> parse_command_line_as(int argc, char** argv, CommandLine& cli, bool print) {
  cli.job.argv.assign(argv, argv + argc);
  if (auto code = check_arguments_are_text(argc, argv, print)) return code;
  CLI::App app{
      "podperf: which node or link is slow? Benchmarks GPU training clusters from inside an srun or mpirun "
      "job.\nExit codes: 0 nothing flagged, 1 something flagged, 2 bad usage or configuration, 3 runtime "
      "failure (timeout, lost rank).",
      "podperf"};
  bool version = false;
  define_command_line(app, cli, version);
  if (auto code = parse(app, argc, argv, version, print)) return code;
  return record_command(app, cli, print);
}

}  // namespace

std::optional<int> parse_command_line(int argc, char** argv, CommandLine& cli) {
  const bool print = launcher_rank_from_env() == 0;
  auto code = parse_command_line_as(argc, argv, cli, print);
  if (code && *code != 0 && !print) wait_for_termination_signal(kQuietRankExitDelay);
  return code;
}

}  // namespace podperf

#pragma once
// Everything podperf accept writes about its verdict, in one place for the measuring command
// (bench/accept_command) and accept --from (offline/accept_from): the verdict text with the commands that
// act on the FAIL nodes, the JUnit XML (junit.xml in the measuring command's results directory, and
// --junit) and the Prometheus textfile (--prometheus). Floor: the printers' wing (analysis/report/);
// local; writes files, throws nothing.
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

// Where the verdict goes besides the terminal.
struct AcceptOutputTargets {
  std::string results_dir;   // the measuring command's results directory (junit.xml there); "" for --from,
                             // which never writes into the run it judges
  std::string junit;         // --junit FILE ("": none)
  std::string prometheus;    // --prometheus FILE ("": none)
  std::string cluster_name;  // --cluster-name: the HyperPod cluster in the printed API lines ("": a placeholder)
};

struct AcceptOutputs {
  std::string text;    // the verdict (render_verdict), then one line per file written ("JUnit: FILE")
  std::string errors;  // one "podperf: error: ..." line per file not written ("": every file written): exit 3
};

// Renders run.verdict and writes each file atomically (write_file_atomically). Every file is attempted.
AcceptOutputs write_accept_outputs(const Run& run, const AcceptOutputTargets& to);

}  // namespace podperf

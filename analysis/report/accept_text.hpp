#pragma once
// The acceptance verdict as terminal text (podperf accept, the end of a judged run) and the drain
// commands. Floor: the printers' wing (analysis/report/); pure, local; throws nothing. A projection of
// run.verdict: layout and grouping only, no number is computed.
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

// The verdict for people: run status, each node with its reasons (and its busbw against the SKU minimum
// when that passes), run-wide and skipped checks, counts, and the drain
// list as commands to paste (printed only, never run):
//   scontrol update NodeName=h3,h7 State=DRAIN Reason="podperf accept: straggler"
//   kubectl cordon h3 h7
std::string render_verdict(const Run& run);

// The drain commands alone (empty when nothing is to be drained): one scontrol line per distinct set of
// failed checks, one kubectl cordon line for every host.
std::string render_drain_commands(const Run& run);

}  // namespace podperf

#pragma once
// The acceptance verdict as terminal text (podperf accept, the end of a judged run) with the commands
// that act on its FAIL nodes (analysis/report/accept_actions). Floor: the printers' wing
// (analysis/report/); pure, local; throws nothing. A projection of run.verdict: layout and grouping
// only, no number is computed.
#include <string>

#include "analysis/model/run.hpp"

namespace podperf {

// The verdict for people. First screen: the status with the profile (and every option that overrode it)
// and the SKU; whether the run measured what the profile asks (the `profile` check); a bandwidth check
// (busbw_min) skipped on any node, and why. Then each node with its reasons (and its busbw against the SKU
// minimum when that passes), run-wide and skipped checks, counts, and the commands that drain, reboot or
// replace the FAIL nodes (printed only, never run; `cluster_name` goes into the HyperPod API lines).
std::string render_verdict(const Run& run, const std::string& cluster_name = "");

}  // namespace podperf

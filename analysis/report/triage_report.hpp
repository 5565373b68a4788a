#pragma once
// Printers of a log triage (analysis/logs/triage.hpp): the terminal summary (verdict and root cause
// first), Markdown for a ticket, and JSON (schema in docs/triage.md). They format and never judge.
// Pure, analysis floor.
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/logs/triage.hpp"

namespace podperf {

std::string triage_text(const logs::TriageResult& r);
std::string triage_markdown(const logs::TriageResult& r);
nlohmann::json triage_json(const logs::TriageResult& r);

}  // namespace podperf

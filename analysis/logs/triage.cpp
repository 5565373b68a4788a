// Triage accumulation and ranking (contract in triage.hpp): each event matched against the pattern
// table (log_patterns.hpp), NCCL return chains and unclassified WARNs, grouped per check with bounded
// evidence; at the end cascades ranked under their root, systemic errors named, and the verdict.
#include "analysis/logs/triage.hpp"

#include <algorithm>

#include "analysis/base/text.hpp"
#include "analysis/logs/log_patterns.hpp"
#include "analysis/logs/triage_rules.hpp"

namespace podperf::logs {
namespace {

const char* tag_of(SeverityClass c) {
  switch (c) {
    case SeverityClass::fail: return "FAIL";
    case SeverityClass::warn: return "WARN";
    case SeverityClass::info: return "INFO";
  }
  return "INFO";
}

int tag_order(const std::string& tag) {
  if (tag == "FAIL") return 0;
  if (tag == "WARN") return 1;
  if (tag == "INFO") return 2;
  return 3;
}

TriageFinding from_pattern(const LogPattern& p) {
  TriageFinding f;
  f.tag = tag_of(p.cls);
  f.priority = p.priority;
  f.check = std::string(p.check);
  f.cause = std::string(p.cause);
  f.next_step = std::string(p.next_step);
  f.cause_rank = p.cause_rank;
  return f;
}

TriageFinding return_chain_finding(int rc) {
  TriageFinding f;
  f.tag = "FAIL";
  f.priority = 0;
  f.check = "nccl.rc." + return_code_name(rc);
  f.cause = "NCCL calls returned " + return_code_name(rc) + " (the error return chain '-> " + std::to_string(rc) +
            "'); classify by the WARN line before it";
  f.next_step = "read the first NCCL WARN of that rank; with none, rerun with NCCL_DEBUG=INFO";
  // A chain ending in 3 (internal) or 6 (remote) is often downstream of another rank's error.
  f.cause_rank = (rc == 3 || rc == 6) ? 15 : 35;
  return f;
}

TriageFinding unclassified_warn() {
  TriageFinding f;
  f.tag = "WARN";
  f.priority = 1;
  f.check = "nccl.warn";
  f.cause = "an NCCL WARN that is not in podperf's pattern table";
  f.next_step = "read the WARN text; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV for its context";
  f.cause_rank = 40;
  return f;
}

bool is_transport_source(LogSource s) {
  return s == LogSource::nccl || s == LogSource::ofi_nccl;
}

}  // namespace

bool TriageResult::has_fail() const {
  return std::any_of(findings.begin(), findings.end(), [](const TriageFinding& f) { return f.tag == "FAIL"; });
}

std::string peer_named(const std::string& text) {
  for (std::string_view key : {"remote peer ", "from peer ", "connect to ", "Connect to ", "recv from ", "peer "}) {
    const std::size_t at = text.find(key);
    if (at == std::string::npos) continue;
    std::size_t b = at + key.size();
    std::size_t e = b;
    while (e < text.size() && text[e] != ' ' && text[e] != '<' && text[e] != ',' && text[e] != ';') ++e;
    std::string peer = text.substr(b, e - b);
    while (!peer.empty() && (peer.back() == ':' || peer.back() == '.')) peer.pop_back();
    if (peer.size() >= 3 && peer.find_first_of("0123456789") != std::string::npos) return peer;
  }
  return "";
}

double absolute_seconds(std::string_view s) {
  auto num = [&s](std::size_t at, std::size_t n) {
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (i >= s.size() || s[i] < '0' || s[i] > '9') return -1;
      v = v * 10 + (s[i] - '0');
    }
    return v;
  };
  if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':') {
    return -1;
  }
  const int y = num(0, 4), mo = num(5, 2), d = num(8, 2), h = num(11, 2), mi = num(14, 2), sec = num(17, 2);
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60) {
    return -1;
  }
  // Days from the civil date (H. Hinnant's algorithm).
  const int yy = y - (mo <= 2 ? 1 : 0);
  const int era = yy / 400;
  const int yoe = yy - era * 400;
  const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const long long days = static_cast<long long>(era) * 146097 + doe - 719468;
  double t = static_cast<double>(days * 86400 + h * 3600 + mi * 60 + sec);
  std::size_t i = 19;
  if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
    double scale = 0.1;
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10) t += (s[i] - '0') * scale;
  }
  if (i + 5 < s.size() + 0 && (s[i] == '+' || s[i] == '-')) {
    const int oh = num(i + 1, 2), om = num(i + 4, 2);
    if (oh >= 0 && om >= 0) t -= (s[i] == '+' ? 1 : -1) * (oh * 3600.0 + om * 60.0);
  }
  return t;
}

void TriageAccumulator::note(const std::string& key, const TriageFinding& proto, const LogEvent& ev) {
  auto [it, fresh] = groups_.try_emplace(key);
  Group& g = it->second;
  if (fresh) {
    g.finding = proto;
    g.finding.first_order = ev.order;
  }
  if (!ev.time.empty()) {
    const double t = absolute_seconds(ev.time);
    if (t >= 0 && (g.finding.first_time_s < 0 || t < g.finding.first_time_s)) {
      g.finding.first_time_s = t;
      g.finding.first_time = ev.time;
    }
  }
  ++g.finding.occurrences;
  const std::string host = ev.host.empty() ? "" : ev.host;
  const bool new_host = g.per_host.find(host) == g.per_host.end();
  ++g.per_host[host];
  // Evidence: the first lines, preferring one per host once there are several.
  if (g.finding.evidence.size() < kEvidencePerFinding && (new_host || g.finding.evidence.size() < 3)) {
    g.finding.evidence.push_back(evidence_line(ev));
  }
  const std::string peer = peer_named(ev.text);
  if (peer.empty()) {
    g.peer_missing = true;
  } else if (g.peers.size() < 64) {
    g.peers.insert(peer);
  }
}

void TriageAccumulator::add(const LogEvent& ev) {
  if (ev.recognised) ++events_;
  if (is_transport_source(ev.source) && !ev.level.empty()) {
    ++nccl_lines_;
    // Transport facts only from a line that names its host (a bare "NCCL version" line, printed without a
    // prefix by some versions, belongs to the process before it): an unprefixed "Using network Socket"
    // pasted into an interleaved log must not turn the last host into a TCP fallback.
    const bool own_host = !ev.host_inherited || ev.text.rfind("NCCL version ", 0) == 0;
    const std::string key = ev.host.empty() || !own_host ? "(unknown host)" : ev.host;
    auto [it, fresh] = hosts_.try_emplace(key);
    if (fresh) it->second.host = key;
    read_transport_line(ev, it->second);
  }
  if (ev.return_code > 0 && ev.return_code != 7) {
    note("rc/" + std::to_string(ev.return_code), return_chain_finding(ev.return_code), ev);
    return;
  }
  if (const LogPattern* p = match_log_pattern(ev.text)) {
    TriageFinding proto = from_pattern(*p);
    // A FAIL-class string on an NCCL INFO line that says it retries is a warning until a WARN follows.
    if (proto.tag == "FAIL" && ev.level == "INFO" && ev.text.find("retrying") != std::string::npos) {
      proto.tag = "WARN";
      proto.priority = 1;
    }
    note(std::string(p->check) + "/" + proto.tag, proto, ev);
    if (p->check == "pytorch.watchdog_timeout") {
      WatchdogTimeout w;
      if (parse_watchdog(ev.text, w) && watchdogs_.size() < 65536) {
        if (w.rank < 0) w.rank = ev.rank;
        std::string key = w.rank >= 0 ? "rank " + std::to_string(w.rank) : ev.file + ":" + std::to_string(ev.line);
        if (!ev.host.empty()) key = ev.host + " " + key;
        watchdogs_.try_emplace(key, WatchdogSeen{w, ev.order, evidence_line(ev)});
      }
    }
    return;
  }
  if (ev.level == "WARN") note("nccl.warn", unclassified_warn(), ev);
}

void TriageAccumulator::add_file(const ReadStats& stats) {
  files_.push_back(stats);
}

void TriageAccumulator::add_finding(TriageFinding f) {
  if (dump_findings_.size() < 4096) dump_findings_.push_back(std::move(f));
}

void TriageAccumulator::add_flight_recorder(FlightRecorderRank r) {
  if (flight_.size() < 65536) flight_.push_back(std::move(r));
}

namespace {

// Host field, systemic wording and peer of one finished group.
void finish_group(const std::string& key, std::map<std::string, std::size_t> per_host,
                  const std::set<std::string>& peers, bool peer_missing, TriageFinding& f) {
  (void)key;
  per_host.erase("");
  for (const auto& [h, n] : per_host) f.hosts.push_back(h);
  if (f.hosts.size() == 1) {
    f.host = f.hosts.front();
  } else if (f.hosts.size() > 1) {
    f.host = "systemic: " + std::to_string(f.hosts.size()) + " hosts";
    if (f.tag != "INFO" && f.cause_rank >= 50) {
      f.cause += "; the same error on " + std::to_string(f.hosts.size()) +
                 " hosts: systemic (configuration, driver or image), not one bad node or link";
    }
  }
  if (peers.size() == 1 && !peer_missing) f.peer = *peers.begin();
}

constexpr double kNoTime = 1e300;

// The check of the FAIL finding that came first: by timestamp where any FAIL line has one, else by
// order of appearance.
std::string first_failure_of(const std::vector<TriageFinding>& fs) {
  const TriageFinding* first = nullptr;
  for (const TriageFinding& f : fs) {
    if (f.tag != "FAIL") continue;
    const double tf = f.first_time_s >= 0 ? f.first_time_s : kNoTime;
    const double tb = first && first->first_time_s >= 0 ? first->first_time_s : kNoTime;
    if (!first || tf < tb || (tf == tb && f.first_order < first->first_order)) first = &f;
  }
  return first ? first->check : "";
}

// Orders root cause first; marks the root and the known consequences.
void rank_findings(std::vector<TriageFinding>& fs) {
  std::stable_sort(fs.begin(), fs.end(), [](const TriageFinding& a, const TriageFinding& b) {
    if (tag_order(a.tag) != tag_order(b.tag)) return tag_order(a.tag) < tag_order(b.tag);
    if (a.cause_rank != b.cause_rank) return a.cause_rank > b.cause_rank;
    if (a.priority != b.priority) return a.priority < b.priority;
    // Across ranks the timestamp orders lines (a merged file's order is not the order of events);
    // lines without one come after those with one, then in order of appearance.
    const double ta = a.first_time_s >= 0 ? a.first_time_s : kNoTime;
    const double tb = b.first_time_s >= 0 ? b.first_time_s : kNoTime;
    if (ta != tb) return ta < tb;
    return a.first_order < b.first_order;
  });
  if (fs.empty() || fs.front().tag != "FAIL") return;
  TriageFinding& root = fs.front();
  root.role = "cause";
  for (std::size_t i = 1; i < fs.size(); ++i) {
    TriageFinding& f = fs[i];
    if (f.tag != "FAIL" || f.cause_rank > 35 || f.cause_rank >= root.cause_rank) continue;
    f.role = "consequence";
    f.cause += " (likely a consequence of " + root.check + ")";
  }
}

// Findings naming one peer, grouped onto that link.
void peer_findings(const std::vector<TriageFinding>& fs, std::vector<TriageFinding>& out) {
  std::map<std::string, std::vector<const TriageFinding*>> by_peer;
  for (const TriageFinding& f : fs) {
    if (!f.peer.empty() && f.tag == "FAIL") by_peer[f.peer].push_back(&f);
  }
  for (const auto& [peer, list] : by_peer) {
    if (list.size() < 2) continue;
    TriageFinding g;
    g.tag = "WARN";
    g.priority = 1;
    g.check = "link.one_peer";
    g.peer = peer;
    std::vector<std::string> checks;
    for (const TriageFinding* f : list) {
      checks.push_back(f->check);
      if (!f->evidence.empty() && g.evidence.size() < kEvidencePerFinding) g.evidence.push_back(f->evidence.front());
      g.occurrences += f->occurrences;
    }
    g.cause = "errors " + text::join(checks) + " all name peer " + peer + ": attribute them to that link or peer";
    g.next_step = "read the log of the host at " + peer + " for its own first error; check the path to it";
    g.cause_rank = 45;
    g.first_order = list.front()->first_order;
    out.push_back(std::move(g));
  }
}

void input_findings(const std::vector<ReadStats>& files, std::vector<TriageFinding>& out) {
  for (const ReadStats& s : files) {
    TriageFinding f;
    f.tag = "INFO";
    f.priority = 2;
    if (s.format == "pickle") {
      f.check = "input.pickle_skipped";
      f.cause = "a Python pickle (the default flight-recorder dump form) is not read: " + s.file;
      f.next_step =
          "convert it and run triage on the JSON: python3 -c 'import pickle,json,sys; "
          "json.dump(pickle.load(open(sys.argv[1],\"rb\")),open(sys.argv[1]+\".json\",\"w\"),default=str)' " +
          s.file;
    } else if (s.binary) {
      f.check = "input.binary_skipped";
      f.cause = "binary file skipped (NUL bytes in its first block): " + s.file;
    } else if (!s.error.empty()) {
      f.tag = "WARN";
      f.priority = 1;
      f.check = "input.read_error";
      f.cause = s.file + ": " + s.error + " (read up to there)";
    } else if (s.truncated_lines > 0) {
      f.check = "input.long_lines";
      f.cause = s.file + ": " + std::to_string(s.truncated_lines) + " line(s) longer than " +
                std::to_string(kMaxLineBytes) + " bytes were cut there";
    } else {
      continue;
    }
    f.evidence.push_back(s.file);
    if (f.next_step.empty()) f.next_step = "none";
    out.push_back(std::move(f));
  }
}

}  // namespace

TriageResult TriageAccumulator::finish() const {
  TriageResult r;
  r.files = files_;
  r.events = events_;
  r.nccl_lines = nccl_lines_;
  for (const auto& [key, g] : groups_) {
    TriageFinding f = g.finding;
    finish_group(key, g.per_host, g.peers, g.peer_missing, f);
    r.findings.push_back(std::move(f));
  }
  std::map<std::string, HostTransport> hosts = hosts_;
  transport_findings(hosts, r.findings);
  watchdog_findings(watchdogs_, r.findings);
  flight_recorder_findings(flight_, r.findings);
  r.findings.insert(r.findings.end(), dump_findings_.begin(), dump_findings_.end());
  std::vector<TriageFinding> links;
  peer_findings(r.findings, links);
  r.findings.insert(r.findings.end(), links.begin(), links.end());
  input_findings(files_, r.findings);
  rank_findings(r.findings);
  r.first_failure = first_failure_of(r.findings);
  for (auto& [h, t] : hosts) r.transport.push_back(t);

  const bool fail = r.has_fail();
  const bool warn =
      std::any_of(r.findings.begin(), r.findings.end(), [](const TriageFinding& f) { return f.tag == "WARN"; });
  if (fail && r.findings.front().cause_rank > 30) {
    r.verdict = "FAIL";
  } else if (fail) {
    r.verdict = "INCONCLUSIVE";
    r.findings.front().role = "";  // a consequence is not named as the root cause
    r.collect_next =
        "the job failed but these logs show only consequences (watchdog timeouts, teardown, launcher aborts, "
        "remote errors): collect every rank's log with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,NET,ENV), the "
        "flight-recorder dumps (TORCH_NCCL_TRACE_BUFFER_SIZE=2000, TORCH_NCCL_DUMP_ON_TIMEOUT=1) and dmesg of "
        "every host";
  } else if (nccl_lines_ == 0 && !warn) {
    r.verdict = "INCONCLUSIVE";
    r.collect_next =
        "no NCCL lines and no known error were recognised: collect the job's output of every rank with "
        "NCCL_DEBUG=INFO";
  } else if (warn) {
    r.verdict = "WARN";
  } else {
    r.verdict = "PASS";
  }
  return r;
}

}  // namespace podperf::logs

// Triage accumulation and ranking (contract in triage.hpp): each event matched against the pattern
// table (log_patterns.hpp), NCCL return chains and unclassified WARNs, grouped per check with bounded
// evidence; at the end cascades ranked under their root, systemic errors named, and the verdict.
#include "analysis/logs/triage.hpp"

#include <algorithm>

#include "analysis/base/text.hpp"
#include "analysis/logs/code_tables.hpp"
#include "analysis/logs/log_patterns.hpp"
#include "analysis/logs/log_prefix.hpp"
#include "analysis/logs/triage_rules.hpp"

namespace podperf::logs {
namespace {

int tag_order(const std::string& tag) {
  if (tag == "FAIL") return 0;
  if (tag == "WARN") return 1;
  if (tag == "INFO") return 2;
  return 3;
}

// The cause rank at or below which a FAIL finding only shows that the job failed, not why (watchdog
// timeouts, remote errors, closed peers, launcher exits, SIGKILL/SIGTERM/SIGABRT).
constexpr int kConsequenceRank = 30;

TriageFinding return_chain_finding(int rc) {
  TriageFinding f;
  f.tag = "FAIL";
  f.priority = 0;
  f.check = "nccl.rc." + return_code_name(rc);
  const NcclResult* r = nccl_result(rc);
  f.cause = "NCCL calls returned " + return_code_name(rc) + " (the error return chain '-> " + std::to_string(rc) + "'" +
            (r ? std::string("; ") + std::string(r->cause) : std::string()) + "); classify by the WARN line before it";
  f.next_step = "read the first NCCL WARN of that rank; with none, rerun with NCCL_DEBUG=INFO";
  // A chain ending in 3 (internal) or 6 (remote) is often downstream of another rank's error.
  f.cause_rank = (rc == 3 || rc == 6) ? 15 : 35;
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
  if (s.size() < 19 || (s[4] != '-' && s[4] != '/') || s[7] != s[4] || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' ||
      s[16] != ':') {
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

void TriageAccumulator::note(const std::string& key, const TriageFinding& proto, const LogEvent& ev,
                             const std::string& host) {
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
  const bool new_host = g.per_host.find(host) == g.per_host.end();
  if (new_host && g.per_host.size() >= 4096) return;
  ++g.per_host[host];
  // Evidence: the first lines, preferring one per host once there are several.
  if (g.finding.evidence.size() < kEvidencePerFinding && (new_host || g.finding.evidence.size() < 3)) {
    g.finding.evidence.push_back(evidence_line(ev, host));
  }
  const std::string peer = peer_named(ev.text);
  if (peer.empty()) {
    g.peer_missing = true;
  } else if (g.peers.size() < 64) {
    g.peers.insert(peer);
  }
}

std::string TriageAccumulator::host_of(const LogEvent& ev, bool prior) {
  if (!ev.host.empty()) return ev.host;
  // torchelastic's failure summary: the record's "host : X" names the host of its exitcode/traceback.
  if (ctx_.elastic_line > 0 && ev.line >= ctx_.elastic_line && ev.line - ctx_.elastic_line <= 12) {
    return ctx_.elastic_host;
  }
  if (ev.task >= 0) {
    if (const auto it = ctx_.task_host.find(ev.task); it != ctx_.task_host.end()) return it->second;
  }
  if (ev.pid >= 0) {
    if (const auto it = pid_host_.find(ev.pid); it != pid_host_.end() && !it->second.empty()) return it->second;
  }
  if (!ctx_.file_host.empty()) return ctx_.file_host;
  return prior && mode_ == HostAttribution::file_process ? ev.prior_host : "";
}

void TriageAccumulator::learn_hosts(const LogEvent& ev) {
  if (ev.host.empty()) return;
  if (ev.task >= 0 && ctx_.task_host.size() < 4096) ctx_.task_host.try_emplace(ev.task, ev.host);
  if (ev.pid >= 0) {
    const auto [it, fresh] = pid_host_.try_emplace(ev.pid, ev.host);
    if (!fresh && it->second != ev.host) it->second.clear();  // two hosts share this pid: no attribution
    if (fresh && pid_host_.size() > 65536) pid_host_.erase(it);
  }
}

void TriageAccumulator::add_transport(const LogEvent& ev, const std::string& host) {
  ++nccl_lines_;
  // Transport facts only from a line whose host is known by the line itself, its launcher task, its pid or
  // the file's name (a bare "NCCL version" line, printed without a prefix by some versions, belongs to the
  // process before it): an unprefixed "Using network Socket" pasted into an interleaved log must not turn
  // the last host into a TCP fallback.
  std::string key = host;
  if (ev.host.empty() && ev.text.rfind("NCCL version ", 0) == 0 && !ev.prior_host.empty()) key = ev.prior_host;
  if (key.empty()) key = "(unknown host)";
  auto [it, fresh] = hosts_.try_emplace(key);
  if (fresh) it->second.host = key;
  read_transport_line(ev, it->second);
}

void TriageAccumulator::add_backtrace_frame(const LogEvent& ev) {
  const auto it = groups_.find(ctx_.crash_key);
  if (it == groups_.end()) return;
  for (std::string& lib : backtrace_libraries(ev.text)) {
    if (it->second.libraries.size() < 8) it->second.libraries.insert(std::move(lib));
  }
}

void TriageAccumulator::add(const LogEvent& ev) {
  if (ev.recognised) ++events_;
  if (ev.file != ctx_.file) {
    if (std::optional<TriageFinding> f = unfinished_traceback(ctx_)) unfinished_.push_back(std::move(*f));
    ctx_ = LineContext{};
    ctx_.file = ev.file;
    ctx_.file_host = host_from_file_name(ev.file);
  }
  learn_hosts(ev);
  const std::string host = host_of(ev, true);
  if (is_transport_source(ev.source) && !ev.level.empty()) add_transport(ev, host_of(ev, false));
  if (read_health_line(ev, host, health_)) {
    TriageFinding f;
    f.tag = "FAIL";
    f.priority = 0;
    f.check = "nccl_tests.wrong_results";
    f.cause = "nccl-tests rows with #wrong > 0: wrong results (data corruption)";
    f.next_step = "isolate the node or link: rerun the test on pairs of hosts; dmesg | grep -i xid on {host}";
    f.cause_rank = 90;
    note("nccl_tests.wrong_results/FAIL", f, ev, host);
    return;
  }
  if (ctx_.crash_line > 0 && ev.line > ctx_.crash_line && ev.line - ctx_.crash_line <= 64) add_backtrace_frame(ev);
  if (ev.return_code > 0 && ev.return_code != 7) {
    note("rc/" + std::to_string(ev.return_code), return_chain_finding(ev.return_code), ev, host);
    return;
  }
  for (const LogPattern* p = match_log_pattern(ev.text, ev.pairs); p != nullptr;
       p = match_log_pattern(ev.text, ev.pairs, p)) {
    RowResult r = apply_row(*p, ev, ctx_, health_);
    if (r.outcome == RowOutcome::declined) continue;
    if (ctx_.traceback_line == ev.line) ctx_.traceback_host = host;
    if (r.outcome == RowOutcome::no_finding) {
      if (!r.env.empty()) {
        auto [it, fresh] = hosts_.try_emplace(host.empty() ? "(unknown host)" : host);
        if (fresh) it->second.host = it->first;
        if (it->second.env_overrides.size() < 64) it->second.env_overrides.insert(r.env);
      }
      return;
    }
    TriageFinding& proto = r.proto;
    // A FAIL-class string on an NCCL INFO line that says it retries is a warning until a WARN follows.
    if (proto.tag == "FAIL" && ev.level == "INFO" && ev.text.find("retrying") != std::string::npos) {
      proto.tag = "WARN";
      proto.priority = 1;
    }
    // Every NCCL WARN is at least a WARN; libibverbs missing printed at INFO (NCCL >= 2.19 on hosts without
    // IB) is informational: the TCP fallback rule judges the transport.
    if (ev.level == "WARN" && proto.tag == "INFO") {
      proto.tag = "WARN";
      proto.priority = 1;
    }
    if (proto.check == "transport.libibverbs_missing" && ev.level == "INFO") {
      proto.tag = "INFO";
      proto.priority = 2;
      proto.cause_rank = 5;
    }
    if (r.key == proto.check + "/FAIL" || r.key == proto.check + "/WARN" || r.key == proto.check + "/INFO") {
      r.key = proto.check + "/" + proto.tag;
    }
    note(r.key, proto, ev, host);
    if (proto.check.rfind("crash.", 0) == 0) {
      ctx_.crash_key = r.key;
      ctx_.crash_line = ev.line;
    }
    if (p->check == "pytorch.watchdog_timeout") {
      WatchdogTimeout w;
      if (parse_watchdog(ev.text, w) && watchdogs_.size() < 65536) {
        if (w.rank < 0) w.rank = ev.rank;
        std::string key = w.rank >= 0 ? "rank " + std::to_string(w.rank) : ev.file + ":" + std::to_string(ev.line);
        if (!host.empty()) key = host + " " + key;
        const auto [it, fresh] = watchdogs_.try_emplace(key, WatchdogSeen{w, ev.order, evidence_line(ev, host)});
        if (!fresh && (it->second.timeout.seq != w.seq || it->second.timeout.op != w.op)) it->second.several = true;
      }
    }
    return;
  }
  if (ev.level == "WARN") {
    const TriageFinding f = unclassified_warn(ev);
    note(f.check, f, ev, host);
  }
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

// "{host}" in a next step: the one host, the hosts, or a note that the lines name none.
std::string with_host(std::string step, const TriageFinding& f) {
  std::string who;
  if (f.hosts.size() == 1) {
    who = f.hosts.front();
  } else if (!f.hosts.empty()) {
    std::vector<std::string> shown(f.hosts.begin(),
                                   f.hosts.begin() + static_cast<long>(std::min<std::size_t>(f.hosts.size(), 8)));
    who = "each of " + text::join(shown) + (f.hosts.size() > shown.size() ? ", ..." : "");
  } else {
    who = "the host that logged it (its lines name none)";
  }
  for (std::size_t at; (at = step.find("{host}")) != std::string::npos;) step.replace(at, 6, who);
  return step;
}

// Host field, systemic wording, peer, backtrace libraries and the next step's host of one finished group.
void finish_group(std::map<std::string, std::size_t> per_host, const std::set<std::string>& peers,
                  const std::set<std::string>& libraries, bool peer_missing, TriageFinding& f) {
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
  } else {
    f.host = "unknown";
  }
  if (!libraries.empty()) f.cause += "; the backtrace runs through " + text::join(libraries);
  if (peers.size() == 1 && !peer_missing) f.peer = *peers.begin();
  f.next_step = with_host(f.next_step, f);
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

std::optional<TriageFinding> TriageAccumulator::unfinished_traceback(const LineContext& ctx) const {
  if (ctx.traceback_line == 0) return std::nullopt;
  TriageFinding f;
  f.tag = "FAIL";
  f.priority = 0;
  f.check = "app.python_exception";
  f.cause_rank = 40;
  f.cause =
      "a Python traceback whose exception line is not in these logs (they end inside it, and nothing ran after it): "
      "an exception was raised and the process most likely stopped there";
  f.next_step = "read the end of that rank's output: the last line of the traceback names the exception";
  f.host = ctx.traceback_host.empty() ? "unknown" : ctx.traceback_host;
  if (!ctx.traceback_host.empty() && ctx.traceback_host != "unknown") f.hosts.push_back(ctx.traceback_host);
  f.evidence.push_back(fmt::format("{}:{}: Traceback (most recent call last):", ctx.file, ctx.traceback_line));
  f.occurrences = 1;
  return f;
}

TriageResult TriageAccumulator::finish() const {
  TriageResult r;
  r.files = files_;
  r.events = events_;
  r.nccl_lines = nccl_lines_;
  for (const auto& [key, g] : groups_) {
    (void)key;
    TriageFinding f = g.finding;
    finish_group(g.per_host, g.peers, g.libraries, g.peer_missing, f);
    r.findings.push_back(std::move(f));
  }
  std::map<std::string, HostTransport> hosts = hosts_;
  transport_findings(hosts, r.findings);
  busbw_drop_findings(health_, r.findings);
  slow_init_findings(health_, r.findings);
  demote_fallen_back_plugin_errors(hosts, r.findings);
  if (health_.nan_loss_lines > 0) {
    TriageFinding n;
    n.tag = "WARN";
    n.priority = 1;
    n.check = "training.nan_loss";
    n.cause = std::to_string(health_.nan_loss_lines) +
              " progress line(s) with a NaN or infinite loss (or NaN iterations): the training diverged or its "
              "numbers are corrupt";
    n.next_step =
        "lower the learning rate or check the loss scaling; if it starts at once on one host, check that "
        "host's GPUs (dcgmi diag)";
    n.cause_rank = 45;
    n.occurrences = health_.nan_loss_lines;
    r.findings.push_back(std::move(n));
  }
  watchdog_findings(watchdogs_, r.findings);
  flight_recorder_findings(flight_, r.findings);
  r.findings.insert(r.findings.end(), dump_findings_.begin(), dump_findings_.end());
  r.findings.insert(r.findings.end(), unfinished_.begin(), unfinished_.end());
  if (std::optional<TriageFinding> f = unfinished_traceback(ctx_)) r.findings.push_back(std::move(*f));
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
  const std::string healthy = fail ? "" : healthy_summary(health_, r.transport);
  // A flight-recorder snapshot with every rank inside one collective may be a hang or a live job caught
  // mid-collective: alone it does not show that the job failed.
  const bool only_snapshot = std::all_of(r.findings.begin(), r.findings.end(), [](const TriageFinding& f) {
    return f.tag != "FAIL" || f.check == "pytorch.fr_hang";
  });
  if (fail && only_snapshot && !warn) {
    r.verdict = "INCONCLUSIVE";
    r.findings.front().role = "";
    r.collect_next =
        "flight-recorder dumps with every rank inside one collective: a hang, or a job dumped while it ran; collect "
        "every rank's output to the job's end (was there a watchdog timeout?) and dumps taken on timeout "
        "(TORCH_NCCL_DUMP_ON_TIMEOUT=1), with NCCL_DEBUG=INFO";
  } else if (fail) {
    // The logs show the job failed. When they show only consequences (watchdog timeouts, closed peers,
    // remote errors, launcher exits, SIGKILL), the root cause is not in them: say so and what to collect.
    r.verdict = "FAIL";
    if (r.findings.front().cause_rank <= kConsequenceRank) {
      r.findings.front().role = "";  // a consequence is not named as the root cause
      r.collect_next =
          "the job failed but its root cause is not in these logs (they show only consequences: watchdog timeouts, "
          "closed peers, remote errors, launcher exits, killed processes): collect every rank's whole output with "
          "NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,NET,ENV), the flight-recorder dumps (TORCH_NCCL_TRACE_BUFFER_SIZE="
          "2000, TORCH_NCCL_DUMP_ON_TIMEOUT=1), dmesg of every host (OOM killer, Xid) and the scheduler's record of "
          "the job";
    }
  } else if (warn) {
    r.verdict = "WARN";
  } else if (!healthy.empty()) {
    r.verdict = "PASS";
  } else {
    r.verdict = "INCONCLUSIVE";
    r.collect_next = why_inconclusive(health_, nccl_lines_);
  }
  if (!healthy.empty()) {
    TriageFinding h;
    h.tag = "PASS";
    h.priority = 2;
    h.check = "healthy";
    h.cause = healthy;
    h.next_step = "none";
    h.occurrences = 1;
    r.findings.push_back(std::move(h));
  }
  return r;
}

}  // namespace podperf::logs

// RAS JSON and flight-recorder JSON dumps into the triage (contract in json_dumps.hpp).
#include "analysis/logs/json_dumps.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "analysis/base/text.hpp"

namespace podperf::logs {
namespace {

using nlohmann::json;

// A value of `j[key]` as T, `fallback` when absent or of another type.
template <class T>
T get_or(const json& j, const char* key, T fallback) {
  if (!j.is_object()) return fallback;
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if constexpr (std::is_same_v<T, std::string>) {
    if (it->is_string()) return it->get<std::string>();
    if (it->is_number()) return it->dump();
    return fallback;
  } else if constexpr (std::is_same_v<T, bool>) {
    return it->is_boolean() ? it->get<bool>() : fallback;
  } else {
    return it->is_number() ? it->get<T>() : fallback;
  }
}

TriageFinding dump_finding(std::string check, const char* tag, int priority, int rank, std::string cause,
                           std::string next_step, std::size_t order) {
  TriageFinding f;
  f.tag = tag;
  f.priority = priority;
  f.check = std::move(check);
  f.cause_rank = rank;
  f.cause = std::move(cause);
  f.next_step = std::move(next_step);
  f.first_order = order;
  return f;
}

// Adds `host` and an evidence line to `f`.
void seen(TriageFinding& f, const std::string& host, const std::string& evidence) {
  ++f.occurrences;
  if (!host.empty() && f.hosts.size() < kMaxListed &&
      std::find(f.hosts.begin(), f.hosts.end(), host) == f.hosts.end()) {
    f.hosts.push_back(host);
  }
  if (f.evidence.size() < kEvidencePerFinding) f.evidence.push_back(text::printable(evidence, 300, true));
}

void finish_hosts(TriageFinding& f) {
  std::sort(f.hosts.begin(), f.hosts.end());
  if (f.hosts.size() == 1) f.host = f.hosts.front();
  if (f.hosts.size() > 1) f.host = fmt::format("systemic: {} hosts", f.hosts.size());
}

// One communicator of a RAS JSON dump: dead, unresponsive and erroring ranks, and ranks behind in a
// collective count.
void ras_communicator(const json& comm, const std::string& file, TriageFinding& dead, TriageFinding& missing,
                      TriageFinding& errors, TriageFinding& behind) {
  const std::string hash = get_or<std::string>(comm, "hash", "?");
  const auto where = [&](const json& r) {
    return fmt::format("{}: communicator {} rank {} on {} pid {}", file, hash, get_or<long long>(r, "rank", -1),
                       get_or<std::string>(r, "host", "?"), get_or<long long>(r, "pid", -1));
  };
  if (const auto m = comm.find("missing_ranks"); m != comm.end() && m->is_array()) {
    for (const json& r : *m) {
      const json st = r.is_object() && r.contains("status") ? r["status"] : json::object();
      if (get_or<bool>(st, "considered_dead", false)) {
        seen(dead, get_or<std::string>(r, "host", ""), where(r) + ": considered dead");
      } else {
        seen(missing, get_or<std::string>(r, "host", ""), where(r) + ": did not answer (unresponsive)");
      }
    }
  }
  const auto ranks = comm.find("ranks");
  if (ranks == comm.end() || !ranks->is_array()) return;
  std::map<std::string, unsigned long long> most;  // op -> the highest count of any rank
  for (const json& r : *ranks) {
    const json st = r.is_object() && r.contains("status") ? r["status"] : json::object();
    const long long err = get_or<long long>(st, "async_error", 0);
    if (err != 0 || get_or<bool>(st, "abort_flag", false)) {
      seen(errors, get_or<std::string>(r, "host", ""),
           where(r) + fmt::format(": async_error {} ({}), abort_flag {}", err,
                                  return_code_name(static_cast<int>(std::clamp<long long>(err, -1, 1000))),
                                  get_or<bool>(st, "abort_flag", false)));
    }
    if (r.is_object() && r.contains("collective_counts") && r["collective_counts"].is_object()) {
      for (const auto& [op, v] : r["collective_counts"].items()) {
        if (v.is_number_unsigned() || v.is_number_integer()) most[op] = std::max(most[op], v.get<unsigned long long>());
      }
    }
  }
  for (const json& r : *ranks) {
    if (!r.is_object() || !r.contains("collective_counts") || !r["collective_counts"].is_object()) continue;
    for (const auto& [op, v] : r["collective_counts"].items()) {
      if (!(v.is_number_unsigned() || v.is_number_integer())) continue;
      const auto n = v.get<unsigned long long>();
      if (n < most[op]) {
        seen(behind, get_or<std::string>(r, "host", ""), where(r) + fmt::format(": {} {} of {}", op, n, most[op]));
        break;
      }
    }
  }
}

DumpKind read_ras(const json& doc, const std::string& file, std::size_t order, TriageAccumulator& acc) {
  TriageFinding dead = dump_finding("ras.dead_process", "FAIL", 0, 50,
                                    "RAS: job processes are dead (unreachable via the RAS network for 60 s)",
                                    "check those hosts' kmsg / Xid (dmesg -T) and the processes' own logs", order);
  TriageFinding missing =
      dump_finding("ras.missing_process", "WARN", 1, 45, "RAS: job processes did not answer (unresponsive ~5 s)",
                   "query ncclras again; if still missing, check those hosts", order);
  TriageFinding errors = dump_finding(
      "ras.async_error", "FAIL", 0, 35, "RAS: ranks report an NCCL asynchronous error or an aborted communicator",
      "read the first NCCL WARN of those ranks (NCCL_DEBUG=WARN or INFO) for the failing call", order);
  TriageFinding behind = dump_finding(
      "ras.count_mismatch", "WARN", 1, 40,
      "RAS: ranks of one communicator are at different collective counts; the ranks listed are behind",
      "query ncclras again: if the counts stay, the ranks behind are stuck (check their hosts and stacks: py-spy "
      "dump)",
      order);
  std::size_t comms = 0;
  for (const json& c : doc["communicators"]) {
    if (!c.is_object()) continue;
    ++comms;
    ras_communicator(c, file, dead, missing, errors, behind);
  }
  bool any = false;
  for (TriageFinding* f : {&dead, &errors, &missing, &behind}) {
    if (f->occurrences == 0) continue;
    finish_hosts(*f);
    acc.add_finding(*f);
    any = true;
  }
  if (!any) {
    TriageFinding ok = dump_finding(
        "ras.all_running", "INFO", 2, 5,
        fmt::format("RAS: {} communicator(s), every rank answered with equal collective counts and no error; RAS "
                    "measures liveness, not progress",
                    comms),
        "if the framework still times out, compare progress with the flight recorder (TORCH_NCCL_TRACE_BUFFER_SIZE)",
        order);
    ok.occurrences = 1;
    ok.evidence.push_back(file + ": nccl_version " + get_or<std::string>(doc, "nccl_version", "?"));
    acc.add_finding(ok);
  }
  return DumpKind::ras_json;
}

// The rank of a dump: its "rank" key, else the digits that end its file name.
int dump_rank(const json& doc, const std::string& file) {
  const long long r = get_or<long long>(doc, "rank", -1);
  if (r >= 0 && r < (1LL << 30)) return static_cast<int>(r);
  std::size_t e = file.size();
  while (e > 0 && !std::isdigit(static_cast<unsigned char>(file[e - 1]))) {
    if (file[e - 1] == '/') return -1;
    --e;
  }
  std::size_t b = e;
  while (b > 0 && std::isdigit(static_cast<unsigned char>(file[b - 1])) && e - b < 9) --b;
  return b < e ? std::stoi(file.substr(b, e - b)) : -1;
}

DumpKind read_flight_recorder(const json& doc, const std::string& file, std::size_t order, TriageAccumulator& acc) {
  std::map<std::string, FlightRecorderRank> by_pg;
  const int rank = dump_rank(doc, file);
  for (const json& e : doc["entries"]) {
    if (!e.is_object() || get_or<bool>(e, "is_p2p", false)) continue;
    const long long seq = get_or<long long>(e, "collective_seq_id", -1);
    if (seq < 0) continue;
    const std::string pg = get_or<std::string>(e, "pg_id", "0");
    auto [it, fresh] = by_pg.try_emplace(pg);
    FlightRecorderRank& r = it->second;
    if (fresh) {
      r.rank = rank;
      r.file = file;
      r.pg = pg;
      r.order = order;
    }
    const std::string state = get_or<std::string>(e, "state", "");
    if (state == "completed") {
      r.last_completed = std::max(r.last_completed, seq);
    } else if (r.pending_seq < 0 || seq < r.pending_seq) {
      r.pending_seq = seq;
      r.pending_op = text::printable(get_or<std::string>(e, "profiling_name", "?"), 64, true);
      r.pending_state = text::printable(state, 32, true);
    }
  }
  for (auto& [pg, r] : by_pg) acc.add_flight_recorder(std::move(r));
  return DumpKind::flight_recorder_json;
}

}  // namespace

DumpKind read_json_dump(std::string_view text, const std::string& file, std::size_t& order, TriageAccumulator& acc) {
  const json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return DumpKind::not_a_dump;
  ++order;
  if (doc.contains("communicators") && doc["communicators"].is_array()) return read_ras(doc, file, order, acc);
  if (doc.contains("entries") && doc["entries"].is_array()) return read_flight_recorder(doc, file, order, acc);
  --order;
  return DumpKind::not_a_dump;
}

DumpKind read_json_dump_file(const std::string& path, std::size_t& order, TriageAccumulator& acc, ReadStats& stats) {
  std::unique_ptr<gzFile_s, int (*)(gzFile)> gz(gzopen(path.c_str(), "rb"), gzclose);
  if (!gz) return DumpKind::not_a_dump;
  std::string head(4096, '\0');
  const int got = gzread(gz.get(), head.data(), static_cast<unsigned>(head.size()));
  if (got <= 0) return DumpKind::not_a_dump;
  head.resize(static_cast<std::size_t>(got));
  stats.file = path;
  if (static_cast<unsigned char>(head[0]) == 0x80 && head.size() > 1 && head[1] >= 2 && head[1] <= 5) {
    stats.format = "pickle";
    stats.binary = true;
    stats.bytes = head.size();
    return DumpKind::pickle;
  }
  const std::size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || head[first] != '{') return DumpKind::not_a_dump;
  std::string text = std::move(head);
  std::vector<char> block(1 << 20);
  for (;;) {
    const int n = gzread(gz.get(), block.data(), static_cast<unsigned>(block.size()));
    if (n <= 0) break;
    if (text.size() + static_cast<std::size_t>(n) > kMaxDumpBytes) return DumpKind::not_a_dump;
    text.append(block.data(), static_cast<std::size_t>(n));
  }
  const DumpKind kind = read_json_dump(text, path, order, acc);
  if (kind == DumpKind::not_a_dump) return kind;
  stats.bytes = text.size();
  stats.lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  stats.recognised = 1;
  stats.format = kind == DumpKind::ras_json ? "ras-json" : "flight-recorder-json";
  return kind;
}

}  // namespace podperf::logs

// Line grammar of a job log: wrappers stripped, NCCL's prefix and return chains read (contract in
// log_prefix.hpp). Hand-written scanning (no std::regex): it runs on every line of multi-GiB logs.
#include "analysis/logs/log_prefix.hpp"

#include <array>
#include <cctype>

#include "analysis/base/text.hpp"

namespace podperf::logs {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

bool contains(std::string_view s, std::string_view p) {
  return s.find(p) != std::string_view::npos;
}

// Leading digits of `s` as an int (at most 9 of them); npos-free: `n` is how many were read.
int leading_int(std::string_view s, std::size_t& n) {
  int v = 0;
  n = 0;
  while (n < s.size() && n < 9 && is_digit(s[n])) v = v * 10 + (s[n++] - '0');
  return v;
}

// "YYYY-MM-DD" at the start of s.
bool is_date(std::string_view s) {
  return s.size() >= 10 && is_digit(s[0]) && is_digit(s[1]) && is_digit(s[2]) && is_digit(s[3]) && s[4] == '-' &&
         is_digit(s[5]) && is_digit(s[6]) && s[7] == '-' && is_digit(s[8]) && is_digit(s[9]);
}

// The length of an ISO-like stamp at the start of s ("2024-05-01T12:00:03.123Z", "2024-05-01 12:00:03,123",
// "+00:00" zones); 0 when none.
std::size_t iso_stamp_length(std::string_view s) {
  if (!is_date(s) || s.size() < 19 || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':') return 0;
  std::size_t i = 19;
  if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i;
  }
  if (i < s.size() && s[i] == 'Z') ++i;
  if (i + 5 < s.size() + 0 && (s[i] == '+' || s[i] == '-') && is_digit(s[i + 1])) i += 6;
  return i <= s.size() ? i : 0;
}

bool is_host_char(char c) {
  return (c >= 'a' && c <= 'z') || is_digit(c) || c == '-' || c == '.' || c == '_';
}

// Strips one wrapper from the front of `s` into `ev`; false when none was there.
bool strip_one_wrapper(std::string_view& s, LogEvent& ev) {
  const std::string_view t = text::trim(s);
  if (t.empty()) return false;
  if (t.front() == '|') {  // CloudWatch export "  | <ISO> | message"
    const std::string_view rest = text::trim(t.substr(1));
    const std::size_t bar = rest.find('|');
    if (bar == std::string_view::npos) return false;
    if (std::size_t n = iso_stamp_length(rest); n > 0) ev.time.assign(rest.substr(0, n));
    s = rest.substr(bar + 1);
    if (const std::size_t end = s.rfind(" |"); end != std::string_view::npos && end + 2 >= text::trim(s).size()) {
      s = s.substr(0, end);
    }
    return true;
  }
  if (std::size_t n = iso_stamp_length(t); n > 0) {  // ISO / Kubernetes timestamp, CRI "stdout F "
    ev.time.assign(t.substr(0, n));
    s = t.substr(n);
    if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    for (std::string_view cri : {"stdout F ", "stderr F ", "stdout P ", "stderr P "}) {
      if (starts_with(s, cri)) s.remove_prefix(cri.size());
    }
    return true;
  }
  if (t.front() == '[') {
    const std::size_t close = t.find(']');
    if (close == std::string_view::npos) return false;
    const std::string_view inner = t.substr(1, close - 1);
    std::size_t n = 0;
    if (starts_with(inner, "1,") || starts_with(inner, "0,")) {  // mpirun [1,N]<stdout>:
      const int r = leading_int(inner.substr(2), n);
      const std::string_view after = t.substr(close + 1);
      if (n > 0 && (starts_with(after, "<stdout>:") || starts_with(after, "<stderr>:"))) {
        ev.rank = r;
        s = after.substr(9);
        return true;
      }
    }
    if (iso_stamp_length(inner) > 0) {  // NCCL 2.26+ "[YYYY-MM-DD HH:MM:SS] "
      ev.time.assign(inner);
      s = t.substr(close + 1);
      return true;
    }
    if (starts_with(inner, "rank")) {  // torchrun "[rank3]:"
      const int r = leading_int(inner.substr(4), n);
      if (n > 0 && close + 1 < t.size() && t[close + 1] == ':') {
        ev.rank = r;
        s = t.substr(close + 2);
        return true;
      }
    }
    std::size_t k = 0;
    while (k < inner.size() && (inner[k] == ' ' || is_digit(inner[k]) || inner[k] == '.')) ++k;
    if (k == inner.size() && contains(inner, ".")) {  // dmesg "[  123.456789] "
      if (ev.time.empty()) ev.time.assign(text::trim(inner));
      s = t.substr(close + 1);
      return true;
    }
    return false;
  }
  if (t.front() == '(') {  // Ray "(WorkerDict pid=123, ip=10.0.0.1) "
    const std::size_t close = t.find(')');
    if (close != std::string_view::npos && contains(t.substr(0, close), "pid=")) {
      s = t.substr(close + 1);
      return true;
    }
    return false;
  }
  std::size_t n = 0;
  const int r = leading_int(t, n);
  if (n > 0 && n < t.size() && t[n] == ':' && (n + 1 == t.size() || t[n + 1] == ' ')) {  // srun -l "12: "
    ev.rank = r;
    s = t.substr(n + 1);
    return true;
  }
  std::size_t h = 0;
  bool digit = false;
  for (; h < t.size() && is_host_char(t[h]); ++h) {
    if (is_digit(t[h])) digit = true;
  }
  if (h >= 2 && digit && h + 1 < t.size() && t[h] == ':' && t[h + 1] == ' ') {  // pdsh "node-12: "
    ev.host.assign(t.substr(0, h));
    s = t.substr(h + 2);
    return true;
  }
  return false;
}

// "misc/socket.cc:492" (a source file and line).
bool is_code_location(std::string_view tok) {
  const std::size_t colon = tok.rfind(':');
  if (colon == std::string_view::npos || colon + 1 >= tok.size()) return false;
  for (char c : tok.substr(colon + 1)) {
    if (!is_digit(c)) return false;
  }
  const std::string_view file = tok.substr(0, colon);
  return contains(file, ".c") || contains(file, ".h");
}

// "host:pid:tid" with a host of host characters (letters of either case, digits, '-',
// '.', '_'): the host and pid; false otherwise.
bool read_host_pid(std::string_view tok, LogEvent& ev) {
  const std::size_t c1 = tok.find(':');
  if (c1 == std::string_view::npos || c1 == 0) return false;
  for (char c : tok.substr(0, c1)) {
    if (!is_host_char(c) && !(c >= 'A' && c <= 'Z')) return false;
  }
  std::size_t n = 0;
  const int pid = leading_int(tok.substr(c1 + 1), n);
  if (n == 0) return false;
  const std::size_t after = c1 + 1 + n;
  std::size_t tid_digits = 0;
  if (after >= tok.size() || tok[after] != ':') return false;  // NCCL always prints host:pid:tid
  (void)leading_int(tok.substr(after + 1), tid_digits);
  if (tid_digits == 0) return false;
  ev.host.assign(tok.substr(0, c1));
  ev.pid = pid;
  return true;
}

// Reads "host:pid:tid [dev] [location]" from the end of `prefix`: the location is "file.cc:NNN" (NCCL)
// or "int function(args):NNN" (aws-ofi-nccl), so up to 8 tokens are looked at, right to left.
void read_nccl_prefix(std::string_view prefix, LogEvent& ev) {
  prefix = text::trim(prefix);
  for (int i = 0; i < 8 && !prefix.empty(); ++i) {
    const std::size_t sp = prefix.rfind(' ');
    const std::string_view tok = sp == std::string_view::npos ? prefix : prefix.substr(sp + 1);
    prefix = sp == std::string_view::npos ? std::string_view{} : text::trim(prefix.substr(0, sp));
    if (i == 0 && is_code_location(tok)) {
      ev.code_location.assign(tok);
    } else if (tok.size() >= 3 && tok.front() == '[' && tok.back() == ']') {
      std::size_t n = 0;
      const int d = leading_int(tok.substr(1), n);
      if (n > 0) ev.cuda_dev = d;
    } else if (read_host_pid(tok, ev)) {
      return;
    }
  }
}

// "file.cc:NNN -> rc" (possibly followed by more text).
void read_return_chain(LogEvent& ev) {
  const std::string_view t = ev.text;
  const std::size_t arrow = t.find(" -> ");
  if (arrow == std::string_view::npos || !is_code_location(t.substr(0, arrow))) return;
  std::size_t n = 0;
  const int rc = leading_int(t.substr(arrow + 4), n);
  if (n == 0) return;
  ev.code_location.assign(t.substr(0, arrow));
  ev.return_code = rc;
}

}  // namespace

LogSource classify_source(std::string_view t, bool nccl_prefixed) {
  if (starts_with(t, "NET/OFI") || contains(t, "aws-ofi-nccl")) return LogSource::ofi_nccl;
  if (starts_with(t, "libfabric:") || contains(t, " libfabric:")) return LogSource::libfabric;
  if (nccl_prefixed) return LogSource::nccl;
  if (contains(t, "ProcessGroupNCCL") || contains(t, "WorkNCCL") || contains(t, "torch.") || contains(t, "c10d") ||
      contains(t, "Watchdog caught") || contains(t, "TORCH_NCCL") || contains(t, "DistBackendError") ||
      contains(t, "NCCL error in:")) {
    return LogSource::pytorch;
  }
  if (contains(t, "NVRM:") || starts_with(t, "infiniband ") || contains(t, " kernel: ") || starts_with(t, "kernel:")) {
    return LogSource::kernel;
  }
  if (contains(t, "ncclras") || contains(t, "Communicator ranks have different") ||
      contains(t, "Missing communicator data") || contains(t, "considered dead") ||
      contains(t, "NCCL version mismatch with remote peer") || starts_with(t, "RAS ")) {
    return LogSource::ras;
  }
  if (contains(t, "Test NCCL failure") || contains(t, "Test CUDA failure") || contains(t, "Test failure") ||
      contains(t, "Test timeout") || starts_with(t, "# Out of bounds") || starts_with(t, "# Avg bus bandwidth") ||
      starts_with(t, "#  Rank") || starts_with(t, "# nThread")) {
    return LogSource::nccl_tests;
  }
  if (starts_with(t, "srun:") || starts_with(t, "slurmstepd") || contains(t, "slurmstepd:") ||
      contains(t, "DUE TO TIME LIMIT")) {
    return LogSource::slurm;
  }
  if (contains(t, "mpirun") || contains(t, "MPI_ABORT") || contains(t, "prterun") || contains(t, "Open MPI") ||
      contains(t, "MPI_COMM_WORLD") || contains(t, "PMIx") || contains(t, "ORTE")) {
    return LogSource::mpi;
  }
  return LogSource::other;
}

bool parse_log_line(std::string_view raw, LogEvent& ev) {
  std::string_view s = raw;
  for (int i = 0; i < 6 && strip_one_wrapper(s, ev); ++i) {
  }
  s = text::trim(s);
  bool nccl = false;
  for (std::string_view level : {"NCCL INFO", "NCCL WARN", "NCCL CALL"}) {
    const std::size_t at = s.find(level);
    if (at == std::string_view::npos) continue;
    if (at > 0 && s[at - 1] != ' ' && s[at - 1] != ']') continue;
    read_nccl_prefix(s.substr(0, at), ev);
    ev.level.assign(level.substr(5));
    s = text::trim(s.substr(at + level.size()));
    nccl = true;
    break;
  }
  if (!nccl && starts_with(s, "NCCL version ")) {
    ev.level = "INFO";
    nccl = true;
  }
  ev.text.assign(s);
  if (nccl) read_return_chain(ev);
  ev.source = classify_source(ev.text, nccl);
  return nccl || ev.source != LogSource::other || !ev.time.empty() || ev.rank >= 0;
}

std::string_view source_name(LogSource s) {
  switch (s) {
    case LogSource::nccl: return "nccl";
    case LogSource::ofi_nccl: return "ofi-nccl";
    case LogSource::libfabric: return "libfabric";
    case LogSource::pytorch: return "pytorch";
    case LogSource::kernel: return "kernel";
    case LogSource::mpi: return "mpi";
    case LogSource::nccl_tests: return "nccl-tests";
    case LogSource::ras: return "ras";
    case LogSource::slurm: return "slurm";
    case LogSource::other: return "other";
  }
  return "other";
}

std::string return_code_name(int rc) {
  static constexpr std::array<std::string_view, 9> kNames = {
      "ncclSuccess",      "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError", "ncclInvalidArgument",
      "ncclInvalidUsage", "ncclRemoteError",        "ncclInProgress",  "ncclTimeout"};
  if (rc >= 0 && rc < static_cast<int>(kNames.size())) return std::string(kNames[static_cast<std::size_t>(rc)]);
  return "rc " + std::to_string(rc);
}

}  // namespace podperf::logs

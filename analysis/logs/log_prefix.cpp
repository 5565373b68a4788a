// Line grammar of a job log: wrappers stripped, NCCL's prefix and return chains read (contract in
// log_prefix.hpp). Hand-written scanning (no std::regex): it runs on every line of multi-GiB logs.
#include "analysis/logs/log_prefix.hpp"

#include <array>
#include <cctype>

#include "analysis/base/text.hpp"
#include "analysis/logs/line_bigrams.hpp"

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

// "YYYY-MM-DD" (or Go's log "YYYY/MM/DD") at the start of s.
bool is_date(std::string_view s) {
  return s.size() >= 10 && is_digit(s[0]) && is_digit(s[1]) && is_digit(s[2]) && is_digit(s[3]) &&
         (s[4] == '-' || s[4] == '/') && is_digit(s[5]) && is_digit(s[6]) && s[7] == s[4] && is_digit(s[8]) &&
         is_digit(s[9]);
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

bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}

// A host name as launchers and daemons print it: host characters of either case, at least one letter or
// digit, at most 253 bytes.
bool is_host_name(std::string_view h) {
  if (h.empty() || h.size() > 253 || h.front() == '-' || h.front() == '.') return false;
  for (char c : h) {
    if (!is_host_char(c) && !is_upper(c)) return false;
  }
  return true;
}

// All digits (at least one).
bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!is_digit(c)) return false;
  }
  return true;
}

constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// The length of a syslog stamp "Mar  4 13:59:01" at the start of s; 0 when none.
std::size_t syslog_stamp_length(std::string_view s) {
  if (s.size() < 15 || s[3] != ' ' || !is_upper(s[0])) return 0;
  bool month = false;
  for (std::string_view m : kMonths) month = month || starts_with(s, m);
  if (!month || s[3] != ' ') return 0;
  std::size_t i = 4;
  if (s[i] == ' ') ++i;
  if (i >= s.size() || !is_digit(s[i])) return 0;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i + 9 > s.size() || s[i] != ' ' || !is_digit(s[i + 1]) || s[i + 3] != ':' || s[i + 6] != ':') return 0;
  return i + 9;
}

// "kernel: " or "ident[123]: " (a syslog/journald program tag) at the start of s: its length; 0 when none.
std::size_t syslog_ident_length(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (is_host_char(s[i]) || is_upper(s[i]))) ++i;
  if (i == 0) return 0;
  const std::string_view ident = s.substr(0, i);
  bool known = ident == "kernel";
  if (i < s.size() && s[i] == '[') {
    const std::size_t close = s.find(']', i);
    if (close == std::string_view::npos || !all_digits(s.substr(i + 1, close - i - 1))) return 0;
    i = close + 1;
    known = true;
  }
  for (std::string_view d : {"systemd", "slurmd", "slurmstepd", "kubelet", "containerd", "dockerd",
                             "nvidia-persistenced", "nv-fabricmanager", "nvidia-fabricmanager", "nv-hostengine"}) {
    known = known || ident == d;
  }
  if (!known || i + 1 >= s.size() || s[i] != ':' || s[i + 1] != ' ') return 0;
  return i + 2;
}

// A bracketed wrapper "[...]" at the start of t (t trimmed); true when one was read into `ev` and `s` moved
// past it.
bool strip_bracket(std::string_view t, std::string_view& s, LogEvent& ev) {
  const std::size_t close = t.find(']');
  if (close == std::string_view::npos) return false;
  const std::string_view inner = t.substr(1, close - 1);
  const std::string_view after = t.substr(close + 1);
  std::size_t n = 0;
  if (starts_with(inner, "1,") || starts_with(inner, "0,")) {  // mpirun [1,N]<stdout>:
    const int r = leading_int(inner.substr(2), n);
    if (n > 0 && (starts_with(after, "<stdout>:") || starts_with(after, "<stderr>:"))) {
      ev.rank = r;
      ev.task = r;
      s = after.substr(9);
      return true;
    }
  }
  if (iso_stamp_length(inner) > 0) {  // NCCL 2.26+ "[YYYY-MM-DD HH:MM:SS] ", Python logging's "[... ,879]"
    ev.time.assign(inner);
    s = after;
    return true;
  }
  if (starts_with(inner, "rank")) {  // torchrun "[rank3]:"
    const int r = leading_int(inner.substr(4), n);
    if (n > 0 && n + 4 == inner.size() && starts_with(after, ":")) {
      ev.rank = r;
      s = after.substr(1);
      return true;
    }
  }
  if (starts_with(inner, "pod/")) {  // kubectl logs --prefix "[pod/NAME/CONTAINER] "
    const std::string_view rest = inner.substr(4);
    const std::string_view name = rest.substr(0, rest.find('/'));
    if (is_host_name(name)) {
      ev.host.assign(name);
      s = after;
      return true;
    }
  }
  // torchrun --tee / accelerate local-rank tag "[default0]:" (letters then digits, then ':').
  {
    std::size_t k = 0;
    while (k < inner.size() && ((inner[k] >= 'a' && inner[k] <= 'z') || is_upper(inner[k]))) ++k;
    if (k > 0 && k < inner.size() && all_digits(inner.substr(k)) && starts_with(after, ":")) {
      s = after.substr(1);
      return true;
    }
  }
  // A clock time "[22:31:52]" (glog, dmlc): not a host.
  if (inner.size() >= 8 && is_digit(inner[0]) && is_digit(inner[1]) && inner[2] == ':' && is_digit(inner[3]) &&
      is_digit(inner[4]) && inner[5] == ':' && is_digit(inner[6]) && is_digit(inner[7])) {
    if (ev.time.empty()) ev.time.assign(inner);
    s = after;
    return true;
  }
  // Open MPI "[host:pid] " and UCX "[host:pid:thread:tid]" / "[host:pid :0:tid]" (a host has a letter).
  if (const std::size_t colon = inner.find(':'); colon != std::string_view::npos && colon > 0) {
    const std::string_view host = inner.substr(0, colon);
    bool letter = false;
    for (char c : host) letter = letter || (c >= 'a' && c <= 'z') || is_upper(c);
    std::string_view rest = inner.substr(colon + 1);
    const int pid = leading_int(rest, n);
    bool tail_ok = n > 0;
    for (char c : rest.substr(n)) tail_ok = tail_ok && (is_digit(c) || c == ':' || c == ' ');
    const bool source_file = contains(host, ".c") || contains(host, ".h") || contains(host, ".py");
    if (is_host_name(host) && letter && tail_ok && !source_file) {
      ev.host.assign(host);
      ev.pid = pid;
      s = after;
      return true;
    }
  }
  // LlamaFactory-style pid tag "[80746] " (not NCCL's "[3] NCCL INFO" device field); a single digit is a
  // launcher's rank tag ("[0] ", Intel MPI / MPICH -prepend-rank).
  if (!inner.empty() && all_digits(inner) && starts_with(after, " ") && !starts_with(text::trim(after), "NCCL ")) {
    std::size_t m = 0;
    const int tag = leading_int(inner, m);
    if (inner.size() >= 2) {
      ev.pid = tag;
    } else {
      ev.rank = tag;
    }
    s = after;
    return true;
  }
  std::size_t k = 0;
  while (k < inner.size() && (inner[k] == ' ' || is_digit(inner[k]) || inner[k] == '.')) ++k;
  if (k == inner.size() && contains(inner, ".")) {  // dmesg "[  123.456789] "
    if (ev.time.empty()) ev.time.assign(text::trim(inner));
    s = after;
    return true;
  }
  if (syslog_stamp_length(inner.size() > 4 ? inner.substr(4) : std::string_view{}) > 0) {  // dmesg -T
    if (ev.time.empty()) ev.time.assign(inner);
    s = after;
    return true;
  }
  return false;
}

// Ray "(WorkerDict pid=123, ip=10.0.0.1) ", vLLM "(VllmWorker rank=1 pid=2061) ": the pid, the ip as host.
bool strip_paren(std::string_view t, std::string_view& s, LogEvent& ev) {
  const std::size_t close = t.find(')');
  if (close == std::string_view::npos) return false;
  const std::string_view inner = t.substr(0, close);
  const std::size_t p = inner.find("pid=");
  if (p == std::string_view::npos) return false;
  std::size_t n = 0;
  const int pid = leading_int(inner.substr(p + 4), n);
  if (n > 0) ev.pid = pid;
  if (const std::size_t ip = inner.find("ip="); ip != std::string_view::npos) {
    std::string_view addr = inner.substr(ip + 3);
    addr = addr.substr(0, std::min(addr.find(','), addr.find(' ')));
    if (is_host_name(addr)) ev.host.assign(addr);
  }
  if (const std::size_t r = inner.find("rank="); r != std::string_view::npos) {
    const int rank = leading_int(inner.substr(r + 5), n);
    if (n > 0) ev.rank = rank;
  }
  s = t.substr(close + 1);
  return true;
}

// Strips one wrapper from the front of `s` into `ev`; false when none was there. `after_stamp`: the
// wrapper before this one was a timestamp (a syslog host may follow).
bool strip_one_wrapper(std::string_view& s, LogEvent& ev, bool& after_stamp) {
  const bool stamp_before = after_stamp;
  after_stamp = false;
  std::string_view t = text::trim(s);
  if (t.empty()) return false;
  if (t.front() == '\x1b') {  // a terminal colour code "ESC[36m"
    const std::size_t m = t.find('m');
    if (m == std::string_view::npos || m > 10) return false;
    s = t.substr(m + 1);
    return true;
  }
  if (t.front() == '|') {  // CloudWatch export "  | <ISO> | message"
    const std::string_view rest = text::trim(t.substr(1));
    const std::size_t bar = rest.find('|');
    if (bar == std::string_view::npos) return false;
    if (std::size_t n = iso_stamp_length(rest); n > 0) ev.time.assign(rest.substr(0, n));
    s = rest.substr(bar + 1);
    if (const std::size_t end = s.rfind(" |"); end != std::string_view::npos && end + 2 >= text::trim(s).size()) {
      s = s.substr(0, end);
    }
    after_stamp = true;
    return true;
  }
  if (std::size_t n = iso_stamp_length(t); n > 0) {  // ISO / Kubernetes timestamp, CRI "stdout F "
    ev.time.assign(t.substr(0, n));
    s = t.substr(n);
    if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    for (std::string_view cri : {"stdout F ", "stderr F ", "stdout P ", "stderr P "}) {
      if (starts_with(s, cri)) s.remove_prefix(cri.size());
    }
    after_stamp = true;
    return true;
  }
  if (std::size_t n = syslog_stamp_length(t); n > 0) {  // syslog "Mar  4 13:59:01 "
    ev.time.assign(t.substr(0, n));
    s = t.substr(n);
    after_stamp = true;
    return true;
  }
  if (t.front() == '[') {
    // A terminal colour code whose escape byte was lost: "[36m", "[0;31m".
    std::size_t k = 1;
    while (k < t.size() && k < 9 && (is_digit(t[k]) || t[k] == ';')) ++k;
    if (k > 1 && k < t.size() && t[k] == 'm') {
      s = t.substr(k + 1);
      return true;
    }
    return strip_bracket(t, s, ev);
  }
  if (t.front() == '(') return strip_paren(t, s, ev);
  if (starts_with(t, ".. ")) {  // nccl-tests " .. host pid N: Test failure"
    s = t.substr(3);
    return true;
  }
  std::size_t n = 0;
  const int r = leading_int(t, n);
  if (n > 0 && n < t.size() && t[n] == ':' && (n + 1 == t.size() || t[n + 1] == ' ')) {  // srun -l "12: "
    ev.rank = r;
    ev.task = r;
    s = t.substr(n + 1);
    return true;
  }
  std::size_t h = 0;
  bool digit = false;
  for (; h < t.size() && (is_host_char(t[h]) || (stamp_before && is_upper(t[h]))); ++h) {
    if (is_digit(t[h])) digit = true;
  }
  if (h >= 2 && digit && h + 1 < t.size() && t[h] == ':' && t[h + 1] == ' ') {  // pdsh "node-12: "
    ev.host.assign(t.substr(0, h));
    s = t.substr(h + 2);
    return true;
  }
  if (h >= 2 && h + 1 < t.size() && t[h] == ' ') {
    const std::string_view rest = t.substr(h + 1);
    if (stamp_before) {  // syslog / journald "host kernel: ", "host slurmd[12]: "
      if (const std::size_t k = syslog_ident_length(rest); k > 0) {
        ev.host.assign(t.substr(0, h));
        s = rest.substr(k);
        return true;
      }
    }
    if (digit && starts_with(rest, "pid ")) {  // nccl-tests "host pid 123: "
      const std::size_t colon = rest.find(": ");
      if (colon != std::string_view::npos && all_digits(rest.substr(4, colon - 4))) {
        ev.host.assign(t.substr(0, h));
        s = rest.substr(colon + 2);
        return true;
      }
    }
  }
  if (starts_with(t, "kernel: ")) {  // journalctl -k without a host column
    s = t.substr(8);
    return true;
  }
  return false;
}

// The host a launcher or scheduler message names in its text: "srun: error: HOST: task 3: ...",
// "... on node HOST exited on signal 11", "*** JOB 12 ON HOST CANCELLED AT ...", "libfabric:PID:" sets the
// pid only. Leaves `ev` as it is when none.
void host_in_message(std::string_view text, LogEvent& ev) {
  if (starts_with(text, "libfabric:")) {
    std::size_t n = 0;
    const int pid = leading_int(text.substr(10), n);
    if (n > 0 && ev.pid < 0) ev.pid = pid;
    return;
  }
  if (!ev.host.empty()) return;
  auto word_at = [&text](std::size_t at, std::string_view stop) {
    std::size_t e = at;
    while (e < text.size() && stop.find(text[e]) == std::string_view::npos) ++e;
    return text.substr(at, e - at);
  };
  if (starts_with(text, "srun: error: ")) {
    const std::string_view h = word_at(13, ": ");
    if (is_host_name(h) && 13 + h.size() < text.size() && text[13 + h.size()] == ':') ev.host.assign(h);
    return;
  }
  // mpirun/prterun "... process rank N with PID P on node HOST exited ...", slurmstepd "*** JOB N ON HOST".
  const bool mpi = starts_with(text, "mpirun") || starts_with(text, "prterun") || starts_with(text, "orterun") ||
                   starts_with(text, "prte");
  if (!mpi && !starts_with(text, "slurmstepd")) return;
  for (std::string_view key : {" on node ", " ON "}) {
    const std::size_t at = text.find(key);
    if (at == std::string_view::npos) continue;
    const std::string_view h = word_at(at + key.size(), " ,;");
    const std::string_view after = text.substr(std::min(text.size(), at + key.size() + h.size()));
    const bool ok = key == " on node " ? (starts_with(after, " exited") || starts_with(after, " exiting") ||
                                          starts_with(after, " ")) &&
                                             contains(text, "rank")
                                       : starts_with(after, " CANCELLED");
    if (ok && is_host_name(h)) ev.host.assign(h);
    return;
  }
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

namespace {

// A dotted or dashed IPv4 address ("10.0.9.52", "10-0-9-52", "ip-10-0-9-52").
bool is_address(std::string_view t) {
  if (starts_with(t, "ip-")) t.remove_prefix(3);
  int parts = 0;
  std::size_t i = 0;
  while (i <= t.size()) {
    std::size_t n = 0;
    (void)leading_int(t.substr(i), n);
    if (n == 0 || n > 3) return false;
    ++parts;
    i += n;
    if (i == t.size()) break;
    if (t[i] != '.' && t[i] != '-') return false;
    ++i;
  }
  return parts == 4;
}

// Words of a file name that make a token not a host ("rank-3", "slurm-1234", "llama-7b", "all-reduce-2").
constexpr std::array<std::string_view, 92> kNotHostWords = {
    "rank",     "ranks",   "slurm",   "job",    "jobs",     "log",       "logs",     "out",     "err",       "stdout",
    "stderr",   "dmesg",   "journal", "kern",   "kernel",   "syslog",    "messages", "nccl",    "torch",     "train",
    "training", "test",    "tests",   "output", "run",      "runs",      "part",     "pid",     "task",      "proc",
    "attempt",  "step",    "trace",   "dump",   "core",     "cuda",      "triage",   "podperf", "fr",        "flight",
    "model",    "epoch",   "iter",    "result", "results",  "report",    "bench",    "sbatch",  "batch",     "launcher",
    "mpirun",   "srun",    "error",   "errors", "debug",    "tmp",       "temp",     "backup",  "issue",     "case",
    "sample",   "example", "all",     "reduce", "gather",   "allreduce", "perf",     "llama",   "gpt",       "bert",
    "mistral",  "qwen",    "resnet",  "vit",    "mixtral",  "deepseek",  "megatron", "nemo",    "deepspeed", "fsdp",
    "ddp",      "vllm",    "sglang",  "ray",    "torchrun", "lightning", "horovod",  "v",       "version",   "copy",
    "new",      "old"};

// One token of a file name that names a host.
bool is_host_token(std::string_view t) {
  if (is_address(t)) return true;
  if (t.size() < 4 || t.size() > 63 || !(t[0] >= 'a' && t[0] <= 'z')) return false;
  bool letter = false, digit = false, dash = false;
  for (char c : t) {
    if (!is_host_char(c) || c == '.' || c == '_') return false;
    letter = letter || (c >= 'a' && c <= 'z');
    digit = digit || is_digit(c);
    dash = dash || c == '-';
  }
  if (!letter || !digit || !dash) return false;
  std::size_t b = 0;
  while (b < t.size()) {
    std::size_t e = t.find('-', b);
    if (e == std::string_view::npos) e = t.size();
    std::string_view word = t.substr(b, e - b);
    while (!word.empty() && is_digit(word.back())) word.remove_suffix(1);
    for (std::string_view w : kNotHostWords) {
      if (word == w) return false;
    }
    b = e + 1;
  }
  return true;
}

// The host token of one path component (its words split at '.' and '_'), the last one that is a host.
std::string host_in_component(std::string_view name) {
  if (is_address(name)) return std::string(name);
  std::string found;
  std::size_t b = 0;
  while (b <= name.size()) {
    std::size_t e = name.find_first_of("._", b);
    if (e == std::string_view::npos) e = name.size();
    const std::string_view tok = name.substr(b, e - b);
    if (is_host_token(tok)) found.assign(tok);
    // A dotted address inside the name: "dmesg.10.0.9.52.log".
    if (e < name.size() && name[e] == '.' && is_digit(name[b])) {
      std::size_t k = b;
      while (k < name.size() && (is_digit(name[k]) || name[k] == '.')) ++k;
      std::string_view addr = name.substr(b, k - b);
      while (!addr.empty() && addr.back() == '.') addr.remove_suffix(1);
      if (is_address(addr)) {
        found.assign(addr);
        e = b + addr.size();
      }
    }
    b = e + 1;
  }
  return found;
}

}  // namespace

std::string host_from_file_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (std::string h = host_in_component(base); !h.empty()) return h;
  if (slash == std::string_view::npos || slash == 0) return "";
  const std::string_view dir = path.substr(0, slash);
  const std::size_t up = dir.rfind('/');
  return host_in_component(up == std::string_view::npos ? dir : dir.substr(up + 1));
}

LogSource classify_source(std::string_view t, bool nccl_prefixed) {
  return classify_source(t, nccl_prefixed, BigramSet::of(t));
}

LogSource classify_source(std::string_view t, bool nccl_prefixed, const BigramSet& pairs) {
  // Most lines of a job log are none of these: the line's byte pairs rule out most searches at once.
  auto in = [&pairs, t](std::string_view needle) { return pairs.may_contain(needle) && contains(t, needle); };
  if (starts_with(t, "NET/OFI") || in("aws-ofi-nccl")) return LogSource::ofi_nccl;
  if (starts_with(t, "libfabric:") || in(" libfabric:")) return LogSource::libfabric;
  if (nccl_prefixed) return LogSource::nccl;
  if (in("ProcessGroupNCCL") || in("WorkNCCL") || in("torch.") || in("c10d") || in("Watchdog caught") ||
      in("TORCH_NCCL") || in("DistBackendError") || in("NCCL error in:")) {
    return LogSource::pytorch;
  }
  if (in("NVRM:") || starts_with(t, "infiniband ") || in(" kernel: ") || starts_with(t, "kernel:")) {
    return LogSource::kernel;
  }
  if (in("ncclras") || in("Communicator ranks have different") || in("Missing communicator data") ||
      in("considered dead") || in("NCCL version mismatch with remote peer") || starts_with(t, "RAS ")) {
    return LogSource::ras;
  }
  if (in("Test NCCL failure") || in("Test CUDA failure") || in("Test failure") || in("Test timeout") ||
      starts_with(t, "# Out of bounds") || starts_with(t, "# Avg bus bandwidth") || starts_with(t, "#  Rank") ||
      starts_with(t, "# nThread")) {
    return LogSource::nccl_tests;
  }
  if (starts_with(t, "srun:") || starts_with(t, "slurmstepd") || in("slurmstepd:") || in("DUE TO TIME LIMIT")) {
    return LogSource::slurm;
  }
  if (in("mpirun") || in("MPI_ABORT") || in("prterun") || in("Open MPI") || in("MPI_COMM_WORLD") || in("PMIx") ||
      in("ORTE")) {
    return LogSource::mpi;
  }
  return LogSource::other;
}

bool parse_log_line(std::string_view raw, LogEvent& ev) {
  std::string_view s = raw;
  bool after_stamp = false;
  for (int i = 0; i < 10 && strip_one_wrapper(s, ev, after_stamp); ++i) {
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
  ev.pairs = BigramSet::of(ev.text);
  if (nccl) read_return_chain(ev);
  ev.source = classify_source(ev.text, nccl, ev.pairs);
  host_in_message(ev.text, ev);
  return nccl || ev.source != LogSource::other || !ev.time.empty() || ev.rank >= 0 || !ev.host.empty() || ev.pid >= 0;
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

// The rules of the pattern table's anchor rows (contract in triage_rules.hpp): a CUDA error through the
// CUDA error table, an Xid through the Xid table, the signal that killed a process, a launcher's exit
// status, an uncaught Python exception ending a traceback, torchelastic's failure summary, libfabric's
// warnings, training progress lines and NCCL settings in a shell trace; and NCCL WARNs no row knows,
// classed by the source file they come from.
#include <fmt/format.h>

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "analysis/base/text.hpp"
#include "analysis/logs/code_tables.hpp"
#include "analysis/logs/cuda_errors.hpp"
#include "analysis/logs/triage_rules.hpp"

namespace podperf::logs {
namespace {

using std::string_view;

bool in_text(string_view s, string_view p) {
  return s.find(p) != string_view::npos;
}

const char* tag_of(SeverityClass c) {
  switch (c) {
    case SeverityClass::fail: return "FAIL";
    case SeverityClass::warn: return "WARN";
    case SeverityClass::info: return "INFO";
  }
  return "INFO";
}

int priority_of(SeverityClass c) {
  return c == SeverityClass::fail ? 0 : c == SeverityClass::warn ? 1 : 2;
}

RowResult finding(TriageFinding proto) {
  RowResult r;
  r.outcome = RowOutcome::finding;
  r.key = proto.check + "/" + proto.tag;
  r.proto = std::move(proto);
  return r;
}

RowResult nothing() {
  RowResult r;
  r.outcome = RowOutcome::no_finding;
  return r;
}

RowResult declined() {
  return RowResult{};
}

// An integer (optionally negative) at `i` of `s`, spaces skipped; `ok` false when none.
long long int_at(string_view s, std::size_t i, bool& ok) {
  while (i < s.size() && s[i] == ' ') ++i;
  bool neg = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  long long v = 0;
  std::size_t n = 0;
  while (i < s.size() && n < 12 && std::isdigit(static_cast<unsigned char>(s[i]))) v = v * 10 + (s[i++] - '0'), ++n;
  ok = n > 0;
  return neg ? -v : v;
}

// ---- CUDA errors ----

RowResult cuda_error(const LogPattern& row, const LogEvent& ev) {
  const CudaErrorClass* cls = nullptr;
  const CudaError* err = find_cuda_error(ev.text, &cls);
  // A generic class without any known text: only where the anchor itself says an error happened.
  const bool error_shaped = row.match == "Cuda failure" || row.match == "CUDA failure" || row.match == "cudaError" ||
                            row.match == "CUDA_ERROR_" || in_text(ev.text, "CUDA error:") ||
                            in_text(ev.text, "CUDA Error:");
  if (!err && (!cls || cls->check == "cuda.api_error") && !error_shaped) return declined();
  TriageFinding f;
  f.check = std::string(cls->check);
  f.tag = tag_of(cls->cls);
  f.priority = priority_of(cls->cls);
  f.cause_rank = cls->cause_rank;
  f.cause = std::string(cls->cause);
  if (err) f.cause += fmt::format(" ({} \"{}\")", err->name, err->text);
  f.next_step = std::string(cls->next_step);
  return finding(std::move(f));
}

// nccl-tests' "Test CUDA failure ... 'text'" / "Test NCCL failure ... 'text'": the row's finding, naming the
// quoted error.
RowResult quoted_error(const LogPattern& row, const LogEvent& ev, TriageFinding proto) {
  if (row.match == "Test CUDA failure") {
    const CudaErrorClass* cls = nullptr;
    if (const CudaError* err = find_cuda_error(ev.text, &cls)) {
      proto.cause += fmt::format(": {} \"{}\" ({})", err->name, err->text, cls->cause);
    }
  } else if (const NcclResult* r = nccl_result_in(ev.text)) {
    proto.cause += fmt::format(": {} ({})", r->name, r->cause);
  }
  return finding(std::move(proto));
}

// ---- Xid ----

RowResult xid(const LogEvent& ev) {
  const int code = xid_in(ev.text);
  if (code < 0) return declined();
  const XidCode* x = xid_code(code);
  TriageFinding f;
  f.check = "gpu.xid";
  f.tag = "FAIL";
  f.priority = 0;
  const std::string what = x ? fmt::format("Xid {} ({})", code, x->meaning) : fmt::format("Xid {}", code);
  constexpr string_view kXidDrain =
      "drain {host} (Slurm: scontrol update NodeName={host} State=DRAIN Reason=\"Xid {xid}\"; Kubernetes: kubectl "
      "cordon {host})";
  std::string next;
  switch (x ? x->action : XidAction::reset) {
    case XidAction::hardware:
      f.cause_rank = 100;
      f.cause = what + ": a GPU hardware fault; the node must leave service";
      next = std::string(kXidDrain) + ", reboot or reset it, run dcgmi diag -r 3, and replace the GPU if it repeats";
      break;
    case XidAction::reset:
      f.cause_rank = 95;
      f.cause = what + ": the GPU needs a reset (or the node a reboot) before it runs jobs again";
      next = std::string(kXidDrain) + ", reset the GPU (nvidia-smi -r) or reboot it; replace the GPU if it repeats";
      break;
    case XidAction::nvlink:
      f.cause_rank = 95;
      f.cause = what + ": an NVLink fault of the GPU interconnect";
      next = std::string(kXidDrain) +
             "; nvidia-smi nvlink -s and -e on it; reset the GPUs, check the NVSwitch fabric manager's log";
      break;
    case XidAction::contained:
      f.cause_rank = 90;
      f.cause = what + ": the process using the faulty GPU memory was stopped; the GPU goes on (row remapping)";
      next = "restart the job; reset the GPU of {host} when it is idle; drain {host} if the Xid repeats";
      break;
    case XidAction::application:
      f.cause_rank = 60;
      f.cause = what + ": usually the application (a kernel fault in the job's own code or a library), not the node";
      next =
          "keep {host} in service; find the faulting kernel (rerun with CUDA_LAUNCH_BLOCKING=1, compute-sanitizer); "
          "drain {host} only if this Xid repeats across different jobs";
      break;
    case XidAction::info:
      f.tag = "WARN";
      f.priority = 1;
      f.cause_rank = 50;
      f.cause = what + ": informational; repeated events are a hardware concern";
      next = "nvidia-smi -q -d ECC,ROW_REMAPPER on {host}; drain it if the counts grow";
      break;
  }
  if (!x) {
    f.cause_rank = 90;
    f.cause = what + ": an Xid podperf's table does not know; look it up in NVIDIA's Xid catalogue";
  }
  for (std::size_t at; (at = next.find("{xid}")) != std::string::npos;) next.replace(at, 5, std::to_string(code));
  f.next_step = next;
  RowResult r = finding(std::move(f));
  r.key = "gpu.xid/" + std::to_string(code);
  return r;
}

// ---- signals ----

struct SignalInfo {
  int number;
  string_view name;   // "SIGSEGV"
  string_view words;  // how strsignal / shells print it
  string_view check;
  int cause_rank;
  string_view cause;
};

constexpr std::array kSignals = {
    SignalInfo{11, "SIGSEGV", "Segmentation fault", "crash.sigsegv", 60,
               "a segmentation fault: a native-code bug in the program or a library (the backtrace names it)"},
    SignalInfo{6, "SIGABRT", "Aborted", "crash.sigabrt", 25,
               "aborted (SIGABRT): the process called abort() after an error it printed just before (an assertion, "
               "an uncaught exception, NCCL or MPI aborting)"},
    SignalInfo{7, "SIGBUS", "Bus error", "shm.capacity", 90,
               "a bus error (SIGBUS): almost always /dev/shm too small (a shared-memory page could not be backed)"},
    SignalInfo{9, "SIGKILL", "Killed", "crash.sigkill", 20,
               "killed (SIGKILL): by the kernel's OOM killer, the scheduler (a time or memory limit) or a launcher "
               "tearing the job down"},
    SignalInfo{15, "SIGTERM", "Terminated", "crash.sigterm", 10,
               "terminated (SIGTERM): the launcher or scheduler stopped it, usually after another rank failed"},
    SignalInfo{4, "SIGILL", "Illegal instruction", "crash.sigill", 60,
               "an illegal instruction: a binary built for another CPU, or memory corruption"},
    SignalInfo{8, "SIGFPE", "Floating point exception", "crash.sigfpe", 60,
               "an arithmetic exception (e.g. integer division by zero) in native code"},
    SignalInfo{2, "SIGINT", "Interrupt", "app.interrupted", 40,
               "interrupted (SIGINT: Ctrl-C, or a launcher stopping the job)"},
};

const SignalInfo* signal_by_number(long long n) {
  for (const SignalInfo& s : kSignals) {
    if (s.number == n) return &s;
  }
  return nullptr;
}

const SignalInfo* signal_by_words(string_view t) {
  for (const SignalInfo& s : kSignals) {
    if (in_text(t, s.words) || in_text(t, s.name)) return &s;
  }
  return nullptr;
}

constexpr string_view kSignalNext =
    "read the rank's own output just before it (the first error), its backtrace, and dmesg on {host} (OOM killer, "
    "Xid); with a core file: gdb -batch -ex bt <binary> <core>";

RowResult signal_finding(const SignalInfo* s, long long number) {
  TriageFinding f;
  f.tag = "FAIL";
  f.priority = 0;
  f.next_step = std::string(kSignalNext);
  if (s) {
    f.check = std::string(s->check);
    f.cause_rank = s->cause_rank;
    f.cause = fmt::format("{} (signal {} {})", s->cause, s->number, s->name);
    if (s->number == 9) {
      f.next_step =
          "dmesg -T | grep -i -e 'out of memory' -e oom -e killed on {host}; the scheduler's record (sacct -j <job> "
          "-o state,exitcode,maxrss; kubectl describe pod: OOMKilled)";
    }
    if (s->number == 7) {
      f.next_step =
          "df -h /dev/shm inside the job; Docker: --shm-size=1g; Kubernetes: a memory-backed emptyDir on /dev/shm";
    }
  } else {
    f.check = "crash.signal";
    f.cause_rank = 30;
    f.cause = fmt::format("a process was killed by signal {}", number);
  }
  return finding(std::move(f));
}

RowResult signal(const LogPattern& row, const LogEvent& ev) {
  const string_view t = text::trim(ev.text);
  bool ok = false;
  long long n = -1;
  const SignalInfo* s = nullptr;
  if (row.match == "Killed") {
    // "Killed" alone (a shell reporting SIGKILL), "... : Killed", "Killed    python train.py"; not "Killed process".
    if (!(t == "Killed" || t.ends_with(": Killed") || (t.starts_with("Killed ") && !in_text(t, "Killed process")))) {
      return declined();
    }
    s = signal_by_number(9);
    return signal_finding(s, 9);
  }
  for (string_view key : {"Caught signal ", "exited on signal ", "Signal ", "signal "}) {
    if (const std::size_t at = t.find(key); at != string_view::npos) {
      n = int_at(t, at + key.size(), ok);
      if (ok) break;
    }
  }
  if (!ok) {
    if (const std::size_t at = t.find("(core dumped)"); at != string_view::npos) {
      s = signal_by_words(t.substr(0, at));
    } else if (const std::size_t sig = t.find("<Signals.SIG"); sig != string_view::npos) {
      const std::size_t colon = t.find(':', sig);
      if (colon != string_view::npos) n = int_at(t, colon + 1, ok);
    } else if (row.match == "killed by signal") {  // "DataLoader worker (pid 12) is killed by signal: Killed."
      s = signal_by_words(t.substr(t.find(row.match) + row.match.size()));
    } else if (row.match == "Signal: " || row.match == "Fatal Python error: ") {
      // "Signal: Segmentation fault (11)", "Fatal Python error: Aborted".
      const std::size_t open = t.rfind('(');
      if (open != string_view::npos) n = int_at(t, open + 1, ok);
      if (!ok) s = signal_by_words(t.substr(t.find(row.match) + row.match.size()));
    }
  }
  if (ok) s = signal_by_number(n);
  if (!s && !ok) return declined();
  return signal_finding(s, n);
}

// ---- exit statuses ----

RowResult exit_status(const LogPattern& row, const LogEvent& ev) {
  const string_view t = ev.text;
  bool ok = false;
  long long status = 0;
  if (row.match == "srun: error:") {
    // "srun: error: node-1: tasks 0-7: Killed" / "...: Segmentation fault" / "...: Exited with exit code 2".
    const std::size_t colon = t.rfind(": ");
    if (colon == string_view::npos) return declined();
    const string_view what = t.substr(colon + 2);
    if (const SignalInfo* s = signal_by_words(what)) return signal_finding(s, s->number);
    if (const std::size_t at = what.find("exit code"); at != string_view::npos) status = int_at(what, at + 9, ok);
  } else {
    std::size_t at = t.find(row.match);
    at += row.match.size();
    while (at < t.size() && (t[at] == ' ' || t[at] == ':' || t[at] == '=')) ++at;
    status = int_at(t, at, ok);
  }
  if (!ok) return declined();
  if (status == 0) return nothing();
  if (status < 0) return signal_finding(signal_by_number(-status), -status);
  if (status > 128 && status < 160) return signal_finding(signal_by_number(status - 128), status - 128);
  TriageFinding f;
  f.tag = "FAIL";
  f.priority = 0;
  f.check = std::string(row.check);
  f.cause_rank = row.cause_rank;
  f.cause = fmt::format(
      "a rank exited with status {}: the job failed (its own error is printed before, or is not in "
      "these logs)",
      status);
  f.next_step = std::string(row.next_step);
  return finding(std::move(f));
}

// ---- Python ----

// "NameError: name 'x' is not defined", "torch.distributed.DistBackendError: ...", "KeyboardInterrupt": the
// exception's type, "" when the line is not an exception line.
string_view exception_type(string_view t) {
  std::size_t i = 0;
  while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_' || t[i] == '.')) ++i;
  if (i == 0 || std::isdigit(static_cast<unsigned char>(t[0]))) return {};
  if (i < t.size() && t[i] != ':') return {};
  string_view name = t.substr(0, i);
  const string_view last = name.substr(name.rfind('.') == string_view::npos ? 0 : name.rfind('.') + 1);
  for (string_view end : {"Error", "Exception", "Exit", "Interrupt", "Failure", "Timeout"}) {
    if (last.ends_with(end) && last.size() > end.size()) return last;
  }
  if (last == "Exception") return last;  // raise Exception("...")
  return {};
}

RowResult python_exception(const LogEvent& ev, LineContext& ctx) {
  if (ctx.traceback_line == 0 || ev.line < ctx.traceback_line || ev.line - ctx.traceback_line > 400) {
    return declined();
  }
  const string_view t = text::trim(ev.text);
  const string_view type = exception_type(t);
  if (type.empty()) return declined();
  ctx.traceback_line = 0;
  if (type == "SystemExit" && (t.ends_with(": 0") || t == "SystemExit")) return nothing();
  TriageFinding f;
  f.tag = "FAIL";
  f.priority = 0;
  f.check = "app.python_exception";
  f.cause_rank = 50;
  f.cause = "an uncaught Python exception ended the process: " + text::printable(t, 240, true);
  f.next_step = "read the traceback above it in the rank's output (the frames name the failing code)";
  RowResult r = finding(std::move(f));
  r.key = "app.python_exception/" + std::string(type);
  return r;
}

// ---- torchelastic's failure summary ----

RowResult elastic_field(const LogEvent& ev, LineContext& ctx) {
  const string_view t = text::trim(ev.text);
  if (!t.starts_with("host ")) return declined();
  const std::size_t colon = t.find(':');
  if (colon == string_view::npos) return declined();
  const string_view host = text::trim(t.substr(colon + 1));
  bool name = !host.empty() && host.size() < 254;
  for (char c : host) name = name && (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_');
  if (!name) return declined();
  ctx.elastic_host.assign(host);
  ctx.elastic_line = ev.line;
  return nothing();
}

// ---- libfabric ----

RowResult libfabric_warn(const LogPattern& row, const LogEvent& ev) {
  const string_view t = ev.text;
  // "libfabric:PID:[TS:]prov:subsys:func():line<warn> message".
  const std::size_t warn = t.find("<warn>");
  std::vector<string_view> fields;
  for (std::size_t b = 0; b < warn && fields.size() < 8;) {
    std::size_t e = t.find(':', b);
    if (e == string_view::npos || e > warn) e = warn;
    fields.push_back(t.substr(b, e - b));
    b = e + 1;
  }
  string_view provider;
  for (std::size_t i = 2; i < fields.size(); ++i) {
    if (!fields[i].empty() && !std::isdigit(static_cast<unsigned char>(fields[i][0]))) {
      provider = fields[i];
      break;
    }
  }
  const string_view message = text::trim(t.substr(warn + 6));
  const bool error = in_text(message, "fail") || in_text(message, "Fail") || in_text(message, "Unable") ||
                     in_text(message, "Cannot") || in_text(message, "cannot") || in_text(message, "error") ||
                     in_text(message, "returned -");
  TriageFinding f;
  f.check = "libfabric.warn";
  f.tag = error ? "WARN" : "INFO";
  f.priority = error ? 1 : 2;
  f.cause_rank = error ? row.cause_rank : 5;
  f.cause = fmt::format("libfabric's {} provider warned: {}", provider.empty() ? "?" : provider,
                        text::printable(message, 200, true));
  f.next_step = std::string(row.next_step);
  RowResult r = finding(std::move(f));
  r.key = "libfabric.warn/" + std::string(provider) + "/" + r.proto.tag;
  return r;
}

// ---- progress ----

bool nan_loss(string_view t) {
  for (string_view key : {"loss", "Loss", "LOSS"}) {
    for (std::size_t at = t.find(key); at != string_view::npos; at = t.find(key, at + 1)) {
      std::size_t i = at + key.size();
      while (i < t.size() && (t[i] == ' ' || t[i] == ':' || t[i] == '=' || t[i] == '\'' || t[i] == '"')) ++i;
      const string_view v = t.substr(i, 4);
      if (v.starts_with("nan") || v.starts_with("NaN") || v.starts_with("NAN") || v.starts_with("inf") ||
          v.starts_with("Inf")) {
        return true;
      }
    }
  }
  if (const std::size_t at = t.find("number of nan iterations:"); at != string_view::npos) {
    bool ok = false;
    return int_at(t, at + 25, ok) > 0 && ok;
  }
  return false;
}

// A step counter: "iteration 12", "step=40", "Batch 3", "Epoch 0:", "global_step", or a "12/400" fraction.
bool has_step_counter(string_view t) {
  for (string_view key : {"iteration", "iter ", "step", "Step", "Batch", "batch", "Epoch", "epoch"}) {
    if (in_text(t, key)) return true;
  }
  for (std::size_t at = t.find('/'); at != string_view::npos; at = t.find('/', at + 1)) {
    if (at > 0 && at + 1 < t.size() && std::isdigit(static_cast<unsigned char>(t[at - 1])) &&
        std::isdigit(static_cast<unsigned char>(t[at + 1]))) {
      return true;
    }
  }
  return false;
}

// "... OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 8, reducing to 4" (DeepSpeed), "... reducing loss
// scale to 32768.0" (apex): the scale after "reducing"; a finding at kTinyLossScale or below (fp16 scalers start
// at 2^16 or more and settle far above it), none otherwise (a few early overflows are how the scaler works).
RowResult loss_scale(const LogPattern& row, const LogEvent& ev) {
  constexpr double kTinyLossScale = 16.0;
  const string_view t = ev.text;
  const std::size_t at = t.rfind("reducing");
  if (at == string_view::npos) return declined();
  std::size_t i = at;
  while (i < t.size() && !std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  if (i >= t.size()) return declined();
  const double scale = std::strtod(std::string(t.substr(i, 24)).c_str(), nullptr);
  if (scale > kTinyLossScale) return nothing();
  TriageFinding f;
  f.tag = "WARN";
  f.priority = 1;
  f.check = std::string(row.check);
  f.cause_rank = row.cause_rank;
  f.cause = fmt::format("{} (to {:g})", row.cause, scale);
  f.next_step = std::string(row.next_step);
  return finding(std::move(f));
}

RowResult progress(const LogEvent& ev, HealthSeen& h) {
  const string_view t = ev.text;
  // Throughput of training samples or tokens is progress on its own; a loss needs a step counter beside it
  // (a tqdm bar's "it/s" alone may be data loading).
  const bool throughput = in_text(t, "samples/sec") || in_text(t, "SamplesPerSec") ||
                          in_text(t, "samples_per_second") || in_text(t, "tokens/s") || in_text(t, "tok/s") ||
                          in_text(t, "TFLOPS");
  const bool loss = in_text(t, "loss") || in_text(t, "Loss") || in_text(t, "LOSS");
  if (!(throughput || (loss && has_step_counter(t)))) return declined();
  // A configuration dump ("loss_scale ......... None", "'loss_scale': 0") is no progress.
  bool digit = false;
  for (char c : t) digit = digit || std::isdigit(static_cast<unsigned char>(c));
  if (!digit) return declined();
  ++h.progress_lines;
  h.last_progress = text::printable(t, 200, true);
  if (nan_loss(t)) ++h.nan_loss_lines;
  return nothing();
}

// ---- environment settings in shell traces ----

RowResult env_assignment(const LogEvent& ev) {
  if (!ev.level.empty()) return declined();
  string_view t = text::trim(ev.text);
  for (string_view lead : {"+ export ", "export ", "+ ", "declare -x "}) {
    if (t.starts_with(lead)) {
      t.remove_prefix(lead.size());
      break;
    }
  }
  if (!t.starts_with("NCCL_")) return declined();
  const std::size_t eq = t.find('=');
  if (eq == string_view::npos) return declined();
  const string_view name = t.substr(0, eq);
  for (char c : name) {
    if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
      return declined();
    }
  }
  string_view value = t.substr(eq + 1);
  value = value.substr(0, value.find(' '));
  while (!value.empty() && (value.front() == '"' || value.front() == '\'')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == '"' || value.back() == '\'')) value.remove_suffix(1);
  RowResult r = nothing();
  r.env = std::string(name) + "=" + text::printable(value, 64, true);
  return r;
}

}  // namespace

RowResult apply_row(const LogPattern& row, const LogEvent& ev, LineContext& ctx, HealthSeen& health) {
  TriageFinding proto;
  proto.tag = tag_of(row.cls);
  proto.priority = row.priority;
  proto.check = std::string(row.check);
  proto.cause = std::string(row.cause);
  proto.next_step = std::string(row.next_step);
  proto.cause_rank = row.cause_rank;
  switch (row.rule) {
    case RowRule::plain: return finding(std::move(proto));
    case RowRule::cuda_error: return cuda_error(row, ev);
    case RowRule::quoted_error: return quoted_error(row, ev, std::move(proto));
    case RowRule::xid: return xid(ev);
    case RowRule::signal: return signal(row, ev);
    case RowRule::exit_status: return exit_status(row, ev);
    case RowRule::traceback: ctx.traceback_line = ev.line; return nothing();
    case RowRule::python_exception: return python_exception(ev, ctx);
    case RowRule::elastic_field: return elastic_field(ev, ctx);
    case RowRule::libfabric_warn: return libfabric_warn(row, ev);
    case RowRule::loss_scale: return loss_scale(row, ev);
    case RowRule::progress:
      ctx.traceback_line = 0;  // the job went on after it: the traceback was caught and printed
      return progress(ev, health);
    case RowRule::completion:
      ++health.completion_lines;
      health.last_completion = text::printable(ev.text, 200, true);
      return nothing();
    case RowRule::env_assignment: return env_assignment(ev);
  }
  return declined();
}

namespace {

// NCCL source files (and aws-ofi-nccl functions) -> the subsystem a WARN of theirs is about.
struct WarnArea {
  string_view fragment;  // in the code location
  string_view area;
  string_view what;
};
constexpr std::array kWarnAreas = {
    WarnArea{"net_ib", "net_ib", "the InfiniBand/RoCE transport"},
    WarnArea{"ib_plugin", "net_ib", "the InfiniBand/RoCE transport (external plugin)"},
    WarnArea{"ibvwrap", "net_ib", "the verbs library"},
    WarnArea{"net_socket", "socket", "the TCP socket transport"},
    WarnArea{"socket", "socket", "sockets (bootstrap or the Socket transport)"},
    WarnArea{"bootstrap", "bootstrap", "bootstrap (the ranks finding each other)"},
    WarnArea{"proxy", "proxy", "the proxy thread (network progress)"},
    WarnArea{"shm", "shm", "shared memory"},
    WarnArea{"p2p", "p2p", "GPU peer-to-peer"},
    WarnArea{"nvls", "nvls", "NVLink SHARP"},
    WarnArea{"coll_net", "collnet", "CollNet (SHARP)"},
    WarnArea{"transport/net", "net", "the network transport"},
    WarnArea{"graph/", "topology", "topology detection and graph search"},
    WarnArea{"alloc", "cuda", "memory allocation"},
    WarnArea{"cudawrap", "cuda", "the CUDA driver"},
    WarnArea{"nvmlwrap", "nvml", "NVML"},
    WarnArea{"ras", "ras", "RAS"},
    WarnArea{"plugin", "plugin", "a plugin"},
    WarnArea{"enqueue", "enqueue", "launching collectives"},
    WarnArea{"group", "enqueue", "launching collectives"},
    WarnArea{"init", "init", "communicator init"},
    WarnArea{"nccl_net_ofi", "ofi", "aws-ofi-nccl (EFA)"},
};

}  // namespace

TriageFinding unclassified_warn(const LogEvent& ev) {
  TriageFinding f;
  f.tag = "WARN";
  f.priority = 1;
  f.check = "nccl.warn";
  f.cause = "an NCCL WARN that is not in podperf's pattern table";
  f.next_step = "read the WARN text; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,ENV for its context";
  f.cause_rank = 40;
  const WarnArea* area = nullptr;
  if (ev.source == LogSource::ofi_nccl) {
    area = &kWarnAreas.back();
  } else if (!ev.code_location.empty()) {
    for (const WarnArea& a : kWarnAreas) {
      if (in_text(ev.code_location, a.fragment)) {
        area = &a;
        break;
      }
    }
  }
  if (area) {
    f.check += "." + std::string(area->area);
    f.cause = fmt::format("an NCCL WARN from {} ({}) that is not in podperf's pattern table", area->what,
                          ev.code_location.empty() ? "NET/OFI" : ev.code_location);
  }
  // NCCL words its fatal conditions "Error : ..." / "Error: ..." (a topology it cannot read, a ring that does
  // not close, a segment it cannot create): the call returns an error and the communicator is not made.
  const string_view t = ev.text;
  if (t.starts_with("Error :") || t.starts_with("Error:") || t.starts_with("Error while")) {
    f.tag = "FAIL";
    f.priority = 0;
    f.check = "nccl.error" + f.check.substr(std::string_view("nccl.warn").size());
    f.cause += "; it reports an error, which NCCL returns to its caller (the communicator or the call fails)";
    f.cause_rank = 60;
  }
  return f;
}

std::vector<std::string> backtrace_libraries(std::string_view t) {
  std::vector<std::string> libs;
  const bool frame = t.starts_with("[ ") || t.starts_with("[bt]") || t.starts_with("frame #") || t.starts_with("#") ||
                     t.starts_with("@ ") || t.starts_with("[") || in_text(t, "logging.cc");
  if (!frame) return libs;
  for (std::size_t at = t.find(".so"); at != string_view::npos && libs.size() < 4; at = t.find(".so", at + 3)) {
    std::size_t b = at;
    while (b > 0 && t[b - 1] != '/' && t[b - 1] != ' ' && t[b - 1] != '(' && t[b - 1] != '[') --b;
    std::size_t e = at + 3;
    while (e < t.size() && (std::isdigit(static_cast<unsigned char>(t[e])) || t[e] == '.')) ++e;
    while (e > at + 3 && t[e - 1] == '.') --e;
    const string_view lib = t.substr(b, e - b);
    if (lib.starts_with("lib") && lib.size() < 64) libs.emplace_back(lib);
  }
  return libs;
}

}  // namespace podperf::logs

// `podperf signals`: snapshot of this host -> rules -> table or JSON. The only place in signals/ that
// touches the real process state (environ, getrlimit, statvfs, gethostname, /dev/kmsg).
#include "signals/signals_command.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iterator>
#include <thread>
#include <iostream>
#include <nlohmann/json.hpp>

#include "analysis/errors.hpp"
#include "analysis/offline_command.hpp"
#include "signals/kmsg.hpp"
#include "signals/rules.hpp"

extern char** environ;  // NOLINT: POSIX

namespace podperf {
namespace {

std::string join(const std::string& root, const std::string& rel) {
  std::string base = root;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  if (base == "/") base.clear();
  return base + rel;
}

std::optional<Rlimit> get_limit(int resource) {
  struct rlimit l {};
  if (::getrlimit(resource, &l) != 0) return std::nullopt;
  Rlimit r;
  r.unlimited = l.rlim_cur == RLIM_INFINITY;
  r.bytes = r.unlimited ? 0 : static_cast<std::uint64_t>(l.rlim_cur);
  return r;
}

// Cuts to `width` characters (ASCII; findings are cleaned to printable ASCII by the collectors).
std::string cell(const std::string& s, std::size_t width) {
  if (s.size() <= width) return s;
  return s.substr(0, width - 3) + "...";
}

}  // namespace

CollectInputs real_collect_inputs(const std::string& root) {
  CollectInputs in;
  const bool real_root = root.empty() || root == "/";
  if (real_root) {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) == 0) in.hostname = name;
  }
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string kv = *e;
    const std::size_t eq = kv.find('=');
    if (eq == std::string::npos) continue;
    in.env.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  in.memlock = get_limit(RLIMIT_MEMLOCK);
  in.stack = get_limit(RLIMIT_STACK);
  in.statvfs = [root](const std::string& mount_point) -> std::optional<FsSpace> {
    struct statvfs v {};
    if (::statvfs(join(root, mount_point).c_str(), &v) != 0) return std::nullopt;
    const auto frsize = static_cast<std::uint64_t>(v.f_frsize != 0 ? v.f_frsize : v.f_bsize);
    return FsSpace{static_cast<std::uint64_t>(v.f_blocks) * frsize, static_cast<std::uint64_t>(v.f_bavail) * frsize};
  };
  // Libraries: the host's own on the real root; on a fixture tree only those named by PODPERF_*_LIBRARY
  // (a fake NVML in tests), so a tree is not mixed with this machine's GPUs and providers.
  auto library = [real_root](const char* env_name, const char* host_default) -> std::string {
    const char* v = std::getenv(env_name);
    if (v != nullptr && *v != '\0') return v;
    return real_root ? host_default : "";
  };
  in.nvml_library = library("PODPERF_NVML_LIBRARY", "libnvidia-ml.so.1");
  in.libfabric_library = library("PODPERF_LIBFABRIC_LIBRARY", "libfabric.so.1");
  in.nccl_library = library("PODPERF_NCCL_LIBRARY", "libnccl.so.2");
  in.cuda_library = library("PODPERF_CUDA_LIBRARY", "libcuda.so.1");
  KmsgRead k = read_kmsg_nonblocking(join(root, "/dev/kmsg"));
  if (k.ok) {
    in.kmsg_text = std::move(k.text);
  } else {
    in.kmsg_why = k.why;
  }
  return in;
}

std::string findings_to_json(const std::vector<Finding>& findings) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();  // keeps the Finding field order
  for (const auto& f : findings) {
    a.push_back({{"tag", tag_name(f.tag)},
                 {"source", f.source},
                 {"check", f.check},
                 {"host", f.host},
                 {"observed", f.observed},
                 {"expected", f.expected},
                 {"meaning", f.meaning},
                 {"effect", f.effect},
                 {"next_step", f.next_step}});
  }
  // replace: a stray non-UTF-8 byte must not throw
  return a.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string findings_to_table(const std::vector<Finding>& findings) {
  std::size_t check_w = 5;
  for (const auto& f : findings) check_w = std::max(check_w, f.check.size());
  std::string out = fmt::format("{:<7}  {:<{}}  {:<60}  {}\n", "TAG", "CHECK", check_w, "OBSERVED", "NEXT STEP");
  for (const auto& f : findings) {
    out += fmt::format("{:<7}  {:<{}}  {:<60}  {}\n", tag_name(f.tag), f.check, check_w, cell(f.observed, 60),
                       f.tag == Tag::kOk ? "" : cell(f.next_step, 160));
  }
  const auto count = [&](Tag t) { return std::count_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.tag == t; }); };
  out += fmt::format("{} CONCERN, {} INFO, {} OK\n", count(Tag::kConcern), count(Tag::kInfo), count(Tag::kOk));
  return out;
}

namespace {

// One host's findings, printed (the command without its error handling).
int signals(const SignalsOptions& o, std::ostream& out) {
  if (!(o.sample_seconds >= 0.0 && o.sample_seconds <= 600.0)) {
    throw UsageError(fmt::format("--sample {} is out of range (expected 0 to 600 seconds)", o.sample_seconds));
  }
  const Rules rules = load_rules(o.rules_path);
  const std::string root = o.root.empty() ? "/" : o.root;
  const HostSnapshot before = collect_snapshot(root, real_collect_inputs(root));
  std::vector<Finding> findings = evaluate(before, rules);
  if (o.sample_seconds > 0.0) {
    std::this_thread::sleep_for(std::chrono::duration<double>(o.sample_seconds));
    const HostSnapshot after = collect_snapshot(root, real_collect_inputs(root));
    std::vector<Finding> delta = evaluate_delta(before, after, rules);
    findings.insert(findings.end(), std::make_move_iterator(delta.begin()), std::make_move_iterator(delta.end()));
  }
  if (o.json) {
    out << findings_to_json(findings);
  } else {
    out << fmt::format("host {} (root {}, rules {})\n", before.hostname.value, root, rules.source);
    out << findings_to_table(findings);
  }
  return kExitOk;
}

}  // namespace

int run_signals_command(const SignalsOptions& o, std::ostream& out, std::ostream& err) {
  return run_offline_command("podperf signals", err, [&] { return signals(o, out); });
}

int run_signals_command(const std::string& root, bool json, const std::string& rules_path, std::ostream& out,
                        std::ostream& err) {
  SignalsOptions o;
  o.root = root;
  o.json = json;
  o.rules_path = rules_path;
  o.sample_seconds = 0.0;
  return run_signals_command(o, out, err);
}

int run_signals_command(const std::string& root, bool json, const std::string& rules_path) {
  SignalsOptions o;
  o.root = root;
  o.json = json;
  o.rules_path = rules_path;
  return run_signals_command(o, std::cout, std::cerr);
}

}  // namespace podperf

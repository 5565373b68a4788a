// The evidence that a job ran (contract in triage_rules.hpp): communicators that finished init (every
// "Init START" matched by an "Init COMPLETE", or every rank that connected its rings also connected its
// trees), nccl-tests result rows (old "error" and new "#wrong" columns) and markers, and training
// progress lines (read by the progress rule); the PASS summary and why a log without evidence is
// INCONCLUSIVE.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "analysis/base/text.hpp"
#include "analysis/logs/triage_rules.hpp"

namespace podperf::logs {
namespace {

constexpr std::size_t kMaxKeys = 4096;

bool line_has(std::string_view s, std::string_view p) {
  return s.find(p) != std::string_view::npos;
}

void insert_capped(std::set<std::string>& s, std::string key) {
  if (s.size() < kMaxKeys) s.insert(std::move(key));
}

// "comm 0x5581 rank 3 ..." -> "host comm 0x5581"; the rank when no pointer is printed.
std::string comm_key(const std::string& host, const LogEvent& ev) {
  const std::string& t = ev.text;
  std::string key = host + ":" + std::to_string(ev.pid);
  if (const std::size_t at = t.find("comm 0x"); at != std::string::npos) {
    std::size_t e = at + 5;
    while (e < t.size() && std::isxdigit(static_cast<unsigned char>(t[e]))) ++e;
    if (e < t.size() && t[e] == 'x') ++e;
    while (e < t.size() && std::isxdigit(static_cast<unsigned char>(t[e]))) ++e;
    return key + " " + t.substr(at + 5, e - at - 5);
  }
  return key + " [" + std::to_string(ev.cuda_dev) + "]";
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size() && out.size() < 32) {
    while (i < s.size() && s[i] == ' ') ++i;
    const std::size_t b = i;
    while (i < s.size() && s[i] != ' ') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

bool is_int(std::string_view w) {
  if (!w.empty() && w.front() == '-') w.remove_prefix(1);
  if (w.empty()) return false;
  for (char c : w) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool is_number(std::string_view w) {
  if (w.empty()) return false;
  char* end = nullptr;
  const std::string s(w);
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

// One nccl-tests result row: "size count type [redop [root]] time algbw busbw wrong time algbw busbw wrong"
// (the old format prints a max error instead of #wrong). True when it is one; `wrong` when a #wrong is > 0.
bool read_test_row(std::string_view t, HealthSeen& h, bool& wrong) {
  // A launcher's rank tags ("[0]", mpirun --tag-output, srun --label) can land inside a row where the
  // benchmark flushed its output in pieces: "-1[0]    1626.5". Read the row without them.
  std::string untagged;
  if (t.find('[') != std::string_view::npos) {
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '[') {
        std::size_t j = i + 1;
        while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) ++j;
        if (j > i + 1 && j < t.size() && t[j] == ']') {
          untagged += ' ';
          i = j;
          continue;
        }
      }
      untagged += t[i];
    }
    t = untagged;
  }
  const std::vector<std::string_view> w = words(t);
  const std::size_t n = w.size();
  if (n < 11 || n > 14 || !is_int(w[0]) || !is_int(w[1]) || w[2].empty() ||
      !std::isalpha(static_cast<unsigned char>(w[2][0]))) {
    return false;
  }
  for (std::size_t i = n - 8; i < n; ++i) {
    if (!is_number(w[i]) && w[i] != "N/A") return false;
  }
  wrong = false;
  for (std::size_t i : {n - 5, n - 1}) {
    if (is_int(w[i]) && std::strtoll(std::string(w[i]).c_str(), nullptr, 10) > 0) wrong = true;
    // The old format's max error ("1e+00"): a sum of exact test values is off by rounding at most; a whole
    // unit is wrong data.
    if (!is_int(w[i]) && std::strtod(std::string(w[i]).c_str(), nullptr) >= 1.0) wrong = true;
  }
  ++h.test_rows;
  if (wrong) ++h.test_rows_wrong;
  const long long size = std::strtoll(std::string(w[0]).c_str(), nullptr, 10);
  for (std::size_t i : {n - 6, n - 2}) {
    const double bw = std::strtod(std::string(w[i]).c_str(), nullptr);
    if (bw > h.peak_busbw) {
      h.peak_busbw = bw;
      h.peak_size = size;
    }
    if (h.busbw_by_size.size() < kMaxKeys || h.busbw_by_size.count(size) > 0) {
      double& best = h.busbw_by_size[size];
      best = std::max(best, bw);
    }
  }
  return true;
}

std::string bytes_text(long long b) {
  if (b >= (1LL << 30)) return fmt::format("{:g} GiB", static_cast<double>(b) / (1LL << 30));
  if (b >= (1LL << 20)) return fmt::format("{:g} MiB", static_cast<double>(b) / (1LL << 20));
  if (b >= (1LL << 10)) return fmt::format("{:g} KiB", static_cast<double>(b) / (1LL << 10));
  return fmt::format("{} B", b);
}

// Every communicator that started init completed it, and at least one did; or every rank that connected
// its rings connected its trees.
bool init_done(const HealthSeen& h) {
  if (h.init_complete_lines > 0) {
    return std::all_of(h.init_started.begin(), h.init_started.end(),
                       [&h](const std::string& k) { return h.init_completed.count(k) > 0; });
  }
  return !h.trees_connected.empty() &&
         std::all_of(h.rings_connected.begin(), h.rings_connected.end(),
                     [&h](const std::string& k) { return h.trees_connected.count(k) > 0; });
}

}  // namespace

bool read_health_line(const LogEvent& ev, const std::string& host, HealthSeen& h) {
  const std::string& t = ev.text;
  if (!ev.level.empty()) {
    if (!ev.pairs.may_contain("Init ") && !ev.pairs.may_contain("Connected all")) return false;
    if (line_has(
            t,
            "Init timings")) {  // NCCL 2.23+: "Init timings - ncclCommInitRank...: rank 0 nranks 8 total 55.01 (...)"
      if (const std::size_t at = t.find(" total "); at != std::string::npos) {
        const double s = std::strtod(t.c_str() + at + 7, nullptr);
        if (s > h.slowest_init_s) h.slowest_init_s = s, h.slowest_init = text::printable(t, 240, true);
      }
    } else if (line_has(t, "Init COMPLETE")) {
      ++h.init_complete_lines;
      insert_capped(h.init_completed, comm_key(host, ev));
    } else if (line_has(t, "Init START")) {
      insert_capped(h.init_started, comm_key(host, ev));
    } else if (t.starts_with("Connected all rings")) {
      insert_capped(h.rings_connected, host + ":" + std::to_string(ev.pid) + " [" + std::to_string(ev.cuda_dev) + "]");
    } else if (t.starts_with("Connected all trees")) {
      insert_capped(h.trees_connected, host + ":" + std::to_string(ev.pid) + " [" + std::to_string(ev.cuda_dev) + "]");
    }
    return false;
  }
  if (t.empty()) return false;
  if (t.front() == '#') {
    if (t.starts_with("# Out of bounds values") && t.ends_with(" OK")) h.out_of_bounds_ok = true;
    if (t.starts_with("# Collective test concluded")) h.test_concluded = true;
    return false;
  }
  if (!std::isdigit(static_cast<unsigned char>(t.front()))) return false;
  bool wrong = false;
  return read_test_row(t, h, wrong) && wrong;
}

std::string healthy_summary(const HealthSeen& h, const std::vector<HostTransport>& transport) {
  std::vector<std::string> seen;
  if (h.init_complete_lines > 0 && init_done(h)) {
    seen.push_back(fmt::format("Init COMPLETE on {} communicator rank(s){}", h.init_completed.size(),
                               h.init_started.empty() ? "" : ", every one that started init"));
  } else if (init_done(h)) {
    seen.push_back(fmt::format("rings and trees connected on {} rank(s)", h.trees_connected.size()));
  }
  if (h.test_rows > 0 || h.out_of_bounds_ok || h.test_concluded) {
    std::string s = "nccl-tests";
    if (h.test_rows > 0) {
      s += fmt::format(": {} result row(s) without wrong results, peak busbw {:.2f} GB/s at {}", h.test_rows,
                       h.peak_busbw, bytes_text(h.peak_size));
    }
    if (h.out_of_bounds_ok) s += "; 'Out of bounds values : 0 OK'";
    if (h.test_concluded) s += "; the test concluded";
    seen.push_back(s);
  }
  if (h.progress_lines >= 2) {
    seen.push_back(fmt::format("{} training progress line(s), the last: {}", h.progress_lines, h.last_progress));
  }
  if (h.completion_lines > 0) seen.push_back("finished or started fine: " + h.last_completion);
  if (seen.empty()) return "";
  int net = 0, gdr = 0;
  std::set<std::string> nets, intra;
  for (const HostTransport& t : transport) {
    net += t.net_channels;
    gdr += t.gdrdma_channels;
    if (!t.net.empty()) nets.insert(t.net);
    intra.insert(t.intra.begin(), t.intra.end());
  }
  if (net > 0) {
    seen.push_back(fmt::format("inter-node {} with GDRDMA on {} of {} NET channel line(s)",
                               nets.empty() ? std::string("NET") : text::join(nets, "/"), gdr, net));
  }
  if (!intra.empty()) seen.push_back("intra-node " + text::join(intra, ", "));
  return "no error or degraded setting in these logs; " + text::join(seen, "; ");
}

void busbw_drop_findings(const HealthSeen& h, std::vector<TriageFinding>& out) {
  constexpr std::size_t kMinSizes = 4;   // a table, not a row or two
  constexpr double kMinPeakGBps = 1.0;   // below it, latency-bound sizes only: no bandwidth to lose
  constexpr double kDropFraction = 0.5;  // the largest size under half of the best
  constexpr double kDipFraction = 0.25;  // any size under a quarter of the best of the smaller ones
  if (h.busbw_by_size.size() < kMinSizes) return;
  const auto& [largest, last] = *h.busbw_by_size.rbegin();
  long long best_size = -1, dip_size = -1, dip_best_size = -1;
  double best = 0.0, dip = 0.0, dip_best = 0.0;
  for (const auto& [size, bw] : h.busbw_by_size) {
    // A protocol or algorithm switch costs a size some bandwidth (a dip to half is common); a size at a
    // quarter of what a smaller one reached is a path that failed there, whatever the sizes after it do.
    if (dip_size < 0 && best >= kMinPeakGBps && bw < kDipFraction * best) {
      dip_size = size, dip = bw, dip_best = best, dip_best_size = best_size;
    }
    if (size != largest && bw > best) best = bw, best_size = size;
  }
  const bool drop = best >= kMinPeakGBps && last < kDropFraction * best;
  if (!drop && dip_size < 0) return;
  TriageFinding f;
  f.tag = "WARN";
  f.priority = 1;
  f.check = "nccl_tests.busbw_drop";
  f.cause = drop ? fmt::format(
                       "nccl-tests busbw falls from {:.2f} GB/s at {} to {:.2f} GB/s at the largest size, {}: large "
                       "messages run at a fraction of what smaller ones reached (an algorithm or transport path that "
                       "fails at scale, such as NVLS, CollNet or one NET path, a slow link, or congestion)",
                       best, bytes_text(best_size), last, bytes_text(largest))
                 : fmt::format(
                       "nccl-tests busbw falls from {:.2f} GB/s at {} to {:.2f} GB/s at {} before it rises again: "
                       "messages of that size take a path that fails or stalls (an algorithm or protocol chosen for "
                       "that range, one NET path, or a network plugin's handling of it)",
                       dip_best, bytes_text(dip_best_size), dip, bytes_text(dip_size));
  f.next_step =
      "rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,TUNING to see the algorithm per size, and with NCCL_ALGO=Ring "
      "(or NCCL_NVLS_ENABLE=0) to see whether one path is at fault; test the nodes pairwise (podperf pairs) for a "
      "slow link";
  f.cause_rank = 60;
  out.push_back(std::move(f));
}

void slow_init_findings(const HealthSeen& h, std::vector<TriageFinding>& out) {
  // NCCL initialises a communicator in a second or a few (a few more at thousands of ranks); half a minute
  // is a stall somewhere in it, and its breakdown says where.
  constexpr double kSlowInitSeconds = 30.0;
  if (h.slowest_init_s <= kSlowInitSeconds) return;
  TriageFinding f;
  f.tag = "WARN";
  f.priority = 1;
  f.check = "nccl.slow_init";
  f.cause = fmt::format(
      "an NCCL communicator took {:.1f} s to initialise (its breakdown: {}): most of it in one stage (kernels: "
      "loading the CUDA module, often a lazy-loading or driver problem; bootstrap: reaching the other ranks; "
      "connect: transport setup)",
      h.slowest_init_s, h.slowest_init);
  f.next_step =
      "compare the stages of the breakdown across ranks; for kernels check CUDA_MODULE_LOADING and the driver, for "
      "bootstrap the network between hosts (NCCL_SOCKET_IFNAME)";
  f.cause_rank = 40;
  out.push_back(std::move(f));
}

std::string why_inconclusive(const HealthSeen& h, std::size_t nccl_lines) {
  std::size_t pending = 0;
  for (const std::string& k : h.init_started) pending += h.init_completed.count(k) == 0 ? 1 : 0;
  std::string why;
  if (pending > 0) {
    why = fmt::format(
        "{} communicator rank(s) printed Init START without Init COMPLETE (an init that hung, or an "
        "excerpt that ends there)",
        pending);
  } else if (!h.rings_connected.empty()) {
    why = "ranks connected their rings but these logs end before their trees or Init COMPLETE";
  } else if (nccl_lines > 0) {
    why = "only NCCL's init preamble (no communicator finished init, no result, no training step)";
  } else if (h.progress_lines == 1) {
    why = "a single progress line";
  } else {
    why = "no error, no NCCL init result, no benchmark result and no training progress were recognised";
  }
  return why +
         ": these logs cannot say whether the job ran or failed; collect the whole output of every rank up to the "
         "job's end (NCCL_DEBUG=INFO), and how it ended (sacct -j <job> -o state,exitcode; kubectl get pod; the "
         "launcher's exit status)";
}

}  // namespace podperf::logs

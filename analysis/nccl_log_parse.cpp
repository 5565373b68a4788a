// NCCL debug-log parser and rules. Line formats: FIELD-NOTES section 5; NCCL's debug.cc prefix
// "host:pid:tid [cudaDev] NCCL INFO msg", WARN lines "host:pid:tid [cudaDev] file:line NCCL WARN msg".
// Every line is tested with plain string_view searches (no regex): a 100k-line log parses in
// milliseconds, and damaged input cannot make a pattern backtrack.
#include "analysis/nccl_log.hpp"
#include "analysis/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <system_error>
#include <unordered_map>
#include <utility>

namespace podperf {
namespace {

using std::string_view;

constexpr std::size_t kMaxWarnings = 50;
constexpr std::size_t kMaxErrors = 50;
constexpr std::size_t kMaxDevices = 64;
constexpr std::size_t kMaxIfaces = 16;
constexpr std::size_t kMaxTextBytes = 400;  // longest message kept (bytes)
constexpr std::size_t kShownInFinding = 3;  // messages quoted in a finding
constexpr const char* kSource = "nccl-log";

bool has(string_view s, string_view needle) { return s.find(needle) != string_view::npos; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_host_char(char c) { return is_alnum(c) || c == '-' || c == '_' || c == '.'; }


string_view leading_digits(string_view s) {
  std::size_t n = 0;
  while (n < s.size() && is_digit(s[n])) ++n;
  return s.substr(0, n);
}

template <class T>
bool to_number(string_view s, T& out) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end;
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not one.
std::size_t utf8_length(string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t len = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return 0;
  }
  return len;
}

// Text safe to put in a report: valid UTF-8 kept, control bytes and broken sequences become '?',
// at most kMaxTextBytes bytes (cut on a character boundary, "..." appended).
std::string clean_text(string_view s) {
  s = text::trim(s);
  std::string out;
  out.reserve(std::min(s.size(), kMaxTextBytes) + 3);
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = 1;
    if (b >= 0x80) len = utf8_length(s, i);
    if (out.size() + std::max<std::size_t>(len, 1) > kMaxTextBytes) {
      out += "...";
      break;
    }
    if (b >= 0x80 && len > 0) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += (b < 0x20 && b != '\t') || b == 0x7F || b >= 0x80 ? '?' : static_cast<char>(b);
      ++i;
    }
  }
  return out;
}

// Only the characters a version, provider or fabric name uses; anything else ends the token.
std::string clean_token(string_view s) {
  std::string out;
  for (char c : s) {
    if (!(is_alnum(c) || c == '.' || c == '-' || c == '_' || c == ';' || c == '+')) break;
    out += c;
  }
  return out;
}

template <class T>
void add_unique(std::vector<T>& v, T value, std::size_t cap) {
  if (v.size() >= cap) return;
  if (std::find(v.begin(), v.end(), value) != v.end()) return;
  v.push_back(std::move(value));
}

// ---- line structure ----

struct Marker {
  bool found = false;
  std::size_t pos = 0;  // where "NCCL INFO" starts
  std::size_t msg = 0;  // where the message starts
  bool warn = false;
};

// The first "NCCL INFO" / "NCCL WARN" / "NCCL TRACE" that is a word of its own.
Marker find_marker(string_view line) {
  static constexpr std::array<string_view, 3> kLevels = {"INFO", "WARN", "TRACE"};
  for (std::size_t p = line.find("NCCL "); p != string_view::npos; p = line.find("NCCL ", p + 1)) {
    if (p > 0 && is_alnum(line[p - 1])) continue;
    const string_view rest = line.substr(p + 5);
    for (string_view level : kLevels) {
      if (!rest.starts_with(level)) continue;
      if (rest.size() > level.size() && rest[level.size()] != ' ') continue;
      const std::size_t msg = std::min(line.size(), p + 5 + level.size() + 1);
      return {true, p, msg, level == "WARN"};
    }
  }
  return {};
}

struct Prefix {
  bool ok = false;
  string_view host;
  long pid = -1;
  int dev = -1;
};

// Finds "host:pid:tid [dev]" in the text before the level marker. Anything may precede it (a timestamp,
// "[1,3]<stdout>:", "3: ", a CloudWatch column), and a "file:line " may follow it on WARN lines.
Prefix parse_prefix(string_view head) {
  for (std::size_t i = head.find('['); i != string_view::npos; i = head.find('[', i + 1)) {
    if (i < 6 || head[i - 1] != ' ') continue;
    std::size_t j = i + 1;
    if (j < head.size() && head[j] == '-') ++j;
    const std::size_t digits_start = j;
    while (j < head.size() && is_digit(head[j])) ++j;
    if (j == digits_start || j >= head.size() || head[j] != ']') continue;
    if (j + 1 < head.size() && head[j + 1] != ' ') continue;
    int dev = -1;
    if (!to_number(head.substr(i + 1, j - i - 1), dev)) continue;
    // Backwards from the space before '[': tid digits, ':', pid digits, ':', host.
    const std::size_t tid_end = i - 1;
    std::size_t t = tid_end;
    while (t > 0 && is_digit(head[t - 1])) --t;
    if (t == tid_end || t == 0 || head[t - 1] != ':') continue;
    const std::size_t pid_end = t - 1;
    std::size_t p = pid_end;
    while (p > 0 && is_digit(head[p - 1])) --p;
    if (p == pid_end || p == 0 || head[p - 1] != ':') continue;
    long pid = -1;
    if (!to_number(head.substr(p, pid_end - p), pid)) continue;
    const std::size_t host_end = p - 1;
    std::size_t h = host_end;
    while (h > 0 && is_host_char(head[h - 1])) --h;
    if (h == host_end) continue;
    return {true, head.substr(h, host_end - h), pid, dev};
  }
  return {};
}

// ---- message classification (shared by NCCL lines and, for errors, any line) ----

constexpr std::array<string_view, 14> kErrorPhrases = {
    "unhandled system error",
    "unhandled cuda error",
    "remote process exited",           // "remote process exited or there was a network error"
    "remote process exiting",          // newer ncclRemoteError text
    "internal error",                  // "internal error - please report this issue to the NCCL developers"
    "ncclSystemError",
    "ncclInternalError",
    "ncclUnhandledCudaError",
    "ncclRemoteError",
    "ncclInvalidUsage",
    "Cuda failure",                    // NCCL WARN Cuda failure 'out of memory'
    "Duplicate GPU detected",
    "Connection closed by remote peer",
    "collective operation timeout",    // PyTorch watchdog
};

bool is_error(string_view msg) {
  return std::any_of(kErrorPhrases.begin(), kErrorPhrases.end(), [&](string_view p) { return has(msg, p); });
}

bool is_memlock(string_view msg) {
  if (has(msg, "ibv_reg_mr") && has(msg, "failed") && !has(msg, "Invalid argument")) return true;
  const bool registration = has(msg, "register memory") || has(msg, "register MR") || has(msg, "reg_mr");
  return registration && (has(msg, "RC: -12") || has(msg, "RC: 12,") || has(msg, "Cannot allocate memory"));
}

bool is_shm_failure(string_view msg) {
  return has(msg, "failed to extend /dev/shm") || has(msg, "Error while creating shared memory segment") ||
         has(msg, "posix_fallocate failed");
}

bool is_tcp_provider(string_view provider) {
  return has(provider, "tcp") || provider.starts_with("sockets") || provider.starts_with("udp");
}

bool is_socket_net(const NcclProcessFacts& f) {
  return f.net == "Socket" || (f.net.empty() && f.plugin_missing && f.ofi_provider.empty());
}

bool has_facts(const NcclProcessFacts& f) {
  return !f.cuda_devices.empty() || !f.nccl_version.empty() || !f.net.empty() || !f.ofi_provider.empty() ||
         f.nic_count >= 0 || f.plugin_missing || !f.socket_ifaces.empty() || f.gdrdma_seen ||
         f.net_without_gdrdma_seen || !f.intra_paths.empty() || f.channels >= 0 || f.nodes >= 0 ||
         !f.warnings.empty() || !f.errors.empty() || f.memlock_failure || f.shm_failure || f.nvls_unavailable;
}

// Adds what `from` knows and `into` does not; lists and flags are unions, counts are maxima.
void combine(NcclProcessFacts& into, const NcclProcessFacts& from) {
  for (int d : from.cuda_devices) add_unique(into.cuda_devices, d, kMaxDevices);
  if (into.nccl_version.empty()) {
    into.nccl_version = from.nccl_version;
    into.nccl_cuda = from.nccl_cuda;
  }
  if (into.net.empty()) into.net = from.net;
  if (into.ofi_provider.empty()) {
    into.ofi_provider = from.ofi_provider;
    into.ofi_fabric = from.ofi_fabric;
  }
  if (into.nic_count < 0) into.nic_count = from.nic_count;
  into.plugin_missing = into.plugin_missing || from.plugin_missing;
  for (const auto& i : from.socket_ifaces) add_unique(into.socket_ifaces, i, kMaxIfaces);
  into.gdrdma_seen = into.gdrdma_seen || from.gdrdma_seen;
  into.net_without_gdrdma_seen = into.net_without_gdrdma_seen || from.net_without_gdrdma_seen;
  into.intra_paths.insert(from.intra_paths.begin(), from.intra_paths.end());
  into.channels = std::max(into.channels, from.channels);
  into.nodes = std::max(into.nodes, from.nodes);
  for (const auto& w : from.warnings) add_unique(into.warnings, w, kMaxWarnings);
  for (const auto& e : from.errors) add_unique(into.errors, e, kMaxErrors);
  into.memlock_failure = into.memlock_failure || from.memlock_failure;
  into.shm_failure = into.shm_failure || from.shm_failure;
  into.nvls_unavailable = into.nvls_unavailable || from.nvls_unavailable;
}

// ---- the parser ----

class Parser {
 public:
  void line(string_view raw, bool cut) {
    ++out_.lines;
    const string_view text = text::trim(raw);
    if (text.empty()) return;
    const Marker m = find_marker(text);
    if (m.found) {
      ++out_.nccl_lines;
      if (cut) return;  // a cut line may end inside a number or a name: read nothing from it
      const Prefix p = parse_prefix(text.substr(0, m.pos));
      const std::size_t idx = p.ok ? process(p.host, p.pid) : kAnon;
      if (p.ok && p.dev >= 0) add_unique(facts(idx).cuda_devices, p.dev, kMaxDevices);
      message(idx, text::trim(text.substr(m.msg)), m.warn);
      return;
    }
    // NCCL prints "NCCL version 2.21.5+cuda12.4" without a prefix at some debug levels and versions.
    // PyTorch ends its error messages with ", NCCL version 2.21.5" (no "+cuda"): that is not this line.
    const std::size_t v = text.find("NCCL version ");
    const bool bare_version = v != string_view::npos && v + 13 < text.size() && is_digit(text[v + 13]) &&
                              has(clean_token(text.substr(v + 13)), "+cuda");
    if (bare_version) {
      ++out_.nccl_lines;
      if (!cut) {
        std::size_t idx = kAnon;
        if (last_ != kAnon && facts(last_).nccl_version.empty()) idx = last_;
        version(idx, text.substr(v + 13));
      }
    } else {
      ++out_.unparsed_lines;
    }
    if (!cut && is_error(text)) add_unique(facts(kAnon).errors, clean_text(text), kMaxErrors);
  }

  NcclLogSummary finish() {
    if (has_facts(anon_)) {
      if (out_.processes.size() == 1) {
        combine(out_.processes.front(), anon_);
      } else {
        anon_.host.clear();
        anon_.pid = -1;
        out_.processes.push_back(std::move(anon_));
      }
    }
    return std::move(out_);
  }

  void set_truncated() { out_.truncated_last_line = true; }

 private:
  static constexpr std::size_t kAnon = static_cast<std::size_t>(-1);

  NcclProcessFacts& facts(std::size_t idx) { return idx == kAnon ? anon_ : out_.processes[idx]; }

  std::size_t process(string_view host, long pid) {
    std::string key(host);
    key += '\0';
    key += std::to_string(pid);
    auto [it, inserted] = index_.try_emplace(std::move(key), out_.processes.size());
    if (inserted) {
      NcclProcessFacts f;
      f.host = std::string(host);
      f.pid = pid;
      out_.processes.push_back(std::move(f));
      plugin_loaded_.push_back(0);
    }
    last_ = it->second;
    return it->second;
  }

  char& plugin_loaded(std::size_t idx) { return idx == kAnon ? anon_plugin_loaded_ : plugin_loaded_[idx]; }

  void version(std::size_t idx, string_view rest) {
    NcclProcessFacts& f = facts(idx);
    const std::string token = clean_token(rest);  // "2.28.3+cuda13.0"
    const std::size_t plus = token.find('+');
    std::string ver = token.substr(0, plus);
    if (ver.empty() || !is_digit(ver.front())) return;
    f.nccl_version = std::move(ver);
    f.nccl_cuda.clear();
    if (plus != std::string::npos) {
      string_view build = string_view(token).substr(plus + 1);
      if (build.starts_with("cuda")) f.nccl_cuda = std::string(build.substr(4));
    }
  }

  void provider(NcclProcessFacts& f, string_view msg) {
    // "NET/OFI Selected provider is efa, fabric is efa-direct (found 32 nics)"
    // older: "NET/OFI Selected Provider is efa (found 4 nics)", "NET/OFI Selected Provider is tcp;ofi_rxm"
    string_view rest = msg.substr(msg.find("rovider is ") + 11);
    std::string prov = clean_token(rest);
    while (!prov.empty() && (prov.back() == '.' || prov.back() == '+')) prov.pop_back();
    if (prov.empty()) return;
    f.ofi_provider = std::move(prov);
    f.ofi_fabric.clear();
    if (const std::size_t k = rest.find(", fabric is "); k != string_view::npos) {
      const string_view fabric = rest.substr(k + 12);  // "efa-direct", or a subnet "10.1.0.0/16" for tcp
      f.ofi_fabric = clean_text(fabric.substr(0, fabric.find_first_of(" (,")));
    }
    if (const std::size_t k = rest.find("(found "); k != string_view::npos) {
      const string_view after = rest.substr(k + 7);
      const string_view digits = leading_digits(after);
      int n = -1;
      if (after.substr(digits.size()).starts_with(" nic") && to_number(digits, n) && n >= 0) f.nic_count = n;
    }
  }

  void socket_ifaces(NcclProcessFacts& f, string_view msg) {
    // "NET/Socket : Using [0]eth0:10.0.0.1<0> [1]ens5:10.0.0.2<0>"
    for (std::size_t k = msg.find('['); k != string_view::npos; k = msg.find('[', k + 1)) {
      const string_view after = msg.substr(k + 1);
      const string_view digits = leading_digits(after);
      if (digits.empty() || !after.substr(digits.size()).starts_with("]")) continue;
      const string_view name_start = after.substr(digits.size() + 1);
      const std::size_t colon = name_start.find_first_of(": <");
      std::string name = clean_text(name_start.substr(0, colon));
      if (!name.empty()) add_unique(f.socket_ifaces, std::move(name), kMaxIfaces);
    }
  }

  void transport(NcclProcessFacts& f, string_view msg) {
    // "Channel 00/0 : 0[0] -> 8[0] [send] via NET/Libfabric/0/GDRDMA", "... via NET/AWS Libfabric/3(1)/GDRDMA/Shared",
    // "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read", "Channel 00 : 0[0] -> 1[1] via SHM/direct/direct"
    auto component = [](string_view s) { return text::trim(s.substr(0, s.find('/'))); };
    if (std::size_t k = msg.find("via NET/"); k != string_view::npos) {
      const string_view rest = msg.substr(k + 8);
      const string_view name = component(rest);
      if (f.net.empty() && !name.empty()) f.net = clean_text(name);
      if (has(rest, "/GDRDMA")) {
        f.gdrdma_seen = true;
      } else {
        f.net_without_gdrdma_seen = true;
      }
    } else if (k = msg.find("via P2P/"); k != string_view::npos) {
      const string_view kind = component(msg.substr(k + 8));
      if (!kind.empty()) f.intra_paths.insert("P2P/" + clean_text(kind));
    } else if (k = msg.find("via SHM/"); k != string_view::npos) {
      const string_view kind = component(msg.substr(k + 8));
      f.intra_paths.insert("SHM/" + (kind.empty() ? std::string("direct") : clean_text(kind)));
    } else if (has(msg, "via direct shared memory")) {  // NCCL 2.4 wording
      f.intra_paths.insert("SHM/direct");
    } else if (has(msg, "via direct pointer")) {
      f.intra_paths.insert("P2P/direct pointer");
    }
  }

  static void ring_channels(NcclProcessFacts& f, string_view msg) {
    // "Channel 00/32 :    0   1   2   3" (the channel list, no "->"): 32 channels
    string_view r = msg.substr(8);
    const string_view first = leading_digits(r);
    r.remove_prefix(first.size());
    if (first.empty() || !r.starts_with('/')) return;
    r.remove_prefix(1);
    const string_view count = leading_digits(r);
    r.remove_prefix(count.size());
    if (!r.starts_with(" :") || has(r, "->")) return;
    int n = -1;
    if (to_number(count, n) && n > 0 && n <= 4096) f.channels = std::max(f.channels, n);
  }

  void message(std::size_t idx, string_view msg, bool warn) {
    NcclProcessFacts& f = facts(idx);
    if (warn) add_unique(f.warnings, clean_text(msg), kMaxWarnings);
    if (is_error(msg)) add_unique(f.errors, clean_text(msg), kMaxErrors);
    if (is_memlock(msg)) f.memlock_failure = true;
    if (is_shm_failure(msg)) f.shm_failure = true;

    if (msg.starts_with("NCCL version ")) {
      version(idx, msg.substr(13));
    } else if (msg.starts_with("Using network ")) {
      f.net = clean_text(msg.substr(14));
    } else if (msg.starts_with("NET/OFI") && has(msg, "rovider is ")) {
      provider(f, msg);
    } else if (msg.starts_with("NET/OFI Initializing aws-ofi-nccl") || has(msg, "Loaded net plugin") ||
               (has(msg, "Successfully loaded external") && !has(msg, "tuner") && !has(msg, "profiler") &&
                !has(msg, "env plugin"))) {
      plugin_loaded(idx) = 1;
      f.plugin_missing = false;
    } else if (msg.starts_with("NET/Plugin") && (has(msg, "Could not find") || has(msg, "No plugin found"))) {
      if (!plugin_loaded(idx)) f.plugin_missing = true;
    } else if (msg.starts_with("NET/Socket") && has(msg, "Using [")) {
      socket_ifaces(f, msg);
    } else if (has(msg, "via ")) {
      transport(f, msg);
    } else if (msg.starts_with("Channel ")) {
      ring_channels(f, msg);
    } else if (has(msg, " coll channels")) {
      // "32 coll channels, 32 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer"
      int n = -1;
      const string_view digits = leading_digits(msg);
      if (msg.substr(digits.size()).starts_with(" coll channels") && to_number(digits, n) && n > 0 && n <= 4096) {
        f.channels = std::max(f.channels, n);
      }
    } else if (const std::size_t k = msg.find(" nNodes "); k != string_view::npos) {
      int n = -1;
      if (to_number(leading_digits(msg.substr(k + 8)), n) && n > 0) f.nodes = std::max(f.nodes, n);
    } else if (has(msg, "NVLS multicast support is not available")) {
      f.nvls_unavailable = true;
    }
  }

  NcclLogSummary out_;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<char> plugin_loaded_;  // per process: a net plugin was loaded
  NcclProcessFacts anon_;
  char anon_plugin_loaded_ = 0;
  std::size_t last_ = kAnon;
};

// ---- findings ----



std::string quote_first(const std::vector<std::string>& msgs) {
  std::vector<std::string> shown(msgs.begin(), msgs.begin() + static_cast<std::ptrdiff_t>(
                                                                   std::min(msgs.size(), kShownInFinding)));
  std::string out = text::join(shown, " | ");
  if (msgs.size() > shown.size()) out += fmt::format(" | (+{} more)", msgs.size() - shown.size());
  return out;
}

std::string version_label(const NcclProcessFacts& f) {
  if (f.nccl_version.empty()) return "";
  return f.nccl_cuda.empty() ? f.nccl_version : f.nccl_version + "+cuda" + f.nccl_cuda;
}

// "in 3 of 8 processes" when only some processes of a host show it.
std::string share(std::size_t k, std::size_t n) {
  if (n <= 1 || k == n) return "";
  return fmt::format(" (in {} of {} processes)", k, n);
}

std::string first_matching(const NcclProcessFacts& f, bool (*pred)(string_view), string_view fallback) {
  for (const auto& w : f.warnings)
    if (pred(w)) return w;
  for (const auto& e : f.errors)
    if (pred(e)) return e;
  return std::string(fallback);
}

struct HostGroup {
  std::string host;
  std::vector<const NcclProcessFacts*> procs;
  NcclProcessFacts all;  // the processes combined
};

std::vector<HostGroup> group_by_host(const NcclLogSummary& s) {
  std::vector<HostGroup> groups;
  std::unordered_map<std::string, std::size_t> index;
  for (const auto& p : s.processes) {
    auto [it, inserted] = index.try_emplace(p.host, groups.size());
    if (inserted) {
      groups.push_back({p.host, {}, {}});
      groups.back().all.host = p.host;
    }
    HostGroup& g = groups[it->second];
    g.procs.push_back(&p);
    combine(g.all, p);
  }
  return groups;
}

Finding make(Tag tag, string_view check, const std::string& host) {
  Finding f;
  f.tag = tag;
  f.source = kSource;
  f.check = std::string(check);
  f.host = host;
  return f;
}

std::string where(const std::string& host) { return host.empty() ? "lines without a host:pid prefix: " : ""; }

void host_findings(const HostGroup& g, int expected_efa_nics, std::vector<Finding>& out) {
  const NcclProcessFacts& all = g.all;
  const std::size_t n = g.procs.size();
  auto count = [&](auto pred) {
    return static_cast<std::size_t>(
        std::count_if(g.procs.begin(), g.procs.end(), [&](const auto* p) { return pred(*p); }));
  };
  bool concern = false;
  auto add = [&](Finding f) {
    if (f.tag == Tag::kConcern) concern = true;
    out.push_back(std::move(f));
  };

  // TCP fallback: NCCL's own socket transport instead of a network plugin.
  const std::size_t socket_procs = count([](const NcclProcessFacts& p) { return is_socket_net(p); });
  if (socket_procs > 0) {
    const bool single_node = all.nodes == 1 && !all.gdrdma_seen && !all.net_without_gdrdma_seen;
    Finding f = make(single_node ? Tag::kInfo : Tag::kConcern, "nccl.tcp_fallback", g.host);
    const bool socket_logged = std::any_of(g.procs.begin(), g.procs.end(), [](const auto* p) {
      return p->net == "Socket";
    });
    if (socket_logged) {
      f.observed = where(g.host) + "NET/Socket (NCCL's TCP fallback)";
      if (!all.socket_ifaces.empty()) f.observed += " on " + text::join(all.socket_ifaces, ",");
      if (all.plugin_missing) f.observed += "; NET/Plugin: libnccl-net.so not found";
    } else {
      f.observed = where(g.host) + "NET/Plugin: libnccl-net.so not found and no network plugin loaded (the "
                                   "network in use was not logged: NCCL falls back to its TCP sockets unless "
                                   "InfiniBand verbs work)";
    }
    std::vector<std::string> ofi_warnings;
    for (const auto& w : all.warnings)
      if (w.starts_with("NET/OFI")) ofi_warnings.push_back(w);
    if (!ofi_warnings.empty()) f.observed += "; plugin warned: " + quote_first(ofi_warnings);
    f.observed += share(socket_procs, n);
    f.expected = "Using network Libfabric (aws-ofi-nccl, provider efa) or IB: a plugin driving the RDMA NICs";
    f.meaning = "NCCL found no usable network plugin (libnccl-net.so missing, not on the library path, or failed "
                "to initialize) and moves inter-node data over its own TCP sockets";
    f.effect = single_node
                   ? "None while every communicator stays inside one node; a multi-node job would run at TCP speed"
                   : "Inter-node collectives run at TCP speed on the host network (a few GB/s instead of hundreds), "
                     "with no GPUDirect RDMA and high CPU use: every pair with this node looks slow";
    f.next_step = "Inside the job on this host: `ldconfig -p | grep -i nccl-net`, `ls /opt/amazon/ofi-nccl/lib`, "
                  "`echo $LD_LIBRARY_PATH $NCCL_NET_PLUGIN`; `fi_info -p efa -t FI_EP_RDM` must list the EFA "
                  "devices; the NET/Plugin and NET/OFI lines of this log say why the plugin was not used";
    add(std::move(f));
  }

  // aws-ofi-nccl loaded, but libfabric picked a TCP provider.
  const std::size_t tcp_procs = count([](const NcclProcessFacts& p) { return is_tcp_provider(p.ofi_provider); });
  if (tcp_procs > 0) {
    const NcclProcessFacts* p = *std::find_if(g.procs.begin(), g.procs.end(),
                                              [](const auto* q) { return is_tcp_provider(q->ofi_provider); });
    Finding f = make(Tag::kConcern, "nccl.ofi_tcp", g.host);
    f.observed = where(g.host) + "NET/OFI Selected provider is " + p->ofi_provider;
    if (!p->ofi_fabric.empty()) f.observed += ", fabric is " + p->ofi_fabric;
    if (p->nic_count >= 0) f.observed += fmt::format(" (found {} nics)", p->nic_count);
    f.observed += share(tcp_procs, n);
    f.expected = "Selected provider is efa (Elastic Fabric Adapter)";
    f.meaning = "The aws-ofi-nccl plugin is loaded but libfabric chose its TCP provider: the EFA devices are not "
                "visible to the process (container without /dev/infiniband, FI_PROVIDER set) or the efa provider "
                "failed to start";
    f.effect = "Inter-node traffic goes over TCP through the plugin: bandwidth far below EFA, no GPUDirect RDMA";
    f.next_step = "`fi_info -p efa -t FI_EP_RDM` on this host and inside the container (devices "
                  "/dev/infiniband/uverbs* must be passed in); `ls /sys/class/infiniband`; `echo $FI_PROVIDER` "
                  "in the job environment (unset or efa)";
    add(std::move(f));
  }

  // EFA NIC count against the instance baseline.
  if (expected_efa_nics > 0) {
    std::vector<int> counts;
    for (const auto* p : g.procs) {
      if (p->nic_count >= 0 && p->ofi_provider.starts_with("efa")) add_unique(counts, p->nic_count, kMaxDevices);
    }
    std::vector<std::string> wrong;
    for (int c : counts)
      if (c != expected_efa_nics) wrong.push_back(std::to_string(c));
    if (!wrong.empty()) {
      const bool fewer = std::any_of(counts.begin(), counts.end(), [&](int c) { return c < expected_efa_nics; });
      Finding f = make(Tag::kConcern, "nccl.efa_nic_count", g.host);
      f.observed = where(g.host) + fmt::format("NET/OFI found {} nics (provider efa)", text::join(wrong, " and "));
      f.expected = fmt::format("found {} nics (the instance type's EFA count)", expected_efa_nics);
      f.meaning = fewer ? "libfabric sees fewer EFA devices than this instance type has: interfaces missing, down, "
                          "not passed into the container, or filtered (FI_EFA_IFACE)"
                        : "libfabric sees more EFA devices than the baseline expects: the SKU baseline may not "
                          "match this instance type";
      f.effect = fewer ? "Inter-node bandwidth drops roughly in proportion to the missing NICs: this node looks "
                         "like a straggler in pair tests"
                       : "None on bandwidth; the baseline and the verdicts built on it may be wrong";
      f.next_step = "`fi_info -p efa -t FI_EP_RDM | grep -c domain`, `ls /sys/class/infiniband`, "
                    "`echo $FI_EFA_IFACE`, the container's --device list; compare with the EFA count of the "
                    "instance type (configs/skus)";
      add(std::move(f));
    }
  }

  // Net channels without GPUDirect RDMA (TCP transports cannot have it: reported above instead).
  const std::size_t no_gdr_procs = count([](const NcclProcessFacts& p) {
    return p.net_without_gdrdma_seen && !is_socket_net(p) && !is_tcp_provider(p.ofi_provider);
  });
  if (no_gdr_procs > 0) {
    Finding f = make(Tag::kConcern, "nccl.no_gdrdma", g.host);
    const std::string net = all.net.empty() ? "<net>" : all.net;
    f.observed = where(g.host) + fmt::format("channels via NET/{}/<dev> without /GDRDMA", net);
    if (all.gdrdma_seen) f.observed += " (other channels of this host use GDRDMA)";
    f.observed += share(no_gdr_procs, n);
    f.expected = fmt::format("every inter-node channel via NET/{}/<dev>/GDRDMA", net);
    f.meaning = "NCCL does not use GPUDirect RDMA on these channels: data is staged through host memory because "
                "the NIC cannot reach GPU memory directly (peer-memory or DMA-BUF support missing, or GDR "
                "disabled by NCCL_NET_GDR_LEVEL / FI_EFA_USE_DEVICE_RDMA)";
    f.effect = "Lower inter-node bandwidth and higher latency; extra host memory traffic and CPU use";
    f.next_step = "`lsmod | grep -e nvidia_peermem -e efa`, `env | grep -e NCCL_NET_GDR -e FI_EFA_USE_DEVICE_RDMA` "
                  "in the job, the 'GPU Direct RDMA' / 'DMA-BUF' lines of this log, `nvidia-smi topo -m` for the "
                  "GPU-NIC distance";
    add(std::move(f));
  }

  // SHM inside a node: no peer-to-peer access between the GPUs.
  std::vector<std::string> shm_paths;
  std::vector<std::string> p2p_paths;
  for (const auto& path : all.intra_paths) (path.starts_with("SHM/") ? shm_paths : p2p_paths).push_back(path);
  if (!shm_paths.empty()) {
    Finding f = make(Tag::kConcern, "nccl.shm_intra_node", g.host);
    f.observed = where(g.host) + "via " + text::join(shm_paths, ", ") + " between GPUs of this node";
    if (!p2p_paths.empty()) f.observed += " (other pairs via " + text::join(p2p_paths, ", ") + ")";
    f.expected = "via P2P/CUMEM or P2P/IPC (NVLink) inside a node";
    f.meaning = "NCCL cannot use peer-to-peer access between these GPUs and copies through host shared memory: "
                "PCIe ACS or IOMMU settings, a virtualized topology, NCCL_P2P_DISABLE / NCCL_P2P_LEVEL, or "
                "ranks in containers without a shared IPC namespace";
    f.effect = "Intra-node bandwidth drops from NVLink speed (hundreds of GB/s) to host-memory speed (tens of "
               "GB/s): every collective on this node slows";
    f.next_step = "`nvidia-smi topo -m` and `nvidia-smi topo -p2p r` (peer access OK between the GPUs), "
                  "`sudo lspci -vvv | grep -i acsctl`, `cat /proc/cmdline` (iommu), `env | grep NCCL_P2P` in the job";
    add(std::move(f));
  }

  if (all.memlock_failure) {
    Finding f = make(Tag::kConcern, "nccl.memlock", g.host);
    f.observed = where(g.host) + first_matching(all, is_memlock, "memory registration failed (ENOMEM)");
    f.expected = "memory registration succeeds; `ulimit -l` is unlimited inside the job";
    f.meaning = "The locked-memory limit (RLIMIT_MEMLOCK) of the job is too low for RDMA memory registration";
    f.effect = "NCCL cannot register its buffers with the NIC: communicator init or the first collective fails, "
               "or traffic falls back to a slower path";
    f.next_step = "`ulimit -l` inside the job (expect unlimited); /etc/security/limits.conf `* - memlock unlimited`; "
                  "Slurm: LimitMEMLOCK=infinity for slurmd and PropagateResourceLimitsExcept=MEMLOCK; Docker: "
                  "--ulimit memlock=-1:-1";
    add(std::move(f));
  }

  if (all.shm_failure) {
    Finding f = make(Tag::kConcern, "nccl.dev_shm", g.host);
    f.observed = where(g.host) + first_matching(all, is_shm_failure, "shared memory segment creation failed");
    f.expected = "/dev/shm large enough for NCCL's shared-memory buffers (GBs for 8 GPUs)";
    f.meaning = "The /dev/shm tmpfs is too small for NCCL's shared-memory segments (Docker's default is 64 MB)";
    f.effect = "Communicator init fails with a system error, or NCCL cannot use its SHM and proxy buffers";
    f.next_step = "`df -h /dev/shm` inside the job; Docker: --shm-size=<size> or --ipc=host; Kubernetes: an "
                  "emptyDir with medium: Memory mounted at /dev/shm";
    add(std::move(f));
  }

  if (!all.errors.empty()) {
    Finding f = make(Tag::kConcern, "nccl.errors", g.host);
    f.observed = where(g.host) + fmt::format("{} error line(s): {}", all.errors.size(), quote_first(all.errors));
    f.expected = "no NCCL errors";
    f.meaning = "NCCL reported a failure: a system call (sockets, shared memory, registration), CUDA, an internal "
                "error, or a peer process or network failure";
    f.effect = "The affected communicator aborted: results of the cases it ran are missing or timed out";
    f.next_step = "Read the NCCL WARN lines just before the error in this host's log (they name the failing call); "
                  "for 'remote process exited' read the peer host's log first: the peer usually failed first";
    add(std::move(f));
  }

  if (all.nvls_unavailable) {
    Finding f = make(Tag::kInfo, "nccl.nvls_unavailable", g.host);
    f.observed = where(g.host) + "NVLS multicast support is not available" +
                 share(count([](const NcclProcessFacts& p) { return p.nvls_unavailable; }), n);
    f.expected = "NVLS available on NVSwitch systems (HGX H100/H200/B200) with Fabric Manager running";
    f.meaning = "NVLink SHARP (in-switch reduction) is off: no NVSwitch, Fabric Manager not running, driver or "
                "CUDA too old, or NCCL_NVLS_ENABLE=0";
    f.effect = "On NVSwitch systems intra-node all-reduce loses the NVLS bandwidth gain; elsewhere none";
    f.next_step = "`nvidia-smi -q | grep -i -A2 fabric`, `systemctl status nvidia-fabricmanager`, "
                  "`env | grep NCCL_NVLS` in the job";
    add(std::move(f));
  }

  if (!all.warnings.empty()) {
    Finding f = make(Tag::kInfo, "nccl.warnings", g.host);
    f.observed = where(g.host) + fmt::format("{} distinct NCCL WARN message(s): {}", all.warnings.size(),
                                             quote_first(all.warnings));
    f.expected = "no NCCL WARN lines";
    f.meaning = "NCCL or the network plugin warned; some warnings are harmless probes, others explain a failure "
                "or a fallback reported in another finding";
    f.effect = "None by itself; see this host's other findings";
    f.next_step = "grep 'NCCL WARN' in this host's NCCL debug log (nccl.<host>.<pid>)";
    add(std::move(f));
  }

  if (!concern && !g.host.empty()) {
    Finding f = make(Tag::kOk, "nccl.summary", g.host);
    std::vector<std::string> parts{describe_transport(all)};
    if (!all.ofi_fabric.empty()) parts.push_back("fabric " + all.ofi_fabric);
    if (!all.intra_paths.empty()) parts.push_back(text::join(all.intra_paths, "+"));
    if (all.channels > 0) parts.push_back(fmt::format("{} channels", all.channels));
    if (!all.nccl_version.empty()) parts.push_back("NCCL " + version_label(all));
    f.observed = text::join(parts, ", ");
    f.expected = "a network plugin with GDRDMA between nodes, P2P (NVLink) inside the node";
    if (expected_efa_nics > 0) f.expected += fmt::format(", {} EFA NICs", expected_efa_nics);
    f.meaning = fmt::format("NCCL's transport on this host looks healthy ({} process(es) logged)", n);
    f.effect = "None";
    f.next_step = "None";
    add(std::move(f));
  }
}

}  // namespace

NcclLogSummary parse_nccl_log(string_view text) {
  Parser parser;
  std::size_t start = 0;
  bool saw_newline = false;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    if (nl == string_view::npos) {
      const string_view last = text.substr(start);
      const bool cut = saw_newline && !text::trim(last).empty();
      if (cut) parser.set_truncated();
      parser.line(last, cut);
      break;
    }
    saw_newline = true;
    parser.line(text.substr(start, nl - start), false);
    start = nl + 1;
  }
  return parser.finish();
}

void merge_into(NcclLogSummary& into, const NcclLogSummary& other) {
  std::map<std::pair<std::string, long>, std::size_t> index;
  for (std::size_t i = 0; i < into.processes.size(); ++i) {
    index.try_emplace({into.processes[i].host, into.processes[i].pid}, i);
  }
  for (const auto& p : other.processes) {
    auto [it, inserted] = index.try_emplace({p.host, p.pid}, into.processes.size());
    if (inserted) {
      into.processes.push_back(p);
    } else {
      combine(into.processes[it->second], p);
    }
  }
  into.lines += other.lines;
  into.nccl_lines += other.nccl_lines;
  into.unparsed_lines += other.unparsed_lines;
  into.truncated_last_line = into.truncated_last_line || other.truncated_last_line;
}

std::vector<Finding> nccl_log_findings(const NcclLogSummary& s, int expected_efa_nics) {
  std::vector<Finding> out;
  for (const HostGroup& g : group_by_host(s)) host_findings(g, expected_efa_nics, out);

  // Version drift: one run-wide finding listing each version with its hosts.
  std::vector<std::pair<std::string, std::vector<std::string>>> versions;  // first-seen order
  for (const auto& p : s.processes) {
    const std::string v = version_label(p);
    if (v.empty()) continue;
    auto it = std::find_if(versions.begin(), versions.end(), [&](const auto& e) { return e.first == v; });
    if (it == versions.end()) {
      versions.push_back({v, {}});
      it = std::prev(versions.end());
    }
    add_unique(it->second, p.host.empty() ? std::string("(no host)") : p.host, s.processes.size());
  }
  if (versions.size() > 1) {
    Finding f = make(Tag::kConcern, "nccl.version_drift", "");
    std::vector<std::string> groups;
    for (const auto& [v, hosts] : versions) groups.push_back(fmt::format("NCCL {} on {}", v, text::join(hosts, ", ")));
    f.observed = text::join(groups, "; ");
    f.expected = "one NCCL version (and CUDA build) across every process of the job";
    f.meaning = "Processes loaded different NCCL libraries: different container images, Python wheels, or "
                "LD_LIBRARY_PATH on some nodes";
    f.effect = "Mixed versions can disagree on protocols and algorithms: hangs or errors at init, or every "
               "communicator runs at the older version's speed; results are not comparable across nodes";
    f.next_step = "On the odd hosts: `ldconfig -p | grep libnccl`, `echo $LD_LIBRARY_PATH`, the container image "
                  "tag, `python -c 'import torch; print(torch.cuda.nccl.version())'` where PyTorch is used";
    out.push_back(std::move(f));
  }

  const bool no_nccl = s.nccl_lines == 0;
  const bool mostly_other = !no_nccl && s.unparsed_lines > 9 * s.nccl_lines;
  if (no_nccl || mostly_other) {
    Finding f = make(Tag::kInfo, "nccl.unreadable", "");
    if (s.lines == 0) {
      f.observed = "no NCCL debug log (no file, or empty)";
    } else if (no_nccl) {
      f.observed = fmt::format("no NCCL INFO/WARN line in {} line(s) of input", s.lines);
    } else {
      f.observed = fmt::format("only {} of {} lines are NCCL lines", s.nccl_lines, s.lines);
    }
    f.expected = "NCCL_DEBUG=INFO output: 'host:pid:tid [dev] NCCL INFO ...' lines";
    f.meaning = no_nccl ? "The log is empty, not an NCCL debug log, or damaged: nothing about NCCL's transport can "
                          "be concluded from it"
                        : "Most of the input is not NCCL output (application output or damaged text); the NCCL "
                          "lines found were used";
    f.effect = no_nccl ? "No transport diagnosis for this run" : "None if the NCCL lines are complete";
    f.next_step = "Run with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET NCCL_DEBUG_FILE=<run dir>/nccl.%h.%p and "
                  "check a file is written for every process on every node";
    out.push_back(std::move(f));
  }

  if (s.truncated_last_line) {
    Finding f = make(Tag::kInfo, "nccl.truncated", "");
    f.observed = "the NCCL log ends in the middle of a line";
    f.expected = "every line ends with a newline";
    f.meaning = "The process was probably killed (or the disk filled) while NCCL was writing; the cut line was "
                "not used";
    f.effect = "Facts printed after the cut are missing: a failure at the end of the run may not be reported";
    f.next_step = "Look at how the process ended (scheduler log, `dmesg` for the OOM killer) and at the last "
                  "complete lines of the log";
    out.push_back(std::move(f));
  }
  return out;
}

NcclLogSummary parse_nccl_log_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  NcclLogSummary out;
  std::error_code ec;
  std::vector<fs::path> files;
  fs::directory_iterator it(dir, ec);
  if (ec) return out;
  for (const fs::directory_iterator end{}; it != end; it.increment(ec)) {
    if (ec) break;
    const fs::path& path = it->path();
    std::error_code type_ec;
    if (path.filename().string().starts_with("nccl.") && it->is_regular_file(type_ec) && !type_ec) {
      files.push_back(path);
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) continue;
    merge_into(out, parse_nccl_log(buffer.view()));
  }
  return out;
}

std::string describe_transport(const NcclProcessFacts& f) {
  if (is_socket_net(f)) {
    std::string s = "Socket (TCP fallback)";
    if (!f.socket_ifaces.empty()) s += " on " + text::join(f.socket_ifaces, ",");
    return s;
  }
  if (f.net.empty() && f.ofi_provider.empty()) {
    if (!f.intra_paths.empty()) {
      return "intra-node only (" + text::join(f.intra_paths, "+") + ")";
    }
    return "unknown transport";
  }
  std::string s = f.net.empty() ? std::string("Libfabric") : f.net;
  if (!f.ofi_provider.empty()) {
    s += "/" + f.ofi_provider;
    if (is_tcp_provider(f.ofi_provider)) s += " (TCP, not EFA)";
  }
  if (f.nic_count >= 0) s += fmt::format(" {} NIC{}", f.nic_count, f.nic_count == 1 ? "" : "s");
  if (f.net_without_gdrdma_seen) {
    s += f.gdrdma_seen ? " GDRDMA on some channels only" : " without GDRDMA";
  } else if (f.gdrdma_seen) {
    s += " GDRDMA";
  }
  return s;
}

}  // namespace podperf

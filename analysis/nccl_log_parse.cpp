// NCCL debug-log parser (analysis/nccl_log.hpp): the line grammar (level marker, the host:pid:tid [dev]
// prefix behind launcher tags and timestamps), the facts each message gives, kept per (host, pid), and
// merging parsed logs. Line formats: FIELD-NOTES section 5; NCCL's debug.cc prefix
// "host:pid:tid [cudaDev] NCCL INFO msg", WARN lines "host:pid:tid [cudaDev] file:line NCCL WARN msg".
// Every line is tested with plain string_view searches (no regex): a 100k-line log parses in
// milliseconds, and damaged input cannot make a pattern backtrack. The rules on the facts are in
// analysis/nccl_log_findings.cpp. Pure except parse_nccl_log_dir (reads files); never throws on content.
#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>
#include <unordered_map>
#include <utility>

#include "analysis/nccl_log.hpp"
#include "analysis/nccl_log_facts.hpp"
#include "analysis/text.hpp"

namespace podperf {
namespace {

using nccl_log_detail::add_unique;
using nccl_log_detail::combine;
using nccl_log_detail::has;
using nccl_log_detail::is_error;
using nccl_log_detail::is_memlock;
using nccl_log_detail::is_shm_failure;
using nccl_log_detail::kMaxDevices;
using nccl_log_detail::kMaxErrors;
using nccl_log_detail::kMaxIfaces;
using nccl_log_detail::kMaxWarnings;
using std::string_view;

constexpr std::size_t kMaxTextBytes = 400;  // longest message kept (bytes)

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alnum(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_host_char(char c) {
  return is_alnum(c) || c == '-' || c == '_' || c == '.';
}

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

// Whether the parse found anything about the process.
bool has_facts(const NcclProcessFacts& f) {
  return !f.cuda_devices.empty() || !f.nccl_version.empty() || !f.net.empty() || !f.ofi_provider.empty() ||
         f.nic_count >= 0 || f.plugin_missing || !f.socket_ifaces.empty() || f.gdrdma_seen ||
         f.net_without_gdrdma_seen || !f.intra_paths.empty() || f.channels >= 0 || f.nodes >= 0 ||
         !f.warnings.empty() || !f.errors.empty() || f.memlock_failure || f.shm_failure || f.nvls_unavailable;
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

}  // namespace podperf

// The fast reader of run.json's pairs (see run_json_scan.hpp). Floor: analysis/, local. Throws
// ScanUnsupported for whatever it leaves to nlohmann's reader, InputError when the file cannot be read.
#include "analysis/io/run_json_scan.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstring>
#include <utility>

#include "analysis/base/errors.hpp"

namespace podperf {

namespace {
constexpr std::size_t kPieceBytes = 1 << 20;
}  // namespace

JsonCursor::JsonCursor(std::string_view text) : data_(text.data()), len_(text.size()) {}

JsonCursor::JsonCursor(int fd, std::string path) : fd_(fd), path_(std::move(path)) {
  buffer_.resize(kPieceBytes);
  data_ = buffer_.data();
}

JsonCursor::~JsonCursor() {
  if (fd_ >= 0) ::close(fd_);
}

int JsonCursor::peek_refill() {
  while (pos_ >= len_) {
    if (!refill()) return -1;
  }
  return static_cast<unsigned char>(data_[pos_]);
}

bool JsonCursor::refill() {
  if (fd_ < 0) return false;
  // Keep what the mark holds, move it to the front, grow the buffer when it fills more than half.
  const std::size_t keep_from = mark_ == kNoMark ? pos_ : mark_;
  const std::size_t kept = len_ - keep_from;
  if (kept > 0 && keep_from > 0) std::memmove(buffer_.data(), buffer_.data() + keep_from, kept);
  if (mark_ != kNoMark) mark_ = 0;
  pos_ -= keep_from;
  len_ = kept;
  if (buffer_.size() - len_ < kPieceBytes / 2) buffer_.resize(buffer_.size() * 2);
  data_ = buffer_.data();
  for (;;) {
    const ssize_t got = ::read(fd_, buffer_.data() + len_, buffer_.size() - len_);
    if (got > 0) {
      len_ += static_cast<std::size_t>(got);
      return true;
    }
    if (got == 0) return false;
    if (errno != EINTR) throw InputError(fmt::format("{}: read failed: {}", path_, std::strerror(errno)));
  }
}

void JsonCursor::skip_ws() {
  for (;;) {
    const int c = peek();
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
    advance();
  }
}

void JsonCursor::expect(char c) {
  if (peek() != static_cast<unsigned char>(c)) throw ScanUnsupported{};
  advance();
}

namespace {

[[noreturn]] void unsupported() {
  throw ScanUnsupported{};
}

bool is_digit(int c) {
  return c >= '0' && c <= '9';
}

// A JSON number's text (strict grammar, as nlohmann's lexer takes it), at most 40 characters.
struct Number {
  std::array<char, 40> text{};
  std::size_t len = 0;
  bool integral = true;

  [[nodiscard]] const char* begin() const { return text.data(); }
  [[nodiscard]] const char* end() const { return text.data() + len; }
};

void put(JsonCursor& in, Number& n, int c) {
  if (n.len == n.text.size()) unsupported();
  n.text[n.len++] = static_cast<char>(c);
  in.advance();
}

void read_digits(JsonCursor& in, Number& n) {
  int c = in.peek();
  if (!is_digit(c)) unsupported();
  while (is_digit(c)) {
    put(in, n, c);
    c = in.peek();
  }
}

void read_number(JsonCursor& in, Number& n) {
  n.len = 0;
  n.integral = true;
  int c = in.peek();
  if (c == '-') {
    put(in, n, c);
    c = in.peek();
  }
  if (c == '0') {
    put(in, n, c);
  } else {
    read_digits(in, n);
  }
  c = in.peek();
  if (c == '.') {
    n.integral = false;
    put(in, n, c);
    read_digits(in, n);
    c = in.peek();
  }
  if (c == 'e' || c == 'E') {
    n.integral = false;
    put(in, n, c);
    c = in.peek();
    if (c == '+' || c == '-') put(in, n, c);
    read_digits(in, n);
  }
}

template <typename T>
bool parse_exact(const Number& n, T& value) {
  const auto [ptr, ec] = std::from_chars(n.begin(), n.end(), value);
  return ec == std::errc{} && ptr == n.end();
}

// As nlohmann: an integral number that fits 64 bits is an integer converted to double, any other a
// correctly rounded double (out of range: left to nlohmann, which refuses it).
double read_double(JsonCursor& in) {
  Number n;
  read_number(in, n);
  if (n.integral) {
    if (n.text[0] == '-') {
      std::int64_t v = 0;
      if (parse_exact(n, v)) return static_cast<double>(v);
    } else {
      std::uint64_t v = 0;
      if (parse_exact(n, v)) return static_cast<double>(v);
    }
  }
  double d = 0.0;
  if (!parse_exact(n, d)) unsupported();
  return d;
}

std::int64_t read_int64(JsonCursor& in) {
  Number n;
  read_number(in, n);
  std::int64_t v = 0;
  if (!n.integral || !parse_exact(n, v)) unsupported();
  return v;
}

int read_int(JsonCursor& in) {
  const std::int64_t v = read_int64(in);
  if (v < INT_MIN || v > INT_MAX) unsupported();
  return static_cast<int>(v);
}

std::uint64_t read_uint64(JsonCursor& in) {
  Number n;
  read_number(in, n);
  std::uint64_t v = 0;
  if (!n.integral || n.text[0] == '-' || !parse_exact(n, v)) unsupported();
  return v;
}

bool read_bool(JsonCursor& in) {
  const bool value = in.peek() == 't';
  for (const char c : std::string_view(value ? "true" : "false")) in.expect(c);
  return value;
}

// Past a string's closing quote, the cursor at its opening one. Returns whether it holds an escape
// or a byte outside ASCII (then nlohmann decodes and checks it); a control character is left to nlohmann.
bool skip_string(JsonCursor& in) {
  in.expect('"');
  bool special = false;
  for (;;) {
    const int c = in.peek();
    if (c < 0x20) unsupported();  // the end of the input (-1) or a control character
    in.advance();
    if (c == '"') return special;
    if (c == '\\') {
      special = true;
      if (in.peek() < 0) unsupported();
      in.advance();
    } else if (c >= 0x80) {
      special = true;
    }
  }
}

void read_string(JsonCursor& in, std::string& out) {
  in.mark();
  const bool special = skip_string(in);
  const std::string_view text = in.capture();
  if (!special) {
    out.assign(text.substr(1, text.size() - 2));
  } else {
    try {
      out = nlohmann::json::parse(text).get<std::string>();
    } catch (const nlohmann::json::exception&) {
      in.unmark();
      unsupported();
    }
  }
  in.unmark();
}

// Past any value, without checking it (nlohmann checks what is taken this way).
void skip_raw_value(JsonCursor& in) {
  int c = in.peek();
  if (c == '"') {
    skip_string(in);
    return;
  }
  if (c != '{' && c != '[') {
    while (c >= 0 && c != ',' && c != '}' && c != ']' && c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      in.advance();
      c = in.peek();
    }
    return;
  }
  int depth = 0;
  for (;;) {
    c = in.peek();
    if (c < 0) unsupported();
    if (c == '"') {
      skip_string(in);
      continue;
    }
    in.advance();
    if (c == '{' || c == '[') ++depth;
    if ((c == '}' || c == ']') && --depth == 0) return;
  }
}

// Any value, as nlohmann parses it.
nlohmann::json read_any(JsonCursor& in) {
  in.mark();
  skip_raw_value(in);
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(in.capture());
  } catch (const nlohmann::json::exception&) {
    in.unmark();
    unsupported();
  }
  in.unmark();
  return value;
}

// An array of numbers. Gathered in `scratch` first so `out` is allocated once at its exact size (8.4
// million pairs of 10 samples: 0.4 GB less than growing each vector).
void read_doubles(JsonCursor& in, std::vector<double>& out, std::vector<double>& scratch) {
  scratch.clear();
  in.expect('[');
  in.skip_ws();
  if (in.peek() == ']') {
    in.advance();
  } else {
    for (;;) {
      in.skip_ws();
      scratch.push_back(read_double(in));
      in.skip_ws();
      const int c = in.peek();
      in.advance();
      if (c == ']') break;
      if (c != ',') unsupported();
    }
  }
  out.assign(scratch.begin(), scratch.end());
}

void read_nodes(JsonCursor& in, std::array<int, 2>& nodes) {
  in.expect('[');
  in.skip_ws();
  nodes[0] = read_int(in);
  in.skip_ws();
  in.expect(',');
  in.skip_ws();
  nodes[1] = read_int(in);
  in.skip_ws();
  in.expect(']');
}

// A key of plain ASCII (anything else is left to nlohmann).
void read_key(JsonCursor& in, std::string& key) {
  key.clear();
  in.expect('"');
  for (;;) {
    const int c = in.peek();
    if (c < 0x20 || c >= 0x80 || c == '\\') unsupported();
    in.advance();
    if (c == '"') return;
    key.push_back(static_cast<char>(c));
  }
}

// PairResult's members by their JSON names, in the order the writer prints them (sorted).
enum class PairField {
  kAlgbw,
  kBaseline,
  kBusbw,
  kCleared,
  kCount,
  kCv,
  kDtype,
  kError,
  kFlagged,
  kLaterRetests,
  kMax,
  kMedian,
  kMin,
  kNodes,
  kNoise,
  kOp,
  kP99,
  kRanks,
  kRatio,
  kRetestBusbw,
  kRetestSamples,
  kRound,
  kSamples,
  kSize,
  kStatus,
  kWrong,
  kUnknown
};
constexpr std::array<std::pair<std::string_view, PairField>, 26> kPairFields{{
    {"algbw_gbps", PairField::kAlgbw},
    {"baseline_gbps", PairField::kBaseline},
    {"busbw_gbps", PairField::kBusbw},
    {"cleared_by_retest", PairField::kCleared},
    {"count", PairField::kCount},
    {"cv", PairField::kCv},
    {"dtype", PairField::kDtype},
    {"error", PairField::kError},
    {"flagged", PairField::kFlagged},
    {"later_retest_busbw_gbps", PairField::kLaterRetests},
    {"max_s", PairField::kMax},
    {"median_s", PairField::kMedian},
    {"min_s", PairField::kMin},
    {"nodes", PairField::kNodes},
    {"noise_gbps", PairField::kNoise},
    {"op", PairField::kOp},
    {"p99_s", PairField::kP99},
    {"ranks", PairField::kRanks},
    {"ratio", PairField::kRatio},
    {"retest_busbw_gbps", PairField::kRetestBusbw},
    {"retest_samples_s", PairField::kRetestSamples},
    {"round", PairField::kRound},
    {"samples_s", PairField::kSamples},
    {"size_bytes", PairField::kSize},
    {"status", PairField::kStatus},
    {"wrong", PairField::kWrong},
}};

// The field named `key`, trying the one after `last` first (the writer's order).
PairField pair_field(std::string_view key, std::size_t& last) {
  const std::size_t next = last + 1 < kPairFields.size() ? last + 1 : 0;
  if (kPairFields[next].first == key) {
    last = next;
    return kPairFields[next].second;
  }
  for (std::size_t i = 0; i < kPairFields.size(); ++i) {
    if (kPairFields[i].first == key) {
      last = i;
      return kPairFields[i].second;
    }
  }
  return PairField::kUnknown;
}

void read_pair_value(JsonCursor& in, PairField field, PairResult& p, std::vector<double>& scratch) {
  switch (field) {
    case PairField::kAlgbw: p.algbw_gbps = read_double(in); return;
    case PairField::kBaseline: p.baseline_gbps = read_double(in); return;
    case PairField::kBusbw: p.busbw_gbps = read_double(in); return;
    case PairField::kCleared: p.cleared_by_retest = read_bool(in); return;
    case PairField::kCount: p.count = read_uint64(in); return;
    case PairField::kCv: p.cv = read_double(in); return;
    case PairField::kDtype: read_string(in, p.dtype); return;
    case PairField::kError: read_string(in, p.error); return;
    case PairField::kFlagged: p.flagged = read_bool(in); return;
    case PairField::kLaterRetests: read_doubles(in, p.later_retest_busbw_gbps, scratch); return;
    case PairField::kMax: p.max_s = read_double(in); return;
    case PairField::kMedian: p.median_s = read_double(in); return;
    case PairField::kMin: p.min_s = read_double(in); return;
    case PairField::kNodes: read_nodes(in, p.nodes); return;
    case PairField::kNoise: p.noise_gbps = read_double(in); return;
    case PairField::kOp: read_string(in, p.op); return;
    case PairField::kP99: p.p99_s = read_double(in); return;
    case PairField::kRanks: p.ranks = read_int(in); return;
    case PairField::kRatio: p.ratio = read_double(in); return;
    case PairField::kRetestBusbw: p.retest_busbw_gbps = read_double(in); return;
    case PairField::kRetestSamples: read_doubles(in, p.retest_samples_s, scratch); return;
    case PairField::kRound: p.round = read_int(in); return;
    case PairField::kSamples: read_doubles(in, p.samples_s, scratch); return;
    case PairField::kSize: p.size_bytes = read_uint64(in); return;
    case PairField::kStatus: read_string(in, p.status); return;
    case PairField::kWrong: p.wrong = read_int64(in); return;
    case PairField::kUnknown: (void)read_any(in); return;  // nlohmann ignores members it does not know
  }
}

// One pair object; members missing keep PairResult's defaults, a repeated one its last value (as
// nlohmann's reader).
void read_pair(JsonCursor& in, PairResult& p, std::string& key, std::vector<double>& scratch) {
  in.expect('{');
  in.skip_ws();
  if (in.peek() == '}') {
    in.advance();
    return;
  }
  std::size_t last = kPairFields.size() - 1;
  for (;;) {
    in.skip_ws();
    read_key(in, key);
    in.skip_ws();
    in.expect(':');
    in.skip_ws();
    read_pair_value(in, pair_field(key, last), p, scratch);
    in.skip_ws();
    const int c = in.peek();
    in.advance();
    if (c == '}') return;
    if (c != ',') unsupported();
  }
}

// How many pairs a run of every pair (circle rounds) has, from what precedes "pairs" in the writer's
// (sorted) order: nodes and options. 0 when not known. Only a hint: reserving it spares the copy of
// the last growth of the vector (1.3 GB at 4096 nodes).
std::size_t expected_pairs(const nlohmann::json& rest) {
  const auto nodes = rest.find("nodes");
  const auto options = rest.find("options");
  if (nodes == rest.end() || options == rest.end() || !nodes->is_array() || !options->is_object()) return 0;
  const auto sizes = options->find("sizes_bytes");
  const auto schedule = options->find("schedule");
  if (sizes == options->end() || !sizes->is_array() || schedule == options->end() || *schedule != "all") return 0;
  const std::size_t n = nodes->size();
  const std::size_t pairs = n * (n > 0 ? n - 1 : 0) / 2 * sizes->size();
  return pairs <= (std::size_t{1} << 26) ? pairs : 0;
}

void read_pairs(JsonCursor& in, std::vector<PairResult>& pairs) {
  in.expect('[');
  in.skip_ws();
  if (in.peek() == ']') {
    in.advance();
    return;
  }
  std::string key;
  std::vector<double> scratch;
  for (;;) {
    in.skip_ws();
    pairs.emplace_back();
    read_pair(in, pairs.back(), key, scratch);
    in.skip_ws();
    const int c = in.peek();
    in.advance();
    if (c == ']') return;
    if (c != ',') unsupported();
  }
}

}  // namespace

bool scan_reads_pair_field(std::string_view json_name) {
  std::size_t last = 0;
  return pair_field(json_name, last) != PairField::kUnknown;
}

ScannedObject scan_object_with_pairs(JsonCursor& in, bool to_end) {
  ScannedObject out;
  in.skip_ws();
  in.expect('{');
  in.skip_ws();
  if (in.peek() == '}') {
    in.advance();
  } else {
    std::string key;
    for (;;) {
      in.skip_ws();
      read_key(in, key);
      in.skip_ws();
      in.expect(':');
      in.skip_ws();
      if (key == "pairs") {
        if (out.has_pairs) unsupported();  // nlohmann's reader appends both arrays: left to it
        out.has_pairs = true;
        out.pairs.reserve(expected_pairs(out.rest));
        read_pairs(in, out.pairs);
      } else {
        out.rest[key] = read_any(in);
      }
      in.skip_ws();
      const int c = in.peek();
      in.advance();
      if (c == '}') break;
      if (c != ',') unsupported();
    }
  }
  if (to_end) {
    in.skip_ws();
    if (in.peek() >= 0) unsupported();
  }
  return out;
}

}  // namespace podperf

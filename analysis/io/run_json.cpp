#include "analysis/io/run_json.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/io/json_numbers.hpp"
#include "analysis/io/run_checks.hpp"
#include "analysis/io/run_json_pairs_file.hpp"
#include "analysis/io/run_json_scan.hpp"

namespace podperf {

namespace {

// JSON text of one PairResult, as nlohmann's dump with indent 2 prints it at depth 2 (an element of
// the top-level "pairs" array): keys in sorted order, numbers as nlohmann prints them.
class PairWriter {
 public:
  explicit PairWriter(std::string& out) : out_(out) {}

  void pair(const PairResult& p) {
    out_ += "    {\n";
    first_ = true;
    number("algbw_gbps", p.algbw_gbps);
    number("baseline_gbps", p.baseline_gbps);
    number("busbw_gbps", p.busbw_gbps);
    boolean("cleared_by_retest", p.cleared_by_retest);
    integer("count", p.count);
    number("cv", p.cv);
    string("dtype", p.dtype);
    string("error", p.error);
    boolean("flagged", p.flagged);
    numbers("later_retest_busbw_gbps", p.later_retest_busbw_gbps);
    number("max_s", p.max_s);
    number("median_s", p.median_s);
    number("min_s", p.min_s);
    key("nodes");
    out_ += "[\n        ";
    fmt::format_to(std::back_inserter(out_), "{},\n        {}\n      ]", p.nodes[0], p.nodes[1]);
    number("noise_gbps", p.noise_gbps);
    string("op", p.op);
    number("p99_s", p.p99_s);
    integer("ranks", p.ranks);
    number("ratio", p.ratio);
    number("retest_busbw_gbps", p.retest_busbw_gbps);
    numbers("retest_samples_s", p.retest_samples_s);
    integer("round", p.round);
    numbers("samples_s", p.samples_s);
    integer("size_bytes", p.size_bytes);
    string("status", p.status);
    integer("wrong", p.wrong);
    out_ += "\n    }";
  }

 private:
  void key(std::string_view name) {
    out_ += first_ ? "      \"" : ",\n      \"";
    first_ = false;
    out_ += name;
    out_ += "\": ";
  }
  void put_number(double v) {
    if (!std::isfinite(v)) {
      out_ += "null";  // as nlohmann: JSON has no NaN or infinity
      return;
    }
    char buffer[64];
    char* end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, v);
    out_.append(buffer, static_cast<std::size_t>(end - buffer));
  }
  void number(std::string_view name, double v) {
    key(name);
    put_number(v);
  }
  template <typename Int>
  void integer(std::string_view name, Int v) {
    key(name);
    fmt::format_to(std::back_inserter(out_), "{}", v);
  }
  void boolean(std::string_view name, bool v) {
    key(name);
    out_ += v ? "true" : "false";
  }
  void string(std::string_view name, const std::string& v) {
    key(name);
    const bool plain =
        std::all_of(v.begin(), v.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
    if (plain) {
      out_ += '"';
      out_ += v;
      out_ += '"';
    } else {  // escapes and UTF-8 handling exactly as nlohmann's
      out_ += nlohmann::json(v).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
  }
  void numbers(std::string_view name, const std::vector<double>& values) {
    key(name);
    if (values.empty()) {
      out_ += "[]";
      return;
    }
    out_ += "[\n";
    for (std::size_t i = 0; i < values.size(); ++i) {
      out_ += i == 0 ? "        " : ",\n        ";
      put_number(values[i]);
    }
    out_ += "\n      ]";
  }

  std::string& out_;
  bool first_ = true;
};

}  // namespace

void write_run_json(Run& run, const std::function<void(std::string_view)>& sink, const std::string& pairs_file) {
  // Everything but the pairs through nlohmann (small), with an empty "pairs" the pairs replace.
  std::string head;
  {
    std::vector<PairResult> pairs = std::move(run.pairs);
    run.pairs.clear();
    try {
      nlohmann::json tree = run;
      if (!pairs_file.empty()) tree["pairs_file"] = pairs_file_member(pairs, pairs_file);
      head = tree.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    } catch (...) {
      run.pairs = std::move(pairs);
      throw;
    }
    run.pairs = std::move(pairs);
    if (!pairs_file.empty()) {
      sink(head);
      return;
    }
  }
  // A top-level key is the only place a newline and two spaces precede a quote (strings escape
  // their newlines).
  constexpr std::string_view kEmptyPairs = "\n  \"pairs\": []";
  const std::size_t at = head.find(kEmptyPairs);
  if (at == std::string::npos || run.pairs.empty()) {
    sink(head);
    return;
  }
  const std::size_t open = at + kEmptyPairs.size() - 1;  // the "]" of "[]"
  std::string out(std::string_view(head).substr(0, open));
  out += "\n";
  constexpr std::size_t kChunk = 1 << 20;
  out.reserve(kChunk + 64 * 1024);
  PairWriter writer(out);
  for (std::size_t i = 0; i < run.pairs.size(); ++i) {
    if (i > 0) out += ",\n";
    writer.pair(run.pairs[i]);
    if (out.size() >= kChunk) {
      sink(out);
      out.clear();
    }
  }
  out += "\n  ";
  out += std::string_view(head).substr(open);
  sink(out);
}

namespace {

// Builds the Run from nlohmann's parser with a callback that converts every element of the top-level
// "pairs" array to a PairResult as soon as it is parsed and drops its JSON (returning false skips a
// value inside an array): the tree never holds more than one pair, so reading a run of 8.4 million
// pairs needs the Run's memory, not tens of GiB of JSON nodes. Everything else is converted as before.
// `parse(callback)` runs nlohmann's parser on the input with that callback.
template <typename Parse>
Run parse_streamed(Parse&& parse, const std::string& path) {
  std::vector<PairResult> pairs;
  std::string top_key;  // the top-level key being parsed
  std::string pair_error;
  const nlohmann::json::parser_callback_t keep = [&](int depth, nlohmann::json::parse_event_t event,
                                                     nlohmann::json& parsed) {
    if (event == nlohmann::json::parse_event_t::key && depth == 1) {
      top_key = parsed.get<std::string>();
    } else if (event == nlohmann::json::parse_event_t::object_end && depth == 2 && top_key == "pairs") {
      if (std::string e = normalize_json_numbers(parsed, fmt::format("pairs[{}]", pairs.size())); !e.empty()) {
        if (pair_error.empty()) pair_error = e;
        pairs.emplace_back();  // keeps the indices of later errors true; the run is rejected below
        return false;
      }
      try {
        pairs.push_back(parsed.get<PairResult>());
      } catch (const nlohmann::json::exception& e) {
        if (pair_error.empty()) pair_error = fmt::format("pairs[{}]: {}", pairs.size(), e.what());
        pairs.emplace_back();  // keeps the indices of later errors true; the run is rejected below
      }
      return false;
    }
    return true;
  };
  nlohmann::json j;
  try {
    j = parse(keep);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(fmt::format("{}: not valid JSON at byte {}: {}", path, e.byte, e.what()));
  } catch (const nlohmann::json::exception& e) {
    // e.g. out_of_range 406, a number too large for a double (found by fuzz_run_json)
    throw InputError(fmt::format("{}: not valid JSON: {}", path, e.what()));
  }
  return run_from_tree(j, std::move(pairs), pair_error, path);
}

}  // namespace

Run run_from_tree(nlohmann::json& j, std::vector<PairResult> pairs, const std::string& pair_error,
                  const std::string& path) {
  if (!j.is_object() || !j.contains("schema_version")) {
    throw InputError(fmt::format("{}: not a podperf run.json (no schema_version)", path));
  }
  // 1; 2 is a run whose pairs are in a pairs file (run_json_pairs_file.hpp).
  const bool has_pairs_file = j.contains("pairs_file");
  if (j["schema_version"] != kSchemaVersion && !(has_pairs_file && j["schema_version"] == kSchemaVersionPairsFile)) {
    throw InputError(
        fmt::format("{}: schema_version {} is not supported (this podperf reads {}, and {} with a "
                    "pairs_file)",
                    path, j["schema_version"].dump(), kSchemaVersion, kSchemaVersionPairsFile));
  }
  if (has_pairs_file && j["schema_version"] != kSchemaVersionPairsFile) {
    throw InputError(fmt::format("{}: bad field: pairs_file in a run.json of schema_version {} (expected {})", path,
                                 j["schema_version"].dump(), kSchemaVersionPairsFile));
  }
  if (!pair_error.empty()) throw InputError(fmt::format("{}: bad field: {}", path, pair_error));
  if (j.contains("pairs") && !j["pairs"].is_array()) {
    throw InputError(fmt::format("{}: bad field: pairs is not an array", path));
  }
  // A pair that is not an object was kept in the tree (only objects are taken out above): an error.
  if (j.contains("pairs") && !j["pairs"].empty()) {
    throw InputError(
        fmt::format("{}: bad field: pairs holds a {} (expected objects)", path, j["pairs"].front().type_name()));
  }
  if (has_pairs_file && !pairs.empty()) {
    throw InputError(fmt::format("{}: bad field: pairs given both in run.json and in its pairs_file", path));
  }
  if (std::string e = normalize_json_numbers(j, ""); !e.empty()) {
    throw InputError(fmt::format("{}: bad field: {}", path, e));
  }
  Run run;
  try {
    run = j.get<Run>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: bad field: {}", path, e.what()));
  }
  run.pairs = has_pairs_file ? read_pairs_file(j["pairs_file"], path) : std::move(pairs);
  return run;
}

namespace {

// The characters of a file read in 1 MiB pieces, as an input iterator for nlohmann's parser: the file
// is never held whole (it may be gigabytes), and the parser reads plain memory (through stdio it spent
// a fifth of its time fetching one character at a time). A default-constructed iterator is the end.
class FileChars {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  FileChars() = default;
  FileChars(int fd, std::string path) : state_(std::make_shared<State>()) {
    state_->fd = fd;
    state_->path = std::move(path);
    state_->buffer.resize(1 << 20);
    refill();
  }
  reference operator*() const { return state_->buffer[state_->pos]; }
  FileChars& operator++() {
    if (++state_->pos == state_->length) refill();
    return *this;
  }
  void operator++(int) { ++*this; }
  bool operator==(const FileChars& other) const { return at_end() == other.at_end(); }

 private:
  struct State {
    int fd = -1;
    std::string path;
    std::vector<char> buffer;
    std::size_t pos = 0;
    std::size_t length = 0;
    ~State() {
      if (fd >= 0) ::close(fd);
    }
  };
  [[nodiscard]] bool at_end() const { return !state_ || state_->pos >= state_->length; }
  void refill() {
    State& s = *state_;
    s.pos = 0;
    s.length = 0;
    for (;;) {
      const ssize_t got = ::read(s.fd, s.buffer.data(), s.buffer.size());
      if (got >= 0) {
        s.length = static_cast<std::size_t>(got);
        return;
      }
      if (errno != EINTR) throw InputError(fmt::format("{}: read failed: {}", s.path, std::strerror(errno)));
    }
  }
  std::shared_ptr<State> state_;
};

int open_run_json(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  return fd;
}

// The fast reader (run_json_scan.hpp) on `in`; nullopt where it leaves the input to nlohmann's reader.
std::optional<Run> scan_run_json(JsonCursor& in, const std::string& path) {
  ScannedObject scanned;
  try {
    scanned = scan_object_with_pairs(in, /*to_end=*/true);
  } catch (const ScanUnsupported&) {
    return std::nullopt;
  }
  return run_from_tree(scanned.rest, std::move(scanned.pairs), "", path);
}

}  // namespace

// Every reader's last step: the fields checked against docs/run.schema.json (analysis/io/run_checks).
static Run checked_against_schema(Run run, const std::string& path) {
  check_run_fields(run, path);
  return run;
}

Run read_run_json(const std::string& path) {
  {
    JsonCursor in(open_run_json(path), path);
    if (std::optional<Run> run = scan_run_json(in, path)) return checked_against_schema(std::move(*run), path);
  }
  return read_run_json_reference(path);
}

Run read_run_json_reference(const std::string& path) {
  FileChars begin(open_run_json(path), path);  // owns the descriptor from here
  return checked_against_schema(parse_streamed(
                     [&begin](const nlohmann::json::parser_callback_t& keep) {
                       return nlohmann::json::parse(begin, FileChars(), keep);
                     },
                     path),
                 path);
}

Run parse_run_json(std::string_view text, const std::string& path) {
  {
    JsonCursor in(text);
    if (std::optional<Run> run = scan_run_json(in, path)) return checked_against_schema(std::move(*run), path);
  }
  return parse_run_json_reference(text, path);
}

Run parse_run_json_reference(std::string_view text, const std::string& path) {
  return checked_against_schema(parse_streamed([text](const nlohmann::json::parser_callback_t& keep) {
                   return nlohmann::json::parse(text, keep);
                 }, path),
                 path);
}

}  // namespace podperf

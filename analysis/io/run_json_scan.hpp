#pragma once
// The fast reader of run.json and events.jsonl lines (floor: analysis/, pure, local). nlohmann's parser
// spends about 19 us on each pair of a run.json (its lexer and strtod: 10 s at 1024 nodes); this one
// reads the top-level "pairs" array straight into PairResults from a buffered stream (about 1 us a
// pair) and hands every other top-level value, small, to nlohmann. It takes only what it is sure of:
// anything else (a syntax error, a number out of range, a field of an unexpected type, a duplicate
// "pairs") throws ScanUnsupported, and the caller reads the same input with nlohmann's reader, which
// gives today's result or today's error. So on every input it accepts, it gives exactly what
// nlohmann's reader gives (tested against it), and errors stay nlohmann's.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

// The fast reader met something it leaves to nlohmann's reader. Carries no message on purpose: the
// fallback reports the input's real error.
struct ScanUnsupported {};

// Characters of a text or of a file read in 1 MiB pieces, with one optional mark: the characters from
// the mark on stay in the buffer (it grows as needed) until the mark is cleared, so a value can be
// taken whole as text. Throws InputError when the file cannot be read.
class JsonCursor {
 public:
  explicit JsonCursor(std::string_view text);
  // Owns `fd` (closed on destruction); `path` names it in errors.
  JsonCursor(int fd, std::string path);
  ~JsonCursor();
  JsonCursor(const JsonCursor&) = delete;
  JsonCursor& operator=(const JsonCursor&) = delete;

  // The next character (0-255), or -1 at the end of the input.
  int peek() { return pos_ < len_ ? static_cast<unsigned char>(data_[pos_]) : peek_refill(); }
  void advance() { ++pos_; }
  // Skips JSON whitespace (space, tab, CR, LF).
  void skip_ws();
  // The character at the cursor must be `c`: consumes it, else throws ScanUnsupported.
  void expect(char c);
  // Keeps the characters from the cursor on; capture() is what was read since.
  void mark() { mark_ = pos_; }
  [[nodiscard]] std::string_view capture() const { return {data_ + mark_, pos_ - mark_}; }
  void unmark() { mark_ = kNoMark; }

 private:
  static constexpr std::size_t kNoMark = static_cast<std::size_t>(-1);
  int peek_refill();
  bool refill();  // false at the end of the input

  const char* data_ = nullptr;
  std::size_t pos_ = 0;
  std::size_t len_ = 0;
  std::size_t mark_ = kNoMark;
  int fd_ = -1;  // -1: a text, nothing to refill from
  std::string path_;
  std::vector<char> buffer_;
};

// One JSON object whose top-level "pairs" array (if any) was read into PairResults; every other
// member is in `rest` (as nlohmann parses it).
struct ScannedObject {
  nlohmann::json rest = nlohmann::json::object();
  std::vector<PairResult> pairs;
  bool has_pairs = false;
};

// Reads one object at the cursor (leading whitespace skipped) and, with `to_end`, checks that only
// whitespace follows it; otherwise stops after its closing brace. Throws ScanUnsupported (see above),
// InputError when the file cannot be read.
ScannedObject scan_object_with_pairs(JsonCursor& in, bool to_end);

// Whether the fast reader reads PairResult's member `json_name` (a member it does not know would be
// skipped: a test checks that it knows every one nlohmann writes).
bool scan_reads_pair_field(std::string_view json_name);

}  // namespace podperf

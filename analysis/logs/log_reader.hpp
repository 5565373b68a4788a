#pragma once
// Streaming reader of job logs: one file (plain or .gz, through zlib, which reads plain files as they
// are) line by line in bounded memory, each line parsed into a LogEvent (log_prefix.hpp) and handed to
// a callback; nothing of the file is kept. Lines longer than kMaxLineBytes are cut (counted), a final
// line without a line end is read, any bytes are accepted; a file whose first block holds NUL bytes is
// binary and skipped. Analysis floor, local file reads only; throws nothing.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "analysis/logs/log_event.hpp"

namespace podperf::logs {

inline constexpr std::size_t kMaxLineBytes = 64 * 1024;

struct ReadStats {
  std::string file;
  std::size_t lines = 0;                // lines read
  std::size_t recognised = 0;           // lines that became events
  std::size_t truncated_lines = 0;      // lines longer than kMaxLineBytes (cut there)
  std::size_t bytes = 0;                // uncompressed bytes read
  std::string format;                   // "" line log, "ras-json", "flight-recorder-json", "pickle"
  bool binary = false;                  // skipped: NUL bytes in the first block
  bool unterminated_last_line = false;  // the input has several lines and the last has no line end
  std::string error;                    // "" or why the file could not be read (open failed, corrupt gzip)
};

using EventSink = std::function<void(const LogEvent&)>;

// What to do with a last line that has no line end after earlier lines: `read` it (a pasted log often
// ends so), or `drop` it (a log NCCL was writing when the process died: the cut line may end inside a
// number, "(found 3", and is counted but not handed on).
enum class CutLastLine { read, drop };

// Reads `path` (plain or gzip) and calls `sink` once per non-blank line (`recognised` says whether its
// grammar was known: an unprefixed "Bus error" still reaches the pattern table). `order` is the running
// position across files (advanced by this file's lines). A line's `host` is only what the line itself
// names; `prior_host` is the host named last before it in the same file.
ReadStats read_log_file(const std::string& path, std::size_t& order, const EventSink& sink,
                        CutLastLine cut = CutLastLine::read);

// Same, over text already in memory (tests, fuzzing, logs gathered over MPI): `name` is the file name
// the events carry.
ReadStats read_log_text(std::string_view content, const std::string& name, std::size_t& order, const EventSink& sink,
                        CutLastLine cut = CutLastLine::read);

}  // namespace podperf::logs

// Streaming line reader over zlib's gzread (plain or gzip input), contract in log_reader.hpp.
#include "analysis/logs/log_reader.hpp"

#include <zlib.h>

#include <cstring>
#include <memory>
#include <vector>

#include "analysis/base/text.hpp"
#include "analysis/logs/log_prefix.hpp"

namespace podperf::logs {
namespace {

constexpr std::size_t kBlockBytes = 1 << 20;

// Turns complete lines into events, keeping only the current partial line.
class LineSplitter {
 public:
  LineSplitter(ReadStats& stats, std::size_t& order, const EventSink& sink, CutLastLine cut)
      : stats_(stats), order_(order), sink_(sink), cut_last_(cut) {}

  void feed(const char* data, std::size_t n) {
    std::size_t start = 0;
    while (start < n) {
      const void* nl = std::memchr(data + start, '\n', n - start);
      const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - data) : n;
      append(data + start, end - start);
      if (!nl) return;
      finish_line();
      start = end + 1;
    }
  }

  void finish() {
    if (partial_.empty() && !cut_) return;
    if (stats_.lines > 0 && !text::trim(partial_).empty()) {
      stats_.unterminated_last_line = true;
      if (cut_last_ == CutLastLine::drop) {
        ++stats_.lines;
        ++order_;
        return;
      }
    }
    finish_line();
  }

 private:
  void append(const char* p, std::size_t n) {
    const std::size_t room = kMaxLineBytes - std::min(kMaxLineBytes, partial_.size());
    if (n > room) cut_ = true;
    partial_.append(p, std::min(n, room));
  }

  void finish_line() {
    ++stats_.lines;
    ++order_;
    if (cut_) ++stats_.truncated_lines;
    std::string_view line = partial_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    LogEvent& ev = ev_;
    reset_keeping_capacity(ev);
    ev.recognised = parse_log_line(line, ev);
    if (ev.recognised || !ev.text.empty()) {
      if (ev.file != stats_.file) ev.file = stats_.file;
      ev.line = stats_.lines;
      ev.order = order_;
      ev.prior_host = last_host_;
      if (!ev.host.empty()) last_host_ = ev.host;
      if (ev.recognised) ++stats_.recognised;
      sink_(ev);
    }
    partial_.clear();
    cut_ = false;
  }

  // One event reused for every line: its strings keep their capacity, so a line costs no allocation.
  static void reset_keeping_capacity(LogEvent& ev) {
    ev.time.clear();
    ev.host.clear();
    ev.rank = -1;
    ev.task = -1;
    ev.pid = -1;
    ev.cuda_dev = -1;
    ev.source = LogSource::other;
    ev.level.clear();
    ev.code_location.clear();
    ev.return_code = -1;
    ev.text.clear();
    ev.recognised = false;
  }

  LogEvent ev_;
  ReadStats& stats_;
  std::size_t& order_;
  const EventSink& sink_;
  std::string partial_;
  std::string last_host_;
  CutLastLine cut_last_;
  bool cut_ = false;
};

bool looks_binary(const char* data, std::size_t n) {
  return std::memchr(data, '\0', std::min<std::size_t>(n, 4096)) != nullptr;
}

}  // namespace

ReadStats read_log_text(std::string_view content, const std::string& name, std::size_t& order, const EventSink& sink,
                        CutLastLine cut) {
  ReadStats stats;
  stats.file = name;
  stats.bytes = content.size();
  if (looks_binary(content.data(), content.size())) {
    stats.binary = true;
    return stats;
  }
  LineSplitter splitter(stats, order, sink, cut);
  splitter.feed(content.data(), content.size());
  splitter.finish();
  return stats;
}

ReadStats read_log_file(const std::string& path, std::size_t& order, const EventSink& sink, CutLastLine cut) {
  ReadStats stats;
  stats.file = path;
  std::unique_ptr<gzFile_s, int (*)(gzFile)> gz(gzopen(path.c_str(), "rb"), gzclose);
  if (!gz) {
    stats.error = std::string("cannot open: ") + std::strerror(errno);
    return stats;
  }
  gzbuffer(gz.get(), 256 * 1024);
  std::vector<char> block(kBlockBytes);
  LineSplitter splitter(stats, order, sink, cut);
  bool first = true;
  for (;;) {
    const int got = gzread(gz.get(), block.data(), static_cast<unsigned>(block.size()));
    if (got < 0) {
      int code = 0;
      stats.error = std::string("read failed: ") + gzerror(gz.get(), &code);
      break;
    }
    if (got == 0) break;
    const auto n = static_cast<std::size_t>(got);
    if (first && looks_binary(block.data(), n)) {
      stats.binary = true;
      return stats;
    }
    first = false;
    stats.bytes += n;
    splitter.feed(block.data(), n);
  }
  splitter.finish();
  return stats;
}

}  // namespace podperf::logs

#include "bench/results_dir.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string_view>

#include "analysis/base/errors.hpp"
#include "analysis/io/run_json.hpp"
#include "analysis/io/run_json_pairs_file.hpp"

namespace podperf {
namespace {

std::string dump(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

void write_all(int fd, std::string_view text, const std::string& what) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw RuntimeFailure(fmt::format("cannot write {}: {}", what, std::strerror(errno)));
    }
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

ResultsDir::ResultsDir(const std::string& root, const std::string& run_id) {
  namespace fs = std::filesystem;
  if (run_id.empty() || run_id.find('/') != std::string::npos || run_id == "." || run_id == "..") {
    throw UsageError(fmt::format("--run-id '{}': must be a plain name (no '/')", run_id));
  }
  path_ = (fs::path(root) / run_id).string();
  std::error_code ec;
  fs::create_directories(path_, ec);
  if (ec) throw UsageError(fmt::format("--out {}: cannot create results directory {}: {}", root, path_, ec.message()));
  if (fs::exists(fs::path(path_) / "run.json")) {
    throw UsageError(fmt::format("--out {}: {} already holds a run.json; choose another --run-id", root, path_));
  }
  const std::string events = path_ + "/events.jsonl";
  events_fd_ = ::open(events.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (events_fd_ < 0) {
    throw UsageError(fmt::format("--out {}: cannot write {}: {}", root, events, std::strerror(errno)));
  }
}

ResultsDir::~ResultsDir() {
  if (events_fd_ >= 0) ::close(events_fd_);
}

void ResultsDir::append_event(const nlohmann::json& event, bool durable) {
  // A failed write (ENOSPC, EIO) must not leave half a line: cut the file back to where it was, so
  // events.jsonl stays one complete JSON object per line with every earlier event intact.
  const off_t before = ::lseek(events_fd_, 0, SEEK_END);
  try {
    write_all(events_fd_, dump(event, -1) + "\n", path_ + "/events.jsonl");
  } catch (...) {
    if (before >= 0) (void)::ftruncate(events_fd_, before);
    throw;
  }
  if (durable && ::fsync(events_fd_) != 0) {
    throw RuntimeFailure(fmt::format("cannot fsync {}/events.jsonl: {}", path_, std::strerror(errno)));
  }
}

namespace {

// Writes `final_path` through a temporary file beside it and a rename (fsynced first when `durable`);
// `write(sink)` produces the text. Throws RuntimeFailure; the temporary file is removed on failure.
void write_streamed(const std::string& final_path, const std::string& tmp_path, bool durable,
                    const std::function<void(const std::function<void(std::string_view)>&)>& write) {
  const int fd = ::open(tmp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw RuntimeFailure(fmt::format("cannot write {}: {}", tmp_path, std::strerror(errno)));
  try {
    write([&](std::string_view text) { write_all(fd, text, tmp_path); });
    if (durable && ::fsync(fd) != 0) {
      throw RuntimeFailure(fmt::format("cannot fsync {}: {}", tmp_path, std::strerror(errno)));
    }
  } catch (...) {
    ::close(fd);
    ::unlink(tmp_path.c_str());
    throw;
  }
  if (std::rename(tmp_path.c_str(), final_path.c_str()) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmp_path.c_str());
    throw RuntimeFailure(fmt::format("cannot rename {} to {}: {}", tmp_path, final_path, std::strerror(err)));
  }
  ::close(fd);
}

}  // namespace

void ResultsDir::write_run(Run& run, bool durable) {
  // A large run's pairs go to pairs.bin first (run.json names it), a small run's stay in run.json.
  const std::string pairs_path = path_ + "/" + kPairsFileName;
  const bool pairs_file = run.pairs.size() >= kPairsFileMinPairs;
  if (pairs_file) {
    run.schema_version = kSchemaVersionPairsFile;
    write_streamed(pairs_path, path_ + "/.pairs.bin.tmp", durable,
                   [&](const auto& sink) { write_pairs_file(run.pairs, sink); });
  } else {
    run.schema_version = kSchemaVersion;
    (void)::unlink(pairs_path.c_str());  // from an earlier write of this run, if any
  }
  // Streamed: the pairs never become a JSON tree (see write_run_json).
  write_streamed(path_ + "/run.json", path_ + "/.run.json.tmp", durable, [&](const auto& sink) {
    write_run_json(run, sink, pairs_file ? kPairsFileName : "");
    sink("\n");
  });
}

}  // namespace podperf

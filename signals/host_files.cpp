// The small-file primitives of the snapshot readers (signals/host_files.hpp). Local, read-only; failures
// are returned with their reason, never thrown.
#include "signals/host_files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace podperf::host_files {

namespace fs = std::filesystem;

std::string clean(std::string_view s) {
  return text::printable(s, 200, false);
}

bool read_text(const std::string& path, std::string& out, std::string& why) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    why = path + ": is a directory";
    return false;
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = path + ": " + (errno != 0 ? std::strerror(errno) : "cannot open");
    return false;
  }
  std::string text;
  char buf[8192];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) break;
  }
  if (in.bad()) {
    why = path + ": read error";
    return false;
  }
  out = std::move(text);
  return true;
}

Reading<std::string> read_first_line(const std::string& path) {
  Reading<std::string> r;
  std::string text;
  if (!read_text(path, text, r.why)) return r;
  const std::size_t nl = text.find('\n');
  r.value = clean(std::string_view(text).substr(0, nl));
  if (r.value.empty()) {
    r.why = path + ": empty";
    return r;
  }
  r.readable = true;
  return r;
}

std::optional<std::string> first_line(const std::string& path) {
  Reading<std::string> r = read_first_line(path);
  if (!r.readable) return std::nullopt;
  return r.value;
}

std::optional<std::vector<std::string>> list_dir(const std::string& path, std::string& why) {
  std::error_code ec;
  fs::directory_iterator it(path, ec);
  if (ec) {
    why = path + ": " + ec.message();
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (; it != fs::directory_iterator() && names.size() < kMaxEntries; it.increment(ec)) {
    if (ec) break;
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace podperf::host_files

#pragma once
// Private to signals/: the small-file primitives of the snapshot readers (procfs, sysfs, /opt): read a
// whole file, its first line, a number, a directory's names. Local, read-only; never throws on host
// content (only std::bad_alloc): a failure returns false / nullopt with the reason
// ("<path>: <strerror>") where the caller asks for it.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/base/text.hpp"
#include "signals/snapshot.hpp"

namespace podperf::host_files {

inline constexpr std::size_t kMaxFileBytes = std::size_t{4} << 20;  // procfs/sysfs files are small
inline constexpr std::size_t kMaxEntries = 4096;                    // directory entries looked at

// Only printable ASCII, at most 200 bytes: values end up in reports.
std::string clean(std::string_view s);

// Reads a whole (small) file, at most about kMaxFileBytes. On failure returns false and sets `why`.
bool read_text(const std::string& path, std::string& out, std::string& why);

// The file's first line, cleaned; not readable when the file is unreadable or the line empty.
Reading<std::string> read_first_line(const std::string& path);
// The same, nullopt on failure.
std::optional<std::string> first_line(const std::string& path);

// The first line as a number of type T; nullopt when unreadable or not a number.
template <class T>
std::optional<T> read_number(const std::string& path) {
  std::optional<std::string> line = first_line(path);
  T value{};
  if (!line || !text::to_number(*line, value)) return std::nullopt;
  return value;
}

// Entry names of a directory (at most kMaxEntries), sorted; nullopt (with why) when it cannot be listed.
std::optional<std::vector<std::string>> list_dir(const std::string& path, std::string& why);

}  // namespace podperf::host_files

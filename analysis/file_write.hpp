#pragma once
// The one file writer of podperf's outputs: whole files written through a temporary and a rename,
// so a reader never sees half a file and a failure never leaves a truncated one.
#include <string>

namespace podperf {

// Writes `text` to `path` through `path`.tmp and a rename. Throws RuntimeFailure naming the file.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace podperf

#pragma once
// The one file writer of podperf's outputs: whole files written through a temporary and a rename,
// so a reader never sees half a file and a failure never leaves a truncated one.
#include <functional>
#include <iosfwd>
#include <string>

namespace podperf {

// Writes `text` to `path` through `path`.tmp and a rename. Throws RuntimeFailure naming the file.
void write_file_atomically(const std::string& path, const std::string& text);
// The same, the content written by `write` into the temporary file as it goes (an output of millions of
// rows never held whole in memory). An exception from `write` removes the temporary and propagates.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace podperf

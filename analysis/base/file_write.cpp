#include "analysis/base/file_write.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <system_error>

#include "analysis/base/errors.hpp"

namespace podperf {

void write_file_atomically(const std::string& path, const std::string& text) {
  write_file_atomically(path, [&text](std::ostream& file) { file << text; });
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
    if (!file) throw RuntimeFailure(fmt::format("{}: cannot open for writing", tmp));
    try {
      write(file);
    } catch (...) {
      file.close();
      std::error_code ignored;
      fs::remove(tmp, ignored);
      throw;
    }
    file.flush();
    if (!file) throw RuntimeFailure(fmt::format("{}: write failed", tmp));
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw RuntimeFailure(fmt::format("{}: cannot rename into place", path));
  }
}

}  // namespace podperf

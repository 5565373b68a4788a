#pragma once
// Golden files of the writers' tests: tests/golden/<name> holds the expected bytes. Regenerate after an
// intended change with PODPERF_UPDATE_GOLDEN=1 (then review the diff), e.g.
//   PODPERF_UPDATE_GOLDEN=1 build/tests/unit/podperf_unit_tests --gtest_filter='Report*:CompareHtml*'
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace podperf::golden {

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Compares `actual` with tests/golden/<name>; with PODPERF_UPDATE_GOLDEN=1 rewrites the golden
// instead. On a difference, writes the actual text to the build tree and names the first differing line.
inline void expect_golden(const std::string& name, const std::string& actual) {
  const std::filesystem::path golden = std::filesystem::path(PODPERF_GOLDEN_DIR) / name;
  const char* update = std::getenv("PODPERF_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::filesystem::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(golden)) << golden << " missing: run with PODPERF_UPDATE_GOLDEN=1 to create it";
  const std::string expected = read_file(golden);
  if (expected == actual) return;
  const std::filesystem::path actual_path = std::filesystem::path(PODPERF_GOLDEN_ACTUAL_DIR) / name;
  std::filesystem::create_directories(actual_path.parent_path());
  std::ofstream(actual_path, std::ios::binary) << actual;
  std::istringstream e(expected), a(actual);
  std::string el, al;
  int line = 1;
  while (std::getline(e, el) && std::getline(a, al) && el == al) ++line;
  ADD_FAILURE() << name << " differs from the golden at line " << line << ":\n  golden: " << el << "\n  actual: " << al
                << "\nactual written to " << actual_path
                << "; diff it, and if intended run with PODPERF_UPDATE_GOLDEN=1";
}

}  // namespace podperf::golden

// Message sizes: parse_size (binary K/M/G/T suffixes) and size_sweep (nccl-tests -b -e -f -i).
#include "sweep/sizes.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/base/units.hpp"

namespace podperf {
namespace {

constexpr std::uint64_t kK = 1024;
constexpr std::uint64_t kM = kK * 1024;
constexpr std::uint64_t kG = kM * 1024;
constexpr std::uint64_t kT = kG * 1024;

TEST(ParseSize, Table) {
  struct Case {
    const char* text;
    std::uint64_t bytes;
  };
  const std::vector<Case> cases{
      {"8", 8},
      {"0", 0},
      {"64K", 64 * kK},
      {"4M", 4 * kM},
      {"1G", kG},
      {"2GiB", 2 * kG},
      {"512KB", 512 * kK},
      {"1T", kT},
      {"64k", 64 * kK},
      {"4m", 4 * kM},
      {"1g", kG},
      {"3mib", 3 * kM},
      {"100B", 100},
      {"16384", 16384},
      {"16777215T", 16777215ULL * kT},  // largest T value that fits in 64 bits
      {"18446744073709551615", 18446744073709551615ULL},
  };
  for (const Case& c : cases) EXPECT_EQ(parse_size(c.text, "-b"), c.bytes) << c.text;
}

TEST(ParseSize, ErrorsTable) {
  const std::vector<std::string> bad{
      "abc", "-1", "4X", "", "K", " 8", "8 ", "1.5G", "4MM", "0x10",
      "99999999999999999999",  // does not fit in 64 bits
      "20000000000G",          // fits, but not after the suffix
      "16777216T",             // 2^64 exactly
  };
  for (const std::string& text : bad) {
    EXPECT_THROW((void)parse_size(text, "-b/--minbytes"), UsageError) << "'" << text << "'";
  }
}

TEST(ParseSize, ErrorNamesTheFlagAndTheText) {
  const std::vector<std::string> bad{"abc", "4X", "99999999999999999999", "20000000000G"};
  for (const std::string& text : bad) {
    try {
      (void)parse_size(text, "-e/--maxbytes");
      ADD_FAILURE() << text;
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("-e/--maxbytes"), std::string::npos) << what;
      EXPECT_NE(what.find(text), std::string::npos) << what;
    }
  }
}

TEST(SizeSweep, Table) {
  struct Case {
    const char* what;
    std::uint64_t min, max, factor, increment, type;
    std::vector<std::uint64_t> expected;
  };
  const std::vector<Case> cases{
      {"-b 1M -e 8M -f 2", kM, 8 * kM, 2, 0, 4, {kM, 2 * kM, 4 * kM, 8 * kM}},
      {"-b 1M -e 9M -f 2 (max not reached exactly)", kM, 9 * kM, 2, 0, 4, {kM, 2 * kM, 4 * kM, 8 * kM}},
      {"-b 8 -e 8 (one size)", 8, 8, 2, 0, 4, {8}},
      {"-b 1K -e 64K -f 4", kK, 64 * kK, 4, 0, 4, {kK, 4 * kK, 16 * kK, 64 * kK}},
      {"-b 1M -e 4M -i 1M", kM, 4 * kM, 2, kM, 4, {kM, 2 * kM, 3 * kM, 4 * kM}},
      {"-i wins over -f", 100, 400, 2, 100, 4, {100, 200, 300, 400}},
      {"-i with factor 1", 8, 32, 1, 8, 4, {8, 16, 24, 32}},
      {"aligned down to 4-byte floats", 10, 80, 2, 0, 4, {8, 20, 40, 80}},
      {"aligned down to 8-byte doubles", 12, 100, 2, 0, 8, {8, 24, 48, 96}},
      {"increment aligned down", 6, 20, 2, 5, 4, {4, 8, 16}},
      {"aligned duplicates collapse", 4, 12, 2, 1, 4, {4, 8, 12}},
      {"type 1", 3, 24, 2, 0, 1, {3, 6, 12, 24}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(size_sweep(c.min, c.max, c.factor, c.increment, c.type), c.expected) << c.what;
  }
}

TEST(SizeSweep, StopsAtOverflowInsteadOfLooping) {
  const std::uint64_t max = ~0ULL;
  const std::vector<std::uint64_t> sizes = size_sweep(kG, max, 1024, 0, 4);
  EXPECT_EQ(sizes, (std::vector<std::uint64_t>{kG, kT, kT * 1024, kT * kM}));
}

TEST(SizeSweep, ErrorsTable) {
  struct Case {
    const char* what;
    std::uint64_t min, max, factor, increment, type;
  };
  const std::vector<Case> cases{
      {"min 0", 0, kM, 2, 0, 4},
      {"min > max", 8 * kM, kM, 2, 0, 4},
      {"factor 1 without increment", kM, 8 * kM, 1, 0, 4},
      {"factor 0 without increment", kM, 8 * kM, 0, 0, 4},
      {"min below one float", 2, kM, 2, 0, 4},
      {"min below one double", 4, kM, 2, 0, 8},
      {"more than 4096 sizes", 1, 10000, 2, 1, 1},
  };
  for (const Case& c : cases) {
    EXPECT_THROW((void)size_sweep(c.min, c.max, c.factor, c.increment, c.type), UsageError) << c.what;
  }
}

}  // namespace
}  // namespace podperf

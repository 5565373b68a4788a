// normalize_json_numbers: integer fields written as floating point are made integers or refused with
// their place; floating-point fields are left alone.
#include "analysis/io/json_numbers.hpp"

#include <gtest/gtest.h>

namespace podperf {
namespace {

TEST(JsonNumbers, WholeFloatsInIntegerFieldsBecomeIntegers) {
  nlohmann::json j = {{"pairs", {{{"size_bytes", 4096.0}, {"round", 3.0}, {"busbw_gbps", 40.5}}}}};
  EXPECT_EQ(normalize_json_numbers(j, ""), "");
  EXPECT_TRUE(j["pairs"][0]["size_bytes"].is_number_integer());
  EXPECT_EQ(j["pairs"][0]["size_bytes"].get<long>(), 4096);
  EXPECT_TRUE(j["pairs"][0]["round"].is_number_integer());
  EXPECT_TRUE(j["pairs"][0]["busbw_gbps"].is_number_float());
}

TEST(JsonNumbers, AnIntegerFieldNoIntegerHoldsIsRefusedWithItsPlace) {
  nlohmann::json j = {{"pairs", {nlohmann::json::object(), {{"size_bytes", 1e30}}}}};
  EXPECT_EQ(normalize_json_numbers(j, ""), "pairs[1].size_bytes: 1e+30 is out of range (a whole number is expected)");
  nlohmann::json half = {{"round", 2.5}};
  EXPECT_NE(normalize_json_numbers(half, "pairs[0]").find("pairs[0].round: 2.5"), std::string::npos);
  nlohmann::json node = {{"nodes", {{{"index", 1e300}}}}};
  EXPECT_NE(normalize_json_numbers(node, "").find("nodes[0].index"), std::string::npos);
}

TEST(JsonNumbers, FloatingPointFieldsAreLeftAlone) {
  nlohmann::json j = {{"pairs", {{{"samples_s", {1.7976931348623157e308, 0.5}}, {"ratio", 1.2e29}}}}};
  const nlohmann::json before = j;
  EXPECT_EQ(normalize_json_numbers(j, ""), "");
  EXPECT_EQ(j, before);
}

}  // namespace
}  // namespace podperf

#include "analysis/io/json_numbers.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <set>

#include "analysis/io/run_json.hpp"

namespace podperf {
namespace {

constexpr double kLargestExact = 9007199254740992.0;  // 2^53

// The keys that hold integers (or arrays of them) in some object of a run.json, taken from what the
// writer makes of default objects, so a field added to the Run is known here without a list to keep;
// and every "..._bytes" key.
void collect_integer_keys(const nlohmann::json& j, std::set<std::string>& keys) {
  if (!j.is_object()) return;
  for (const auto& item : j.items()) {
    const nlohmann::json& v = item.value();
    const bool integers = v.is_number_integer() ||
                          (v.is_array() && !v.empty() && v.front().is_number_integer());
    if (integers) keys.insert(item.key());
    collect_integer_keys(v, keys);
  }
}

const std::set<std::string>& integer_keys() {
  static const std::set<std::string> keys = [] {
    std::set<std::string> k;
    for (const nlohmann::json& j :
         {nlohmann::json(Run{}), nlohmann::json(PairResult{}), nlohmann::json(NodeInfo{}),
          nlohmann::json(CollectiveResult{}), nlohmann::json(SizeBaseline{}), nlohmann::json(Straggler{}),
          nlohmann::json(LinkFinding{}), nlohmann::json(NodeEstimate{}), nlohmann::json(PairClassLevel{}),
          nlohmann::json(FsRankResult{}), nlohmann::json(FsNodeResult{}), nlohmann::json(FsProbeResult{}),
          nlohmann::json(FsSlowNode{}), nlohmann::json(VerdictCheck{}), nlohmann::json(NodeVerdict{}),
          nlohmann::json(SkuBusbwPoint{}), nlohmann::json(NodeMetric{}), nlohmann::json(Finding{})}) {
      collect_integer_keys(j, k);
    }
    // Arrays empty by default (sizes_bytes, round orders) and fields named for bytes.
    for (const char* key : {"sizes_bytes", "order", "nodes"}) k.insert(key);
    return k;
  }();
  return keys;
}

bool integer_key(const std::string& key) {
  return integer_keys().contains(key) || (key.size() > 6 && key.compare(key.size() - 6, 6, "_bytes") == 0);
}

std::string member(const std::string& where, const std::string& key) {
  return where.empty() ? key : where + "." + key;
}

// An integer field's value: a whole number within 2^53 becomes an integer; anything else is refused.
std::string normalize_integer(nlohmann::json& v, const std::string& where) {
  if (v.is_object()) return normalize_json_numbers(v, where);  // "nodes": the run's node objects
  if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (std::string e = normalize_integer(v[i], fmt::format("{}[{}]", where, i)); !e.empty()) return e;
    }
    return "";
  }
  if (!v.is_number_float()) return "";
  const double d = v.get<double>();
  if (!(std::fabs(d) <= kLargestExact) || d != std::floor(d)) {
    return fmt::format("{}: {} is out of range (a whole number is expected)", where, v.dump());
  }
  v = static_cast<std::int64_t>(d);
  return "";
}

}  // namespace

std::string normalize_json_numbers(nlohmann::json& j, const std::string& where) {
  if (j.is_object()) {
    for (auto& item : j.items()) {
      const std::string at = member(where, item.key());
      std::string e = integer_key(item.key()) && !item.value().is_object() ? normalize_integer(item.value(), at)
                                                                           : normalize_json_numbers(item.value(), at);
      if (!e.empty()) return e;
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (std::string e = normalize_json_numbers(j[i], fmt::format("{}[{}]", where, i)); !e.empty()) return e;
    }
  }
  return "";
}

}  // namespace podperf

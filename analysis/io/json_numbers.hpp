#pragma once
// What a run.json's integer fields must hold before nlohmann converts them: converting a floating-point
// number an integer cannot hold (1e30 as a size) is undefined behaviour, so such a value is refused with
// its place; a whole number written as floating point (1e3, 4.0) becomes an integer. The integer fields
// are known from what the writer makes of default objects. Floating-point fields are left as they are.
// Pure.
#include <nlohmann/json.hpp>
#include <string>

namespace podperf {

// Refuses or normalizes the integer fields of `j` and of everything under it, in place. Returns "" when every
// number is usable, else "<where>: <value> is out of range" for the first that is not (`where` names
// `j`: "" for the top, "pairs[3]"; the keys and indices below it are appended: "pairs[3].size_bytes").
std::string normalize_json_numbers(nlohmann::json& j, const std::string& where);

}  // namespace podperf

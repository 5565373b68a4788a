#pragma once
// Slurm hostlist expressions: "node[01-16,20],gpu-[1-2]" -> node01 ... node16, node20, gpu-1, gpu-2.
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

// Expands a comma list of host names and bracket ranges, in order. Zero padding follows the range's
// first bound ("[08-10]" -> 08, 09, 10). Several bracket groups in one name multiply out
// ("r[1-2]n[1-2]" -> r1n1, r1n2, r2n1, r2n2). Throws InputError saying what is wrong (an unclosed
// bracket, a reversed range, a non-number, an empty name); the caller adds where.
std::vector<std::string> expand_hostlist(std::string_view expression);

}  // namespace podperf
